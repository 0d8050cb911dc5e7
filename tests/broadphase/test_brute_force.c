/* Randomised equivalence with brute force: random worlds with coherent motion, teleports,
   inserts (single and bulk), removals, statics, huge bodies and layer filters; after every update
   the pair set equals the O(n^2) fat-AABB overlap set and the events replay to it. */
#include "broadphase/oracle.h"
#include "core/hash_set.h"

#include <math.h>
#include <string.h>

typedef struct scenario {
    int bodies, max_bodies, steps;
    vec3s extent; /* world box [0, extent] */
    float size_min, size_max;
    float move_fraction, speed;
    int teleports, inserts, removes; /* per step, at most */
    int burst_every;                 /* every k steps insert/remove a burst of bodies (0: never) */
    float static_fraction;
    int huge;         /* bodies spanning the world */
    bool layers;      /* random layer/mask bits */
    bool lattice;     /* exact fat AABBs on a 0.5 m lattice: shared endpoints everywhere */
    int expect_sweep; /* at the end, 1: the sweep axis is y (the thin one), 2: it is not, 0: any */
    int spread_after; /* from this step teleports spread y over the whole height (0: no) */
} scenario;

typedef struct world {
    broadphase bp;
    oracle_body *bodies;
    vec3s *centre, *half;
    int n;
    uint32_t next_body;
    uint64_t rng;
    hash_set replay;
    const scenario *sc;
    int step;
} world;

static cairn_aabb tight_of(const world *w, int i)
{
    return (cairn_aabb){glms_vec3_sub(w->centre[i], w->half[i]),
                        glms_vec3_add(w->centre[i], w->half[i])};
}

static float snap(float v)
{
    return roundf(v * 2.0f) * 0.5f;
}

/* Lattice mode: the fat AABB itself sits on the lattice, so equal endpoints are common. */
static void set_lattice_fat(world *w, int i)
{
    cairn_aabb box = tight_of(w, i);
    for (int a = 0; a < 3; a++) {
        box.min.raw[a] = snap(box.min.raw[a]);
        box.max.raw[a] = fmaxf(snap(box.max.raw[a]), box.min.raw[a]);
    }
    cr_assert(broadphase_set_fat_aabb(&w->bp, w->bodies[i].proxy, box));
}

static vec3s random_point(world *w)
{
    const scenario *sc = w->sc;
    float ytop = sc->spread_after && w->step >= sc->spread_after ? 8.0f * sc->extent.y + 50.0f
                                                                 : sc->extent.y;
    return (vec3s){{oracle_uniform(&w->rng, 0, sc->extent.x), oracle_uniform(&w->rng, 0, ytop),
                    oracle_uniform(&w->rng, 0, sc->extent.z)}};
}

static void add_body(world *w, bool huge)
{
    cr_assert(w->n < w->sc->max_bodies);
    int i = w->n++;
    const scenario *sc = w->sc;
    w->centre[i] = random_point(w);
    float h = oracle_uniform(&w->rng, sc->size_min, sc->size_max) * 0.5f;
    w->half[i] = (vec3s){{h, h * oracle_uniform(&w->rng, 0.5f, 1.5f), h}};
    if (oracle_random(&w->rng) % 16 == 0)
        w->half[i] = (vec3s){{0, 0, 0}}; /* zero extent */
    if (huge)
        w->half[i] = glms_vec3_scale(sc->extent, 0.6f);
    oracle_body *b = &w->bodies[i];
    b->body = w->next_body;
    w->next_body += 1 + (uint32_t)(oracle_random(&w->rng) % 3); /* body != proxy id */
    b->layer = sc->layers ? 1u << (oracle_random(&w->rng) % 3) : 1u;
    b->mask = sc->layers ? (uint32_t)(oracle_random(&w->rng) % 8) : ~0u;
    b->is_static = huge ? oracle_random(&w->rng) % 2 == 0
                        : oracle_uniform(&w->rng, 0, 1) < sc->static_fraction;
    b->proxy =
        broadphase_create_proxy(&w->bp, tight_of(w, i), b->body, b->layer, b->mask, b->is_static);
    cr_assert(b->proxy >= 0, "%s", cairn_last_error());
    if (sc->lattice)
        set_lattice_fat(w, i);
}

static void remove_body(world *w, int i)
{
    broadphase_destroy_proxy(&w->bp, w->bodies[i].proxy);
    w->n--;
    w->bodies[i] = w->bodies[w->n];
    w->centre[i] = w->centre[w->n];
    w->half[i] = w->half[w->n];
}

