/* The grid of cells (multi-box pruning) against brute force: proxies crossing cell borders (one
   at a time and all at once), proxies spanning many cells, huge proxies, a world drifting out of
   its grid, a long random run with motion across cells, swinging chains (moved, not regridded)
   and a mass teleport (regridded). After every update the pair set equals the O(n^2) overlap
   set, the events replay to it, every record's shared count equals the number of cells the two
   proxies share while they overlap on the sweep axis, and outside_count counts the dynamics
   whose centre lies outside the grid. */
#include "broadphase/internal.h"
#include "broadphase/oracle.h"
#include "core/hash_set.h"

#include <math.h>
#include <string.h>

enum { MAX_BODIES = 600 };

typedef struct cell_world {
    broadphase bp;
    oracle_body bodies[MAX_BODIES];
    vec3s centre[MAX_BODIES], half[MAX_BODIES], velocity[MAX_BODIES];
    int32_t first_cell[MAX_BODIES][2]; /* cell_lo after the first update, to see crossings */
    int n;
    uint32_t next_body;
    uint64_t rng;
    hash_set replay;
    int crossings; /* proxies whose cell rectangle differs from where they started */
    int rebuilds;
} cell_world;

static cairn_aabb box_of(const cell_world *w, int i)
{
    return (cairn_aabb){glms_vec3_sub(w->centre[i], w->half[i]),
                        glms_vec3_add(w->centre[i], w->half[i])};
}

static void add(cell_world *w, vec3s centre, vec3s half, bool is_static)
{
    cr_assert(w->n < MAX_BODIES);
    int i = w->n++;
    w->centre[i] = centre;
    w->half[i] = half;
    w->velocity[i] = (vec3s){{0, 0, 0}};
    oracle_body *b = &w->bodies[i];
    b->body = w->next_body;
    w->next_body += 3; /* body index != proxy id, never reused */
    b->layer = 1;
    b->mask = ~0u;
    b->is_static = is_static;
    b->proxy = broadphase_create_proxy(&w->bp, box_of(w, i), b->body, 1, ~0u, is_static);
    cr_assert(b->proxy >= 0, "%s", cairn_last_error());
    w->first_cell[i][0] = w->first_cell[i][1] = -1;
}

static void remove_at(cell_world *w, int i)
{
    broadphase_destroy_proxy(&w->bp, w->bodies[i].proxy);
    w->n--;
    w->bodies[i] = w->bodies[w->n];
    w->centre[i] = w->centre[w->n];
    w->half[i] = w->half[w->n];
    w->velocity[i] = w->velocity[w->n];
    memcpy(w->first_cell[i], w->first_cell[w->n], sizeof w->first_cell[i]);
}

static vec3s random_in(cell_world *w, vec3s lo, vec3s hi)
{
    return (vec3s){{oracle_uniform(&w->rng, lo.x, hi.x), oracle_uniform(&w->rng, lo.y, hi.y),
                    oracle_uniform(&w->rng, lo.z, hi.z)}};
}

/* Closed overlap of two intervals. */
static bool meet(float a_lo, float a_hi, float b_lo, float b_hi)
{
    return a_lo <= b_hi && b_lo <= a_hi;
}

/* The shared count each dynamic record must hold, from the proxies' cell rectangles and sweep
   intervals alone (not from the cells' contents). */
static void check_shared(const cell_world *w)
{
    const broadphase *bp = &w->bp;
    for (int r = 0; r < bp->records.count; r++) {
        const bp_record *rec = &bp->records.data[r];
        if (rec->proxy[0] == UINT32_MAX)
            continue; /* free */
        const bp_proxy *p = &bp->proxies.data[rec->proxy[0]], *q = &bp->proxies.data[rec->proxy[1]];
        if ((p->flags | q->flags) & BP_STATIC) /* found by the tree: no count */
            continue;
        int cells = 0;
        if (meet(p->in_lo, p->in_hi, q->in_lo, q->in_hi)) {
            int32_t wi = (p->cell_hi[0] < q->cell_hi[0] ? p->cell_hi[0] : q->cell_hi[0]) -
                         (p->cell_lo[0] > q->cell_lo[0] ? p->cell_lo[0] : q->cell_lo[0]) + 1;
            int32_t wj = (p->cell_hi[1] < q->cell_hi[1] ? p->cell_hi[1] : q->cell_hi[1]) -
                         (p->cell_lo[1] > q->cell_lo[1] ? p->cell_lo[1] : q->cell_lo[1]) + 1;
            cells = wi > 0 && wj > 0 ? wi * wj : 0;
        }
        cr_assert_eq(rec->shared, cells, "record %d: shared %d, expected %d", r, rec->shared,
                     cells);
    }
}

