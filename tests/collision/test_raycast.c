/* Ray casts against one shape (collision/raycast.h) against analytic answers: every shape type
   (fraction, hit point and normal), rays starting inside, rays parallel to faces, rays missing or
   hitting a silhouette by 1e-6 m, the GJK path against the closed forms, a box given as a hull
   against the box, and random rays against a brute-force oracle (ternary search of the exact
   signed distance along the ray, which is convex, then bisection to the first root). */
#include <criterion/criterion.h>

#include "collision/oracle.h"
#include "collision/raycast.h"

#define FRACTION_TOL 1e-4 /* fractions, points (m, for unit-length rays) and normals */

typedef struct cast_result {
    bool hit;
    float fraction;
    vec3s normal;
    int iterations;
} cast_result;

static vec3s v3(double x, double y, double z)
{
    return (vec3s){{(float)x, (float)y, (float)z}};
}

static cast_result cast(const cairn_shape *shape, cairn_transform xf, vec3s origin, vec3s delta)
{
    cast_result r = {0};
    r.hit = shape_raycast(shape, xf, origin, delta, 1.0f, &r.fraction, &r.normal);
    return r;
}

static cast_result cast_gjk(const cairn_shape *shape, cairn_transform xf, vec3s origin, vec3s delta)
{
    cast_result r = {0};
    r.hit =
        shape_raycast_gjk(shape, xf, origin, delta, 1.0f, &r.fraction, &r.normal, &r.iterations);
    return r;
}

static double dist3(vec3s a, vec3s b)
{
    return glms_vec3_norm(glms_vec3_sub(a, b));
}

/* Transforms used for the analytic cases: the expectation is written in the shape's frame and
   carried along. */
static cairn_transform test_transform(int which)
{
    switch (which) {
    case 0:
        return cairn_transform_identity();
    case 1:
        return oracle_transform(3.0, -2.0, 1.5, oracle_axis_angle(1, 2, 3, 0.7));
    default:
        return oracle_transform(-10.0, 4.0, 7.0, oracle_axis_angle(-2, 1, 0.5, 2.3));
    }
}

static vec3s to_world_point(cairn_transform xf, vec3s p)
{
    return glms_vec3_add(glms_quat_rotatev(xf.rotation, p), xf.position);
}

static vec3s to_world_dir(cairn_transform xf, vec3s d)
{
    return glms_quat_rotatev(xf.rotation, d);
}

/* A ray given in the shape's frame must hit at `fraction` with `normal` (shape frame), under
   every test transform and through both the dispatching entry and (when gjk) the GJK path. */
static void expect_hit_local(const char *what, const cairn_shape *shape, vec3s o, vec3s d,
                             double fraction, vec3s normal)
{
    vec3s n_unit = glms_vec3_normalize(normal);
    for (int k = 0; k < 3; ++k) {
        cairn_transform xf = test_transform(k);
        vec3s wo = to_world_point(xf, o), wd = to_world_dir(xf, d);
        for (int path = 0; path < 2; ++path) {
            cast_result r = path == 0 ? cast(shape, xf, wo, wd) : cast_gjk(shape, xf, wo, wd);
            const char *via = path == 0 ? "shape_raycast" : "gjk";
            cr_assert(r.hit, "%s (xf %d, %s): no hit", what, k, via);
            cr_expect(fabs(r.fraction - fraction) <= FRACTION_TOL,
                      "%s (xf %d, %s): fraction %.9g, expected %.9g", what, k, via,
                      (double)r.fraction, fraction);
            vec3s point = glms_vec3_add(wo, glms_vec3_scale(wd, r.fraction));
            vec3s expected =
                to_world_point(xf, glms_vec3_add(o, glms_vec3_scale(d, (float)fraction)));
            cr_expect(dist3(point, expected) <= FRACTION_TOL * fmax(1.0, glms_vec3_norm(d)),
                      "%s (xf %d, %s): point off by %g", what, k, via, dist3(point, expected));
            vec3s wn = to_world_dir(xf, n_unit);
            cr_expect(dist3(r.normal, wn) <= FRACTION_TOL,
                      "%s (xf %d, %s): normal (%g %g %g), expected (%g %g %g)", what, k, via,
                      (double)r.normal.x, (double)r.normal.y, (double)r.normal.z, (double)wn.x,
                      (double)wn.y, (double)wn.z);
            cr_expect(fabs(glms_vec3_norm(r.normal) - 1.0) <= 1e-6, "%s: normal not unit", what);
        }
    }
}

static void expect_miss_local(const char *what, const cairn_shape *shape, vec3s o, vec3s d)
{
    for (int k = 0; k < 3; ++k) {
        cairn_transform xf = test_transform(k);
        vec3s wo = to_world_point(xf, o), wd = to_world_dir(xf, d);
        cast_result r = cast(shape, xf, wo, wd);
        cr_expect(!r.hit, "%s (xf %d): unexpected hit at %g", what, k, (double)r.fraction);
        r = cast_gjk(shape, xf, wo, wd);
        cr_expect(!r.hit, "%s (xf %d, gjk): unexpected hit at %g", what, k, (double)r.fraction);
    }
}

