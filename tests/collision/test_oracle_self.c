/* The narrow-phase oracle against analytic answers and against an independent bound, so that the
   tests built on it can be trusted. No engine query is called here. */
#include <criterion/criterion.h>

#include "collision/oracle.h"

#define EXACT 1e-12

static void make_box(oracle_poly *p, double h, double x, double y, double z, versors q)
{
    oracle_poly_from_box(p, h, h, h, oracle_transform(x, y, z, q));
    cr_assert(p->ok);
}

static void assert_vec(const double v[3], double x, double y, double z, double tol,
                       const char *what)
{
    cr_assert(fabs(v[0] - x) <= tol && fabs(v[1] - y) <= tol && fabs(v[2] - z) <= tol,
              "%s = (%.12g %.12g %.12g), expected (%.12g %.12g %.12g)", what, v[0], v[1], v[2], x,
              y, z);
}

/* ---- primitives ---- */

Test(oracle_self, segment_segment)
{
    double c1[3], c2[3];
    /* skew, interior closest points */
    double a0[3] = {-1, 0, 0}, a1[3] = {1, 0, 0}, b0[3] = {0, -1, 0.5}, b1[3] = {0, 1, 0.5};
    cr_assert_float_eq(oracle_segment_segment(a0, a1, b0, b1, c1, c2), 0.5, EXACT);
    assert_vec(c1, 0, 0, 0, EXACT, "c1");
    assert_vec(c2, 0, 0, 0.5, EXACT, "c2");
    /* parallel, overlapping in projection */
    double p0[3] = {0, 0, 0}, p1[3] = {2, 0, 0}, q0[3] = {1, 1, 0}, q1[3] = {3, 1, 0};
    cr_assert_float_eq(oracle_segment_segment(p0, p1, q0, q1, c1, c2), 1.0, EXACT);
    cr_assert_float_eq(ov_dist(c1, c2), 1.0, EXACT);
    /* collinear, disjoint */
    double r0[3] = {3, 0, 0}, r1[3] = {5, 0, 0};
    cr_assert_float_eq(oracle_segment_segment(p0, p1, r0, r1, c1, c2), 1.0, EXACT);
    assert_vec(c1, 2, 0, 0, EXACT, "c1");
    assert_vec(c2, 3, 0, 0, EXACT, "c2");
    /* nearly parallel: the answer from the endpoints is exact */
    double s0[3] = {0, 0, 1}, s1[3] = {2, 1e-9, 1};
    cr_assert_float_eq(oracle_segment_segment(p0, p1, s0, s1, c1, c2), 1.0, 1e-9);
    /* degenerate segments */
    double d0[3] = {0.5, 2, 0};
    cr_assert_float_eq(oracle_segment_segment(d0, d0, p0, p1, c1, c2), 2.0, EXACT);
    cr_assert_float_eq(oracle_segment_segment(d0, d0, d0, d0, c1, c2), 0.0, EXACT);
}

Test(oracle_self, point_triangle_regions)
{
    double a[3] = {0, 0, 0}, b[3] = {2, 0, 0}, c[3] = {0, 2, 0}, q[3];
    double face[3] = {0.5, 0.5, 3};
    cr_assert_float_eq(oracle_point_triangle(face, a, b, c, q), 3.0, EXACT);
    assert_vec(q, 0.5, 0.5, 0, EXACT, "face");
    double va[3] = {-1, -1, 0};
    cr_assert_float_eq(oracle_point_triangle(va, a, b, c, q), sqrt(2.0), EXACT);
    assert_vec(q, 0, 0, 0, EXACT, "vertex a");
    double vb[3] = {3, -1, 1};
    cr_assert_float_eq(oracle_point_triangle(vb, a, b, c, q), sqrt(3.0), EXACT);
    assert_vec(q, 2, 0, 0, EXACT, "vertex b");
    double eab[3] = {1, -2, 0};
    cr_assert_float_eq(oracle_point_triangle(eab, a, b, c, q), 2.0, EXACT);
    assert_vec(q, 1, 0, 0, EXACT, "edge ab");
    double ebc[3] = {2, 2, 0};
    cr_assert_float_eq(oracle_point_triangle(ebc, a, b, c, q), sqrt(2.0), EXACT);
    assert_vec(q, 1, 1, 0, EXACT, "edge bc");
    double eca[3] = {-0.5, 1, 0};
    cr_assert_float_eq(oracle_point_triangle(eca, a, b, c, q), 0.5, EXACT);
    /* degenerate (collinear) triangle */
    double d2[3] = {4, 0, 0};
    double p[3] = {3, 1, 0};
    cr_assert_float_eq(oracle_point_triangle(p, a, b, d2, q), 1.0, EXACT);
}