/* outside_count counts the dynamics whose centre lies outside the grid (it triggers regrids),
   also when a move keeps the proxy's cells (clamped to the grid's edge) and skips their walk. */
static void check_outside(const cell_world *w)
{
    const broadphase *bp = &w->bp;
    int outside = 0;
    for (int i = 0; i < w->n; i++) {
        const bp_proxy *p = &bp->proxies.data[w->bodies[i].proxy];
        if (w->bodies[i].is_static || (p->flags & BP_CREATED))
            continue;
        bool out = false;
        for (int k = 0; k < 2; k++) {
            int a = bp->grid_axis[k];
            float c = 0.5f * (p->min[a] + p->max[a]);
            float end = bp->grid_origin[k] + (bp->cell_inv[k] > 0 ? bp->g[k] / bp->cell_inv[k] : 0);
            out = out || c < bp->grid_origin[k] || c > end;
        }
        outside += out;
    }
    cr_assert_eq(bp->outside_count, outside, "outside_count %d, expected %d", bp->outside_count,
                 outside);
}

static void check(cell_world *w)
{
    uint64_t *keys;
    int count = oracle_pairs(&w->bp, w->bodies, w->n, &keys);
    oracle_check_set(&w->bp, keys, count);
    int added_count, removed_count;
    const broadphase_pair *added = broadphase_added(&w->bp, &added_count);
    const broadphase_pair *removed = broadphase_removed(&w->bp, &removed_count);
    for (int k = 0; k < removed_count; k++)
        cr_assert(hash_set_remove(&w->replay, pair_key(removed[k].a, removed[k].b)));
    for (int k = 0; k < added_count; k++)
        cr_assert(hash_set_add(&w->replay, pair_key(added[k].a, added[k].b)));
    cr_assert_eq(hash_set_count(&w->replay), count);
    for (int k = 0; k < count; k++)
        cr_assert(hash_set_contains(&w->replay, keys[k]));
    free(keys);
    check_shared(w);
    check_outside(w);
}

static void update(cell_world *w)
{
    cr_assert(broadphase_update_pairs(&w->bp), "%s", cairn_last_error());
    w->rebuilds += w->bp.last_rebuilt;
    for (int i = 0; i < w->n; i++) {
        if (w->bodies[i].is_static)
            continue;
        const bp_proxy *p = &w->bp.proxies.data[w->bodies[i].proxy];
        if (w->first_cell[i][0] < 0) {
            memcpy(w->first_cell[i], p->cell_lo, sizeof w->first_cell[i]);
        } else if (w->first_cell[i][0] != p->cell_lo[0] || w->first_cell[i][1] != p->cell_lo[1]) {
            w->crossings++;
            memcpy(w->first_cell[i], p->cell_lo, sizeof w->first_cell[i]);
        }
    }
    check(w);
}

/* Moves the dynamic bodies by their velocity; only_every > 1 moves one body in that many. */
static void advance(cell_world *w, float dt, int only_every, int step)
{
    for (int i = 0; i < w->n; i++) {
        if (w->bodies[i].is_static || (only_every > 1 && (i + step) % only_every != 0))
            continue;
        vec3s d = glms_vec3_scale(w->velocity[i], dt);
        w->centre[i] = glms_vec3_add(w->centre[i], d);
        (void)broadphase_move_proxy(&w->bp, w->bodies[i].proxy, box_of(w, i), d);
    }
}

static void start(cell_world *w, uint64_t seed)
{
    memset(w, 0, sizeof *w);
    w->rng = seed;
    w->next_body = 1;
    cr_assert(broadphase_init(&w->bp, MAX_BODIES));
    cr_assert(hash_set_init(&w->replay, 0));
}

