/* World queries (cairn/query.h) against brute-force loops over every body in random worlds of a
   few hundred bodies of every shape type (compounds included), with random layers: ray cast all
   (each body's single-shape ray cast), closest masked ray, overlap by shape (cairn_overlap), by
   box (cairn_shape_bounds) and the world shape cast (cairn_shape_cast per body); bad input. */
#include <stdlib.h>
#include <string.h>

#include "collision/raycast.h"
#include "dynamics/world_state.h"
#include "scene_helpers.h"

enum { BODIES = 300, MAX_IDS = 512 };

static uint64_t rng_state = 0x2545f4914f6cdd1dull;
static float uniform(float lo, float hi)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (float)((rng_state >> 40) & 0xffffff) / (float)0x1000000;
}

static versors random_rotation(void)
{
    return glms_quat_normalize(
        (versors){{uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)}});
}

static vec3s random_point(float extent)
{
    return v3(uniform(-extent, extent), uniform(-extent, extent), uniform(-extent, extent));
}

static cairn_shape *random_shape(int kind)
{
    switch (kind % 6) {
    case 0:
        return cairn_shape_sphere(uniform(0.2f, 0.8f));
    case 1:
        return cairn_shape_box(v3(uniform(0.2f, 1), uniform(0.2f, 1), uniform(0.2f, 1)), 0.02f);
    case 2:
        return cairn_shape_capsule(uniform(0.1f, 0.8f), uniform(0.1f, 0.5f));
    case 3:
        return cairn_shape_cylinder(uniform(0.2f, 0.8f), uniform(0.2f, 0.6f), 0.03f);
    case 4: {
        vec3s points[10];
        for (int i = 0; i < 10; ++i)
            points[i] = random_point(0.7f);
        return cairn_shape_hull(points, 10, 0.01f);
    }
    default: {
        cairn_shape *a = cairn_shape_box(v3(0.6f, 0.15f, 0.15f), 0.02f);
        cairn_shape *b = cairn_shape_sphere(0.3f);
        const cairn_shape *children[2] = {a, b};
        cairn_transform xfs[2] = {{v3(0, 0, 0), glms_quat_identity()},
                                  {v3(0.6f, 0.3f, 0), random_rotation()}};
        cairn_shape *compound = cairn_shape_compound(children, xfs, 2);
        cairn_shape_release(a);
        cairn_shape_release(b);
        return compound;
    }
    }
}

/* Bodies scattered in a 16 m cube, moving a little (so the broadphase has moved proxies), on
   layers 1, 2, 4 or 8 (each body's mask takes every layer, so the pairs do not change). */
static cairn_world *random_world(void)
{
    cairn_world_def def = cairn_world_default_def();
    def.gravity = v3(0, 0, 0);
    cairn_world *world = scene_world(&def);
    for (int i = 0; i < BODIES; ++i) {
        cairn_transform xf = {random_point(8), random_rotation()};
        cairn_body_type type = i % 5 == 0 ? CAIRN_STATIC : CAIRN_DYNAMIC;
        cairn_body_id id = scene_body(world, random_shape(i), type, xf, 1000, 0.5f, 0);
        if (type == CAIRN_DYNAMIC)
            cairn_body_apply_impulse(world, id, glms_vec3_scale(random_point(1), 50.0f),
                                     xf.position);
    }
    scene_step(world, 3);
    cairn_body_id ids[BODIES + 1];
    int count = cairn_world_bodies(world, ids, BODIES + 1);
    for (int i = 0; i < count; ++i)
        cr_assert(cairn_body_set_filter(world, ids[i], 1u << (ids[i].index % 4), 0xFFFFFFFFu));
    return world;
}

static uint32_t layer_of(const cairn_world *world, cairn_body_id id)
{
    return cairn_body_layer(world, id);
}

static int all_bodies(const cairn_world *world, cairn_body_id *ids)
{
    int count = cairn_world_bodies(world, ids, MAX_IDS);
    cr_assert(count <= MAX_IDS);
    return count;
}

