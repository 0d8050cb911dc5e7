/* Bodies at rest cost nothing: statics are not in the sorted axes (a moving body never swaps past
   them), an update where nothing moved does no work and allocates nothing, and static churn
   (create, move, destroy among moving bodies) keeps the pair set equal to brute force. Also: the
   ray query allocates nothing for a ray with a normal number of candidates. */
#include "broadphase/oracle.h"
#include "core/alloc.h"

#include <math.h>
#include <stdlib.h>

static cairn_aabb box(float x0, float y0, float z0, float x1, float y1, float z1)
{
    return (cairn_aabb){{{x0, y0, z0}}, {{x1, y1, z1}}};
}

static void update(broadphase *bp)
{
    cr_assert(broadphase_update_pairs(bp), "%s", cairn_last_error());
}

/* Counts allocation calls made through the hooks. */
static int allocations;

static void *counting_alloc(size_t size, void *user)
{
    (void)user;
    allocations++;
    return aligned_alloc(16, (size + 15) / 16 * 16);
}

static void counting_free(void *memory, size_t size, void *user)
{
    (void)size, (void)user;
    free(memory);
}

enum { STATICS = 2000, SLEEPERS = 500 };

/* 2000 statics in a row along x, 500 dynamic sleepers far beyond them on x, one mover. */
static void build_row(broadphase *bp, oracle_body *bodies, int *mover)
{
    cr_assert(broadphase_init(bp, 0));
    int n = 0;
    for (int i = 0; i < STATICS; i++, n++) {
        cairn_aabb b = box((float)i, 0, 0, (float)i + 0.5f, 1, 1);
        bodies[n] = (oracle_body){broadphase_create_proxy(bp, b, (uint32_t)n, 1, ~0u, true),
                                  (uint32_t)n, 1, ~0u, true};
        cr_assert(broadphase_set_fat_aabb(bp, bodies[n].proxy, b));
    }
    for (int i = 0; i < SLEEPERS; i++, n++) {
        float x = 5000.0f + (float)(i % 50), y = (float)(i / 50);
        cairn_aabb b = box(x, y, 0, x + 1, y + 1, 1); /* touching neighbours */
        bodies[n] = (oracle_body){broadphase_create_proxy(bp, b, (uint32_t)n, 1, ~0u, false),
                                  (uint32_t)n, 1, ~0u, false};
        cr_assert(broadphase_set_fat_aabb(bp, bodies[n].proxy, b));
    }
    cairn_aabb b = box(-10, 0, 0, -9.5f, 1, 1);
    bodies[n] = (oracle_body){broadphase_create_proxy(bp, b, (uint32_t)n, 1, ~0u, false),
                              (uint32_t)n, 1, ~0u, false};
    cr_assert(broadphase_set_fat_aabb(bp, bodies[n].proxy, b));
    *mover = n;
    update(bp);
}

static void check_brute_force(const broadphase *bp, const oracle_body *bodies, int n)
{
    uint64_t *keys;
    int count = oracle_pairs(bp, bodies, n, &keys);
    oracle_check_set(bp, keys, count);
    free(keys);
}

