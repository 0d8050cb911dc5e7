/* Deep overlaps of curved cores (issue #16): the five reproductions of the external stress run,
   checked against double-precision references (reference.h), and the step statistic that counts
   EPA stops on a bound. Tolerances are fractions of the pair's size (the sum of the diagonals of
   both shapes' bounds). */
#include <criterion/criterion.h>

#include "collision/query.h"
#include "collision/reference.h"

static cairn_transform pose(float x, float y, float z, float qx, float qy, float qz, float qw)
{
    return (cairn_transform){{{x, y, z}}, {{qx, qy, qz, qw}}};
}

static double diagonal(const cairn_shape *s)
{
    cairn_aabb box = cairn_shape_bounds(s, (cairn_transform){{{0, 0, 0}}, {{0, 0, 0, 1}}});
    return glms_vec3_norm(glms_vec3_sub(box.max, box.min));
}

static double pair_size(const cairn_shape *a, const cairn_shape *b)
{
    return diagonal(a) + diagonal(b);
}

/* The reported distance is no deeper than the best axis the reference finds allows, and the
   reported normal achieves it. */
static void expect_bounds(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                          cairn_transform xb, const cairn_query_result *r, double tol)
{
    ref_shape ra = ref_shape_make(a, xa), rb = ref_shape_make(b, xb);
    ref_axis best = ref_best_axis(&ra, &rb, 4000);
    cr_expect(r->distance >= best.separation - tol, "distance %.9g below the bound %.9g",
              (double)r->distance, best.separation);
    double n[3];
    ov_from(n, r->normal);
    double along = ref_separation(&ra, &rb, n);
    cr_expect(r->distance <= along + tol, "distance %.9g beyond its own normal's %.9g",
              (double)r->distance, along);
}

static void expect_exact(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                         cairn_transform xb, double expected_float_answer)
{
    ref_shape ra = ref_shape_make(a, xa), rb = ref_shape_make(b, xb);
    double exact;
    cr_assert(ref_exact_distance(&ra, &rb, &exact));
    /* The double-precision answer, to the digits it gives. */
    cr_assert(fabs(exact - expected_float_answer) < 1e-6, "reference %.9g", exact);
    cairn_query_result r;
    cr_assert(cairn_collide(a, xa, b, xb, NULL, &r));
    double tol = 1e-5 * pair_size(a, b);
    cr_expect(fabs(r.distance - exact) <= tol, "distance %.9g, exact %.9g", (double)r.distance,
              exact);
    expect_bounds(a, xa, b, xb, &r, tol);
}

Test(deep_overlaps, sphere_centred_in_a_cylinder)
{
    cairn_shape *a = cairn_shape_cylinder(0.748843908f, 0.737942755f, 0.00506156357f);
    cairn_shape *b = cairn_shape_sphere(0.779136479f);
    expect_exact(a,
                 pose(0.168962523f, -0.211890429f, -1.91801119f, 0.371489316f, -0.151566193f,
                      0.914302349f, -0.0554488003f),
                 b,
                 pose(0.168962523f, -0.211890429f, -1.91801119f, -0.226684734f, 0.278228223f,
                      -0.884045184f, -0.299444795f),
                 -1.51707923);
    cairn_shape_release(a);
    cairn_shape_release(b);
}

Test(deep_overlaps, cylinder_centred_on_a_sphere)
{
    cairn_shape *a = cairn_shape_sphere(0.897494078f);
    cairn_shape *b = cairn_shape_cylinder(0.84209305f, 0.738392889f, 0.144206867f);
    expect_exact(a, pose(-1.83390367f, 2.48057175f, 0.276770085f, 0, 0, 0, 1), b,
                 pose(-1.83390367f, 2.48057175f, 0.276770085f, -0.285402596f, 0.604809999f,
                      -0.66731149f, -0.327788919f),
                 -1.63588697);
    cairn_shape_release(a);
    cairn_shape_release(b);
}

/* A sphere whose centre is 1.7 um from a needle's core (0.25 mm thick, 5 cm long): GJK's
   normal from float support points was 6e-3 rad off, so moving B along it by the reported
   depth did not separate the shapes. The closed form gives the normal of the nearest point. */
