/* Broadphase edge cases: touching and identical boxes, zero extent, huge bodies, invalid bounds,
   re-fattening rules, filtering, static-static exclusion, destroy and id reuse. */
#include "broadphase/oracle.h"
#include "core/alloc.h"

#include <math.h>
#include <string.h>

static cairn_aabb box(float x0, float y0, float z0, float x1, float y1, float z1)
{
    return (cairn_aabb){{{x0, y0, z0}}, {{x1, y1, z1}}};
}

/* Creates a proxy whose fat AABB is exactly fat. */
static int exact(broadphase *bp, cairn_aabb fat, uint32_t body, bool is_static)
{
    int p = broadphase_create_proxy(bp, fat, body, 1, ~0u, is_static);
    cr_assert(p >= 0);
    cr_assert(broadphase_set_fat_aabb(bp, p, fat));
    return p;
}

static void update(broadphase *bp)
{
    cr_assert(broadphase_update_pairs(bp), "%s", cairn_last_error());
}

Test(broadphase_edges, touching_boxes_overlap_on_every_axis)
{
    for (int axis = 0; axis < 3; axis++) {
        broadphase bp;
        cr_assert(broadphase_init(&bp, 0));
        cairn_aabb a = box(0, 0, 0, 1, 1, 1), b = a, c = a;
        b.min.raw[axis] = 1, b.max.raw[axis] = 2;       /* shares the face at 1 */
        c.min.raw[axis] = 2.0001f, c.max.raw[axis] = 3; /* just apart from b */
        exact(&bp, a, 10, false);
        exact(&bp, b, 11, false);
        exact(&bp, c, 12, false);
        update(&bp);
        cr_assert(broadphase_pair_exists(&bp, 10, 11));
        cr_assert(!broadphase_pair_exists(&bp, 11, 12));
        cr_assert(!broadphase_pair_exists(&bp, 10, 12));
        cr_assert_eq(broadphase_pair_count(&bp), 1);
        broadphase_destroy(&bp);
    }
}

Test(broadphase_edges, touching_after_incremental_moves)
{
    broadphase bp;
    cr_assert(broadphase_init(&bp, 0));
    int p = exact(&bp, box(0, 0, 0, 1, 1, 1), 1, false);
    exact(&bp, box(3, 0, 0, 4, 1, 1), 2, false);
    update(&bp);
    cr_assert_eq(broadphase_pair_count(&bp), 0);
    /* slide right until the max endpoint equals the other's min: touching counts */
    cr_assert(broadphase_set_fat_aabb(&bp, p, box(2, 0, 0, 3, 1, 1)));
    update(&bp);
    cr_assert(broadphase_pair_exists(&bp, 1, 2));
    int n;
    cr_assert_eq(broadphase_added(&bp, &n)[0].a, 1);
    cr_assert_eq(n, 1);
    /* back off by one ulp: apart */
    cr_assert(broadphase_set_fat_aabb(&bp, p, box(2, 0, 0, nextafterf(3, 0), 1, 1)));
    update(&bp);
    cr_assert(!broadphase_pair_exists(&bp, 1, 2));
    broadphase_removed(&bp, &n);
    cr_assert_eq(n, 1);
    /* jump over the other completely in one update: no pair, no events */
    cr_assert(broadphase_set_fat_aabb(&bp, p, box(5, 0, 0, 6, 1, 1)));
    update(&bp);
    broadphase_added(&bp, &n);
    cr_assert_eq(n, 0);
    broadphase_removed(&bp, &n);
    cr_assert_eq(n, 0);
    broadphase_destroy(&bp);
}

Test(broadphase_edges, identical_and_zero_extent_boxes)
{
    broadphase bp;
    cr_assert(broadphase_init(&bp, 0));
    for (uint32_t i = 0; i < 5; i++)
        exact(&bp, box(1, 1, 1, 1, 1, 1), 100 + i, false); /* five points at the same place */
    exact(&bp, box(1, 1, 1, 2, 2, 2), 200, false);         /* its corner is that point */
    exact(&bp, box(1.5f, 1.5f, 1.5f, 1.5f, 1.5f, 1.5f), 201, false);
    update(&bp);
    /* 6 choose 2 among the point and the cube, plus cube-201 */
    cr_assert_eq(broadphase_pair_count(&bp), 15 + 1);
    cr_assert(broadphase_pair_exists(&bp, 100, 104));
    cr_assert(broadphase_pair_exists(&bp, 103, 200));
    cr_assert(broadphase_pair_exists(&bp, 200, 201));
    cr_assert(!broadphase_pair_exists(&bp, 100, 201));
    broadphase_destroy(&bp);
}