/* Identity transform only: for the 1e-6 cases, where a transformed float origin would move the
   ray by more than the offset being tested. */
static void expect_hit_exact(const char *what, const cairn_shape *shape, vec3s o, vec3s d,
                             double fraction, vec3s normal, double normal_tol)
{
    cairn_transform xf = cairn_transform_identity();
    vec3s n_unit = glms_vec3_normalize(normal);
    for (int path = 0; path < 2; ++path) {
        cast_result r = path == 0 ? cast(shape, xf, o, d) : cast_gjk(shape, xf, o, d);
        const char *via = path == 0 ? "shape_raycast" : "gjk";
        cr_assert(r.hit, "%s (%s): no hit", what, via);
        cr_expect(fabs(r.fraction - fraction) <= FRACTION_TOL,
                  "%s (%s): fraction %.9g, expected %.9g", what, via, (double)r.fraction, fraction);
        cr_expect(dist3(r.normal, n_unit) <= normal_tol,
                  "%s (%s): normal (%g %g %g), expected (%g %g %g)", what, via, (double)r.normal.x,
                  (double)r.normal.y, (double)r.normal.z, (double)n_unit.x, (double)n_unit.y,
                  (double)n_unit.z);
    }
}

static void expect_miss_exact(const char *what, const cairn_shape *shape, vec3s o, vec3s d)
{
    cairn_transform xf = cairn_transform_identity();
    cast_result r = cast(shape, xf, o, d);
    cr_expect(!r.hit, "%s: unexpected hit at %.9g", what, (double)r.fraction);
    r = cast_gjk(shape, xf, o, d);
    cr_expect(!r.hit, "%s (gjk): unexpected hit at %.9g", what, (double)r.fraction);
}

static cairn_shape *checked(cairn_shape *shape)
{
    cr_assert_not_null(shape, "shape constructor failed: %s", cairn_last_error());
    return shape;
}

static const vec3s box_points[8] = {
    {{-1, -2, -3}}, {{1, -2, -3}}, {{-1, 2, -3}}, {{1, 2, -3}},
    {{-1, -2, 3}},  {{1, -2, 3}},  {{-1, 2, 3}},  {{1, 2, 3}},
};

/* ---- each shape type against closed forms ---- */

Test(raycast, sphere)
{
    cairn_shape *s = checked(cairn_shape_sphere(1.5f));
    /* Ray of length 10 along +x from x = -5: enters at x = -1.5. */
    expect_hit_local("sphere centre", s, v3(-5, 0, 0), v3(10, 0, 0), 0.35, v3(-1, 0, 0));
    /* Offset by 0.9 in y: enters at x = -sqrt(1.5^2 - 0.81) = -1.2. */
    expect_hit_local("sphere offset", s, v3(-5, 0.9, 0), v3(10, 0, 0), 0.38, v3(-1.2, 0.9, 0));
    expect_hit_local("sphere from above", s, v3(0, 4, 0), v3(0, -5, 0), 0.5, v3(0, 1, 0));
    expect_miss_local("sphere miss", s, v3(-5, 1.6, 0), v3(10, 0, 0));
    expect_miss_local("sphere too short", s, v3(-5, 0, 0), v3(3.4f, 0, 0));
    expect_miss_local("sphere behind", s, v3(5, 0, 0), v3(10, 0, 0));
    cairn_shape_release(s);
}

Test(raycast, box)
{
    cairn_shape *b = checked(cairn_shape_box(v3(1, 2, 3), 0.0f));
    expect_hit_local("box -x face", b, v3(-5, 0.5, 0.5), v3(10, 0, 0), 0.4, v3(-1, 0, 0));
    expect_hit_local("box +y face", b, v3(0.3, 6, -2), v3(0, -8, 0), 0.5, v3(0, 1, 0));
    expect_hit_local("box -z face", b, v3(0.9, -1.9, -4), v3(0, 0, 2), 0.5, v3(0, 0, -1));
    /* Oblique: from (-3, 0, 0) towards (1, 2, 0) * 2: hits x = -1 at t = 0.25 (y = 1). */
    expect_hit_local("box oblique", b, v3(-3, 0, 0), v3(8, 4, 0), 0.25, v3(-1, 0, 0));
    expect_miss_local("box miss", b, v3(-5, 2.5, 0), v3(10, 0, 0));
    expect_miss_local("box oblique miss", b, v3(-3, 0, 0), v3(2, 4, 0));
    cairn_shape_release(b);
}

