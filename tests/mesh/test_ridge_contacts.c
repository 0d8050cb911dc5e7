/* Convex bodies touching the shared edge of two triangles that fold by less than 5 degrees: the
   edge is inactive (flat enough that it may push only along a face normal), yet a body resting
   on it, or sinking into it, must get contact points. Each pose goes through the mesh narrow
   phase (mesh_manifolds) and is checked against the answer in double: the gap from the oracle
   (tests/collision/oracle.h) when the body is above the ridge, the depth of its lowest point
   under the faces' planes when it sinks into it. This is the pose of issue 14's pyramids: a
   corner landing on a seam of the terrain where two triangles meet at 4.3 degrees. */
#include <criterion/criterion.h>

#include "collision/mesh_collide.h"
#include "collision/oracle.h"
#include "geometry/triangles.h"

/* The ridge runs along z at x = 0, y = 0; each side falls away by `slope` radians over W m. */
static const double W = 2.0, L = 2.0;
static const double RIDGE_Z = 0.3;    /* where the bodies touch the ridge */
static const float margin = 0.05f;    /* the speculative distance */
static const double tolerance = 2e-3; /* m */
enum { LEFT = 1, RIGHT = 2 };         /* the two triangles sharing the ridge */

static cairn_shape *ridge_mesh(double slope)
{
    float drop = (float)(-W * tan(slope));
    vec3s v[6] = {
        {{(float)-W, drop, (float)-L}}, {{0, 0, (float)-L}}, {{(float)W, drop, (float)-L}},
        {{(float)-W, drop, (float)L}},  {{0, 0, (float)L}},  {{(float)W, drop, (float)L}}};
    /* counter-clockwise seen from above; triangles 1 and 2 share the ridge 1-4 */
    int idx[12] = {0, 3, 1, 1, 3, 4, 1, 4, 2, 2, 4, 5};
    cairn_shape *mesh = cairn_shape_mesh(v, 6, idx, 4);
    cr_assert_not_null(mesh, "%s", cairn_last_error());
    return mesh;
}

static void triangle_corners(const cairn_shape *mesh, int t, double c[3][3])
{
    vec3s corners[3];
    cr_assert(cairn_shape_triangle(mesh, t, corners));
    for (int k = 0; k < 3; ++k)
        ov_from(c[k], corners[k]);
}

/* Unit normal and offset of a triangle's plane, in double. */
static void plane_of(const double c[3][3], double n[3], double *offset)
{
    double ab[3], ac[3];
    ov_sub(ab, c[1], c[0]);
    ov_sub(ac, c[2], c[0]);
    ov_cross(n, ab, ac);
    double l = ov_norm(n);
    ov_set(n, n[0] / l, n[1] / l, n[2] / l);
    *offset = ov_dot(n, c[0]);
}

typedef struct body {
    const char *name;
    cairn_shape *shape;
    cairn_transform xf;
} body;

/* World corners of a sharp box or hull (radius 0), in double; returns how many. */
static int corners_of(const body *b, double out[][3])
{
    oracle_xf x = oracle_xf_from(b->xf);
    cairn_shape_params s = cairn_shape_get_params(b->shape);
    int n = 0;
    if (s.type == CAIRN_SHAPE_BOX) {
        for (int i = 0; i < 8; ++i) {
            double local[3] = {i & 1 ? s.half_extents.x : -s.half_extents.x,
                               i & 2 ? s.half_extents.y : -s.half_extents.y,
                               i & 4 ? s.half_extents.z : -s.half_extents.z};
            oracle_xf_point(&x, local, out[n++]);
        }
        return n;
    }
    for (int i = 0; i < cairn_hull_vertex_count(b->shape); ++i) {
        double local[3];
        ov_from(local, cairn_hull_vertex(b->shape, i));
        oracle_xf_point(&x, local, out[n++]);
    }
    return n;
}

