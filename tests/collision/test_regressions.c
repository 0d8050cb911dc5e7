/* The regression catalogue of issue 3 (cases reported against other engines) and the seeds'
   worked examples that go through the public API. Every case is run at the origin and translated
   by (T, T, T) for T = 1e3 and 1e4, through cairn_collide, through cairn_collide_sat when both
   shapes are boxes or hulls, and through cairn_overlap. Each result must have a finite unit normal,
   a distance whose sign agrees with the verdict, witness points related by the normal, on their
   surfaces and inside their shapes' bounds (1e-3), bounded iterations (< 256), a normal that
   achieves the distance, and the known answer. Tolerances widen by 4 T FLT_EPSILON far from the
   origin (float positions there are only that precise). When both shapes are sharp polytopes
   the exact oracle recomputes the answer at every offset, and the hand-derived answer must match
   the oracle at the origin. */
#include <criterion/criterion.h>

#include "collision/oracle.h"

static const double offsets[] = {0.0, 1e3, 1e4};

static cairn_transform at(double x, double y, double z)
{
    return oracle_transform(x, y, z, oracle_quat_identity());
}

static cairn_transform shifted(cairn_transform xf, double t)
{
    return oracle_transform(xf.position.x + t, xf.position.y + t, xf.position.z + t, xf.rotation);
}

static oracle_expect expect_value(double distance, double tol)
{
    oracle_expect e;
    memset(&e, 0, sizeof e);
    e.overlap = distance <= 0 ? 1 : 0;
    e.has_distance = true;
    e.distance = distance;
    e.tol = tol;
    return e;
}

static void expect_normal(oracle_expect *e, double x, double y, double z)
{
    double l = sqrt(x * x + y * y + z * z);
    ov_set(e->normals[e->normal_count++], x / l, y / l, z / l);
}

static bool is_polytope(const cairn_shape *s)
{
    cairn_shape_type t = cairn_shape_get_type(s);
    return t == CAIRN_SHAPE_BOX || t == CAIRN_SHAPE_HULL;
}

/* Sharp polytope (zero convex radius) in world space, for the oracle. */
static bool sharp_poly(oracle_poly *p, const cairn_shape *s, cairn_transform xf)
{
    if (!is_polytope(s) || cairn_shape_convex_radius(s) != 0.0f)
        return false;
    if (cairn_shape_get_type(s) == CAIRN_SHAPE_BOX) {
        vec3s h = cairn_shape_get_params(s).half_extents;
        oracle_poly_from_box(p, h.x, h.y, h.z, xf);
    } else {
        oracle_poly_from_hull(p, s, xf);
    }
    return p->ok;
}

static void check_one(const char *name, const char *api, double t, const cairn_shape *a,
                      cairn_transform xa, const cairn_shape *b, cairn_transform xb,
                      const cairn_query_result *r, const oracle_expect *e)
{
    char msg[1024];
    if (!oracle_check_expect(a, xa, b, xb, r, e, t, msg, sizeof msg)) {
        char label[160];
        snprintf(label, sizeof label, "%s [%s, offset %g]", name, api, t);
        oracle_print_result(stderr, label, r);
        cr_expect_fail("%s: %s", label, msg);
    }
}