Test(deep_overlaps, sphere_micrometres_from_a_needle)
{
    cairn_shape *a = cairn_shape_sphere(0.01458559f);
    cairn_shape *b = cairn_shape_cylinder(0.0248091109f, 0.000248091121f, 0.0f);
    cairn_transform xa = pose(0, 0, 0, -0.790329695f, -0.330376267f, 0.462229401f, -0.229291245f);
    cairn_transform xb = pose(0.000184532168f, -0.000238669498f, 5.23748822e-05f, 0.977316082f,
                              -0.0979463756f, 0.109368294f, -0.152638018f);
    ref_shape ra = ref_shape_make(a, xa), rb = ref_shape_make(b, xb);
    double exact;
    cr_assert(ref_exact_distance(&ra, &rb, &exact));
    cairn_query_result r;
    cr_assert(cairn_collide(a, xa, b, xb, NULL, &r));
    double tol = 1e-5 * pair_size(a, b);
    cr_expect(fabs(r.distance - exact) <= tol, "distance %.9g, exact %.9g", (double)r.distance,
              exact);
    expect_bounds(a, xa, b, xb, &r, tol);
    cairn_shape_release(a);
    cairn_shape_release(b);
}

/* B moves from A's pose to xb; the query at xb warm-started from the first must give the cold
   answer, and both must respect the reference's bounds. */
static void expect_cache_agrees(const cairn_shape *shape, cairn_transform xa, cairn_transform xb)
{
    cairn_gjk_cache cache;
    memset(&cache, 0, sizeof cache);
    cairn_query_result first, warm, cold;
    cr_assert(cairn_collide(shape, xa, shape, xa, &cache, &first));
    cr_assert(cairn_collide(shape, xa, shape, xb, &cache, &warm));
    cr_assert(cairn_collide(shape, xa, shape, xb, NULL, &cold));
    double size = pair_size(shape, shape);
    cr_expect(fabs(warm.distance - cold.distance) <= 1e-4 * size, "cached %.9g, uncached %.9g",
              (double)warm.distance, (double)cold.distance);
    expect_bounds(shape, xa, shape, xa, &first, 1e-4 * size);
    expect_bounds(shape, xa, shape, xb, &warm, 1e-4 * size);
    expect_bounds(shape, xa, shape, xb, &cold, 1e-4 * size);
}

Test(deep_overlaps, cached_large_cylinders_agree)
{
    cairn_shape *s = cairn_shape_cylinder(51.8815765f, 39.3267441f, 7.44816685f);
    expect_cache_agrees(s,
                        pose(-0.615506172f, 1.05908167f, -0.922068775f, 0.417491674f, -0.887729645f,
                             0.171553969f, -0.0905872956f),
                        pose(-0.544590592f, 1.13351488f, -0.936121285f, 0.417694271f, -0.887676537f,
                             0.171828195f, -0.0896487087f));
    cairn_shape_release(s);
}

Test(deep_overlaps, cached_far_cylinders_agree)
{
    cairn_shape *s = cairn_shape_cylinder(0.963805854f, 0.780381322f, 0.0f);
    expect_cache_agrees(s,
                        pose(-4199.12598f, 94.1865768f, -9075.6709f, 0.282505006f, -0.403235376f,
                             -0.488681376f, 0.720265687f),
                        pose(-4199.12646f, 94.1883087f, -9075.6709f, 0.282785654f, -0.403867573f,
                             -0.488971323f, 0.719604254f));
    cairn_shape_release(s);
}

/* A capsule deep in a box, warm-started from a cache left 170 m away: the cached simplex is three
   collinear points, which GJK once took for touching cores (-52.98 against -74.13). */
Test(deep_overlaps, warm_start_from_a_collinear_simplex)
{
    cairn_shape *a = cairn_shape_capsule(0.4845469f, 51.7758904f);
    cairn_shape *b = cairn_shape_box((vec3s){{58.8093452f, 62.8984718f, 56.832653f}}, 1.20272374f);
    cairn_transform xa = pose(0, 0, 0, -0.553012967f, 0.659231126f, 0.213681236f, 0.462527126f);
    cairn_transform xb = pose(-34.5045052f, 5.33247662f, -32.4777145f, -0.553012967f, 0.659231126f,
                              0.213681236f, 0.462527126f);
    cairn_transform far = pose(3.15969253f, -2.71686554f, 165.333862f, -0.0233996958f,
                               -0.973532498f, -0.0542399287f, -0.220782816f);
    cairn_gjk_cache cache;
    memset(&cache, 0, sizeof cache);
    cairn_query_result first, warm, cold;
    cr_assert(cairn_collide(a, xa, b, far, &cache, &first));
    cr_expect(!first.overlap);
    cr_assert(cairn_collide(a, xa, b, xb, &cache, &warm));
    cr_assert(cairn_collide(a, xa, b, xb, NULL, &cold));
    double size = pair_size(a, b);
    cr_expect(fabs(warm.distance - cold.distance) <= 1e-4 * size, "cached %.9g, uncached %.9g",
              (double)warm.distance, (double)cold.distance);
    expect_bounds(a, xa, b, xb, &warm, 1e-4 * size);
    cairn_shape_release(a);
    cairn_shape_release(b);
}