Test(oracle_self, triangle_triangle_hand_cases)
{
    double ca[3], cb[3];
    /* parallel planes, overlapping in projection */
    {
        double a0[3] = {0, 0, 0}, a1[3] = {1, 0, 0}, a2[3] = {0, 1, 0};
        double b0[3] = {0.2, 0.2, 1}, b1[3] = {1.2, 0.2, 1}, b2[3] = {0.2, 1.2, 1};
        const double *ta[3] = {a0, a1, a2}, *tb[3] = {b0, b1, b2};
        cr_assert_float_eq(oracle_triangle_triangle(ta, tb, ca, cb), 1.0, EXACT);
        cr_assert_float_eq(ov_dist(ca, cb), 1.0, EXACT);
    }
    /* crossing: an edge of B pierces A's interior */
    {
        double a0[3] = {-1, -1, 0}, a1[3] = {1, -1, 0}, a2[3] = {0, 1, 0};
        double b0[3] = {0, 0, -1}, b1[3] = {0, 0.2, 1}, b2[3] = {0, -0.2, 1};
        const double *ta[3] = {a0, a1, a2}, *tb[3] = {b0, b1, b2};
        cr_assert_float_eq(oracle_triangle_triangle(ta, tb, ca, cb), 0.0, EXACT);
        cr_assert_float_eq(oracle_triangle_triangle(tb, ta, ca, cb), 0.0, EXACT);
        assert_vec(ca, 0, 0.1, 0, 1e-12, "pierce point");
    }
    /* crossing through each other's interiors only (no vertex inside the other) */
    {
        double a0[3] = {-2, 0, -1}, a1[3] = {2, 0, -1}, a2[3] = {0, 0, 2};
        double b0[3] = {0, -2, 0}, b1[3] = {0, 2, 0}, b2[3] = {0, 0, 5};
        const double *ta[3] = {a0, a1, a2}, *tb[3] = {b0, b1, b2};
        cr_assert_float_eq(oracle_triangle_triangle(ta, tb, ca, cb), 0.0, EXACT);
    }
    /* vertex over the face */
    {
        double a0[3] = {0, 0, 0}, a1[3] = {2, 0, 0}, a2[3] = {0, 2, 0};
        double b0[3] = {0.3, 0.4, 0.3}, b1[3] = {0.3, 0.4, 2}, b2[3] = {1, 1, 2};
        const double *ta[3] = {a0, a1, a2}, *tb[3] = {b0, b1, b2};
        cr_assert_float_eq(oracle_triangle_triangle(ta, tb, ca, cb), 0.3, EXACT);
        assert_vec(ca, 0.3, 0.4, 0, EXACT, "ca");
        assert_vec(cb, 0.3, 0.4, 0.3, EXACT, "cb");
    }
    /* skew edges */
    {
        double a0[3] = {-1, 0, 0}, a1[3] = {1, 0, 0}, a2[3] = {0, 0, -1};
        double b0[3] = {0, -1, 0.5}, b1[3] = {0, 1, 0.5}, b2[3] = {0, 0, 1.5};
        const double *ta[3] = {a0, a1, a2}, *tb[3] = {b0, b1, b2};
        cr_assert_float_eq(oracle_triangle_triangle(ta, tb, ca, cb), 0.5, EXACT);
        assert_vec(ca, 0, 0, 0, EXACT, "ca");
        assert_vec(cb, 0, 0, 0.5, EXACT, "cb");
    }
    /* coplanar: disjoint, then overlapping */
    {
        double a0[3] = {0, 0, 0}, a1[3] = {1, 0, 0}, a2[3] = {0, 1, 0};
        double b0[3] = {2, 0, 0}, b1[3] = {3, 0, 0}, b2[3] = {2, 1, 0};
        const double *ta[3] = {a0, a1, a2}, *tb[3] = {b0, b1, b2};
        cr_assert_float_eq(oracle_triangle_triangle(ta, tb, ca, cb), 1.0, EXACT);
        double c0[3] = {0.2, 0.2, 0}, c1[3] = {3, 0.2, 0}, c2[3] = {0.2, 3, 0};
        const double *tc[3] = {c0, c1, c2};
        cr_assert_float_eq(oracle_triangle_triangle(ta, tc, ca, cb), 0.0, EXACT);
    }
}