/* Runs one case at every offset through every applicable query. */
static void run_case(const char *name, const cairn_shape *a, cairn_transform xa,
                     const cairn_shape *b, cairn_transform xb, const oracle_expect *e0)
{
    cr_assert(a && b, "%s: shape creation failed: %s", name, cairn_last_error());
    for (int k = 0; k < 3; ++k) {
        double t = offsets[k];
        cairn_transform ya = shifted(xa, t), yb = shifted(xb, t);
        oracle_expect e = *e0;
        static oracle_poly pa, pb;
        if (sharp_poly(&pa, a, ya) && sharp_poly(&pb, b, yb)) {
            oracle_result o = oracle_query(&pa, &pb);
            if (t == 0 && e.has_distance)
                cr_assert(fabs(o.distance - e.distance) <= 1e-6,
                          "%s: hand-derived answer %.9g, oracle %.9g (test bug)", name, e.distance,
                          o.distance);
            e.has_distance = true;
            e.distance = o.distance;
            if (e.tol == 0)
                e.tol = o.overlap ? 1e-3 : 1e-4;
        }
        cairn_query_result r;
        memset(&r, 0, sizeof r);
        if (!cairn_collide(a, ya, b, yb, NULL, &r))
            cr_expect_fail("%s [collide, offset %g]: returned false: %s", name, t,
                           cairn_last_error());
        else
            check_one(name, "collide", t, a, ya, b, yb, &r, &e);
        if (is_polytope(a) && is_polytope(b)) {
            cairn_query_result s;
            memset(&s, 0, sizeof s);
            if (!cairn_collide_sat(a, ya, b, yb, &s))
                cr_expect_fail("%s [sat, offset %g]: returned false: %s", name, t,
                               cairn_last_error());
            else
                check_one(name, "sat", t, a, ya, b, yb, &s, &e);
        }
        double slack = oracle_far_slack(t);
        bool decided = e.has_distance && fabs(e.distance) > 1e-5 + e.tol + slack;
        if (decided) {
            bool ov = cairn_overlap(a, ya, b, yb);
            cr_expect_eq(ov, e.distance <= 0, "%s [overlap, offset %g]: %d, expected %d", name, t,
                         ov, e.distance <= 0);
        }
    }
}

/* Lowest world z (axis k) of a box with convex radius rc: its core corners minus rc. */
static double box_lowest(vec3s half, double rc, cairn_transform xf, int axis)
{
    oracle_xf x = oracle_xf_from(xf);
    double lowest = INFINITY;
    for (int i = 0; i < 8; ++i) {
        double l[3] = {(i & 1 ? 1 : -1) * (half.x - rc), (i & 2 ? 1 : -1) * (half.y - rc),
                       (i & 4 ? 1 : -1) * (half.z - rc)},
               w[3];
        oracle_xf_point(&x, l, w);
        lowest = fmin(lowest, w[axis]);
    }
    return lowest - rc;
}

/* ---- the catalogue ---- */

Test(regressions, cubes_of_side_2_at_z_0_and_1_9)
{
    for (int round = 0; round < 2; ++round) {
        float rc = round ? 0.05f : 0.0f;
        cairn_shape *a = cairn_shape_box((vec3s){{1, 1, 1}}, rc);
        cairn_shape *b = cairn_shape_box((vec3s){{1, 1, 1}}, rc);
        oracle_expect e = expect_value(-0.1, 1e-4);
        expect_normal(&e, 0, 0, 1);
        run_case(round ? "cubes side 2, z 0 / 1.9, rc 0.05" : "cubes side 2, z 0 / 1.9", a,
                 at(0, 0, 0), b, at(0, 0, 1.9), &e);
        cairn_shape_release(a);
        cairn_shape_release(b);
    }
}

Test(regressions, boxes_exactly_touching_face_to_face)
{
    const double gaps[] = {0.0, 1e-6, -1e-6};
    for (int round = 0; round < 2; ++round) {
        float rc = round ? 0.05f : 0.0f;
        cairn_shape *a = cairn_shape_box((vec3s){{0.5f, 0.5f, 0.5f}}, rc);
        cairn_shape *b = cairn_shape_box((vec3s){{0.5f, 0.5f, 0.5f}}, rc);
        for (int i = 0; i < 3; ++i) {
            cairn_transform xb = at(1.0 + gaps[i], 0.2, -0.1);
            oracle_expect e = expect_value((double)xb.position.x - 1.0, 1e-5);
            expect_normal(&e, 1, 0, 0);
            char name[96];
            snprintf(name, sizeof name, "boxes face to face, gap %g, rc %.2f", gaps[i], (double)rc);
            run_case(name, a, at(0, 0, 0), b, xb, &e);
            /* and stacked along y, B below A */
            xb = at(0.1, -(1.0 + gaps[i]), 0.3);
            e = expect_value(-(double)xb.position.y - 1.0, 1e-5);
            expect_normal(&e, 0, -1, 0);
            snprintf(name, sizeof name, "boxes stacked (B below), gap %g, rc %.2f", gaps[i],
                     (double)rc);
            run_case(name, a, at(0, 0, 0), b, xb, &e);
        }
        cairn_shape_release(a);
        cairn_shape_release(b);
    }
}