static void move_body(world *w, int i, vec3s displacement, bool teleport)
{
    if (teleport)
        w->centre[i] = random_point(w);
    else
        w->centre[i] = glms_vec3_add(w->centre[i], displacement);
    if (w->sc->lattice) {
        set_lattice_fat(w, i);
        return;
    }
    cairn_aabb before = broadphase_fat_aabb(&w->bp, w->bodies[i].proxy);
    bool moved = broadphase_move_proxy(&w->bp, w->bodies[i].proxy, tight_of(w, i), displacement);
    cairn_aabb after = broadphase_fat_aabb(&w->bp, w->bodies[i].proxy);
    if (!moved)
        cr_assert(memcmp(&before, &after, sizeof before) == 0);
    /* the fat AABB always contains the tight one */
    cairn_aabb t = tight_of(w, i);
    for (int a = 0; a < 3; a++)
        cr_assert(after.min.raw[a] <= t.min.raw[a] && t.max.raw[a] <= after.max.raw[a]);
}

static void check_events(world *w)
{
    int added_count, removed_count;
    const broadphase_pair *added = broadphase_added(&w->bp, &added_count);
    const broadphase_pair *removed = broadphase_removed(&w->bp, &removed_count);
    for (int k = 0; k < removed_count; k++) {
        cr_assert(removed[k].a < removed[k].b);
        if (k > 0)
            cr_assert(pair_key(removed[k - 1].a, removed[k - 1].b) <
                          pair_key(removed[k].a, removed[k].b),
                      "removed not sorted");
        cr_assert(hash_set_remove(&w->replay, pair_key(removed[k].a, removed[k].b)),
                  "removed a pair that was not there");
    }
    for (int k = 0; k < added_count; k++) {
        cr_assert(added[k].a < added[k].b);
        if (k > 0)
            cr_assert(pair_key(added[k - 1].a, added[k - 1].b) < pair_key(added[k].a, added[k].b),
                      "added not sorted");
        cr_assert(hash_set_add(&w->replay, pair_key(added[k].a, added[k].b)),
                  "added a pair that was already there");
    }
}

static void check(world *w)
{
    uint64_t *keys;
    int count = oracle_pairs(&w->bp, w->bodies, w->n, &keys);
    oracle_check_set(&w->bp, keys, count);
    check_events(w);
    cr_assert_eq(hash_set_count(&w->replay), count, "replayed %d pairs, brute force %d",
                 hash_set_count(&w->replay), count);
    for (int k = 0; k < count; k++)
        if (!hash_set_contains(&w->replay, keys[k]))
            cr_assert_fail("replay lacks a pair");
    /* iteration visits exactly the set */
    int cursor = 0, seen = 0;
    broadphase_pair pair;
    while (broadphase_pair_next(&w->bp, &cursor, &pair)) {
        if (!(pair.a < pair.b && hash_set_contains(&w->replay, pair_key(pair.a, pair.b))))
            cr_assert_fail("iteration gave a pair not in the set");
        seen++;
    }
    cr_assert_eq(seen, count);
    free(keys);
}

static void step(world *w)
{
    const scenario *sc = w->sc;
    for (int i = 0; i < w->n; i++) {
        if (w->bodies[i].is_static || oracle_uniform(&w->rng, 0, 1) >= sc->move_fraction)
            continue;
        vec3s v = {{oracle_uniform(&w->rng, -1, 1), oracle_uniform(&w->rng, -1, 1),
                    oracle_uniform(&w->rng, -1, 1)}};
        move_body(w, i, glms_vec3_scale(v, sc->speed), false);
    }
    for (int k = 0; k < sc->teleports && w->n > 0; k++)
        move_body(w, (int)(oracle_random(&w->rng) % (uint64_t)w->n), (vec3s){{0, 0, 0}}, true);
    int inserts = sc->inserts ? (int)(oracle_random(&w->rng) % (uint64_t)(sc->inserts + 1)) : 0;
    int removes = sc->removes ? (int)(oracle_random(&w->rng) % (uint64_t)(sc->removes + 1)) : 0;
    if (sc->burst_every && w->step % sc->burst_every == sc->burst_every - 1) {
        if (oracle_random(&w->rng) % 2)
            inserts += 40 + (int)(oracle_random(&w->rng) % 100);
        else
            removes += 40 + (int)(oracle_random(&w->rng) % 100);
    }
    for (int k = 0; k < removes && w->n > 0; k++)
        remove_body(w, (int)(oracle_random(&w->rng) % (uint64_t)w->n));
    for (int k = 0; k < inserts && w->n < sc->max_bodies; k++)
        add_body(w, false);
    cr_assert(broadphase_update_pairs(&w->bp), "%s", cairn_last_error());
    w->step++;
}