Test(raycast, rounded_box)
{
    /* Half extents 1 with convex radius 0.25: the core is the cube of half 0.75. */
    cairn_shape *b = checked(cairn_shape_box(v3(1, 1, 1), 0.25f));
    expect_hit_local("rounded box face", b, v3(-5, 0.2, 0.3), v3(10, 0, 0), 0.4, v3(-1, 0, 0));
    /* Towards the edge x = y = 0.75 along (-1, -1, 0): the rounded edge at 0.75 + 0.25 / sqrt 2. */
    double e = 0.75 + 0.25 / sqrt(2.0);
    expect_hit_local("rounded box edge", b, v3(4, 4, 0.1), v3(-4, -4, 0), (4 - e) / 4, v3(1, 1, 0));
    /* Towards the corner along (-1, -1, -1). */
    double c = 0.75 + 0.25 / sqrt(3.0);
    expect_hit_local("rounded box corner", b, v3(3, 3, 3), v3(-3, -3, -3), (3 - c) / 3,
                     v3(1, 1, 1));
    /* Along x at y = 0.9: through the rounded edge around (x, y) = (-0.75, 0.75), where
       x = -0.75 - sqrt(0.25^2 - 0.15^2) = -0.95. */
    expect_hit_local("rounded box edge along x", b, v3(-5, 0.9, 0), v3(10, 0, 0), 0.405,
                     v3(-0.2, 0.15, 0));
    /* A sharp box would be hit here, the rounded one is not: past the edge's rounding. */
    expect_miss_local("rounded box corner miss", b, v3(-5, 0.98, 0.98), v3(10, 0, 0));
    cairn_shape_release(b);
}

Test(raycast, capsule)
{
    cairn_shape *c = checked(cairn_shape_capsule(1.0f, 0.5f));
    expect_hit_local("capsule side", c, v3(-5, 0.7, 0), v3(10, 0, 0), 0.45, v3(-1, 0, 0));
    expect_hit_local("capsule side offset", c, v3(0.3, -0.2, -5), v3(0, 0, 10), 0.46,
                     v3(0.3, 0, -0.4));
    expect_hit_local("capsule top", c, v3(0, 5, 0), v3(0, -10, 0), 0.35, v3(0, 1, 0));
    /* Into the bottom ball off axis: x = 0.3 -> y = -1 - 0.4. */
    expect_hit_local("capsule bottom ball", c, v3(0.3, -5, 0), v3(0, 10, 0), 0.36,
                     v3(0.3, -0.4, 0));
    /* Horizontal through the top ball at y = 1.3: x = -sqrt(0.25 - 0.09) = -0.4. */
    expect_hit_local("capsule top ball side", c, v3(-5, 1.3, 0), v3(10, 0, 0), 0.46,
                     v3(-0.4, 0.3, 0));
    expect_miss_local("capsule above", c, v3(-5, 1.55, 0), v3(10, 0, 0));
    expect_miss_local("capsule beside", c, v3(0.55, -5, 0), v3(0, 10, 0));
    cairn_shape_release(c);
}

Test(raycast, cylinder)
{
    for (int rounded = 0; rounded < 2; ++rounded) {
        float cr = rounded ? 0.1f : 0.0f;
        cairn_shape *c = checked(cairn_shape_cylinder(1.0f, 0.5f, cr));
        expect_hit_local("cylinder cap", c, v3(0.2, 5, 0.1), v3(0, -10, 0), 0.4, v3(0, 1, 0));
        expect_hit_local("cylinder bottom cap", c, v3(-0.3, -3, 0), v3(0, 4, 0), 0.5, v3(0, -1, 0));
        expect_hit_local("cylinder side", c, v3(-5, 0.3, 0), v3(10, 0, 0), 0.45, v3(-1, 0, 0));
        /* Off-centre side hit: z = 0.3 -> x = -0.4, normal (-0.4, 0, 0.3) / 0.5. */
        expect_hit_local("cylinder side offset", c, v3(-5, -0.5, 0.3), v3(10, 0, 0), 0.46,
                         v3(-0.4, 0, 0.3));
        /* Oblique onto the cap: from (0, 3, -1) along (0, -4, 2): cap y = 1 at t = 0.5, z = 0. */
        expect_hit_local("cylinder cap oblique", c, v3(0, 3, -1), v3(0, -4, 2), 0.5, v3(0, 1, 0));
        expect_miss_local("cylinder beside", c, v3(-5, 0, 0.55), v3(10, 0, 0));
        expect_miss_local("cylinder above", c, v3(-5, 1.05, 0), v3(10, 0, 0));
        cairn_shape_release(c);
    }
    /* The rounded rim: along (-1, -1, 0) towards the rim point (0.4, 0.9, 0) of the core
       (radius 0.4, half height 0.9, convex radius 0.1). */
    cairn_shape *c = checked(cairn_shape_cylinder(1.0f, 0.5f, 0.1f));
    double k = 0.1 / sqrt(2.0);
    vec3s hit = v3(0.4 + k, 0.9 + k, 0);
    vec3s o = v3(hit.x + 2, hit.y + 2, 0);
    expect_hit_local("cylinder rounded rim", c, o, v3(-4, -4, 0), 0.5, v3(1, 1, 0));
    cairn_shape_release(c);
}