/* ---- polytopes ---- */

/* positions go through float (cairn_transform) */
#define POS 2e-7

static oracle_result query(const oracle_poly *a, const oracle_poly *b)
{
    return oracle_query(a, b);
}

Test(oracle_self, cubes_separated_along_an_axis)
{
    oracle_poly a, b;
    make_box(&a, 0.5, 0, 0, 0, oracle_quat_identity());
    make_box(&b, 0.5, 1.5, 0.2, -0.1, oracle_quat_identity());
    oracle_result r = query(&a, &b);
    cr_assert(!r.overlap);
    cr_assert_float_eq(r.distance, 0.5, POS);
    assert_vec(r.normal, 1, 0, 0, POS, "normal");
    cr_assert_float_eq(r.pa[0], 0.5, POS);
    cr_assert_float_eq(r.pb[0], 1.0, POS);
    /* reversed: normal flips */
    r = query(&b, &a);
    cr_assert_float_eq(r.distance, 0.5, POS);
    assert_vec(r.normal, -1, 0, 0, POS, "normal");
}

Test(oracle_self, cubes_separated_diagonally)
{
    oracle_poly a, b;
    make_box(&a, 0.5, 0, 0, 0, oracle_quat_identity());
    /* edge-edge: gaps 0.3 in x and 0.4 in y, overlapping in z */
    make_box(&b, 0.5, 1.3, 1.4, 0.2, oracle_quat_identity());
    oracle_result r = query(&a, &b);
    cr_assert(!r.overlap);
    cr_assert_float_eq(r.distance, 0.5, POS);
    assert_vec(r.normal, 0.6, 0.8, 0, POS, "normal");
    /* vertex-vertex */
    make_box(&b, 0.5, 1.1, 1.2, 1.3, oracle_quat_identity());
    r = query(&a, &b);
    cr_assert_float_eq(r.distance, sqrt(0.14), POS);
    assert_vec(r.pa, 0.5, 0.5, 0.5, POS, "pa");
    assert_vec(r.pb, 0.6, 0.7, 0.8, POS, "pb");
    /* B rotated 45 degrees about z: its edge faces A's +x face */
    make_box(&b, 0.5, 1.5, 0, 0, oracle_axis_angle(0, 0, 1, ORACLE_PI / 4));
    r = query(&a, &b);
    /* float quaternion: the edge sits at 1.5 - 0.5 sqrt(2) up to ~1e-7 */
    cr_assert_float_eq(r.distance, 1.0 - 0.5 * sqrt(2.0), 1e-6);
    assert_vec(r.normal, 1, 0, 0, 1e-6, "normal");
}

Test(oracle_self, cubes_overlapping)
{
    oracle_poly a, b;
    make_box(&a, 0.5, 0, 0, 0, oracle_quat_identity());
    make_box(&b, 0.5, 0.7, 0.2, 0.1, oracle_quat_identity());
    oracle_result r = query(&a, &b);
    cr_assert(r.overlap);
    cr_assert_float_eq(r.distance, -0.3, POS);
    assert_vec(r.normal, 1, 0, 0, POS, "normal");
    make_box(&b, 0.5, 0.1, -0.8, 0.05, oracle_quat_identity());
    r = query(&a, &b);
    cr_assert_float_eq(r.distance, -0.2, POS);
    assert_vec(r.normal, 0, -1, 0, POS, "normal");
    /* same pose: depth is the full width, along some axis */
    make_box(&b, 0.5, 0, 0, 0, oracle_quat_identity());
    r = query(&a, &b);
    cr_assert_float_eq(r.distance, -1.0, POS);
    /* exactly touching: depth 0, still "overlapping" for SAT */
    make_box(&b, 0.5, 1, 0.3, 0, oracle_quat_identity());
    r = query(&a, &b);
    cr_assert(r.overlap);
    cr_assert_float_eq(r.distance, 0.0, POS);
    assert_vec(r.normal, 1, 0, 0, POS, "normal");
}