/* Boxes of side 0.5 at (2.077, 0.4847, 1.1543) and (2, 0, 1.25): A sits 0.0153 into B along y. */
Test(regressions, nearly_touching_boxes)
{
    for (int round = 0; round < 2; ++round) {
        float rc = round ? 0.05f : 0.0f;
        cairn_shape *a = cairn_shape_box((vec3s){{0.25f, 0.25f, 0.25f}}, rc);
        cairn_shape *b = cairn_shape_box((vec3s){{0.25f, 0.25f, 0.25f}}, rc);
        cairn_transform xa = at(2.077, 0.4847, 1.1543), xb = at(2, 0, 1.25);
        oracle_expect e = expect_value((double)xa.position.y - (double)xb.position.y - 0.5, 1e-4);
        expect_normal(&e, 0, -1, 0);
        run_case(round ? "nearly touching boxes 0.5^3, rc 0.05" : "nearly touching boxes 0.5^3", a,
                 xa, b, xb, &e);
        /* and pulled apart to a gap of 1e-3 */
        cairn_transform xa2 = at(2.077, 0.501, 1.1543);
        e = expect_value((double)xa2.position.y - (double)xb.position.y - 0.5, 1e-4);
        expect_normal(&e, 0, -1, 0);
        run_case(round ? "nearly touching boxes 0.5^3 apart, rc 0.05"
                       : "nearly touching boxes 0.5^3 apart",
                 a, xa2, b, xb, &e);
        cairn_shape_release(a);
        cairn_shape_release(b);
    }
}

/* A thin plate 0.46 x 0.48 x 0.01 and a small box at a generic rotation whose lowest corner is
   2e-3 into (or 2e-3 above) the plate's top face z = 0.005. */
Test(regressions, thin_plate_against_small_rotated_box)
{
    const vec3s plate_half = {{0.23f, 0.24f, 0.005f}}, small_half = {{0.04f, 0.05f, 0.03f}};
    const float plate_rc[] = {0.0f, 0.004f}, small_rc[] = {0.0f, 0.01f};
    versors q = glms_quat_normalize((versors){{0.3f, -0.5f, 0.2f, 0.8f}});
    const double gaps[] = {-2e-3, 2e-3};
    for (int round = 0; round < 2; ++round) {
        cairn_shape *plate = cairn_shape_box(plate_half, plate_rc[round]);
        cairn_shape *small = cairn_shape_box(small_half, small_rc[round]);
        for (int g = 0; g < 2; ++g) {
            cairn_transform probe = oracle_transform(0.05, -0.03, 0, q);
            double low = box_lowest(small_half, small_rc[round], probe, 2);
            cairn_transform xs = oracle_transform(0.05, -0.03, 0.005 - low + gaps[g], q);
            double lowest = box_lowest(small_half, small_rc[round], xs, 2);
            oracle_expect e = expect_value(lowest - 0.005, 1e-4);
            expect_normal(&e, 0, 0, 1);
            char name[96];
            snprintf(name, sizeof name, "thin plate vs small rotated box, gap %g, round %d",
                     gaps[g], round);
            run_case(name, plate, at(0, 0, 0), small, xs, &e);
        }
        cairn_shape_release(plate);
        cairn_shape_release(small);
    }
}