Test(broadphase_statics, a_mover_never_swaps_past_statics)
{
    static oracle_body bodies[STATICS + SLEEPERS + 1];
    broadphase bp;
    int mover;
    build_row(&bp, bodies, &mover);
    int n = STATICS + SLEEPERS + 1;
    check_brute_force(&bp, bodies, n);
    /* across the whole row of statics to x = 1000.25: it overlaps static 1000 only. Were the
       statics sorted in, this would pass about 2 * 1000 of their endpoints on x. */
    cr_assert(
        broadphase_set_fat_aabb(&bp, bodies[mover].proxy, box(1000.25f, 0, 0, 1000.75f, 1, 1)));
    update(&bp);
    cr_assert_eq(bp.last_swaps, 0, "%d swaps", bp.last_swaps);
    cr_assert_eq(bp.last_static_queries, 1);
    cr_assert(broadphase_pair_exists(&bp, 1000, (uint32_t)mover));
    check_brute_force(&bp, bodies, n);
    /* and back out, onto a static's shared endpoint (touching counts) */
    cr_assert(broadphase_set_fat_aabb(&bp, bodies[mover].proxy, box(-3, 0, 0, 0, 1, 1)));
    update(&bp);
    cr_assert_eq(bp.last_swaps, 0);
    int added, removed;
    broadphase_added(&bp, &added);
    broadphase_removed(&bp, &removed);
    cr_assert(added == 1 && removed == 1);
    cr_assert(broadphase_pair_exists(&bp, 0, (uint32_t)mover));
    check_brute_force(&bp, bodies, n);
    broadphase_destroy(&bp);
}

Test(broadphase_statics, an_update_where_nothing_moved_does_nothing)
{
    cr_assert(cairn_set_allocator(&(cairn_allocator){counting_alloc, counting_free, NULL}));
    static oracle_body bodies[STATICS + SLEEPERS + 1];
    broadphase bp;
    int mover;
    build_row(&bp, bodies, &mover);
    int pairs = broadphase_pair_count(&bp);
    cr_assert_gt(pairs, 0); /* the sleepers touch their neighbours */
    for (int s = 0; s < 5; s++) {
        int before = allocations;
        update(&bp);
        cr_assert_eq(allocations, before, "an idle update allocated");
        cr_assert_eq(bp.last_swaps, 0);
        cr_assert_eq(bp.last_static_queries, 0);
        cr_assert(!bp.last_rebuilt);
        int added, removed;
        broadphase_added(&bp, &added);
        broadphase_removed(&bp, &removed);
        cr_assert(added == 0 && removed == 0);
        cr_assert_eq(broadphase_pair_count(&bp), pairs);
    }
    /* sleepers that stay inside their fat boxes are no moves either */
    for (int i = STATICS; i < STATICS + SLEEPERS; i++) {
        cairn_aabb fat = broadphase_fat_aabb(&bp, bodies[i].proxy);
        cairn_aabb inside = {glms_vec3_adds(fat.min, 0.01f), glms_vec3_subs(fat.max, 0.01f)};
        cr_assert(!broadphase_move_proxy(&bp, bodies[i].proxy, inside, (vec3s){{0, 0, 0}}));
    }
    update(&bp);
    cr_assert_eq(bp.last_swaps, 0);
    cr_assert_eq(bp.last_static_queries, 0);
    broadphase_destroy(&bp);
    cr_assert_eq(cairn_allocated_bytes(), 0);
}