/* A needle of a cylinder along a capsule's axis, warm-started from an overlap elsewhere: the
   cached triangle is needle-thin, its exact perpendicular leaned away from the closest point v,
   and GJK's v.w test then proved a 3 cm gap through a difference that holds the origin
   (-5.4314 against -5.4884). */
Test(deep_overlaps, warm_start_from_a_needle_thin_triangle)
{
    cairn_shape *a = cairn_shape_cylinder(2.70671296f, 0.0270671304f, 0.000483337761f);
    cairn_shape *b = cairn_shape_capsule(9.70746803f, 5.46134138f);
    cairn_transform x =
        pose(10000, 10000, 10000, -0.336847752f, 0.552739143f, -0.522913158f, -0.554594278f);
    cairn_transform before = pose(9996.7207f, 9997.76953f, 9999.17285f, 0.779119134f, -0.391944468f,
                                  0.133215532f, 0.470751077f);
    cairn_gjk_cache cache;
    memset(&cache, 0, sizeof cache);
    cairn_query_result first, warm, cold;
    cr_assert(cairn_collide(a, x, b, before, &cache, &first));
    cr_assert(cairn_collide(a, x, b, x, &cache, &warm));
    cr_assert(cairn_collide(a, x, b, x, NULL, &cold));
    double size = pair_size(a, b);
    cr_expect(fabs(warm.distance - cold.distance) <= 1e-4 * size, "cached %.9g, uncached %.9g",
              (double)warm.distance, (double)cold.distance);
    expect_bounds(a, x, b, x, &warm, 1e-4 * size);
    cairn_shape_release(a);
    cairn_shape_release(b);
}

Test(deep_overlaps, small_hull_inside_a_cylinder)
{
    oracle_rng rng;
    oracle_rng_seed(&rng, 16);
    for (int trial = 0; trial < 20; ++trial) {
        vec3s points[10];
        for (int i = 0; i < 10; ++i)
            points[i] =
                glms_vec3_scale(oracle_unit_vector(&rng), (float)oracle_uniform(&rng, 0.002, 0.01));
        cairn_shape *a = cairn_shape_hull(points, 10, 0.0f);
        cairn_shape *b = cairn_shape_cylinder(0.986084461f, 0.552729845f, 0.0487331711f);
        cr_assert_not_null(a);
        cairn_transform xa = {{{0, 0, 0}}, oracle_rotation(&rng)};
        cairn_transform xb = {{{0, 0, 0}}, oracle_rotation(&rng)};
        cairn_query_result r;
        cr_assert(cairn_collide(a, xa, b, xb, NULL, &r));
        cr_expect(r.overlap);
        expect_bounds(a, xa, b, xb, &r, 1e-5 * pair_size(a, b));
        cairn_shape_release(a);
        cairn_shape_release(b);
    }
}

/* A world whose one pair is two coincident cylinders, where EPA stops on its bound (checked
   through query_collide on the same poses), and a sphere resting on a box, where it never runs:
   the step statistic counts exactly the first. */
Test(deep_overlaps, step_counts_epa_stops_on_a_bound)
{
    cairn_world_def def = cairn_world_default_def();
    def.gravity = (vec3s){{0, 0, 0}};
    cairn_world *world = cairn_world_create(&def);
    cairn_shape *cylinder = cairn_shape_cylinder(0.75f, 0.74f, 0.01f);
    cairn_shape *sphere = cairn_shape_sphere(0.5f);
    cairn_shape *box = cairn_shape_box((vec3s){{2, 0.5f, 2}}, 0.0f);
    cairn_body_def body = cairn_body_default_def();
    body.shape = cylinder;
    body.transform = pose(0, 5, 0, 0, 0, 0, 1);
    cairn_body_create(world, &body);
    cairn_transform same = pose(0, 5, 0, 0, 0, 0, 1);
    body.transform = same;
    cairn_body_create(world, &body);
    body.shape = sphere;
    body.transform = pose(10, 0.99f, 0, 0, 0, 0, 1);
    cairn_body_create(world, &body);
    body.type = CAIRN_STATIC;
    body.shape = box;
    body.transform = pose(10, 0, 0, 0, 0, 0, 1);
    cairn_body_create(world, &body);
    cairn_query_result q;
    bool capped = false;
    cr_assert(
        query_collide(cylinder, pose(0, 5, 0, 0, 0, 0, 1), cylinder, same, NULL, &q, &capped));
    cr_assert(capped, "this pair no longer stops EPA on a bound: pick one that does");
    cairn_world_step(world, 1.0f / 60.0f);
    cairn_step_stats stats = cairn_world_step_stats(world);
    cr_expect_eq(stats.epa_calls, 1);
    cr_expect_eq(stats.epa_cap_stops, 1);
    cairn_world_destroy(world);
    cairn_shape_release(cylinder);
    cairn_shape_release(sphere);
    cairn_shape_release(box);
}