Test(broadphase_edges, huge_bodies_pair_with_everything_in_reach)
{
    broadphase bp;
    cr_assert(broadphase_init(&bp, 0));
    exact(&bp, box(-1e6f, -1, -1e6f, 1e6f, 0, 1e6f), 0, true);              /* ground */
    exact(&bp, box(-1e30f, -1e30f, -1e30f, 1e30f, 1e30f, 1e30f), 1, false); /* everything */
    for (uint32_t i = 0; i < 50; i++)
        exact(&bp, box((float)i, 0, 0, (float)i + 0.5f, 1, 1), 10 + i, false);
    update(&bp);
    cr_assert_eq(broadphase_pair_count(&bp), 50 + 50 + 1);
    uint32_t out[200];
    /* the everything box and box 10; the ground is below */
    cr_assert_eq(broadphase_query_aabb(&bp, box(10, 0.5f, 0, 10.2f, 0.6f, 0), out, 200), 2);
    broadphase_destroy(&bp);
}

Test(broadphase_edges, invalid_bounds_are_rejected_and_change_nothing)
{
    broadphase bp;
    cr_assert(broadphase_init(&bp, 0));
    float nan = nanf("");
    cairn_clear_error();
    cr_assert_eq(broadphase_create_proxy(&bp, box(0, nan, 0, 1, 1, 1), 1, 1, 1, false), -1);
    cr_assert(strstr(cairn_last_error(), "not finite") != NULL, "%s", cairn_last_error());
    cr_assert_eq(broadphase_create_proxy(&bp, box(0, 0, 0, 1, INFINITY, 1), 1, 1, 1, false), -1);
    cr_assert_eq(broadphase_create_proxy(&bp, box(0, 0, 2, 1, 1, 1), 1, 1, 1, false), -1);
    cr_assert(strstr(cairn_last_error(), "min > max") != NULL, "%s", cairn_last_error());
    cr_assert_eq(broadphase_proxy_count(&bp), 0);

    int p = broadphase_create_proxy(&bp, box(0, 0, 0, 1, 1, 1), 1, 1, ~0u, false);
    update(&bp);
    cairn_aabb before = broadphase_fat_aabb(&bp, p);
    cairn_clear_error();
    cr_assert(!broadphase_move_proxy(&bp, p, box(nan, 0, 0, 5, 1, 1), (vec3s){{0, 0, 0}}));
    cr_assert(strstr(cairn_last_error(), "not finite") != NULL);
    cairn_clear_error();
    cr_assert(!broadphase_move_proxy(&bp, p, box(3, 0, 0, 5, 1, 1), (vec3s){{0, nan, 0}}));
    cr_assert(strstr(cairn_last_error(), "displacement") != NULL);
    cr_assert(!broadphase_set_fat_aabb(&bp, p, box(0, 0, 0, nan, 1, 1)));
    cr_assert(!broadphase_move_proxy(&bp, p + 7, box(0, 0, 0, 1, 1, 1), (vec3s){{0, 0, 0}}));
    cairn_aabb after = broadphase_fat_aabb(&bp, p);
    cr_assert(memcmp(&before, &after, sizeof before) == 0);
    cr_assert_eq(bp.moved.count, 0);
    cr_assert_eq(broadphase_query_aabb(&bp, box(0, 0, 0, nan, 1, 1), NULL, 0), 0);
    broadphase_destroy(&bp);
}