/* A 5 m box (half 2.5) and a 0.2 m box (half 0.1). */
Test(regressions, large_box_against_small_box)
{
    for (int round = 0; round < 2; ++round) {
        cairn_shape *big = cairn_shape_box((vec3s){{2.5f, 2.5f, 2.5f}}, round ? 0.05f : 0.0f);
        cairn_shape *small = cairn_shape_box((vec3s){{0.1f, 0.1f, 0.1f}}, round ? 0.02f : 0.0f);
        char name[96];
        const double gaps[] = {-0.01, 0.05, -1e-3};
        for (int g = 0; g < 3; ++g) {
            oracle_expect e = expect_value(gaps[g], 1e-4);
            expect_normal(&e, 0, 1, 0);
            snprintf(name, sizeof name, "5 m box vs 0.2 m box on top, gap %g, round %d", gaps[g],
                     round);
            run_case(name, big, at(0, 0, 0), small, at(0.3, 2.6 + gaps[g], -0.4), &e);
            /* near the big box's edge, still fully over the top face */
            snprintf(name, sizeof name, "5 m box vs 0.2 m box near edge, gap %g, round %d", gaps[g],
                     round);
            run_case(name, big, at(0, 0, 0), small, at(2.35, 2.6 + gaps[g], 2.3), &e);
        }
        /* small box at a generic rotation, one corner 0.01 into the top face */
        versors q = glms_quat_normalize((versors){{0.4f, 0.1f, -0.3f, 0.9f}});
        vec3s sh = {{0.1f, 0.1f, 0.1f}};
        double src = round ? 0.02 : 0.0;
        double low = box_lowest(sh, src, oracle_transform(1.0, 0, -1.0, q), 1);
        cairn_transform xs = oracle_transform(1.0, 2.5 - low - 0.01, -1.0, q);
        oracle_expect e = expect_value(box_lowest(sh, src, xs, 1) - 2.5, 1e-4);
        expect_normal(&e, 0, 1, 0);
        snprintf(name, sizeof name, "5 m box vs rotated 0.2 m box corner, round %d", round);
        run_case(name, big, at(0, 0, 0), small, xs, &e);
        /* the small box as A */
        e = expect_value(-0.01, 1e-4);
        expect_normal(&e, 0, -1, 0);
        snprintf(name, sizeof name, "0.2 m box vs 5 m box below, round %d", round);
        run_case(name, small, at(0.3, 2.59, -0.4), big, at(0, 0, 0), &e);
        cairn_shape_release(big);
        cairn_shape_release(small);
    }
}

/* 128 x 1 x 128 ground box and a unit box, zero convex radius. */
Test(regressions, huge_flat_box_against_unit_box)
{
    cairn_shape *ground = cairn_shape_box((vec3s){{64, 0.5f, 64}}, 0.0f);
    cairn_shape *unit = cairn_shape_box((vec3s){{0.5f, 0.5f, 0.5f}}, 0.0f);
    const double where[3][2] = {{10, -20}, {0, 0}, {63.3, -63.3}};
    const double gaps[] = {-0.01, 0.02, -1e-4};
    char name[96];
    for (int w = 0; w < 3; ++w) {
        for (int g = 0; g < 3; ++g) {
            oracle_expect e = expect_value(gaps[g], 1e-4);
            expect_normal(&e, 0, 1, 0);
            snprintf(name, sizeof name, "128x1x128 vs unit box at (%g, %g), gap %g", where[w][0],
                     where[w][1], gaps[g]);
            run_case(name, ground, at(0, 0, 0), unit, at(where[w][0], 1.0 + gaps[g], where[w][1]),
                     &e);
            snprintf(name, sizeof name, "128x1x128 vs yawed unit box at (%g, %g), gap %g",
                     where[w][0], where[w][1], gaps[g]);
            run_case(name, ground, at(0, 0, 0), unit,
                     oracle_transform(where[w][0], 1.0 + gaps[g], where[w][1],
                                      oracle_axis_angle(0, 1, 0, 0.3)),
                     &e);
        }
    }
    /* tilted: one corner 0.01 in */
    versors q = glms_quat_normalize((versors){{0.2f, 0.3f, 0.1f, 0.9f}});
    vec3s h = {{0.5f, 0.5f, 0.5f}};
    double low = box_lowest(h, 0, oracle_transform(5, 0, 5, q), 1);
    cairn_transform xs = oracle_transform(5, 0.5 - low - 0.01, 5, q);
    oracle_expect e = expect_value(box_lowest(h, 0, xs, 1) - 0.5, 1e-4);
    expect_normal(&e, 0, 1, 0);
    run_case("128x1x128 vs tilted unit box corner", ground, at(0, 0, 0), unit, xs, &e);
    cairn_shape_release(ground);
    cairn_shape_release(unit);
}

