/* Curved shapes against closed-form answers: sphere-sphere, sphere-box, capsule-capsule (parallel,
   crossed, collinear), cylinder-box on its cap, on its side and on its rim. Every query is also
   asked with A and B swapped (same distance, opposite normal), and every result is checked for the
   whole contract (finite unit normal, sign, witness relation, witness points on the surfaces and
   inside the bounds, the normal achieving the distance, bounded iterations). */
#include <criterion/criterion.h>

#include "collision/oracle.h"

#define VALUE_TOL 1e-4 /* closed forms: distances and depths */

static void expect_normal(oracle_expect *e, double x, double y, double z)
{
    double l = sqrt(x * x + y * y + z * z);
    ov_set(e->normals[e->normal_count++], x / l, y / l, z / l);
}

static oracle_expect expect_value(double distance)
{
    oracle_expect e;
    memset(&e, 0, sizeof e);
    e.overlap = distance <= 0 ? 1 : 0;
    e.has_distance = true;
    e.distance = distance;
    e.tol = VALUE_TOL;
    return e;
}

/* Runs A-B and B-A and checks both against e (normals negated for B-A). */
static void check_pair(const char *what, const cairn_shape *a, cairn_transform xa,
                       const cairn_shape *b, cairn_transform xb, const oracle_expect *e)
{
    char msg[1024];
    cairn_query_result r;
    memset(&r, 0, sizeof r);
    cr_assert(cairn_collide(a, xa, b, xb, NULL, &r), "%s: cairn_collide failed: %s", what,
              cairn_last_error());
    if (!oracle_check_expect(a, xa, b, xb, &r, e, 0, msg, sizeof msg)) {
        oracle_print_result(stderr, what, &r);
        cr_expect_fail("%s: %s", what, msg);
    }
    oracle_expect swapped = *e;
    for (int i = 0; i < swapped.normal_count; ++i)
        for (int k = 0; k < 3; ++k)
            swapped.normals[i][k] = -swapped.normals[i][k];
    cairn_query_result s;
    memset(&s, 0, sizeof s);
    cr_assert(cairn_collide(b, xb, a, xa, NULL, &s), "%s (swapped): failed: %s", what,
              cairn_last_error());
    if (!oracle_check_expect(b, xb, a, xa, &s, &swapped, 0, msg, sizeof msg)) {
        oracle_print_result(stderr, what, &s);
        cr_expect_fail("%s (swapped): %s", what, msg);
    }
    cr_expect(fabs((double)r.distance - (double)s.distance) <= VALUE_TOL,
              "%s: A-B distance %.9g, B-A %.9g", what, (double)r.distance, (double)s.distance);
}

static cairn_transform at(double x, double y, double z)
{
    return oracle_transform(x, y, z, oracle_quat_identity());
}

/* ---- sphere-sphere ---- */

Test(curved_shapes, sphere_sphere)
{
    cairn_shape *a = cairn_shape_sphere(0.5f), *b = cairn_shape_sphere(0.3f);
    cr_assert(a && b);
    oracle_rng rng;
    oracle_rng_seed(&rng, 0x5FE5E);
    for (int i = 0; i < 200; ++i) {
        vec3s d = oracle_unit_vector(&rng);
        double len = i < 100 ? oracle_uniform(&rng, 0.05, 0.8) : oracle_uniform(&rng, 0.8, 2.5);
        cairn_transform xa =
            oracle_transform(oracle_uniform(&rng, -2, 2), oracle_uniform(&rng, -2, 2),
                             oracle_uniform(&rng, -2, 2), oracle_rotation(&rng));
        cairn_transform xb = oracle_transform(xa.position.x + len * d.x, xa.position.y + len * d.y,
                                              xa.position.z + len * d.z, oracle_rotation(&rng));
        double c[3], ca[3];
        ov_from(ca, xa.position);
        ov_from(c, xb.position);
        ov_sub(c, c, ca);
        double dist = ov_norm(c);
        oracle_expect e = expect_value(dist - 0.8);
        expect_normal(&e, c[0], c[1], c[2]);
        char what[64];
        snprintf(what, sizeof what, "sphere-sphere %d", i);
        check_pair(what, a, xa, b, xb, &e);
    }
    cairn_shape_release(a);
    cairn_shape_release(b);
}

/* ---- sphere-box: distance = sdf_box(centre) - r; normal = gradient of the box's sdf ---- */