Test(broadphase_edges, refatten_only_when_leaving_the_fat_box)
{
    broadphase bp;
    cr_assert(broadphase_init(&bp, 0));
    int p = broadphase_create_proxy(&bp, box(0, 0, 0, 1, 1, 1), 1, 1, ~0u, false);
    cairn_aabb fat = broadphase_fat_aabb(&bp, p);
    cr_assert_float_eq(fat.min.x, -BROADPHASE_MARGIN, 1e-7f);
    cr_assert_float_eq(fat.max.z, 1 + BROADPHASE_MARGIN, 1e-6f);
    update(&bp);
    /* inside the margin, and so is the sweep over the coming step: untouched */
    cr_assert(!broadphase_move_proxy(&bp, p, box(0.05f, 0, -0.05f, 1.05f, 1, 0.95f),
                                     (vec3s){{0.02f, 0, 0.02f}}));
    cr_assert_eq(bp.moved.count, 0);
    /* out: margin plus the displacement ahead of the motion */
    cr_assert(
        broadphase_move_proxy(&bp, p, box(0.5f, 0, 0, 1.5f, 1, 1), (vec3s){{0.3f, 0, -0.2f}}));
    fat = broadphase_fat_aabb(&bp, p);
    cr_assert_float_eq(fat.min.x, 0.5f - BROADPHASE_MARGIN, 1e-6f);
    cr_assert_float_eq(fat.max.x, 1.8f + BROADPHASE_MARGIN, 1e-6f);
    cr_assert_float_eq(fat.min.z, -0.2f - BROADPHASE_MARGIN, 1e-6f);
    cr_assert_float_eq(fat.max.z, 1 + BROADPHASE_MARGIN, 1e-6f);
    /* a second move before the update keeps one entry */
    cr_assert(broadphase_move_proxy(&bp, p, box(5, 0, 0, 6, 1, 1), (vec3s){{0, 0, 0}}));
    cr_assert_eq(bp.moved.count, 1);
    update(&bp);
    broadphase_destroy(&bp);
}

Test(broadphase_edges, statics_filters_and_same_body)
{
    broadphase bp;
    cr_assert(broadphase_init(&bp, 0));
    cairn_aabb u = box(0, 0, 0, 1, 1, 1);
    broadphase_create_proxy(&bp, u, 1, 1, ~0u, true);
    broadphase_create_proxy(&bp, u, 2, 1, ~0u, true);    /* static-static: never */
    broadphase_create_proxy(&bp, u, 3, 2, 1 | 4, false); /* layer 2 wants 1 and 4 */
    broadphase_create_proxy(&bp, u, 4, 4, 2 | 4, false); /* layer 4 wants 2 and 4 */
    broadphase_create_proxy(&bp, u, 5, 4, 1, false);     /* layer 4 wants only 1 */
    broadphase_create_proxy(&bp, u, 6, 1, ~0u, false);
    broadphase_create_proxy(&bp, u, 6, 1, ~0u, false); /* the same body again: no self pair */
    update(&bp);
    cr_assert(!broadphase_pair_exists(&bp, 1, 2));
    cr_assert(broadphase_pair_exists(&bp, 1, 3) && broadphase_pair_exists(&bp, 2, 3));
    cr_assert(broadphase_pair_exists(&bp, 1, 5) && broadphase_pair_exists(&bp, 2, 5));
    cr_assert(broadphase_pair_exists(&bp, 1, 6) && broadphase_pair_exists(&bp, 2, 6));
    cr_assert(broadphase_pair_exists(&bp, 3, 4) && broadphase_pair_exists(&bp, 3, 6));
    cr_assert(broadphase_pair_exists(&bp, 5, 6));
    cr_assert(!broadphase_pair_exists(&bp, 1, 4) && !broadphase_pair_exists(&bp, 2, 4));
    cr_assert(!broadphase_pair_exists(&bp, 4, 5) && !broadphase_pair_exists(&bp, 4, 6));
    cr_assert(!broadphase_pair_exists(&bp, 3, 5) && !broadphase_pair_exists(&bp, 6, 6));
    cr_assert_eq(broadphase_pair_count(&bp), 9);
    broadphase_destroy(&bp);
}

Test(broadphase_edges, destroy_reports_removed_and_ids_are_reused)
{
    broadphase bp;
    cr_assert(broadphase_init(&bp, 0));
    int a = exact(&bp, box(0, 0, 0, 1, 1, 1), 7, false);
    exact(&bp, box(0.5f, 0.5f, 0.5f, 2, 2, 2), 3, false);
    update(&bp);
    int n;
    const broadphase_pair *added = broadphase_added(&bp, &n);
    cr_assert(n == 1 && added[0].a == 3 && added[0].b == 7);
    broadphase_destroy_proxy(&bp, a);
    cr_assert_eq(broadphase_query_aabb(&bp, box(0, 0, 0, 0.2f, 0.2f, 0.2f), NULL, 0), 0);
    cr_assert(broadphase_pair_exists(&bp, 3, 7)); /* until the update */
    update(&bp);
    const broadphase_pair *removed = broadphase_removed(&bp, &n);
    cr_assert(n == 1 && removed[0].a == 3 && removed[0].b == 7);
    cr_assert_eq(broadphase_pair_count(&bp), 0);
    int again = exact(&bp, box(0, 0, 0, 1, 1, 1), 9, false);
    cr_assert_eq(again, a);
    update(&bp);
    cr_assert(broadphase_pair_exists(&bp, 3, 9));
    /* destroy and re-create the same body in one update: the pair stays, no events */
    broadphase_destroy_proxy(&bp, again);
    exact(&bp, box(0, 0, 0, 1, 1, 1), 9, false);
    update(&bp);
    broadphase_added(&bp, &n);
    cr_assert_eq(n, 0);
    broadphase_removed(&bp, &n);
    cr_assert_eq(n, 0);
    cr_assert(broadphase_pair_exists(&bp, 3, 9));
    broadphase_destroy(&bp);
}