Test(regressions, coincident_centres)
{
    cairn_shape *s1 = cairn_shape_sphere(0.5f), *s2 = cairn_shape_sphere(0.3f);
    oracle_expect e = expect_value(-0.8, 1e-4);
    run_case("coincident sphere centres", s1, at(0.2, 0.3, 0.4), s2, at(0.2, 0.3, 0.4), &e);
    run_case("coincident sphere centres, rotated", s1,
             oracle_transform(0.2, 0.3, 0.4, oracle_axis_angle(1, 1, 0, 1.0)), s2,
             oracle_transform(0.2, 0.3, 0.4, oracle_axis_angle(0, 1, 1, 2.0)), &e);
    /* a sphere centred in a box: r + the nearest face distance (0.4 along y) */
    for (int round = 0; round < 2; ++round) {
        cairn_shape *box = cairn_shape_box((vec3s){{0.5f, 0.4f, 0.6f}}, round ? 0.05f : 0.0f);
        e = expect_value(-0.7, 1e-4);
        expect_normal(&e, 0, 1, 0);
        expect_normal(&e, 0, -1, 0);
        run_case(round ? "sphere centred in rounded box" : "sphere centred in box", box,
                 at(0, 0, 0), s2, at(0, 0, 0), &e);
        cairn_shape_release(box);
    }
    /* a sphere at a capsule's centre: r + capsule radius, perpendicular to the axis */
    cairn_shape *cap = cairn_shape_capsule(0.5f, 0.25f);
    e = expect_value(-0.55, 1e-4);
    e.perpendicular = true;
    ov_set(e.normals[0], 0, 1, 0);
    run_case("sphere at capsule centre", cap, at(0, 0, 0), s2, at(0, 0, 0), &e);
    cairn_shape_release(cap);
    cairn_shape_release(s1);
    cairn_shape_release(s2);
}

/* Cylinder r = 0.05, height 0.06 against a long thin box 0.025 x 0.35 x 1.845 (half extents),
   the box rotated by 1e-10 rad. */
Test(regressions, small_cylinder_against_long_thin_box)
{
    versors tiny = oracle_axis_angle(0, 1, 0, 1e-10);
    const double gaps[] = {-1e-3, 1e-3};
    char name[128];
    for (int round = 0; round < 2; ++round) {
        cairn_shape *box = cairn_shape_box((vec3s){{0.025f, 0.35f, 1.845f}}, round ? 0.005f : 0.0f);
        cairn_shape *cyl = cairn_shape_cylinder(0.03f, 0.05f, round ? 0.01f : 0.0f);
        for (int g = 0; g < 2; ++g) {
            /* side of the cylinder against the box's +x face */
            oracle_expect e = expect_value(gaps[g], 1e-4);
            expect_normal(&e, 1, 0, 0);
            snprintf(name, sizeof name, "cylinder side vs thin box +x face, gap %g, round %d",
                     gaps[g], round);
            run_case(name, box, oracle_transform(0, 0, 0, tiny), cyl, at(0.075 + gaps[g], 0.1, 0.5),
                     &e);
            /* cap on the box's top face (+y), overhanging the thin box on both sides */
            e = expect_value(gaps[g], 1e-4);
            expect_normal(&e, 0, 1, 0);
            snprintf(name, sizeof name, "cylinder cap vs thin box top, gap %g, round %d", gaps[g],
                     round);
            run_case(name, box, oracle_transform(0, 0, 0, tiny), cyl, at(0, 0.38 + gaps[g], 1.0),
                     &e);
            /* the cylinder as A, lying on its side on the top face (axis along z) */
            e = expect_value(gaps[g], 1e-4);
            expect_normal(&e, 0, -1, 0);
            snprintf(name, sizeof name, "lying cylinder on thin box top, gap %g, round %d", gaps[g],
                     round);
            run_case(
                name, cyl,
                oracle_transform(0, 0.4 + gaps[g], -1.2, oracle_axis_angle(1, 0, 0, ORACLE_PI / 2)),
                box, oracle_transform(0, 0, 0, tiny), &e);
        }
        cairn_shape_release(box);
        cairn_shape_release(cyl);
    }
}