static bool sdf_gradient(const cairn_shape *box, cairn_transform xf, const double c[3], double g[3])
{
    const double h = 1e-6;
    for (int k = 0; k < 3; ++k) {
        double p[3], m[3];
        ov_copy(p, c);
        ov_copy(m, c);
        p[k] += h;
        m[k] -= h;
        g[k] = (oracle_shape_sdf(box, xf, p) - oracle_shape_sdf(box, xf, m)) / (2 * h);
    }
    /* a unit gradient means a unique closest feature (no tie between faces) */
    return fabs(ov_norm(g) - 1.0) < 1e-6;
}

static void sphere_box_case(const char *what, const cairn_shape *box, cairn_transform xbox,
                            float radius, const double c[3])
{
    cairn_shape *s = cairn_shape_sphere(radius);
    cr_assert(s);
    cairn_transform xs = oracle_transform(c[0], c[1], c[2], oracle_quat_identity());
    double cf[3];
    ov_from(cf, xs.position);
    oracle_expect e = expect_value(oracle_shape_sdf(box, xbox, cf) - radius);
    double g[3];
    if (sdf_gradient(box, xbox, cf, g))
        expect_normal(&e, g[0], g[1], g[2]);
    check_pair(what, box, xbox, s, xs, &e);
    cairn_shape_release(s);
}

Test(curved_shapes, sphere_box_named_regions)
{
    for (int round = 0; round < 2; ++round) {
        float rc = round ? 0.05f : 0.0f;
        cairn_shape *box = cairn_shape_box((vec3s){{1.0f, 0.5f, 0.75f}}, rc);
        cr_assert(box, "%s", cairn_last_error());
        cairn_transform xb = at(0, 0, 0);
        char what[96];
        /* face region: gaps and shallow/deep penetration along +y */
        const double gaps[] = {0.2, 0.01, 1e-4, -1e-4, -0.01, -0.1, -0.29};
        for (int i = 0; i < 7; ++i) {
            double c[3] = {0.3, 0.5 + 0.3 + gaps[i], -0.2};
            snprintf(what, sizeof what, "sphere on box face, rc %.2f, gap %g", (double)rc, gaps[i]);
            sphere_box_case(what, box, xb, 0.3f, c);
        }
        /* edge region and corner region, outside and overlapping */
        double edge[3] = {1.2, 0.7, 0.1}, edge_in[3] = {1.1, 0.6, 0.1};
        double corner[3] = {1.2, 0.7, 0.9}, corner_in[3] = {1.05, 0.55, 0.8};
        snprintf(what, sizeof what, "sphere at box edge, rc %.2f", (double)rc);
        sphere_box_case(what, box, xb, 0.2f, edge);
        sphere_box_case(what, box, xb, 0.2f, edge_in);
        snprintf(what, sizeof what, "sphere at box corner, rc %.2f", (double)rc);
        sphere_box_case(what, box, xb, 0.2f, corner);
        sphere_box_case(what, box, xb, 0.2f, corner_in);
        /* centre inside the box: depth r + distance to the nearest face (+y, 0.2 away) */
        double inside[3] = {0.2, 0.3, 0.1};
        snprintf(what, sizeof what, "sphere centre inside box, rc %.2f", (double)rc);
        sphere_box_case(what, box, xb, 0.3f, inside);
        cairn_shape_release(box);
    }
}

Test(curved_shapes, sphere_box_random)
{
    oracle_rng rng;
    oracle_rng_seed(&rng, 0xB0C5);
    for (int i = 0; i < 300; ++i) {
        float rc = i % 3 == 0 ? 0.0f : (float)oracle_uniform(&rng, 0.0, 0.2);
        vec3s h = {{(float)oracle_uniform(&rng, 0.25, 1.2), (float)oracle_uniform(&rng, 0.25, 1.2),
                    (float)oracle_uniform(&rng, 0.25, 1.2)}};
        cairn_shape *box = cairn_shape_box(h, rc);
        cr_assert(box, "%s", cairn_last_error());
        cairn_transform xb =
            oracle_transform(oracle_uniform(&rng, -1, 1), oracle_uniform(&rng, -1, 1),
                             oracle_uniform(&rng, -1, 1), oracle_rotation(&rng));
        float radius = (float)oracle_uniform(&rng, 0.05, 0.6);
        double c[3];
        for (int k = 0; k < 3; ++k)
            c[k] = xb.position.raw[k] + oracle_uniform(&rng, -2.0, 2.0);
        char what[96];
        snprintf(what, sizeof what, "sphere-box random %d (rc %.3f)", i, (double)rc);
        sphere_box_case(what, box, xb, radius, c);
        cairn_shape_release(box);
    }
}