Test(broadphase_edges, no_leaks_and_steady_state_allocates_nothing)
{
    size_t start = cairn_allocated_bytes();
    broadphase bp;
    cr_assert(broadphase_init(&bp, 64));
    uint64_t rng = 42;
    int ids[64];
    for (int i = 0; i < 64; i++) {
        float x = oracle_uniform(&rng, 0, 10), z = oracle_uniform(&rng, 0, 10);
        ids[i] =
            broadphase_create_proxy(&bp, box(x, 0, z, x + 1, 1, z + 1), (uint32_t)i, 1, ~0u, false);
    }
    update(&bp);
    size_t bytes = 0;
    for (int s = 0; s < 200; s++) {
        /* oscillate: the same work every period of 20 steps */
        float dx = (s / 10) % 2 ? -0.3f : 0.3f;
        for (int i = 0; i < 64; i++) {
            cairn_aabb f = broadphase_fat_aabb(&bp, ids[i]);
            f.min.x += dx, f.max.x += dx;
            broadphase_set_fat_aabb(&bp, ids[i], f);
        }
        update(&bp);
        if (s == 99)
            bytes = cairn_allocated_bytes();
    }
    cr_assert_eq(cairn_allocated_bytes(), bytes, "the step allocated in steady state");
    broadphase_destroy(&bp);
    cr_assert_eq(cairn_allocated_bytes(), start);
}

/* A fast body still inside its fat box but about to leave it within the step: the swept box is
   what must fit, so it is re-fattened ahead of the motion (else a thin wall is missed). */
Test(broadphase_edges, refatten_when_the_sweep_leaves_the_fat_box)
{
    broadphase bp;
    cr_assert(broadphase_init(&bp, 0));
    int p = broadphase_create_proxy(&bp, box(0, 0, 0, 1, 1, 1), 1, 1, ~0u, false);
    update(&bp);
    cr_assert(broadphase_move_proxy(&bp, p, box(0.05f, 0, 0, 1.05f, 1, 1), (vec3s){{2, 0, 0}}));
    cairn_aabb fat = broadphase_fat_aabb(&bp, p);
    cr_assert_float_eq(fat.min.x, 0.05f - BROADPHASE_MARGIN, 1e-6f);
    cr_assert_float_eq(fat.max.x, 3.05f + BROADPHASE_MARGIN, 1e-6f);
    broadphase_destroy(&bp);
}

Test(broadphase_edges, batch_insert_sorts_once_and_few_inserts_sort_in)
{
    broadphase bp;
    cr_assert(broadphase_init(&bp, 0));
    enum { N = 700 };
    static oracle_body bodies[N];
    uint64_t rng = 7;
    int n = 0;
    /* a scene load (500 bodies), then 5 more, then a batch of 195 more */
    int batches[3] = {500, 5, 195};
    bool rebuilt[3] = {true, false, true};
    for (int b = 0; b < 3; b++) {
        for (int k = 0; k < batches[b]; k++, n++) {
            float x = oracle_uniform(&rng, 0, 20), y = oracle_uniform(&rng, 0, 20),
                  z = oracle_uniform(&rng, 0, 20);
            bool is_static = k % 4 == 0;
            bodies[n] =
                (oracle_body){broadphase_create_proxy(&bp, box(x, y, z, x + 1, y + 1, z + 1),
                                                      (uint32_t)n, 1, ~0u, is_static),
                              (uint32_t)n, 1, ~0u, is_static};
        }
        update(&bp);
        cr_assert_eq(bp.last_rebuilt, rebuilt[b], "batch %d", b);
        uint64_t *keys;
        int count = oracle_pairs(&bp, bodies, n, &keys);
        oracle_check_set(&bp, keys, count);
        free(keys);
    }
    broadphase_destroy(&bp);
}