/* Capsules r = 0.25, half-height 0.5 against a long thin box (half 0.05 x 0.05 x 2). */
Test(regressions, capsule_against_long_thin_box)
{
    char name[128];
    for (int round = 0; round < 2; ++round) {
        cairn_shape *box = cairn_shape_box((vec3s){{0.05f, 0.05f, 2.0f}}, round ? 0.02f : 0.0f);
        cairn_shape *cap = cairn_shape_capsule(0.5f, 0.25f);
        const double gaps[] = {-0.01, 0.01, -1e-4};
        for (int g = 0; g < 3; ++g) {
            oracle_expect e = expect_value(gaps[g], 1e-4);
            expect_normal(&e, 0, 1, 0);
            snprintf(name, sizeof name, "capsule across thin box, gap %g, round %d", gaps[g],
                     round);
            run_case(name, box, at(0, 0, 0), cap,
                     oracle_transform(0.1, 0.3 + gaps[g], 0.7,
                                      oracle_axis_angle(0, 0, 1, ORACLE_PI / 2)),
                     &e);
            snprintf(name, sizeof name, "capsule upright on thin box, gap %g, round %d", gaps[g],
                     round);
            run_case(name, box, at(0, 0, 0), cap, at(0, 0.8 + gaps[g], -1.5), &e);
            snprintf(name, sizeof name, "capsule along thin box, gap %g, round %d", gaps[g], round);
            run_case(
                name, box, at(0, 0, 0), cap,
                oracle_transform(0, 0.3 + gaps[g], 0.4, oracle_axis_angle(1, 0, 0, ORACLE_PI / 2)),
                &e);
            e = expect_value(gaps[g], 1e-4);
            expect_normal(&e, 1, 0, 0);
            snprintf(name, sizeof name, "capsule beside thin box, gap %g, round %d", gaps[g],
                     round);
            run_case(name, box, at(0, 0, 0), cap, at(0.3 + gaps[g], 0, 0.2), &e);
        }
        cairn_shape_release(box);
        cairn_shape_release(cap);
    }
}

Test(regressions, identical_boxes_at_the_same_pose)
{
    for (int round = 0; round < 2; ++round) {
        float rc = round ? 0.05f : 0.0f;
        cairn_shape *a = cairn_shape_box((vec3s){{0.5f, 0.3f, 0.2f}}, rc);
        cairn_shape *b = cairn_shape_box((vec3s){{0.5f, 0.3f, 0.2f}}, rc);
        oracle_expect e = expect_value(-0.4, 1e-4);
        expect_normal(&e, 0, 0, 1);
        expect_normal(&e, 0, 0, -1);
        run_case(round ? "identical boxes, same pose, rc 0.05" : "identical boxes, same pose", a,
                 at(0, 0, 0), b, at(0, 0, 0), &e);
        versors q = oracle_axis_angle(0.3, -0.8, 0.5, 2.1);
        cairn_transform x = oracle_transform(0.7, -1.1, 0.4, q);
        oracle_xf ox = oracle_xf_from(x);
        double z[3] = {0, 0, 1}, wz[3];
        oracle_xf_dir(&ox, z, wz);
        e = expect_value(-0.4, 1e-4);
        expect_normal(&e, wz[0], wz[1], wz[2]);
        expect_normal(&e, -wz[0], -wz[1], -wz[2]);
        run_case(round ? "identical boxes, same rotated pose, rc 0.05"
                       : "identical boxes, same rotated pose",
                 a, x, b, x, &e);
        cairn_shape_release(a);
        cairn_shape_release(b);
    }
}