/* Tetrahedron (0,0,0), (s,0,0), (0,s,0), (0,0,s) scaled by s = +-1, placed at pos. */
static void make_tetra(oracle_poly *p, double s, double x, double y, double z)
{
    double v[4][3] = {{x, y, z}, {x + s, y, z}, {x, y + s, z}, {x, y, z + s}};
    static const int faces[] = {0, 2, 1, -1, 0, 1, 3, -1, 0, 3, 2, -1, 1, 2, 3, -1, -2};
    oracle_poly_from_faces(p, (const double(*)[3])v, 4, faces);
    cr_assert(p->ok);
}

Test(oracle_self, tetrahedron_vs_cube)
{
    oracle_poly cube, tet;
    make_box(&cube, 0.5, 0, 0, 0, oracle_quat_identity());
    /* vertex-vertex: the tetrahedron's corner 0.1 beyond the cube's corner on every axis */
    make_tetra(&tet, 1, 0.6, 0.6, 0.6);
    oracle_result r = query(&cube, &tet);
    cr_assert(!r.overlap);
    cr_assert_float_eq(r.distance, sqrt(3.0) * 0.1, POS);
    /* vertex-face: the slanted face x + y + z = 3.5 faces the corner (0.5, 0.5, 0.5) */
    make_tetra(&tet, -1, 1.5, 1.5, 1.5);
    r = query(&cube, &tet);
    cr_assert(!r.overlap);
    cr_assert_float_eq(r.distance, 2.0 / sqrt(3.0), POS);
    double k = 1.0 / sqrt(3.0);
    assert_vec(r.normal, k, k, k, POS, "normal");
    assert_vec(r.pa, 0.5, 0.5, 0.5, POS, "pa");
    assert_vec(r.pb, 0.5 + 2.0 / 3.0, 0.5 + 2.0 / 3.0, 0.5 + 2.0 / 3.0, POS, "pb");
    /* overlapping: the corner at (0.4, -0.2, -0.2) pokes 0.1 into the cube past its +x face */
    make_tetra(&tet, 1, 0.4, -0.2, -0.2);
    r = query(&cube, &tet);
    cr_assert(r.overlap);
    cr_assert_float_eq(r.distance, -0.1, POS);
    assert_vec(r.normal, 1, 0, 0, POS, "normal");
}

/* Axis-aligned boxes: distance and depth in closed form. */
Test(oracle_self, random_axis_aligned_boxes)
{
    oracle_rng rng;
    oracle_rng_seed(&rng, 0xA11A);
    for (int i = 0; i < 500; ++i) {
        double ha[3], hb[3], c[3];
        for (int k = 0; k < 3; ++k) {
            ha[k] = oracle_uniform(&rng, 0.1, 1);
            hb[k] = oracle_uniform(&rng, 0.1, 1);
            c[k] = oracle_uniform(&rng, -2.5, 2.5);
        }
        oracle_poly a, b;
        oracle_poly_from_box(&a, ha[0], ha[1], ha[2],
                             oracle_transform(0, 0, 0, oracle_quat_identity()));
        oracle_poly_from_box(&b, hb[0], hb[1], hb[2],
                             oracle_transform(c[0], c[1], c[2], oracle_quat_identity()));
        /* the positions went through float */
        for (int k = 0; k < 3; ++k)
            c[k] = (float)c[k];
        double gap2 = 0, depth = INFINITY;
        bool overlap = true;
        for (int k = 0; k < 3; ++k) {
            double g = fabs(c[k]) - ha[k] - hb[k];
            if (g > 0) {
                gap2 += g * g;
                overlap = false;
            }
            depth = fmin(depth, -g);
        }
        oracle_result r = query(&a, &b);
        cr_assert_eq(r.overlap, overlap, "box pair %d", i);
        if (overlap)
            cr_assert_float_eq(r.distance, -depth, 1e-12, "box pair %d", i);
        else
            cr_assert_float_eq(r.distance, sqrt(gap2), 1e-12, "box pair %d", i);
    }
}

/* Through the engine's hull topology: a cube from its 8 corners plus interior points must give
   the same answers as the closed-form box. */