Test(broadphase_statics, static_create_move_destroy_among_movers)
{
    /* statics appear, teleport and vanish while dynamics move; checked against brute force after
       every update, enough churn to rebuild the static tree from its loose list several times */
    broadphase bp;
    cr_assert(broadphase_init(&bp, 0));
    enum { MAX = 900 };
    static oracle_body bodies[MAX];
    static cairn_aabb fat[MAX];
    uint64_t rng = 0xc0ffeeu;
    int n = 0;
    uint32_t next_body = 1;
    for (int step = 0; step < 300; step++) {
        int creates = step == 0 ? 600 : (int)(oracle_random(&rng) % 12);
        for (int k = 0; k < creates && n < MAX; k++, n++) {
            float x = oracle_uniform(&rng, 0, 30), y = oracle_uniform(&rng, 0, 30),
                  z = oracle_uniform(&rng, 0, 30), h = oracle_uniform(&rng, 0.1f, 1.5f);
            bool is_static = oracle_uniform(&rng, 0, 1) < 0.8f;
            uint32_t layer = 1u << (oracle_random(&rng) % 2);
            uint32_t mask = oracle_random(&rng) % 8 == 0 ? 1u : ~0u;
            fat[n] = box(x - h, y - h, z - h, x + h, y + h, z + h);
            bodies[n] = (oracle_body){
                broadphase_create_proxy(&bp, fat[n], next_body, layer, mask, is_static), next_body,
                layer, mask, is_static};
            next_body += 2;
            cr_assert(bodies[n].proxy >= 0);
        }
        for (int i = 0; i < n; i++) {
            bool is_static = bodies[i].is_static;
            bool move = is_static ? oracle_random(&rng) % 100 == 0 : oracle_random(&rng) % 2 == 0;
            if (!move)
                continue;
            float d = is_static ? oracle_uniform(&rng, -8, 8) : oracle_uniform(&rng, -0.4f, 0.4f);
            int a = (int)(oracle_random(&rng) % 3);
            fat[i].min.raw[a] += d, fat[i].max.raw[a] += d;
            cr_assert(broadphase_set_fat_aabb(&bp, bodies[i].proxy, fat[i]));
        }
        int removes = (int)(oracle_random(&rng) % 10);
        for (int k = 0; k < removes && n > 0; k++) {
            int i = (int)(oracle_random(&rng) % (uint64_t)n);
            broadphase_destroy_proxy(&bp, bodies[i].proxy);
            bodies[i] = bodies[--n];
            fat[i] = fat[n];
        }
        update(&bp);
        check_brute_force(&bp, bodies, n);
    }
    broadphase_destroy(&bp);
}

static float count_hit(void *context, uint32_t body, float t)
{
    (void)body, (void)t;
    ++*(int *)context;
    return 1.0f;
}

Test(broadphase_statics, ray_query_allocates_nothing_for_a_normal_ray)
{
    cr_assert(cairn_set_allocator(&(cairn_allocator){counting_alloc, counting_free, NULL}));
    broadphase bp;
    cr_assert(broadphase_init(&bp, 0));
    /* 1000 unit boxes in a row along x, every other one static */
    for (int i = 0; i < 1000; i++)
        cr_assert(broadphase_create_proxy(&bp,
                                          box(2.0f * (float)i, 0, 0, 2.0f * (float)i + 1, 1, 1),
                                          (uint32_t)i, 1, ~0u, i % 2 == 0) >= 0);
    update(&bp);
    int before = allocations, hits = 0;
    /* crosses 50 boxes */
    cr_assert_eq(broadphase_query_ray(&bp, (vec3s){{-1, 0.5f, 0.5f}}, (vec3s){{100, 0, 0}},
                                      count_hit, &hits),
                 50);
    cr_assert_eq(hits, 50);
    cr_assert_eq(allocations, before, "the ray query allocated");
    /* crossing all 1000 still works (then it may allocate) and is in order */
    hits = 0;
    cr_assert_eq(broadphase_query_ray(&bp, (vec3s){{-1, 0.5f, 0.5f}}, (vec3s){{2100, 0, 0}},
                                      count_hit, &hits),
                 1000);
    broadphase_destroy(&bp);
    cr_assert_eq(cairn_allocated_bytes(), 0);
}

/* The reach: a dynamic proxy's static records cover every static within its fat AABB grown by
   half its mean side (at least twice the margin), so moves that stay inside skip the tree. */
static float reach_growth_of(cairn_aabb fat)
{
    vec3s side = glms_vec3_sub(fat.max, fat.min);
    return fminf(
        fmaxf(BROADPHASE_STATIC_REACH * (side.x + side.y + side.z) / 3, 2 * BROADPHASE_MARGIN),
        BROADPHASE_STATIC_REACH_MAX);
}

static cairn_aabb shifted(cairn_aabb b, float dx)
{
    b.min.x += dx, b.max.x += dx;
    return b;
}