/* How deep the body reaches under a plane (max over the body of offset - n.x; < 0 above it). */
static double depth_under(const body *b, const double n[3], double offset)
{
    cairn_shape_params s = cairn_shape_get_params(b->shape);
    if (s.type == CAIRN_SHAPE_SPHERE) {
        double c[3];
        ov_from(c, b->xf.position);
        return offset - ov_dot(n, c) + s.radius;
    }
    double v[ORACLE_MAX_VERTS][3];
    int count = corners_of(b, v);
    double deepest = -INFINITY;
    for (int i = 0; i < count; ++i)
        deepest = fmax(deepest, offset - ov_dot(n, v[i]));
    return deepest;
}

/* The body's gap to one triangle (>= 0; the body does not overlap it). */
static double gap_to(const body *b, const double c[3][3])
{
    cairn_shape_params s = cairn_shape_get_params(b->shape);
    if (s.type == CAIRN_SHAPE_SPHERE) {
        double centre[3];
        ov_from(centre, b->xf.position);
        return oracle_point_triangle(centre, c[0], c[1], c[2], NULL) - s.radius;
    }
    oracle_poly tri, shape;
    static const int faces[] = {0, 1, 2, -1, 0, 2, 1, -1, -2};
    oracle_poly_from_faces(&tri, c, 3, faces);
    if (s.type == CAIRN_SHAPE_BOX)
        oracle_poly_from_box(&shape, s.half_extents.x, s.half_extents.y, s.half_extents.z, b->xf);
    else
        oracle_poly_from_hull(&shape, b->shape, b->xf);
    oracle_result r = oracle_query(&tri, &shape);
    cr_assert(!r.overlap, "%s: the gap asked of an overlapping pose", b->name);
    return r.distance;
}

/* The answer: above the ridge, the smallest gap to its triangles; in it (the lowest point under
   both faces' planes), minus the smaller of the two depths (the ridge is symmetric and the body
   centred on it, so both are equal). */
static double expected_separation(const body *b, const cairn_shape *mesh)
{
    double c[4][3][3], n[3], offset, under = INFINITY;
    bool inside = true;
    for (int t = 0; t < 4; ++t)
        triangle_corners(mesh, t, c[t]);
    for (int t = LEFT; t <= RIGHT; ++t) {
        plane_of(c[t], n, &offset);
        double d = depth_under(b, n, offset);
        inside = inside && d > 0.0;
        under = fmin(under, d);
    }
    if (inside)
        return -under;
    double gap = INFINITY;
    for (int t = 0; t < 4; ++t)
        gap = fmin(gap, gap_to(b, c[t]));
    return gap;
}

/* Moves the body so that its lowest point (world y) lies at (0, height, RIDGE_Z). */
static void place_lowest_at(body *b, double height)
{
    cairn_shape_params s = cairn_shape_get_params(b->shape);
    double lowest[3] = {0, 0, 0};
    if (s.type == CAIRN_SHAPE_SPHERE) {
        lowest[1] = -s.radius;
    } else {
        b->xf.position = (vec3s){{0, 0, 0}};
        double v[ORACLE_MAX_VERTS][3];
        int count = corners_of(b, v);
        ov_copy(lowest, v[0]);
        for (int i = 1; i < count; ++i)
            if (v[i][1] < lowest[1])
                ov_copy(lowest, v[i]);
    }
    b->xf.position =
        (vec3s){{(float)-lowest[0], (float)(height - lowest[1]), (float)(RIDGE_Z - lowest[2])}};
}

/* The deepest point of the body pair's manifolds, its manifold's normal (from the mesh towards
   the body) and how many points there are. */
typedef struct contact_summary {
    int points;
    float deepest;
    vec3s normal;
} contact_summary;

static contact_summary collide(const cairn_shape *mesh, const body *b, bool mesh_first)
{
    cairn_transform identity = {{{0, 0, 0}}, {{0, 0, 0, 1}}};
    manifold out[CONTACT_MAX_MANIFOLDS];
    int count =
        mesh_first ? mesh_manifolds(mesh, identity, b->shape, b->xf, margin, NULL, NULL, out, NULL)
                   : mesh_manifolds(b->shape, b->xf, mesh, identity, margin, NULL, NULL, out, NULL);
    contact_summary s = {0, INFINITY, {{0, 0, 0}}};
    for (int m = 0; m < count; ++m)
        for (int i = 0; i < out[m].point_count; ++i) {
            s.points++;
            if (out[m].points[i].separation < s.deepest) {
                s.deepest = out[m].points[i].separation;
                s.normal = mesh_first ? out[m].normal : glms_vec3_negate(out[m].normal);
            }
        }
    return s;
}