static void finish(cell_world *w)
{
    while (w->n > 0)
        remove_at(w, w->n - 1);
    update(w);
    cr_assert_eq(broadphase_pair_count(&w->bp), 0);
    broadphase_destroy(&w->bp);
    hash_set_destroy(&w->replay);
}

/* Small boxes in a wide world, marching sideways across many cell borders: every update moves
   all of them (the batch path) or one in seven (one proxy at a time). */
static void border_crossing(int only_every)
{
    cell_world *w = malloc(sizeof *w);
    start(w, 0x51ed + (uint64_t)only_every);
    for (int i = 0; i < 400; i++) {
        add(w, random_in(w, (vec3s){{0, 0, 0}}, (vec3s){{40, 8, 40}}), (vec3s){{0.4f, 0.4f, 0.4f}},
            i % 10 == 0);
        w->velocity[w->n - 1] = random_in(w, (vec3s){{-6, -1, -6}}, (vec3s){{6, 1, 6}});
    }
    update(w);
    cr_assert(w->bp.g[0] * w->bp.g[1] >= 64, "grid %d x %d", w->bp.g[0], w->bp.g[1]);
    for (int s = 0; s < 150; s++) {
        advance(w, 1.0f / 30.0f, only_every, s);
        update(w);
    }
    cr_assert(w->crossings > 200, "only %d border crossings", w->crossings);
    finish(w);
    free(w);
}

Test(broadphase_cells, border_crossing_all_moving)
{
    border_crossing(1);
}

Test(broadphase_cells, border_crossing_one_at_a_time)
{
    border_crossing(7);
}

/* Long dynamic slabs and poles spanning many cells, moving among small boxes. */
Test(broadphase_cells, proxies_spanning_many_cells)
{
    cell_world *w = malloc(sizeof *w);
    start(w, 0xa11);
    for (int i = 0; i < 300; i++)
        add(w, random_in(w, (vec3s){{0, 0, 0}}, (vec3s){{30, 30, 30}}), (vec3s){{0.3f, 0.3f, 0.3f}},
            false);
    for (int i = 0; i < 12; i++) {
        vec3s half = i % 2 ? (vec3s){{9, 0.5f, 0.5f}} : (vec3s){{6, 0.5f, 6}};
        add(w, random_in(w, (vec3s){{0, 0, 0}}, (vec3s){{30, 30, 30}}), half, false);
    }
    for (int i = 0; i < w->n; i++)
        w->velocity[i] = random_in(w, (vec3s){{-3, -3, -3}}, (vec3s){{3, 3, 3}});
    update(w);
    int widest = 0;
    for (int i = 300; i < w->n; i++) {
        const bp_proxy *p = &w->bp.proxies.data[w->bodies[i].proxy];
        int cells = (p->cell_hi[0] - p->cell_lo[0] + 1) * (p->cell_hi[1] - p->cell_lo[1] + 1);
        widest = cells > widest ? cells : widest;
    }
    cr_assert(widest >= 16, "the widest proxy covers only %d cells", widest);
    for (int s = 0; s < 200; s++) {
        advance(w, 1.0f / 30.0f, s % 3 ? 1 : 5, s);
        update(w);
    }
    finish(w);
    free(w);
}

/* Dynamic proxies larger than the whole world (in every cell), moved and teleported, plus one
   created and one destroyed now and then. */
Test(broadphase_cells, huge_proxies)
{
    cell_world *w = malloc(sizeof *w);
    start(w, 0xb16);
    for (int i = 0; i < 250; i++)
        add(w, random_in(w, (vec3s){{0, 0, 0}}, (vec3s){{25, 25, 25}}), (vec3s){{0.4f, 0.4f, 0.4f}},
            i % 8 == 0);
    for (int i = 0; i < 3; i++)
        add(w, (vec3s){{12, 12, 12}}, (vec3s){{40, 40, 40}}, false);
    for (int i = 0; i < w->n; i++)
        w->velocity[i] = random_in(w, (vec3s){{-2, -2, -2}}, (vec3s){{2, 2, 2}});
    update(w);
    const bp_proxy *huge = &w->bp.proxies.data[w->bodies[w->n - 1].proxy];
    cr_assert_eq(huge->cell_hi[0] - huge->cell_lo[0] + 1, w->bp.g[0]);
    cr_assert_eq(huge->cell_hi[1] - huge->cell_lo[1] + 1, w->bp.g[1]);
    for (int s = 0; s < 150; s++) {
        advance(w, 1.0f / 30.0f, 1, s);
        if (s % 10 == 5) { /* teleport a huge one far off and back */
            int i = 250 + s % 3;
            w->centre[i] = random_in(w, (vec3s){{-30, -30, -30}}, (vec3s){{50, 50, 50}});
            cr_assert(broadphase_set_fat_aabb(&w->bp, w->bodies[i].proxy, box_of(w, i)));
        }
        if (s % 25 == 0) {
            add(w, (vec3s){{12, 12, 12}}, (vec3s){{30, 30, 30}}, false);
            remove_at(w, 0);
        }
        update(w);
    }
    finish(w);
    free(w);
}