/* A static appearing at exactly this box, as body *n (counted); returns its body index. */
static uint32_t add_static(broadphase *bp, oracle_body *bodies, int *n, cairn_aabb b)
{
    uint32_t body = (uint32_t)*n;
    bodies[*n] =
        (oracle_body){broadphase_create_proxy(bp, b, body, 1, ~0u, true), body, 1, ~0u, true};
    cr_assert(broadphase_set_fat_aabb(bp, bodies[*n].proxy, b));
    ++*n;
    return body;
}

/* Moves the mover's fat AABB to exactly b and updates; returns the static-tree queries made. */
static int move_to(broadphase *bp, const oracle_body *mover, cairn_aabb b)
{
    cr_assert(broadphase_set_fat_aabb(bp, mover->proxy, b));
    update(bp);
    return bp->last_static_queries;
}

Test(broadphase_statics, a_mover_inside_its_reach_skips_the_tree_and_meets_every_static)
{
    static oracle_body bodies[STATICS + SLEEPERS + 2];
    broadphase bp;
    int mover;
    build_row(&bp, bodies, &mover);
    int n = STATICS + SLEEPERS + 1;
    /* statics i sit at [i, i + 0.5] on x */
    cairn_aabb at = box(1000.25f, 0, 0, 1000.75f, 1, 1);
    cr_assert_eq(move_to(&bp, &bodies[mover], at), 1);
    float growth = reach_growth_of(at); /* 0.42 */
    cr_assert(growth > 0.4f && growth < 0.45f);
    /* 0.4 along x: leaves static 1000, meets static 1001, without a query */
    cr_assert_eq(move_to(&bp, &bodies[mover], shifted(at, 0.4f)), 0);
    cr_assert(broadphase_pair_exists(&bp, 1001, (uint32_t)mover));
    cr_assert(!broadphase_pair_exists(&bp, 1000, (uint32_t)mover));
    check_brute_force(&bp, bodies, n);
    /* a static appearing inside the reach but apart from the fat AABB: no pair yet... */
    uint32_t fresh = add_static(&bp, bodies, &n, box(1000.3f, 1.05f, 0, 1000.7f, 1.3f, 1));
    update(&bp);
    cr_assert(!broadphase_pair_exists(&bp, fresh, (uint32_t)mover));
    check_brute_force(&bp, bodies, n);
    /* ...until the mover reaches it, still without a query: its record came with the static */
    cairn_aabb up = shifted(at, 0.1f);
    up.max.y += 0.1f;
    cr_assert_eq(move_to(&bp, &bodies[mover], up), 0);
    cr_assert(broadphase_pair_exists(&bp, fresh, (uint32_t)mover));
    check_brute_force(&bp, bodies, n);
    /* a face beyond the reach: a new query */
    cr_assert_eq(move_to(&bp, &bodies[mover], shifted(at, 2 * growth)), 1);
    check_brute_force(&bp, bodies, n);
    broadphase_destroy(&bp);
}

Test(broadphase_statics, a_shrinking_mover_renews_its_reach)
{
    /* a fast body's fat AABB is long; when it slows down, the short one sits at one end of the
       old reach, and a static appearing beyond the other end must still be found */
    static oracle_body bodies[STATICS + SLEEPERS + 2];
    broadphase bp;
    int mover;
    build_row(&bp, bodies, &mover);
    int n = STATICS + SLEEPERS + 1;
    cr_assert_eq(move_to(&bp, &bodies[mover], box(500.6f, 0, 0, 503.9f, 1, 1)), 1);
    cr_expect_eq(move_to(&bp, &bodies[mover], box(503.6f, 0, 0, 503.9f, 1, 1)), 1,
                 "the min face moved 3 m: beyond twice the growth");
    check_brute_force(&bp, bodies, n);
    /* a static near the far end of the old reach, out of the short box's search... */
    uint32_t far = add_static(&bp, bodies, &n, box(500.0f, 1.05f, 0, 500.3f, 1.2f, 1));
    update(&bp);
    /* ...is met when the mover gets there */
    move_to(&bp, &bodies[mover], box(500.0f, 0, 0, 500.3f, 1.1f, 1));
    cr_assert(broadphase_pair_exists(&bp, far, (uint32_t)mover));
    check_brute_force(&bp, bodies, n);
    broadphase_destroy(&bp);
}