Test(raycast, hull_box_agrees_with_box)
{
    for (int rounded = 0; rounded < 2; ++rounded) {
        float cr = rounded ? 0.3f : 0.0f;
        cairn_shape *box = checked(cairn_shape_box(v3(1, 2, 3), cr));
        cairn_shape *hull = checked(cairn_shape_hull(box_points, 8, cr));
        cr_assert_float_eq(cairn_shape_convex_radius(hull), cr, 1e-6);
        expect_hit_local("hull -x face", hull, v3(-5, 0.5, 0.5), v3(10, 0, 0), 0.4, v3(-1, 0, 0));
        expect_hit_local("hull +y face", hull, v3(0.3, 6, -2), v3(0, -8, 0), 0.5, v3(0, 1, 0));
        oracle_rng rng;
        oracle_rng_seed(&rng, 77 + (uint64_t)rounded);
        int hits = 0;
        for (int i = 0; i < 2000; ++i) {
            cairn_transform xf =
                oracle_transform(oracle_uniform(&rng, -2, 2), oracle_uniform(&rng, -2, 2),
                                 oracle_uniform(&rng, -2, 2), oracle_rotation(&rng));
            vec3s o = glms_vec3_add(xf.position, glms_vec3_scale(oracle_unit_vector(&rng), 6.0f));
            vec3s target = glms_vec3_add(xf.position, v3(oracle_uniform(&rng, -2.5, 2.5),
                                                         oracle_uniform(&rng, -2.5, 2.5),
                                                         oracle_uniform(&rng, -2.5, 2.5)));
            vec3s d = glms_vec3_scale(glms_vec3_sub(target, o), 2.0f);
            cast_result a = cast(box, xf, o, d), b = cast(hull, xf, o, d);
            /* Grazing rays may be decided either way within the tolerance: compare the rest. */
            double depth = INFINITY;
            for (int s = 0; s <= 400; ++s) {
                double t = s / 400.0, p[3] = {o.x + t * d.x, o.y + t * d.y, o.z + t * d.z};
                depth = fmin(depth, oracle_shape_sdf(box, xf, p));
            }
            if (fabs(depth) < 1e-3)
                continue;
            cr_assert_eq(a.hit, b.hit, "ray %d: box hit %d, hull hit %d", i, a.hit, b.hit);
            if (!a.hit)
                continue;
            hits++;
            cr_expect(fabs(a.fraction - b.fraction) <= FRACTION_TOL,
                      "ray %d: box fraction %.9g, hull %.9g", i, (double)a.fraction,
                      (double)b.fraction);
            cr_expect(dist3(a.normal, b.normal) <= 1e-3 || depth > -0.01,
                      "ray %d: box normal (%g %g %g), hull (%g %g %g)", i, (double)a.normal.x,
                      (double)a.normal.y, (double)a.normal.z, (double)b.normal.x,
                      (double)b.normal.y, (double)b.normal.z);
        }
        cr_expect(hits > 300, "only %d hits", hits);
        cairn_shape_release(box);
        cairn_shape_release(hull);
    }
}

/* ---- inside, parallel, 1e-6 ---- */

Test(raycast, starting_inside)
{
    cairn_shape *shapes[6] = {
        checked(cairn_shape_sphere(1.0f)),
        checked(cairn_shape_box(v3(1, 1, 1), 0.0f)),
        checked(cairn_shape_box(v3(1, 1, 1), 0.3f)),
        checked(cairn_shape_capsule(1.0f, 0.5f)),
        checked(cairn_shape_cylinder(1.0f, 0.5f, 0.1f)),
        checked(cairn_shape_hull(box_points, 8, 0.0f)),
    };
    vec3s origins[3] = {v3(0, 0, 0), v3(0.2, -0.3, 0.1), v3(0.3, 0.95, 0.0)};
    vec3s d = v3(3, 1, -2);
    vec3s expected = glms_vec3_normalize(glms_vec3_negate(d));
    for (int s = 0; s < 6; ++s) {
        for (int i = 0; i < 3; ++i) {
            if (s == 4 && i == 2)
                continue; /* (0.3, 0.95) is outside the cylinder's rounded rim */
            for (int k = 0; k < 3; ++k) {
                cairn_transform xf = test_transform(k);
                vec3s o = to_world_point(xf, origins[i]);
                for (int path = 0; path < 2; ++path) {
                    cast_result r =
                        path ? cast_gjk(shapes[s], xf, o, d) : cast(shapes[s], xf, o, d);
                    cr_assert(r.hit, "shape %d origin %d xf %d path %d: no hit", s, i, k, path);
                    cr_expect_eq(r.fraction, 0.0f, "shape %d origin %d: fraction %g", s, i,
                                 (double)r.fraction);
                    cr_expect(dist3(r.normal, expected) <= 1e-6, "shape %d origin %d: normal", s,
                              i);
                }
            }
        }
    }
    for (int s = 0; s < 6; ++s)
        cairn_shape_release(shapes[s]);
}