static body make_body(int kind)
{
    vec3s pyramid[5] = {{{0, 1, 0}}, {{1, 0, 0}}, {{-1, 0, 0}}, {{0, 0, 1}}, {{0, 0, -1}}};
    /* tilted so that one corner points down, then turned about the vertical so that no edge of
       the body runs along the ridge */
    versors turn = oracle_axis_angle(0, 1, 0, 0.35);
    switch (kind) {
    case 0:
        return (body){"pyramid",
                      cairn_shape_hull(pyramid, 5, 0.0f),
                      {{{0, 0, 0}}, glms_quat_mul(turn, oracle_axis_angle(0, 0, 1, 0.5))}};
    case 1:
        return (body){"box",
                      cairn_shape_box((vec3s){{0.5f, 0.75f, 1.0f}}, 0.0f),
                      {{{0, 0, 0}},
                       glms_quat_mul(turn, glms_quat_mul(oracle_axis_angle(0, 0, 1, 0.6),
                                                         oracle_axis_angle(1, 0, 0, 0.5)))}};
    default:
        return (body){"sphere", cairn_shape_sphere(0.5f), {{{0, 0, 0}}, {{0, 0, 0, 1}}}};
    }
}

Test(ridge_contacts, a_body_on_a_nearly_flat_convex_seam_keeps_its_contact)
{
    static const double fold_degrees[] = {1.0, 3.0, 4.3, 4.9}; /* all under the 5-degree rule */
    static const double heights[] = {0.02, 0.005, 0.0, -0.01, -0.04}; /* of the lowest point */
    int checked = 0;
    for (size_t f = 0; f < sizeof fold_degrees / sizeof fold_degrees[0]; ++f) {
        double slope = 0.5 * fold_degrees[f] * ORACLE_PI / 180.0;
        cairn_shape *mesh = ridge_mesh(slope);
        /* The case exists only while the seam is inactive for both triangles. */
        cr_assert(!triangles_edge_active(mesh, LEFT, 2) && !triangles_edge_active(mesh, RIGHT, 0),
                  "the %g-degree seam is active", fold_degrees[f]);
        for (int kind = 0; kind < 3; ++kind) {
            body b = make_body(kind);
            cr_assert_not_null(b.shape);
            for (size_t h = 0; h < sizeof heights / sizeof heights[0]; ++h) {
                place_lowest_at(&b, heights[h]);
                double truth = expected_separation(&b, mesh);
                for (int order = 0; order < 2; ++order) {
                    contact_summary s = collide(mesh, &b, order == 0);
                    const char *where = order == 0 ? "mesh first" : "body first";
                    cr_expect_gt(s.points, 0,
                                 "%s %g m over a %g-degree seam (%s): no contact point "
                                 "(expected separation %.4f)",
                                 b.name, heights[h], fold_degrees[f], where, truth);
                    if (s.points == 0)
                        continue;
                    cr_expect(fabs(s.deepest - truth) <= tolerance,
                              "%s %g m over a %g-degree seam (%s): deepest point %.4f m, "
                              "expected %.4f m",
                              b.name, heights[h], fold_degrees[f], where, (double)s.deepest, truth);
                    /* Inactive: only a face's normal may push (no ghost bump sideways). */
                    cr_expect_geq(s.normal.y, cos(slope) - 1e-4,
                                  "%s %g m over a %g-degree seam (%s): normal (%g, %g, %g)", b.name,
                                  heights[h], fold_degrees[f], where, (double)s.normal.x,
                                  (double)s.normal.y, (double)s.normal.z);
                    checked++;
                }
            }
            cairn_shape_release(b.shape);
        }
        cairn_shape_release(mesh);
    }
    cr_expect_eq(checked, 4 * 3 * 5 * 2);
}