static const uint32_t masks[] = {CAIRN_QUERY_ALL, 1u, 6u, 16u};

Test(world_queries, raycast_all_finds_what_brute_force_finds)
{
    cairn_world *world = random_world();
    cairn_body_id ids[MAX_IDS];
    int body_count = all_bodies(world, ids);
    int total_hits = 0;
    for (int ray = 0; ray < 400; ++ray) {
        uint32_t mask = masks[ray % 4];
        vec3s origin = random_point(10), translation = glms_vec3_sub(random_point(10), origin);
        cairn_ray_hit hits[MAX_IDS];
        int count = cairn_world_raycast_all(world, origin, translation, mask, hits, MAX_IDS);
        cr_assert(count >= 0, "%s", cairn_last_error());
        int expected = 0;
        for (int i = 0; i < body_count; ++i) {
            if (!(layer_of(world, ids[i]) & mask))
                continue;
            float fraction;
            vec3s normal;
            if (!shape_raycast(cairn_body_shape(world, ids[i]), cairn_body_transform(world, ids[i]),
                               origin, translation, 1.0f, &fraction, &normal))
                continue;
            expected++;
            bool found = false;
            for (int k = 0; k < count && !found; ++k)
                found = hits[k].body.index == ids[i].index && hits[k].fraction == fraction &&
                        hits[k].body.generation == ids[i].generation;
            cr_expect(found, "ray %d: body %u hit at %g not reported", ray, ids[i].index,
                      (double)fraction);
        }
        cr_expect_eq(count, expected, "ray %d: %d hits, brute force %d", ray, count, expected);
        for (int k = 1; k < count; ++k)
            cr_expect(hits[k - 1].fraction < hits[k].fraction ||
                          (hits[k - 1].fraction == hits[k].fraction &&
                           hits[k - 1].body.index < hits[k].body.index),
                      "ray %d: hits %d and %d out of order", ray, k - 1, k);
        /* A short array keeps the first hits of the full list; the closest ray agrees. */
        cairn_ray_hit few[3];
        cr_expect_eq(cairn_world_raycast_all(world, origin, translation, mask, few, 3), count);
        for (int k = 0; k < 3 && k < count; ++k)
            cr_expect(few[k].body.index == hits[k].body.index &&
                      few[k].fraction == hits[k].fraction);
        cairn_ray_hit closest;
        bool got = cairn_world_raycast_mask(world, origin, translation, mask, &closest);
        cr_expect_eq(got, count > 0, "ray %d: closest %d, all %d", ray, got, count);
        if (got && count > 0)
            cr_expect_eq(closest.fraction, hits[0].fraction, "ray %d", ray);
        total_hits += count;
    }
    cr_expect(total_hits > 80, "only %d hits: the rays should cross many bodies", total_hits);
    cairn_world_destroy(world);
}

static cairn_transform random_pose(void)
{
    return (cairn_transform){random_point(8), random_rotation()};
}

Test(world_queries, overlap_shape_matches_brute_force)
{
    cairn_world *world = random_world();
    cairn_body_id ids[MAX_IDS];
    int body_count = all_bodies(world, ids), total = 0;
    for (int query = 0; query < 300; ++query) {
        uint32_t mask = masks[query % 4];
        cairn_shape *shape = random_shape(query / 4);
        cairn_transform xf = random_pose();
        cairn_body_id got[MAX_IDS];
        int count = cairn_world_overlap_shape(world, shape, xf, mask, got, MAX_IDS);
        cr_assert(count >= 0, "%s", cairn_last_error());
        int expected = 0;
        for (int i = 0; i < body_count; ++i) {
            if (!(layer_of(world, ids[i]) & mask) ||
                !cairn_overlap(cairn_body_shape(world, ids[i]), cairn_body_transform(world, ids[i]),
                               shape, xf))
                continue;
            /* Both lists are in index order. */
            cr_expect(expected < count && got[expected].index == ids[i].index,
                      "query %d: body %u missing or out of order", query, ids[i].index);
            expected++;
        }
        cr_expect_eq(count, expected, "query %d: %d bodies, brute force %d", query, count,
                     expected);
        if (count > 1) /* capacity 1: the first only, and the total */
            cr_expect_eq(cairn_world_overlap_shape(world, shape, xf, mask, got, 1), count);
        total += count;
        cairn_shape_release(shape);
    }
    cr_expect(total > 30, "only %d overlaps found", total);
    cairn_world_destroy(world);
}