Test(regressions, concentric_stacked_boxes_at_2_5e_4)
{
    for (int round = 0; round < 2; ++round) {
        float rc = round ? 0.05f : 0.0f;
        cairn_shape *a = cairn_shape_box((vec3s){{0.5f, 0.5f, 0.5f}}, rc);
        cairn_shape *b = cairn_shape_box((vec3s){{0.5f, 0.5f, 0.5f}}, rc);
        cairn_shape *c = cairn_shape_box((vec3s){{0.3f, 0.5f, 0.4f}}, rc);
        cairn_transform xb = at(0, 1.0 - 2.5e-4, 0);
        oracle_expect e = expect_value((double)xb.position.y - 1.0, 5e-5);
        expect_normal(&e, 0, 1, 0);
        run_case(round ? "concentric stacked boxes 2.5e-4, rc 0.05"
                       : "concentric stacked boxes 2.5e-4",
                 a, at(0, 0, 0), b, xb, &e);
        run_case(round ? "concentric stacked boxes (smaller top) 2.5e-4, rc 0.05"
                       : "concentric stacked boxes (smaller top) 2.5e-4",
                 a, at(0, 0, 0), c, xb, &e);
        /* a stack of three: the middle box against the one above it */
        cairn_transform x1 = at(0, 1.0 - 2.5e-4, 0), x2 = at(0, 2.0 - 5e-4, 0);
        e = expect_value((double)x2.position.y - (double)x1.position.y - 1.0, 5e-5);
        expect_normal(&e, 0, 1, 0);
        run_case(round ? "stacked boxes 2 and 3, rc 0.05" : "stacked boxes 2 and 3", b, x1, a, x2,
                 &e);
        cairn_shape_release(a);
        cairn_shape_release(b);
        cairn_shape_release(c);
    }
}

static cairn_shape *prism(const double tri[3][2], double z0, double z1)
{
    vec3s pts[6];
    for (int i = 0; i < 3; ++i) {
        pts[i] = (vec3s){{(float)tri[i][0], (float)tri[i][1], (float)z0}};
        pts[i + 3] = (vec3s){{(float)tri[i][0], (float)tri[i][1], (float)z1}};
    }
    cairn_shape *s = cairn_shape_hull(pts, 6, 0.0f);
    cr_assert_not_null(s, "prism hull: %s", cairn_last_error());
    cr_assert(oracle_hull_matches_points(s, pts, 6, 1e-5), "prism hull topology");
    return s;
}

Test(regressions, nearly_identical_overlapping_prisms)
{
    static const double ta[3][2] = {
        {4.000009, 11.000008}, {5.000006, 4.999989}, {9.000001, 8.999997}};
    static const double tb[3][2] = {
        {4.000003, 11.000010}, {4.999989, 4.999999}, {8.999997, 8.999998}};
    cairn_shape *a = prism(ta, -1, 1), *b = prism(tb, -1, 1);
    oracle_expect e;
    memset(&e, 0, sizeof e);
    e.overlap = 1; /* the answer comes from the oracle at every offset */
    run_case("nearly identical prisms", a, at(0, 0, 0), b, at(0, 0, 0), &e);
    run_case("nearly identical prisms, rotated", a,
             oracle_transform(0.5, -0.2, 0.1, oracle_axis_angle(1, 2, 3, 0.4)), b,
             oracle_transform(0.5, -0.2, 0.1, oracle_axis_angle(1, 2, 3, 0.4)), &e);
    /* thin slabs of the same triangles */
    cairn_shape *c = prism(ta, 0, 0.01), *d = prism(tb, 0, 0.01);
    run_case("nearly identical thin prisms", c, at(0, 0, 0), d, at(0, 0, 0), &e);
    cairn_shape_release(a);
    cairn_shape_release(b);
    cairn_shape_release(c);
    cairn_shape_release(d);
}

/* ---- the seeds' worked examples ---- */

/* Seed 002: A = {(0,1), (1,-1), (-1,-1)}, B = {(0,-1), (1,1), (-1,1)}, extruded to z in [-1, 1]:
   depth 2/sqrt(5) along (2, 1, 0)/sqrt(5) or (-2, 1, 0)/sqrt(5). */