Test(raycast, parallel_to_faces)
{
    cairn_shape *b = checked(cairn_shape_box(v3(1, 1, 1), 0.0f));
    cairn_shape *h = checked(cairn_shape_hull(box_points, 8, 0.0f));
    /* Parallel to the top face, above it and below it. */
    expect_miss_local("box parallel above", b, v3(-5, 1.1, 0.3), v3(10, 0, 0));
    expect_hit_local("box parallel below", b, v3(-5, 0.9, 0.3), v3(10, 0, 0), 0.4, v3(-1, 0, 0));
    expect_miss_local("hull parallel above", h, v3(-5, 2.1, 0.3), v3(10, 0, 0));
    expect_hit_local("hull parallel below", h, v3(-5, 1.9, 0.3), v3(10, 0, 0), 0.4, v3(-1, 0, 0));
    /* In the plane of the top face: the closed box is touched at its edge x = -1, y = 1; the
       normal lies in that edge's normal cone and points against the ray. */
    for (int path = 0; path < 2; ++path) {
        cairn_transform xf = cairn_transform_identity();
        vec3s o = v3(-5, 1, 0.3), d = v3(10, 0, 0);
        cast_result r = path ? cast_gjk(b, xf, o, d) : cast(b, xf, o, d);
        cr_assert(r.hit, "in the face plane: no hit");
        cr_expect(fabs(r.fraction - 0.4) <= FRACTION_TOL, "in the face plane: fraction %g",
                  (double)r.fraction);
        cr_expect(r.normal.x <= 0 && r.normal.y >= -1e-6 && fabsf(r.normal.z) <= 1e-6 &&
                      glms_vec3_dot(r.normal, d) < 0,
                  "in the face plane: normal (%g %g %g)", (double)r.normal.x, (double)r.normal.y,
                  (double)r.normal.z);
    }
    /* Parallel to the cylinder's axis (its side), just inside and outside the radius. */
    cairn_shape *c = checked(cairn_shape_cylinder(1.0f, 0.5f, 0.0f));
    expect_hit_local("cylinder along axis inside", c, v3(0.45, 5, 0), v3(0, -10, 0), 0.4,
                     v3(0, 1, 0));
    expect_miss_local("cylinder along axis outside", c, v3(0.55, 5, 0), v3(0, -10, 0));
    /* Parallel to the cap, just below it: hits the side. */
    expect_hit_local("cylinder under cap", c, v3(-5, 0.95, 0), v3(10, 0, 0), 0.45, v3(-1, 0, 0));
    /* Parallel to the capsule's axis. */
    cairn_shape *cap = checked(cairn_shape_capsule(1.0f, 0.5f));
    expect_miss_local("capsule along axis outside", cap, v3(0.51, 5, 0), v3(0, -10, 0));
    cairn_shape_release(b);
    cairn_shape_release(h);
    cairn_shape_release(c);
    cairn_shape_release(cap);
}

/* y = 1 +- ~1e-6 in float (1 + 1e-6 rounds to 1 + 9.5e-7, 1 - 1e-6 to 1 - 1.01e-6). */
Test(raycast, silhouette_by_1e6)
{
    const float above = 1.0f + 1e-6f, below = 1.0f - 1e-6f;
    cr_assert(above > 1.0f && below < 1.0f);
    const double da = (double)above - 1.0, db = 1.0 - (double)below;

    cairn_shape *b = checked(cairn_shape_box(v3(1, 1, 1), 0.0f));
    expect_miss_exact("box +1e-6", b, v3(-5, above, 0.3), v3(10, 0, 0));
    expect_hit_exact("box -1e-6", b, v3(-5, below, 0.3), v3(10, 0, 0), 0.4, v3(-1, 0, 0), 1e-4);
    /* Oblique towards the edge (x = -1, y = 1), missing it above / hitting it below. */
    expect_miss_exact("box oblique +1e-6", b, v3(-3, above, 0.3), v3(4, 0.0, 1.0));
    cairn_shape *h = checked(cairn_shape_hull(box_points, 8, 0.0f));
    expect_miss_exact("hull +1e-6", h, v3(-5, 1.0f + above, 0.3), v3(10, 0, 0));
    expect_hit_exact("hull -1e-6", h, v3(-5, 1.0f + below, 0.3), v3(10, 0, 0), 0.4, v3(-1, 0, 0),
                     1e-4);

    /* Rounded box (half 1, radius 0.25): the ray at y = 1 - db meets the rounded edge at
       x = -0.75 - sqrt(0.25^2 - (0.25 - db)^2). */
    cairn_shape *rb = checked(cairn_shape_box(v3(1, 1, 1), 0.25f));
    expect_miss_exact("rounded box +1e-6", rb, v3(-5, above, 0.3), v3(10, 0, 0));
    double x = -0.75 - sqrt(0.0625 - (0.25 - db) * (0.25 - db));
    expect_hit_exact("rounded box -1e-6", rb, v3(-5, below, 0.3), v3(10, 0, 0), (x + 5) / 10,
                     v3(x + 0.75, 0.25 - db, 0), 2e-3);

    cairn_shape *s = checked(cairn_shape_sphere(1.0f));
    expect_miss_exact("sphere +1e-6", s, v3(-5, above, 0), v3(10, 0, 0));
    x = -sqrt(1.0 - (1.0 - db) * (1.0 - db));
    expect_hit_exact("sphere -1e-6", s, v3(-5, below, 0), v3(10, 0, 0), (x + 5) / 10,
                     v3(x, 1.0 - db, 0), 2e-3);

    cairn_shape *cap = checked(cairn_shape_capsule(0.5f, 1.0f));
    expect_miss_exact("capsule side +1e-6", cap, v3(above, -5, 0), v3(0, 10, 0));
    double y = -0.5 - sqrt(1.0 - (1.0 - db) * (1.0 - db));
    expect_hit_exact("capsule side -1e-6", cap, v3(below, -5, 0), v3(0, 10, 0), (y + 5) / 10,
                     v3(1.0 - db, y + 0.5, 0), 2e-3);

    cairn_shape *c = checked(cairn_shape_cylinder(0.5f, 1.0f, 0.0f));
    /* Along the axis at radius 1 +- 1e-6: the cap's rim. */
    expect_miss_exact("cylinder rim +1e-6", c, v3(above, 5, 0), v3(0, -10, 0));
    expect_hit_exact("cylinder rim -1e-6", c, v3(below, 5, 0), v3(0, -10, 0), 0.45, v3(0, 1, 0),
                     1e-4);
    /* Across the side at z = 1 +- 1e-6: grazing the curved side. */
    expect_miss_exact("cylinder side +1e-6", c, v3(-5, 0.1, above), v3(10, 0, 0));
    x = -sqrt(1.0 - (1.0 - db) * (1.0 - db));
    expect_hit_exact("cylinder side -1e-6", c, v3(-5, 0.1, below), v3(10, 0, 0), (x + 5) / 10,
                     v3(x, 0, 1.0 - db), 2e-3);
    (void)da;
    cairn_shape_release(b);
    cairn_shape_release(h);
    cairn_shape_release(rb);
    cairn_shape_release(s);
    cairn_shape_release(cap);
    cairn_shape_release(c);
}