static bool boxes_overlap(cairn_aabb a, cairn_aabb b)
{
    return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y &&
           a.min.z <= b.max.z && b.min.z <= a.max.z;
}

Test(world_queries, overlap_aabb_matches_brute_force)
{
    cairn_world *world = random_world();
    cairn_body_id ids[MAX_IDS];
    int body_count = all_bodies(world, ids), total = 0;
    for (int query = 0; query < 200; ++query) {
        uint32_t mask = masks[query % 4];
        vec3s centre = random_point(12), half = v3(uniform(0, 3), uniform(0, 3), uniform(0, 3));
        cairn_aabb box = {glms_vec3_sub(centre, half), glms_vec3_add(centre, half)};
        cairn_body_id got[MAX_IDS];
        int count = cairn_world_overlap_aabb(world, box, mask, got, MAX_IDS);
        cr_assert(count >= 0, "%s", cairn_last_error());
        int expected = 0;
        for (int i = 0; i < body_count; ++i) {
            cairn_aabb bounds = cairn_shape_bounds(cairn_body_shape(world, ids[i]),
                                                   cairn_body_transform(world, ids[i]));
            if (!(layer_of(world, ids[i]) & mask) || !boxes_overlap(bounds, box))
                continue;
            cr_expect(expected < count && got[expected].index == ids[i].index,
                      "query %d: body %u missing or out of order", query, ids[i].index);
            expected++;
        }
        cr_expect_eq(count, expected, "query %d: %d bodies, brute force %d", query, count,
                     expected);
        total += count;
    }
    cr_expect(total > 100, "only %d found", total);
    cairn_world_destroy(world);
}

Test(world_queries, shape_cast_matches_brute_force)
{
    cairn_world *world = random_world();
    cairn_body_id ids[MAX_IDS];
    int body_count = all_bodies(world, ids), hits = 0;
    for (int query = 0; query < 60; ++query) {
        uint32_t mask = masks[query % 4];
        cairn_shape *shape = random_shape(query / 4);
        cairn_transform xf = random_pose();
        vec3s translation = glms_vec3_sub(random_point(12), xf.position);
        float best = 2.0f;
        for (int i = 0; i < body_count; ++i) {
            cairn_cast_hit h;
            if ((layer_of(world, ids[i]) & mask) &&
                cairn_shape_cast(cairn_body_shape(world, ids[i]),
                                 cairn_body_transform(world, ids[i]), shape, xf, translation, &h) &&
                h.fraction < best)
                best = h.fraction;
        }
        cairn_shape_cast_hit hit;
        bool got = cairn_world_shape_cast(world, shape, xf, translation, mask, &hit);
        cr_expect_eq(got, best <= 1.0f, "query %d: hit %d, brute force best %g", query, got,
                     (double)best);
        if (got && best <= 1.0f) {
            cr_expect(fabsf(hit.fraction - best) <= 1e-6f, "query %d: %g, brute force %g", query,
                      (double)hit.fraction, (double)best);
            cairn_cast_hit check;
            cr_expect(cairn_shape_cast(cairn_body_shape(world, hit.body),
                                       cairn_body_transform(world, hit.body), shape, xf,
                                       translation, &check) &&
                          fabsf(check.fraction - hit.fraction) <= 1e-6f,
                      "query %d: the reported body is not hit at the reported time", query);
            hits++;
        }
        cairn_shape_release(shape);
    }
    cr_expect(hits > 15, "only %d casts hit", hits);
    cairn_world_destroy(world);
}