Test(oracle_self, hull_topology_of_a_cube)
{
    vec3s pts[12];
    for (int i = 0; i < 8; ++i)
        pts[i] = (vec3s){{i & 1 ? 0.5f : -0.5f, i & 2 ? 0.5f : -0.5f, i & 4 ? 0.5f : -0.5f}};
    pts[8] = (vec3s){{0.1f, 0.2f, 0.3f}};
    pts[9] = (vec3s){{-0.2f, 0.0f, 0.1f}};
    pts[10] = (vec3s){{0.4f, -0.4f, 0.0f}};
    pts[11] = (vec3s){{0.0f, 0.0f, 0.0f}};
    cairn_shape *s = cairn_shape_hull(pts, 12, 0.0f);
    cr_assert_not_null(s, "%s", cairn_last_error());
    cr_assert(oracle_hull_matches_points(s, pts, 12, 1e-6));
    cr_assert_eq(cairn_hull_vertex_count(s), 8);
    oracle_poly a, b;
    oracle_poly_from_hull(&a, s, oracle_transform(0, 0, 0, oracle_quat_identity()));
    oracle_poly_from_hull(&b, s, oracle_transform(1.3, 1.4, 0.2, oracle_quat_identity()));
    cr_assert(a.ok && b.ok);
    oracle_result r = query(&a, &b);
    cr_assert(!r.overlap);
    cr_assert_float_eq(r.distance, 0.5, 1e-7);
    oracle_poly_from_hull(&b, s, oracle_transform(0.7, 0.2, 0.1, oracle_quat_identity()));
    r = query(&a, &b);
    cr_assert(r.overlap);
    cr_assert_float_eq(r.distance, -0.3, 1e-7);
    cairn_shape_release(s);
}

/* Seed 002's prisms (triangles extruded to z in [-1, 1]) overlap by 2/sqrt(5). */
Test(oracle_self, seed_002_prisms)
{
    double v[12][3];
    static const double ta[3][2] = {{0, 1}, {1, -1}, {-1, -1}};
    static const double tb[3][2] = {{0, -1}, {1, 1}, {-1, 1}};
    static const int faces[] = {0,  1, 2, -1, 3, 4,  5, -1, 0, 1, 4,  3,
                                -1, 1, 2, 5,  4, -1, 2, 0,  3, 5, -1, -2};
    for (int i = 0; i < 3; ++i) {
        ov_set(v[i], ta[i][0], ta[i][1], -1);
        ov_set(v[i + 3], ta[i][0], ta[i][1], 1);
        ov_set(v[i + 6], tb[i][0], tb[i][1], -1);
        ov_set(v[i + 9], tb[i][0], tb[i][1], 1);
    }
    oracle_poly a, b;
    oracle_poly_from_faces(&a, (const double(*)[3])v, 6, faces);
    oracle_poly_from_faces(&b, (const double(*)[3])(v + 6), 6, faces);
    cr_assert(a.ok && b.ok);
    oracle_result r = query(&a, &b);
    cr_assert(r.overlap);
    cr_assert_float_eq(r.distance, -2.0 / sqrt(5.0), 1e-12);
    cr_assert(fabs(fabs(r.normal[0]) - 2.0 / sqrt(5.0)) < 1e-12 &&
                  fabs(r.normal[1] - 1.0 / sqrt(5.0)) < 1e-12 && r.normal[2] == 0,
              "normal (%g %g %g)", r.normal[0], r.normal[1], r.normal[2]);
}

/* ---- the oracle against an independent bound on random hull pairs ----
   Overlapping: for every unit n, h_A(n) + h_B(-n) >= depth (the depth is the minimum over all
   directions), and a dense sample refined by local search comes back down to the depth.
   Separated: for every n the gap min_B(n) - max_A(n) <= distance <= |pb - pa| with pa in A and
   pb in B; the oracle's closest points make both bounds meet. */

static double directed_overlap(const oracle_poly *a, const oracle_poly *b, const double n[3])
{
    return oracle_directed_overlap(a, b, n);
}

static void unit_from(double n[3], vec3s u)
{
    ov_from(n, u);
    double l = ov_norm(n);
    for (int k = 0; k < 3; ++k)
        n[k] /= l;
}

/* Minimum of h_A(n) + h_B(-n) over dense random directions, then refined by shrinking random
   steps. */