Test(raycast, max_fraction_and_zero_translation)
{
    cairn_shape *b = checked(cairn_shape_box(v3(1, 1, 1), 0.0f));
    cairn_transform xf = cairn_transform_identity();
    float f = -1;
    vec3s n;
    cr_expect(shape_raycast(b, xf, v3(-5, 0, 0), v3(10, 0, 0), 0.41f, &f, &n));
    cr_expect(!shape_raycast(b, xf, v3(-5, 0, 0), v3(10, 0, 0), 0.39f, &f, &n));
    cr_expect(!shape_raycast(b, xf, v3(-5, 0, 0), v3(0, 0, 0), 1.0f, &f, &n));
    cr_expect(!shape_raycast(b, xf, v3(0, 0, 0), v3(0, 0, 0), 1.0f, &f, &n));
    cairn_shape *s = checked(cairn_shape_sphere(1.0f));
    cr_expect(shape_raycast(s, xf, v3(-5, 0, 0), v3(10, 0, 0), 0.41f, &f, &n));
    cr_expect(!shape_raycast(s, xf, v3(-5, 0, 0), v3(10, 0, 0), 0.39f, &f, &n));
    cairn_shape_release(b);
    cairn_shape_release(s);
}

/* ---- the GJK path against the closed forms ---- */

Test(raycast, gjk_matches_closed_forms)
{
    oracle_rng rng;
    oracle_rng_seed(&rng, 4242);
    int hits = 0, max_iterations = 0;
    for (int i = 0; i < 4000; ++i) {
        bool capsule = i % 2;
        double radius = oracle_uniform(&rng, 0.1, 2.0);
        cairn_shape *s =
            checked(capsule ? cairn_shape_capsule((float)oracle_uniform(&rng, 0, 2), (float)radius)
                            : cairn_shape_sphere((float)radius));
        cairn_transform xf =
            oracle_transform(oracle_uniform(&rng, -3, 3), oracle_uniform(&rng, -3, 3),
                             oracle_uniform(&rng, -3, 3), oracle_rotation(&rng));
        vec3s o = glms_vec3_add(xf.position, glms_vec3_scale(oracle_unit_vector(&rng), 8.0f));
        vec3s target = glms_vec3_add(
            xf.position, glms_vec3_scale(oracle_unit_vector(&rng), (float)(1.2 * radius)));
        vec3s d = glms_vec3_scale(glms_vec3_sub(target, o), 1.5f);
        cast_result a = cast(s, xf, o, d), g = cast_gjk(s, xf, o, d);
        double depth = INFINITY;
        for (int k = 0; k <= 400; ++k) {
            double t = k / 400.0, p[3] = {o.x + t * d.x, o.y + t * d.y, o.z + t * d.z};
            depth = fmin(depth, oracle_shape_sdf(s, xf, p));
        }
        if (fabs(depth) >= 1e-3) {
            cr_assert_eq(a.hit, g.hit, "ray %d: closed form %d, gjk %d", i, a.hit, g.hit);
            if (a.hit) {
                hits++;
                max_iterations = g.iterations > max_iterations ? g.iterations : max_iterations;
                cr_expect(fabs(a.fraction - g.fraction) * glms_vec3_norm(d) <= FRACTION_TOL,
                          "ray %d: closed form %.9g, gjk %.9g", i, (double)a.fraction,
                          (double)g.fraction);
                cr_expect(dist3(a.normal, g.normal) <= FRACTION_TOL,
                          "ray %d: normals (%g %g %g) and (%g %g %g)", i, (double)a.normal.x,
                          (double)a.normal.y, (double)a.normal.z, (double)g.normal.x,
                          (double)g.normal.y, (double)g.normal.z);
            }
        }
        cairn_shape_release(s);
    }
    cr_expect(hits > 1500, "only %d hits", hits);
    cr_expect(max_iterations < RAYCAST_MAX_ITERATIONS, "gjk used %d iterations", max_iterations);
}