Test(broadphase_statics, a_huge_mover_reaches_only_so_far)
{
    /* a 60 m long mover: its reach grows by the cap, not by half its side, so a new static's
       search for the reaches it enters stays local; statics beyond the cap are still found */
    static oracle_body bodies[STATICS + SLEEPERS + 3];
    broadphase bp;
    int mover;
    build_row(&bp, bodies, &mover);
    int n = STATICS + SLEEPERS + 1;
    cairn_aabb huge = box(100.25f, 2, 0, 160.75f, 3, 1);
    cr_assert_eq(move_to(&bp, &bodies[mover], huge), 1);
    cr_assert_leq(bp.reach_growth_max, BROADPHASE_STATIC_REACH_MAX);
    uint32_t near = add_static(&bp, bodies, &n, box(130, 3.5f, 0, 131, 4, 1));
    uint32_t far = add_static(&bp, bodies, &n, box(130, 5.5f, 0, 131, 6, 1));
    update(&bp);
    cairn_aabb up = huge;
    up.max.y += 0.9f;
    cr_assert_eq(move_to(&bp, &bodies[mover], up), 0, "0.9 m is within the reach");
    cr_assert(broadphase_pair_exists(&bp, near, (uint32_t)mover));
    check_brute_force(&bp, bodies, n);
    up.max.y += 2.5f;
    cr_assert_eq(move_to(&bp, &bodies[mover], up), 1, "3.4 m is not");
    cr_assert(broadphase_pair_exists(&bp, far, (uint32_t)mover));
    check_brute_force(&bp, bodies, n);
    broadphase_destroy(&bp);
}

Test(broadphase_statics, movers_growing_and_shrinking_among_appearing_statics)
{
    /* random moves, resizes and teleports of movers among statics that keep appearing next to
       them; brute force after every update, and most moves must skip the tree */
    broadphase bp;
    cr_assert(broadphase_init(&bp, 0));
    enum { MOVERS = 40, MAX = 1400 };
    static oracle_body bodies[MAX];
    static cairn_aabb fat[MAX];
    uint64_t rng = 0x5eedu;
    int n = 0;
    for (; n < MOVERS + 400; n++) {
        bool is_static = n >= MOVERS;
        float x = oracle_uniform(&rng, 0, 20), y = oracle_uniform(&rng, 0, 20),
              z = oracle_uniform(&rng, 0, 20), h = oracle_uniform(&rng, 0.2f, 1.0f);
        fat[n] = box(x - h, y - h, z - h, x + h, y + h, z + h);
        bodies[n] =
            (oracle_body){broadphase_create_proxy(&bp, fat[n], (uint32_t)n, 1, ~0u, is_static),
                          (uint32_t)n, 1, ~0u, is_static};
        cr_assert(broadphase_set_fat_aabb(&bp, bodies[n].proxy, fat[n]));
    }
    update(&bp);
    int moves = 0, queries = 0;
    for (int step = 0; step < 400; step++) {
        for (int i = 0; i < MOVERS; i++) {
            if (oracle_random(&rng) % 2)
                continue;
            int kind = (int)(oracle_random(&rng) % 20);
            for (int a = 0; a < 3; a++) {
                float c = 0.5f * (fat[i].min.raw[a] + fat[i].max.raw[a]);
                float h = 0.5f * (fat[i].max.raw[a] - fat[i].min.raw[a]);
                if (kind == 0) /* resize: slowing down or speeding up */
                    h = fminf(fmaxf(h * oracle_uniform(&rng, 0.3f, 3.0f), 0.05f), 3.0f);
                else if (kind == 1) /* teleport */
                    c = oracle_uniform(&rng, 0, 20);
                else
                    c += oracle_uniform(&rng, -0.15f, 0.15f);
                fat[i].min.raw[a] = c - h, fat[i].max.raw[a] = c + h;
            }
            cr_assert(broadphase_set_fat_aabb(&bp, bodies[i].proxy, fat[i]));
            moves++;
        }
        if (step % 4 == 0 && n < MAX) { /* a static right next to a mover */
            const cairn_aabb *m = &fat[oracle_random(&rng) % MOVERS];
            int a = (int)(oracle_random(&rng) % 3);
            float gap = oracle_uniform(&rng, 0, 1.5f), h = oracle_uniform(&rng, 0.05f, 0.5f);
            fat[n] = *m;
            fat[n].min.raw[a] = m->max.raw[a] + gap;
            fat[n].max.raw[a] = m->max.raw[a] + gap + 2 * h;
            bodies[n] =
                (oracle_body){broadphase_create_proxy(&bp, fat[n], (uint32_t)n, 1, ~0u, true),
                              (uint32_t)n, 1, ~0u, true};
            cr_assert(broadphase_set_fat_aabb(&bp, bodies[n].proxy, fat[n]));
            n++;
        }
        update(&bp);
        queries += bp.last_static_queries;
        check_brute_force(&bp, bodies, n);
    }
    cr_assert_lt(queries * 2, moves, "%d static queries for %d moves", queries, moves);
    broadphase_destroy(&bp);
}