/* ---- capsule-capsule: segment distance minus the radii ---- */

static void capsule_segment(float half_height, cairn_transform xf, double p[3], double q[3])
{
    oracle_xf x = oracle_xf_from(xf);
    double top[3] = {0, half_height, 0}, bottom[3] = {0, -half_height, 0};
    oracle_xf_point(&x, top, p);
    oracle_xf_point(&x, bottom, q);
}

/* Distance from the segments; normal from the closest points unless the cores touch. */
static void capsule_case(const char *what, float h1, float r1, cairn_transform x1, float h2,
                         float r2, cairn_transform x2, const oracle_expect *override)
{
    cairn_shape *a = cairn_shape_capsule(h1, r1), *b = cairn_shape_capsule(h2, r2);
    cr_assert(a && b, "%s", cairn_last_error());
    double p1[3], q1[3], p2[3], q2[3], c1[3], c2[3];
    capsule_segment(h1, x1, p1, q1);
    capsule_segment(h2, x2, p2, q2);
    double d = oracle_segment_segment(p1, q1, p2, q2, c1, c2);
    oracle_expect e = expect_value(d - r1 - r2);
    if (override) {
        e = *override;
    } else if (d > 1e-3) {
        double n[3];
        ov_sub(n, c2, c1);
        expect_normal(&e, n[0], n[1], n[2]);
    }
    check_pair(what, a, x1, b, x2, &e);
    cairn_shape_release(a);
    cairn_shape_release(b);
}

Test(curved_shapes, capsule_capsule_parallel)
{
    versors id = oracle_quat_identity();
    /* side by side: separated, then overlapping with the cores apart */
    capsule_case("parallel, gap 0.2", 0.5f, 0.25f, at(0, 0, 0), 0.5f, 0.25f,
                 oracle_transform(0.7, 0.3, 0, id), NULL);
    capsule_case("parallel, depth 0.2", 0.5f, 0.25f, at(0, 0, 0), 0.5f, 0.25f,
                 oracle_transform(0.3, -0.2, 0, id), NULL);
    capsule_case("parallel, depth 0.49", 0.5f, 0.25f, at(0, 0, 0), 0.5f, 0.25f,
                 oracle_transform(0.01, 0.1, 0, id), NULL);
    /* parallel, offset along the axis: the end caps are closest */
    capsule_case("parallel, staggered", 0.5f, 0.25f, at(0, 0, 0), 0.5f, 0.25f,
                 oracle_transform(0.4, 1.5, 0.2, id), NULL);
    /* parallel in another orientation */
    versors q = oracle_axis_angle(1, 2, 3, 0.7);
    oracle_xf x = oracle_xf_from(oracle_transform(0, 0, 0, q));
    double side[3] = {0.6, 0.1, 0}, w[3];
    oracle_xf_point(&x, side, w);
    capsule_case("parallel, rotated", 0.8f, 0.2f, oracle_transform(0, 0, 0, q), 0.3f, 0.3f,
                 oracle_transform(w[0], w[1], w[2], q), NULL);
    /* exactly coincident parallel axes (cores overlap along a segment): depth r1 + r2, normal
       perpendicular to the axis */
    oracle_expect e = expect_value(-0.5);
    e.perpendicular = true;
    ov_set(e.normals[0], 0, 1, 0);
    capsule_case("parallel, same axis overlapping", 0.5f, 0.25f, at(0, 0, 0), 0.5f, 0.25f,
                 at(0, 0.2, 0), &e);
}