static void run(const scenario *sc, uint64_t seed)
{
    world w = {.sc = sc, .rng = seed, .next_body = 5};
    cr_assert(broadphase_init(&w.bp, sc->bodies));
    cr_assert(hash_set_init(&w.replay, 0));
    w.bodies = calloc((size_t)sc->max_bodies, sizeof *w.bodies);
    w.centre = calloc((size_t)sc->max_bodies, sizeof *w.centre);
    w.half = calloc((size_t)sc->max_bodies, sizeof *w.half);
    for (int i = 0; i < sc->huge; i++)
        add_body(&w, true);
    while (w.n < sc->bodies)
        add_body(&w, false);
    cr_assert(broadphase_update_pairs(&w.bp));
    check(&w);
    for (int s = 0; s < sc->steps; s++) {
        step(&w);
        if (getenv("BP_DEBUG"))
            fprintf(stderr, "step %d rebuilt %d sweep %d g %d %d outside %d live %d\n", s,
                    w.bp.last_rebuilt, w.bp.sweep_axis, w.bp.g[0], w.bp.g[1], w.bp.outside_count,
                    w.bp.live_count);
        check(&w);
    }
    /* the thin axis is swept (the flat-world guard), and the choice follows the data */
    if (sc->expect_sweep)
        cr_assert_eq(w.bp.sweep_axis == 1, sc->expect_sweep == 1, "sweep axis %d", w.bp.sweep_axis);
    cr_assert_eq(w.bp.axis_of_slot[0], w.bp.sweep_axis);
    cr_assert(w.bp.g[0] >= 1 && w.bp.g[1] >= 1);
    /* removing everything empties the set */
    while (w.n > 0)
        remove_body(&w, w.n - 1);
    cr_assert(broadphase_update_pairs(&w.bp));
    check(&w);
    cr_assert_eq(broadphase_pair_count(&w.bp), 0);
    broadphase_destroy(&w.bp);
    hash_set_destroy(&w.replay);
    free(w.bodies);
    free(w.centre);
    free(w.half);
}

Test(broadphase_brute_force, volume_coherent_motion_and_churn)
{
    scenario sc = {.bodies = 400,
                   .max_bodies = 700,
                   .steps = 300,
                   .extent = {{30, 30, 30}},
                   .size_min = 0.2f,
                   .size_max = 3.0f,
                   .move_fraction = 0.5f,
                   .speed = 0.3f,
                   .teleports = 3,
                   .inserts = 3,
                   .removes = 3,
                   .burst_every = 50,
                   .static_fraction = 0.2f,
                   .huge = 2};
    run(&sc, 0x1234567u);
}

Test(broadphase_brute_force, flat_world_sweeps_the_thin_axis)
{
    scenario sc = {.bodies = 600,
                   .max_bodies = 900,
                   .steps = 250,
                   .extent = {{60, 1, 60}},
                   .size_min = 0.5f,
                   .size_max = 2.0f,
                   .move_fraction = 0.6f,
                   .speed = 0.4f,
                   .teleports = 4,
                   .inserts = 3,
                   .removes = 3,
                   .burst_every = 60,
                   .static_fraction = 0.1f,
                   .huge = 1,
                   .expect_sweep = 1};
    run(&sc, 0xfeedbeefu);
}

Test(broadphase_brute_force, flat_world_spreading_changes_the_sweep_axis)
{
    scenario sc = {.bodies = 300,
                   .max_bodies = 600,
                   .steps = 300,
                   .extent = {{40, 1, 40}},
                   .size_min = 0.5f,
                   .size_max = 2.0f,
                   .move_fraction = 0.3f,
                   .speed = 0.3f,
                   .teleports = 40,
                   .inserts = 2,
                   .removes = 2,
                   .spread_after = 20,
                   .expect_sweep = 2};
    run(&sc, 0xabcdefu);
}

Test(broadphase_brute_force, lattice_shared_endpoints_and_layers)
{
    scenario sc = {.bodies = 500,
                   .max_bodies = 800,
                   .steps = 300,
                   .extent = {{12, 12, 12}},
                   .size_min = 0.0f,
                   .size_max = 2.0f,
                   .move_fraction = 0.4f,
                   .speed = 0.5f,
                   .teleports = 5,
                   .inserts = 4,
                   .removes = 4,
                   .burst_every = 40,
                   .static_fraction = 0.15f,
                   .layers = true,
                   .lattice = true};
    run(&sc, 0x5eedu);
}

Test(broadphase_brute_force, flat_lattice)
{
    scenario sc = {.bodies = 400,
                   .max_bodies = 700,
                   .steps = 200,
                   .extent = {{20, 0.5f, 20}},
                   .size_min = 0.0f,
                   .size_max = 2.0f,
                   .move_fraction = 0.5f,
                   .speed = 0.5f,
                   .teleports = 5,
                   .inserts = 4,
                   .removes = 4,
                   .burst_every = 45,
                   .static_fraction = 0.15f,
                   .layers = true,
                   .lattice = true,
                   .huge = 1};
    run(&sc, 0x77u);
}

Test(broadphase_brute_force, two_thousand_bodies_fast_motion)
{
    scenario sc = {.bodies = 2000,
                   .max_bodies = 2300,
                   .steps = 200,
                   .extent = {{80, 40, 80}},
                   .size_min = 0.3f,
                   .size_max = 2.5f,
                   .move_fraction = 0.7f,
                   .speed = 1.5f,
                   .teleports = 20,
                   .inserts = 5,
                   .removes = 5,
                   .burst_every = 30,
                   .static_fraction = 0.1f,
                   .huge = 2,
                   .layers = true};
    run(&sc, 0x9999u);
}