/* A sphere given as a hull of many points on it: within the chord error of the tessellation. */
Test(raycast, sphere_as_hull)
{
    enum { N = 600 };
    vec3s points[N];
    /* Fibonacci sphere, radius 1. */
    for (int i = 0; i < N; ++i) {
        double y = 1.0 - 2.0 * (i + 0.5) / N, r = sqrt(1.0 - y * y);
        double phi = i * ORACLE_PI * (3.0 - sqrt(5.0));
        points[i] = v3(r * cos(phi), y, r * sin(phi));
    }
    cairn_shape *hull = checked(cairn_shape_hull(points, N, 0.0f));
    cairn_shape *sphere = checked(cairn_shape_sphere(1.0f));
    oracle_rng rng;
    oracle_rng_seed(&rng, 9);
    for (int i = 0; i < 500; ++i) {
        cairn_transform xf = cairn_transform_identity();
        vec3s o = glms_vec3_scale(oracle_unit_vector(&rng), 5.0f);
        vec3s target = glms_vec3_scale(oracle_unit_vector(&rng), 0.8f);
        vec3s d = glms_vec3_scale(glms_vec3_sub(target, o), 2.0f);
        cast_result a = cast(sphere, xf, o, d), b = cast(hull, xf, o, d);
        cr_assert(a.hit && b.hit, "ray %d: sphere %d hull %d", i, a.hit, b.hit);
        /* Chord error of ~600 points: below 0.01 m; fractions of a ray of length ~10. */
        cr_expect(fabs(a.fraction - b.fraction) * glms_vec3_norm(d) <= 0.01,
                  "ray %d: sphere %.6g hull %.6g", i, (double)a.fraction, (double)b.fraction);
        cr_expect(dist3(a.normal, b.normal) <= 0.2, "ray %d: normals differ", i);
    }
    cairn_shape_release(hull);
    cairn_shape_release(sphere);
}

/* ---- random rays against the brute-force oracle ---- */

static double sdf_at(const cairn_shape *shape, cairn_transform xf, const double o[3],
                     const double d[3], double t)
{
    double p[3] = {o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]};
    return oracle_shape_sdf(shape, xf, p);
}

/* The first t in [0, 1] with sdf <= 0 along o + t d, by ternary search of the convex sdf for its
   minimum and bisection before it. Returns false when the minimum is positive; *depth receives
   the minimum. */
static bool oracle_first_hit(const cairn_shape *shape, cairn_transform xf, const double o[3],
                             const double d[3], double *t_hit, double *depth)
{
    double lo = 0, hi = 1;
    for (int i = 0; i < 200; ++i) {
        double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        if (sdf_at(shape, xf, o, d, m1) <= sdf_at(shape, xf, o, d, m2))
            hi = m2;
        else
            lo = m1;
    }
    double t_min = 0.5 * (lo + hi);
    double f_min = sdf_at(shape, xf, o, d, t_min);
    double f0 = sdf_at(shape, xf, o, d, 0.0), f1 = sdf_at(shape, xf, o, d, 1.0);
    if (f0 < f_min) {
        t_min = 0;
        f_min = f0;
    }
    if (f1 < f_min) {
        t_min = 1;
        f_min = f1;
    }
    *depth = f_min;
    if (f_min > 0)
        return false;
    if (f0 <= 0) {
        *t_hit = 0;
        return true;
    }
    lo = 0;
    hi = t_min;
    for (int i = 0; i < 200; ++i) {
        double m = 0.5 * (lo + hi);
        if (sdf_at(shape, xf, o, d, m) <= 0)
            hi = m;
        else
            lo = m;
    }
    *t_hit = hi;
    return true;
}

static cairn_shape *random_shape(oracle_rng *rng, int type)
{
    double a = oracle_uniform(rng, 0.2, 1.5), b = oracle_uniform(rng, 0.2, 1.5),
           c = oracle_uniform(rng, 0.2, 1.5);
    double small = fmin(a, fmin(b, c));
    double cr = oracle_int(rng, 0, 2) == 0 ? 0.0 : oracle_uniform(rng, 0.0, small);
    switch (type) {
    case 0:
        return checked(cairn_shape_sphere((float)a));
    case 1:
        return checked(cairn_shape_box(v3(a, b, c), (float)cr));
    case 2:
        return checked(cairn_shape_capsule((float)b, (float)a));
    case 3:
        return checked(cairn_shape_cylinder((float)a, (float)b, (float)(cr * 0.99)));
    default: {
        vec3s pts[24];
        int n = oracle_int(rng, 4, 24);
        oracle_random_points(rng, pts, n);
        for (int i = 0; i < n; ++i)
            pts[i] = glms_vec3_scale(pts[i], 2.0f);
        cairn_shape *h = cairn_shape_hull(pts, n, 0.0f);
        return h ? h : random_shape(rng, 1);
    }
    }
}