Test(broadphase_statics, a_new_grid_for_the_movers_keeps_the_static_tree)
{
    /* 3000 statics and 20 movers starting in a 2 m cluster, then spreading over 60 m: the grid
       fitted to the cluster goes stale and is rebuilt, the static tree is not */
    broadphase bp;
    cr_assert(broadphase_init(&bp, 0));
    enum { MOVERS = 20, N = 3020 };
    static oracle_body bodies[N];
    static cairn_aabb fat[N];
    static vec3s velocity[MOVERS];
    uint64_t rng = 0xabcdu;
    for (int i = 0; i < N; i++) {
        bool is_static = i >= MOVERS;
        float span = is_static ? 60.0f : 2.0f, h = oracle_uniform(&rng, 0.1f, 0.4f);
        float x = oracle_uniform(&rng, 0, span), y = oracle_uniform(&rng, 0, span),
              z = oracle_uniform(&rng, 0, span);
        fat[i] = box(x - h, y - h, z - h, x + h, y + h, z + h);
        bodies[i] =
            (oracle_body){broadphase_create_proxy(&bp, fat[i], (uint32_t)i, 1, ~0u, is_static),
                          (uint32_t)i, 1, ~0u, is_static};
        cr_assert(broadphase_set_fat_aabb(&bp, bodies[i].proxy, fat[i]));
        if (!is_static)
            velocity[i] = (vec3s){{oracle_uniform(&rng, -0.5f, 0.5f), oracle_uniform(&rng, 0, 0.5f),
                                   oracle_uniform(&rng, -0.5f, 0.5f)}};
    }
    update(&bp);
    int builds = bp.static_tree_builds, regrids = 0;
    cr_assert_eq(builds, 1);
    for (int step = 0; step < 300; step++) {
        for (int i = 0; i < MOVERS; i++) {
            fat[i].min = glms_vec3_add(fat[i].min, velocity[i]);
            fat[i].max = glms_vec3_add(fat[i].max, velocity[i]);
            cr_assert(broadphase_set_fat_aabb(&bp, bodies[i].proxy, fat[i]));
        }
        update(&bp);
        regrids += bp.last_rebuilt;
        check_brute_force(&bp, bodies, N);
    }
    cr_assert_gt(regrids, 0, "the grid never went stale");
    cr_assert_eq(bp.static_tree_builds, builds, "a new grid rebuilt the static tree");
    broadphase_destroy(&bp);
}