Test(curved_shapes, capsule_capsule_crossed)
{
    versors across = oracle_axis_angle(0, 0, 1, ORACLE_PI / 2); /* B's axis along x */
    capsule_case("crossed, gap 0.3", 0.5f, 0.25f, at(0, 0, 0), 0.5f, 0.25f,
                 oracle_transform(0.1, 0.2, 0.8, across), NULL);
    capsule_case("crossed, depth 0.2", 0.5f, 0.25f, at(0, 0, 0), 0.5f, 0.25f,
                 oracle_transform(0.1, 0.2, 0.3, across), NULL);
    capsule_case("crossed, shallow 1e-3", 0.5f, 0.25f, at(0, 0, 0), 0.5f, 0.25f,
                 oracle_transform(0.1, 0.2, 0.499, across), NULL);
    /* crossed with the cores intersecting: depth r1 + r2 along the common perpendicular */
    oracle_expect e = expect_value(-0.5);
    expect_normal(&e, 0, 0, 1);
    expect_normal(&e, 0, 0, -1);
    capsule_case("crossed, cores intersecting", 0.5f, 0.25f, at(0, 0, 0), 0.5f, 0.25f,
                 oracle_transform(0.1, 0.2, 0, across), &e);
    /* skew at an arbitrary angle */
    capsule_case("skew 37 degrees", 0.6f, 0.2f, at(0, 0, 0), 0.4f, 0.15f,
                 oracle_transform(-0.2, 0.1, 0.5, oracle_axis_angle(0, 0, 1, 0.6458)), NULL);
}

Test(curved_shapes, capsule_capsule_collinear)
{
    capsule_case("collinear, gap 0.2", 0.5f, 0.25f, at(0, 0, 0), 0.5f, 0.25f, at(0, 1.7, 0), NULL);
    capsule_case("collinear, depth 0.2 (cores apart)", 0.5f, 0.25f, at(0, 0, 0), 0.5f, 0.25f,
                 at(0, 1.3, 0), NULL);
    capsule_case("collinear, depth 1e-3", 0.5f, 0.25f, at(0, 0, 0), 0.5f, 0.25f, at(0, 1.499, 0),
                 NULL);
    /* collinear with overlapping cores: r1 + r2 sideways is the minimum translation */
    oracle_expect e = expect_value(-0.5);
    e.perpendicular = true;
    ov_set(e.normals[0], 0, 1, 0);
    capsule_case("collinear, cores overlapping", 0.5f, 0.25f, at(0, 0, 0), 0.5f, 0.25f,
                 at(0, 0.6, 0), &e);
    /* along another axis, different sizes */
    versors q = oracle_axis_angle(1, 0, 0, ORACLE_PI / 2); /* axes along z */
    capsule_case("collinear along z", 0.3f, 0.1f, oracle_transform(0, 0, 0, q), 0.7f, 0.2f,
                 oracle_transform(0, 0, 1.5, q), NULL);
}

Test(curved_shapes, capsule_capsule_random)
{
    oracle_rng rng;
    oracle_rng_seed(&rng, 0xCA95);
    for (int i = 0; i < 300; ++i) {
        float h1 = (float)oracle_uniform(&rng, 0, 0.8), r1 = (float)oracle_uniform(&rng, 0.05, 0.4);
        float h2 = (float)oracle_uniform(&rng, 0, 0.8), r2 = (float)oracle_uniform(&rng, 0.05, 0.4);
        cairn_transform x1 = oracle_transform(0, 0, 0, oracle_rotation(&rng));
        vec3s d = oracle_unit_vector(&rng);
        double len = oracle_uniform(&rng, 0.0, 2.5);
        cairn_transform x2 =
            oracle_transform(len * d.x, len * d.y, len * d.z, oracle_rotation(&rng));
        double p1[3], q1[3], p2[3], q2[3];
        capsule_segment(h1, x1, p1, q1);
        capsule_segment(h2, x2, p2, q2);
        if (oracle_segment_segment(p1, q1, p2, q2, NULL, NULL) < 1e-3)
            continue; /* intersecting cores: depth not in closed form here */
        char what[64];
        snprintf(what, sizeof what, "capsule-capsule random %d", i);
        capsule_case(what, h1, r1, x1, h2, r2, x2, NULL);
    }
}

/* ---- cylinder-box ---- */