Test(raycast, random_rays_against_oracle)
{
    oracle_rng rng;
    oracle_rng_seed(&rng, 20240607);
    int checked_rays = 0, hits = 0, inside = 0, max_iterations = 0, at_bound = 0;
    for (int i = 0; i < 20000; ++i) {
        int type = i % 5;
        cairn_shape *s = random_shape(&rng, type);
        cairn_transform xf =
            oracle_transform(oracle_uniform(&rng, -5, 5), oracle_uniform(&rng, -5, 5),
                             oracle_uniform(&rng, -5, 5), oracle_rotation(&rng));
        double far = oracle_uniform(&rng, 0.0, 6.0);
        vec3s o = glms_vec3_add(xf.position, glms_vec3_scale(oracle_unit_vector(&rng), (float)far));
        vec3s target =
            glms_vec3_add(xf.position, glms_vec3_scale(oracle_unit_vector(&rng),
                                                       (float)oracle_uniform(&rng, 0, 2)));
        vec3s d = glms_vec3_scale(glms_vec3_sub(target, o), (float)oracle_uniform(&rng, 0.5, 2.0));
        if (glms_vec3_norm(d) < 1e-3f) {
            cairn_shape_release(s);
            continue;
        }
        double od[3] = {o.x, o.y, o.z}, dd[3] = {d.x, d.y, d.z};
        double t_hit = 0, depth;
        bool expected = oracle_first_hit(s, xf, od, dd, &t_hit, &depth);
        cast_result r = cast(s, xf, o, d);
        cast_result g = cast_gjk(s, xf, o, d);
        max_iterations = g.iterations > max_iterations ? g.iterations : max_iterations;
        at_bound += g.iterations >= RAYCAST_MAX_ITERATIONS;
        double length = glms_vec3_norm(d);
        /* Rays grazing the surface (or ending on it) are decided either way. */
        bool ambiguous = fabs(depth) < 1e-5 || (expected && fabs(t_hit - 1.0) * length < 1e-4);
        if (ambiguous) {
            cairn_shape_release(s);
            continue;
        }
        checked_rays++;
        cr_assert_eq(r.hit, expected, "ray %d (type %d): hit %d, oracle %d (depth %g)", i, type,
                     r.hit, expected, depth);
        cr_assert_eq(g.hit, expected, "ray %d (type %d, gjk): hit %d, oracle %d (depth %g)", i,
                     type, g.hit, expected, depth);
        if (!expected) {
            cairn_shape_release(s);
            continue;
        }
        hits++;
        double shallow = -depth < 1e-3 ? 10.0 : 1.0; /* grazing hits: ill-conditioned fraction */
        for (int path = 0; path < 2; ++path) {
            cast_result c = path ? g : r;
            cr_expect(fabs(c.fraction - t_hit) * length <= FRACTION_TOL * shallow,
                      "ray %d (type %d, path %d): fraction %.9g, oracle %.9g (depth %g)", i, type,
                      path, (double)c.fraction, t_hit, depth);
            cr_expect(fabs(glms_vec3_norm(c.normal) - 1.0) <= 1e-5, "ray %d: normal not unit", i);
            if (t_hit == 0) {
                inside += path == 0;
                vec3s minus_d = glms_vec3_normalize(glms_vec3_negate(d));
                cr_expect(dist3(c.normal, minus_d) <= 1e-5, "ray %d: inside normal", i);
                continue;
            }
            cr_expect(glms_vec3_dot(c.normal, d) < 0, "ray %d: normal along the ray", i);
            if (type == 4 || -depth < 1e-3)
                continue;
            /* A valid normal n at the hit point p: moving eps along n leaves the shape at
               distance eps (p is then the closest point: n is in p's normal cone). */
            double eps = 1e-2;
            double q[3] = {od[0] + t_hit * dd[0] + eps * c.normal.x,
                           od[1] + t_hit * dd[1] + eps * c.normal.y,
                           od[2] + t_hit * dd[2] + eps * c.normal.z};
            double sd = oracle_shape_sdf(s, xf, q);
            cr_expect(fabs(sd - eps) <= 1e-3 * eps + 2e-4,
                      "ray %d (type %d, path %d): sdf %.9g along the normal, expected %g", i, type,
                      path, sd, eps);
        }
        cairn_shape_release(s);
    }
    cr_expect(checked_rays > 15000, "only %d rays checked", checked_rays);
    cr_expect(hits > 3000 && inside > 100, "hits %d, inside %d", hits, inside);
    /* Sharp-rimmed cylinders (convex radius 0) hit on their curved side now and then use the
       whole iteration bound (the simplex must approximate the curved side to the tolerance) and
       are then decided by the loose tolerance; their answers are checked above like the rest. */
    cr_expect(at_bound * 200 < checked_rays, "%d of %d rays at the iteration bound", at_bound,
              checked_rays);
    cr_log_info("random rays: %d checked, %d hits, %d inside, max gjk iterations %d, %d at the "
                "bound",
                checked_rays, hits, inside, max_iterations, at_bound);
}