Test(world_queries, bad_input_fails_with_an_error)
{
    cairn_world *world = random_world();
    cairn_shape *ball = cairn_shape_sphere(0.5f);
    cairn_transform id = cairn_transform_identity(), bad = id;
    bad.rotation = (versors){{0, 0, 0, 3}};
    cairn_ray_hit hits[4];
    cairn_body_id out[4];
    cairn_shape_cast_hit cast;
    vec3s o = v3(0, 0, 0), t = v3(1, 0, 0), nan3 = v3(NAN, 0, 0);
    cr_expect_eq(cairn_world_raycast_all(NULL, o, t, CAIRN_QUERY_ALL, hits, 4), -1);
    cr_expect(strstr(cairn_last_error(), "cairn_world_raycast_all") != NULL);
    cr_expect_eq(cairn_world_raycast_all(world, nan3, t, CAIRN_QUERY_ALL, hits, 4), -1);
    cr_expect_eq(cairn_world_raycast_all(world, o, nan3, CAIRN_QUERY_ALL, hits, 4), -1);
    cr_expect_eq(cairn_world_raycast_all(world, o, t, CAIRN_QUERY_ALL, hits, -1), -1);
    cr_expect_eq(cairn_world_raycast_all(world, o, t, CAIRN_QUERY_ALL, NULL, 4), -1);
    cr_expect(cairn_world_raycast_all(world, o, t, CAIRN_QUERY_ALL, NULL, 0) >= 0);
    cr_expect_eq(cairn_world_raycast_all(world, o, v3(0, 0, 0), CAIRN_QUERY_ALL, hits, 4), 0);
    cr_expect(!cairn_world_raycast_mask(world, nan3, t, 1u, &hits[0]));
    cr_expect(!cairn_world_raycast_mask(world, o, t, 1u, NULL));
    cr_expect(strstr(cairn_last_error(), "cairn_world_raycast_mask") != NULL);
    cr_expect_eq(cairn_world_overlap_shape(NULL, ball, id, 1u, out, 4), -1);
    cr_expect_eq(cairn_world_overlap_shape(world, NULL, id, 1u, out, 4), -1);
    cr_expect_eq(cairn_world_overlap_shape(world, ball, bad, 1u, out, 4), -1);
    cr_expect(strstr(cairn_last_error(), "rotation") != NULL);
    cairn_transform far = id;
    far.position.x = NAN;
    cr_expect_eq(cairn_world_overlap_shape(world, ball, far, 1u, out, 4), -1);
    cr_expect_eq(cairn_world_overlap_shape(world, ball, id, 1u, NULL, 4), -1);
    cairn_aabb box = {v3(0, 0, 0), v3(1, 1, 1)}, inverted = {v3(0, 2, 0), v3(1, 1, 1)};
    cr_expect_eq(cairn_world_overlap_aabb(world, inverted, 1u, out, 4), -1);
    cr_expect(strstr(cairn_last_error(), "cairn_world_overlap_aabb") != NULL);
    box.max.z = INFINITY;
    cr_expect_eq(cairn_world_overlap_aabb(world, box, 1u, out, 4), -1);
    box.max.z = 1;
    cr_expect_eq(cairn_world_overlap_aabb(world, box, 1u, out, -2), -1);
    cr_expect(!cairn_world_shape_cast(NULL, ball, id, t, 1u, &cast));
    cr_expect(!cairn_world_shape_cast(world, NULL, id, t, 1u, &cast));
    cr_expect(!cairn_world_shape_cast(world, ball, id, t, 1u, NULL));
    cr_expect(!cairn_world_shape_cast(world, ball, bad, t, 1u, &cast));
    cr_expect(!cairn_world_shape_cast(world, ball, id, nan3, 1u, &cast));
    cr_expect(strstr(cairn_last_error(), "translation") != NULL);
    cairn_shape_release(ball);
    cairn_world_destroy(world);
}