Test(curved_shapes, cylinder_on_box_cap)
{
    cairn_shape *box = cairn_shape_box((vec3s){{2.0f, 0.5f, 2.0f}}, 0.0f);
    cr_assert(box);
    const double gaps[] = {0.3, 0.01, 1e-3, -1e-3, -0.05, -0.2};
    for (int round = 0; round < 2; ++round) {
        float rc = round ? 0.05f : 0.0f;
        cairn_shape *cyl = cairn_shape_cylinder(0.5f, 0.4f, rc);
        cr_assert(cyl, "%s", cairn_last_error());
        for (int i = 0; i < 6; ++i) {
            oracle_expect e = expect_value(gaps[i]);
            expect_normal(&e, 0, 1, 0);
            char what[96];
            snprintf(what, sizeof what, "cylinder cap on box, rc %.2f, gap %g", (double)rc,
                     gaps[i]);
            check_pair(what, box, at(0, 0, 0), cyl, at(0.3, 1.0 + gaps[i], -0.2), &e);
            /* spun about its axis: the cap is still flat */
            snprintf(what, sizeof what, "spun cylinder cap on box, rc %.2f, gap %g", (double)rc,
                     gaps[i]);
            check_pair(what, box, at(0, 0, 0), cyl,
                       oracle_transform(0.3, 1.0 + gaps[i], -0.2, oracle_axis_angle(0, 1, 0, 0.7)),
                       &e);
        }
        cairn_shape_release(cyl);
    }
    cairn_shape_release(box);
}

Test(curved_shapes, cylinder_on_box_side)
{
    cairn_shape *box = cairn_shape_box((vec3s){{2.0f, 0.5f, 2.0f}}, 0.05f);
    cr_assert(box);
    const double gaps[] = {0.3, 0.01, 1e-3, -1e-3, -0.05, -0.2};
    versors lying = oracle_axis_angle(0, 0, 1, ORACLE_PI / 2);   /* axis along x */
    versors lying_z = oracle_axis_angle(1, 0, 0, ORACLE_PI / 2); /* axis along z */
    for (int round = 0; round < 2; ++round) {
        float rc = round ? 0.05f : 0.0f;
        cairn_shape *cyl = cairn_shape_cylinder(0.5f, 0.4f, rc);
        cr_assert(cyl, "%s", cairn_last_error());
        for (int i = 0; i < 6; ++i) {
            oracle_expect e = expect_value(gaps[i]);
            expect_normal(&e, 0, 1, 0);
            char what[96];
            snprintf(what, sizeof what, "cylinder side on box (x), rc %.2f, gap %g", (double)rc,
                     gaps[i]);
            check_pair(what, box, at(0, 0, 0), cyl,
                       oracle_transform(0.3, 0.9 + gaps[i], -0.2, lying), &e);
            snprintf(what, sizeof what, "cylinder side on box (z), rc %.2f, gap %g", (double)rc,
                     gaps[i]);
            check_pair(what, box, at(0, 0, 0), cyl,
                       oracle_transform(-0.5, 0.9 + gaps[i], 0.4, lying_z), &e);
        }
        cairn_shape_release(cyl);
    }
    cairn_shape_release(box);
}

/* Tilted about z by theta: the lowest point of the (rounded) rim is
   c_y - ((hh - rc) cos(theta) + (r - rc) sin(theta)) - rc. */
Test(curved_shapes, cylinder_rim_on_box)
{
    cairn_shape *box = cairn_shape_box((vec3s){{2.0f, 0.5f, 2.0f}}, 0.0f);
    cr_assert(box);
    const double hh = 0.5, r = 0.4;
    for (int round = 0; round < 2; ++round) {
        double rc = round ? 0.05 : 0.0;
        cairn_shape *cyl = cairn_shape_cylinder((float)hh, (float)r, (float)rc);
        cr_assert(cyl);
        const double thetas[] = {0.2, 0.6, 1.1};
        const double gaps[] = {0.1, 1e-3, -2e-3, -0.04};
        for (int t = 0; t < 3; ++t) {
            for (int g = 0; g < 4; ++g) {
                versors q = oracle_axis_angle(0, 0, 1, thetas[t]);
                double th = 2.0 * atan2(q.z, q.w); /* the angle the float quaternion encodes */
                double reach = (hh - rc) * cos(th) + (r - rc) * sin(th) + rc;
                cairn_transform xc = oracle_transform(0.1, 0.5 + reach + gaps[g], 0.3, q);
                double cy = xc.position.y;
                oracle_expect e = expect_value(cy - reach - 0.5);
                expect_normal(&e, 0, 1, 0);
                char what[96];
                snprintf(what, sizeof what, "cylinder rim on box, rc %.2f, tilt %.1f, gap %g", rc,
                         thetas[t], gaps[g]);
                check_pair(what, box, at(0, 0, 0), cyl, xc, &e);
            }
        }
        cairn_shape_release(cyl);
    }
    cairn_shape_release(box);
}