static double sampled_min_overlap(const oracle_poly *a, const oracle_poly *b, oracle_rng *rng,
                                  int samples)
{
    double best = INFINITY, bn[3] = {0, 0, 1}, n[3];
    for (int i = 0; i < samples; ++i) {
        unit_from(n, oracle_unit_vector(rng));
        double o = directed_overlap(a, b, n);
        if (o < best) {
            best = o;
            ov_copy(bn, n);
        }
    }
    for (double step = 0.05; step > 1e-9; step *= 0.7) {
        for (int i = 0; i < 40; ++i) {
            vec3s u = oracle_unit_vector(rng);
            double m[3];
            for (int k = 0; k < 3; ++k)
                m[k] = bn[k] + step * u.raw[k];
            double l = ov_norm(m);
            for (int k = 0; k < 3; ++k)
                m[k] /= l;
            double o = directed_overlap(a, b, m);
            if (o < best) {
                best = o;
                ov_copy(bn, m);
            }
        }
    }
    return best;
}

Test(oracle_self, random_hulls_against_bounds)
{
    oracle_rng rng;
    oracle_rng_seed(&rng, 0x5E1F);
    int overlapping = 0, separated = 0, refined_close = 0;
    for (int i = 0; i < 300; ++i) {
        vec3s pa[40], pb[40];
        int na = oracle_int(&rng, 4, 40), nb = oracle_int(&rng, 4, 40);
        oracle_random_points(&rng, pa, na);
        oracle_random_points(&rng, pb, nb);
        cairn_shape *sa = cairn_shape_hull(pa, na, 0.0f);
        cairn_shape *sb = cairn_shape_hull(pb, nb, 0.0f);
        if (!sa || !sb) {
            cairn_shape_release(sa);
            cairn_shape_release(sb);
            continue;
        }
        cr_assert(oracle_hull_matches_points(sa, pa, na, 1e-5), "pair %d: hull A", i);
        cr_assert(oracle_hull_matches_points(sb, pb, nb, 1e-5), "pair %d: hull B", i);
        vec3s d = oracle_unit_vector(&rng);
        double t = oracle_uniform(&rng, 0, 1.6);
        cairn_transform xa = oracle_transform(0, 0, 0, oracle_rotation(&rng));
        cairn_transform xb = oracle_transform(t * d.x, t * d.y, t * d.z, oracle_rotation(&rng));
        oracle_poly a, b;
        oracle_poly_from_hull(&a, sa, xa);
        oracle_poly_from_hull(&b, sb, xb);
        cr_assert(a.ok && b.ok);
        oracle_result r = oracle_query(&a, &b);
        if (r.overlap) {
            overlapping++;
            double depth = -r.distance;
            cr_assert_float_eq(directed_overlap(&a, &b, r.normal), depth, 1e-12, "pair %d", i);
            double m = sampled_min_overlap(&a, &b, &rng, 3000);
            cr_assert(m >= depth - 1e-9, "pair %d: direction with overlap %.12g < depth %.12g", i,
                      m, depth);
            cr_assert(m <= depth + 0.05, "pair %d: sampled min %.9g far above depth %.9g", i, m,
                      depth);
            if (m <= depth + 1e-6)
                refined_close++;
        } else {
            separated++;
            cr_assert(r.distance > 0, "pair %d", i);
            cr_assert_float_eq(ov_dist(r.pa, r.pb), r.distance, 1e-12);
            cr_assert(oracle_poly_plane_distance(&a, r.pa) <= 1e-9, "pair %d: pa not in A", i);
            cr_assert(oracle_poly_plane_distance(&b, r.pb) <= 1e-9, "pair %d: pb not in B", i);
            /* the gap along the closest-point direction equals |pb - pa|: lower bound = upper */
            double gap = -directed_overlap(&a, &b, r.normal);
            cr_assert_float_eq(gap, r.distance, 1e-9, "pair %d: gap %.12g distance %.12g", i, gap,
                               r.distance);
            /* and no direction separates by more */
            double m = sampled_min_overlap(&a, &b, &rng, 1000);
            cr_assert(-m <= r.distance + 1e-9, "pair %d", i);
            /* SAT's own largest gap can never exceed the distance */
            oracle_sat s = oracle_sat_query(&a, &b, false);
            cr_assert(!s.overlap && s.depth <= r.distance + 1e-9, "pair %d", i);
        }
        cairn_shape_release(sa);
        cairn_shape_release(sb);
    }
    cr_assert(overlapping > 50 && separated > 50, "mix: %d overlapping, %d separated", overlapping,
              separated);
    /* the local search reaches the SAT minimum on most pairs (it may stop in another local
       minimum of the support function, never below) */
    cr_assert(refined_close > overlapping / 2, "%d of %d", refined_close, overlapping);
}