/* count dynamic 0.8 m cubes in a 20 m cube, with velocities drawn in [lo, hi]. */
static void add_falling(cell_world *w, int count, vec3s lo, vec3s hi)
{
    for (int i = 0; i < count; i++) {
        add(w, random_in(w, (vec3s){{0, 0, 0}}, (vec3s){{20, 20, 20}}), (vec3s){{0.4f, 0.4f, 0.4f}},
            false);
        w->velocity[w->n - 1] = random_in(w, lo, hi);
    }
}

/* Everything falls far out of the grid it was built for: the structure regrids (rebuilds) and
   stays exact meanwhile. */
Test(broadphase_cells, world_drifting_out_of_its_grid)
{
    cell_world *w = malloc(sizeof *w);
    start(w, 0xd41f7);
    add_falling(w, 300, (vec3s){{-0.5f, -11, 9}}, (vec3s){{0.5f, -9, 11}});
    update(w);
    int rebuilds_before = w->rebuilds;
    for (int s = 0; s < 240; s++) {
        advance(w, 1.0f / 60.0f, 1, s);
        update(w);
    }
    cr_assert(w->rebuilds > rebuilds_before, "never regridded");
    finish(w);
    free(w);
}

/* A long random run: fast motion across cells, speed changes, teleports, creates and destroys,
   single moves and batches. */
Test(broadphase_cells, long_random_run_across_cells)
{
    cell_world *w = malloc(sizeof *w);
    start(w, 0x10f6);
    vec3s lo = {{0, 0, 0}}, hi = {{50, 12, 50}};
    for (int i = 0; i < 350; i++) {
        float h = oracle_uniform(&w->rng, 0, 1.5f);
        add(w, random_in(w, lo, hi), (vec3s){{h, h * 0.7f, h * 1.2f}}, i % 12 == 0);
        w->velocity[i] = random_in(w, (vec3s){{-8, -2, -8}}, (vec3s){{8, 2, 8}});
    }
    update(w);
    for (int s = 0; s < 1000; s++) {
        if (s % 50 == 0)
            for (int i = 0; i < w->n; i++)
                w->velocity[i] = random_in(w, (vec3s){{-8, -2, -8}}, (vec3s){{8, 2, 8}});
        advance(w, 1.0f / 30.0f, (s / 100) % 2 ? 9 : 1, s);
        for (int k = 0; k < 2 && w->n > 0; k++) {
            int i = (int)(oracle_random(&w->rng) % (uint64_t)w->n);
            if (w->bodies[i].is_static)
                continue;
            w->centre[i] = random_in(w, lo, hi);
            cr_assert(broadphase_set_fat_aabb(&w->bp, w->bodies[i].proxy, box_of(w, i)));
        }
        if (oracle_random(&w->rng) % 3 == 0 && w->n > 200)
            remove_at(w, (int)(oracle_random(&w->rng) % (uint64_t)w->n));
        if (oracle_random(&w->rng) % 3 == 0 && w->n < 500) {
            float h = oracle_uniform(&w->rng, 0, 1.5f);
            add(w, random_in(w, lo, hi), (vec3s){{h, h, h}}, false);
            w->velocity[w->n - 1] = random_in(w, (vec3s){{-8, -2, -8}}, (vec3s){{8, 2, 8}});
        }
        update(w);
    }
    cr_assert(w->crossings > 1000, "only %d border crossings", w->crossings);
    finish(w);
    free(w);
}