Test(regressions, seed_002_prisms)
{
    static const double ta[3][2] = {{0, 1}, {1, -1}, {-1, -1}};
    static const double tb[3][2] = {{0, -1}, {1, 1}, {-1, 1}};
    cairn_shape *a = prism(ta, -1, 1), *b = prism(tb, -1, 1);
    oracle_expect e = expect_value(-2.0 / sqrt(5.0), 1e-4);
    expect_normal(&e, 2, 1, 0);
    expect_normal(&e, -2, 1, 0);
    run_case("seed 002 prisms", a, at(0, 0, 0), b, at(0, 0, 0), &e);
    /* the same pair rotated rigidly: normals rotate with it */
    versors q = oracle_axis_angle(0.2, 1, -0.4, 0.9);
    cairn_transform x = oracle_transform(0.3, 0.1, -0.2, q);
    oracle_xf ox = oracle_xf_from(x);
    oracle_expect f = expect_value(-2.0 / sqrt(5.0), 1e-4);
    for (int i = 0; i < 2; ++i) {
        double w[3];
        oracle_xf_dir(&ox, e.normals[i], w);
        expect_normal(&f, w[0], w[1], w[2]);
    }
    run_case("seed 002 prisms, rotated", a, x, b, x, &f);
    cairn_shape_release(a);
    cairn_shape_release(b);
}

/* Seed 001, containment: a small box inside a large one. The minimum translation is the distance
   to leave through the nearest face (2 - (1.2 - 0.25) = 1.05 along +x), not the overlap of the
   projections (0.5). */
Test(regressions, seed_001_containment)
{
    for (int round = 0; round < 2; ++round) {
        float rc = round ? 0.05f : 0.0f;
        cairn_shape *big = cairn_shape_box((vec3s){{2, 2, 2}}, rc);
        cairn_shape *small = cairn_shape_box((vec3s){{0.25f, 0.25f, 0.25f}}, rc);
        oracle_expect e = expect_value(-1.05, 1e-4);
        expect_normal(&e, 1, 0, 0);
        run_case(round ? "seed 001 containment, rc 0.05" : "seed 001 containment", big, at(0, 0, 0),
                 small, at(1.2, 0.3, -0.4), &e);
        e = expect_value(-1.05, 1e-4);
        expect_normal(&e, -1, 0, 0);
        run_case(round ? "seed 001 containment reversed, rc 0.05" : "seed 001 containment reversed",
                 small, at(1.2, 0.3, -0.4), big, at(0, 0, 0), &e);
        cairn_shape_release(big);
        cairn_shape_release(small);
    }
    /* the same with hulls (the 8 corners) */
    vec3s big_pts[8], small_pts[8];
    for (int i = 0; i < 8; ++i) {
        big_pts[i] = (vec3s){{i & 1 ? 2.0f : -2.0f, i & 2 ? 2.0f : -2.0f, i & 4 ? 2.0f : -2.0f}};
        small_pts[i] =
            (vec3s){{i & 1 ? 0.25f : -0.25f, i & 2 ? 0.25f : -0.25f, i & 4 ? 0.25f : -0.25f}};
    }
    cairn_shape *hb = cairn_shape_hull(big_pts, 8, 0.0f),
                *hs = cairn_shape_hull(small_pts, 8, 0.0f);
    oracle_expect e = expect_value(-1.05, 1e-4);
    expect_normal(&e, 1, 0, 0);
    run_case("seed 001 containment, hulls", hb, at(0, 0, 0), hs, at(1.2, 0.3, -0.4), &e);
    /* a rotated small box still inside */
    e = expect_value(0, 0);
    e.has_distance = false;
    e.overlap = 1;
    run_case("seed 001 containment, hulls, rotated", hb, at(0, 0, 0), hs,
             oracle_transform(1.2, 0.3, -0.4, oracle_axis_angle(1, 1, 1, 0.5)), &e);
    cairn_shape_release(hb);
    cairn_shape_release(hs);
}