/* A rain that keeps falling spreads out along its fall far beyond its width: the structure
   sweeps along the fall (columns across it keep their population) and keeps its grid, instead of
   regridding as the bodies leave a grid laid along the fall. */
Test(broadphase_cells, a_long_rain_sweeps_along_its_fall)
{
    cell_world *w = malloc(sizeof *w);
    start(w, 0x7a1d);
    add_falling(w, 500, (vec3s){{-0.5f, -11, -0.5f}}, (vec3s){{0.5f, -9, 0.5f}});
    update(w);
    int rebuilds_before = w->rebuilds;
    for (int s = 0; s < 900; s++) { /* 15 s: the rain spreads over 50 m of height */
        advance(w, 1.0f / 60.0f, 1, s);
        update(w);
    }
    cr_assert_eq(w->bp.sweep_axis, 1);
    cr_assert_leq(w->rebuilds - rebuilds_before, 2, "%d regrids", w->rebuilds - rebuilds_before);
    finish(w);
    free(w);
}

/* Chains swinging side by side, each link a small box on a pendulum a few cells long: more than a
   quarter of the links cross a cell border in many updates, but each shifts by a cell in a grid
   that still fits, so the structure moves them instead of regridding (it regridded at almost
   every such update, at twice the cost: bench_joints' chains). */
Test(broadphase_cells, swinging_chains_shift_across_borders_without_regrids)
{
    enum { CHAINS = 12, LINKS = 20 };
    const float dt = 1.0f / 60.0f, link = 0.5f;
    cell_world *w = malloc(sizeof *w);
    start(w, 0x5e1f);
    vec3s pivot[CHAINS];
    for (int c = 0; c < CHAINS; c++) {
        pivot[c] = (vec3s){{2.0f * (float)(c % 4), 10, 0.6f * (float)(c / 4)}};
        for (int l = 0; l < LINKS; l++)
            add(w, glms_vec3_add(pivot[c], (vec3s){{0, -link * ((float)l + 0.5f), 0}}),
                (vec3s){{0.1f, 0.25f, 0.1f}}, false);
    }
    update(w);
    int rebuilds_before = w->rebuilds, busy = 0;
    for (int s = 1; s <= 300; s++) {
        for (int i = 0; i < w->n; i++) { /* the velocity that lands the link on its pendulum */
            int c = i / LINKS, l = i % LINKS;
            float angle = 1.0f * sinf(4.0f * (float)s * dt + (float)c);
            float r = link * ((float)l + 0.5f);
            vec3s at = glms_vec3_add(pivot[c], (vec3s){{r * sinf(angle), -r * cosf(angle), 0}});
            w->velocity[i] = glms_vec3_scale(glms_vec3_sub(at, w->centre[i]), 1 / dt);
        }
        int crossings_before = w->crossings;
        advance(w, dt, 1, s);
        update(w);
        busy += (w->crossings - crossings_before) * 4 > w->n;
    }
    cr_assert_geq(busy, 50, "only %d updates with a quarter of the links crossing borders", busy);
    cr_assert_leq(w->rebuilds - rebuilds_before, 2, "%d regrids", w->rebuilds - rebuilds_before);
    finish(w);
    free(w);
}

/* Every proxy teleported at once leaves all its cells and records: one regrid sorts them in
   (cheaper than moving each), and the pair set stays exact. */
Test(broadphase_cells, a_mass_teleport_regrids)
{
    cell_world *w = malloc(sizeof *w);
    start(w, 0x7e1e);
    vec3s lo = {{0, 0, 0}}, hi = {{20, 20, 20}};
    for (int i = 0; i < 300; i++)
        add(w, random_in(w, lo, hi), (vec3s){{0.4f, 0.4f, 0.4f}}, false);
    update(w);
    for (int s = 0; s < 3; s++) {
        for (int i = 0; i < w->n; i++) {
            w->centre[i] = random_in(w, lo, hi);
            cr_assert(broadphase_set_fat_aabb(&w->bp, w->bodies[i].proxy, box_of(w, i)));
        }
        update(w);
        cr_assert(w->bp.last_rebuilt, "teleport %d did not regrid", s);
    }
    finish(w);
    free(w);
}
