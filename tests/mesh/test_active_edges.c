/* Active edges, decided from the geometry: on a flat tessellated floor only the border edges are
   active; a convex fold sharper than 5 degrees is active, a concave or flatter one is not; the
   same for heightfields, whose neighbours are implicit in the grid. */
#include <criterion/criterion.h>

#include "geometry/triangles.h"
#include "mesh/mesh_helpers.h"

static bool on_border(vec3s a, vec3s b, float half)
{
    const float eps = 1e-4f;
    return (fabsf(fabsf(a.x) - half) < eps && fabsf(b.x - a.x) < eps) ||
           (fabsf(fabsf(a.z) - half) < eps && fabsf(b.z - a.z) < eps);
}

Test(active_edges, a_flat_floor_has_only_its_border_active)
{
    cairn_shape *floor = floor_mesh(6, 0.5f, 0.3f); /* tilted: the rule must not assume +Y */
    int active = 0, border = 0;
    for (int t = 0; t < cairn_shape_triangle_count(floor); ++t) {
        vec3s c[3];
        cr_assert(cairn_shape_triangle(floor, t, c));
        for (int e = 0; e < 3; ++e) {
            /* undo the tilt about Z to read the floor coordinates */
            vec3s a = glms_quat_rotatev(glms_quatv(-0.3f, (vec3s){{0, 0, 1}}), c[e]);
            vec3s b = glms_quat_rotatev(glms_quatv(-0.3f, (vec3s){{0, 0, 1}}), c[(e + 1) % 3]);
            bool expected = on_border(a, b, 1.5f);
            border += expected;
            active += triangles_edge_active(floor, t, e);
            cr_expect_eq(triangles_edge_active(floor, t, e), expected,
                         "triangle %d edge %d: active %d, on the border %d", t, e,
                         triangles_edge_active(floor, t, e), expected);
        }
    }
    cr_expect_eq(border, 4 * 6, "the floor has %d border edges", border);
    cairn_shape_release(floor);
}

/* Two triangles sharing the edge (0,0,-1)-(0,0,1), each 1 m wide, the second one's far side at
   height 1 m * tan(angle) (angle > 0: folding up, concave seen from above). Returns whether the
   shared edge is active for each triangle. */
static void fold(float angle, bool *first, bool *second)
{
    vec3s v[4] = {{{-1, 0, -1}}, {{0, 0, -1}}, {{0, 0, 1}}, {{1, tanf(angle), 0}}};
    int idx[6] = {0, 2, 1, 1, 2, 3};
    cairn_shape *mesh = cairn_shape_mesh(v, 4, idx, 2);
    cr_assert_not_null(mesh, "%s", cairn_last_error());
    /* triangle 0: edge 1 runs 2 -> 1; triangle 1: edge 0 runs 1 -> 2 */
    *first = triangles_edge_active(mesh, 0, 1);
    *second = triangles_edge_active(mesh, 1, 0);
    cr_expect(triangles_edge_active(mesh, 0, 0) && triangles_edge_active(mesh, 1, 1),
              "border edges are active");
    cairn_shape_release(mesh);
}

Test(active_edges, convex_folds_are_active_concave_and_nearly_flat_ones_are_not)
{
    struct {
        float degrees;
        bool active;
    } cases[] = {{-30, true}, {-10, true}, {-3, false}, {0, false}, {3, false}, {30, false}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        bool a, b;
        fold(cases[i].degrees * GLM_PIf / 180.0f, &a, &b);
        cr_expect_eq(a, cases[i].active, "fold %g degrees, first triangle",
                     (double)cases[i].degrees);
        cr_expect_eq(b, cases[i].active, "fold %g degrees, second triangle",
                     (double)cases[i].degrees);
    }
}

Test(active_edges, heightfield_edges_follow_the_same_rule)
{
    enum { N = 6 };
    /* a ridge along z at x = 2 (convex, 45 degrees each side), a valley at x = 4 (concave) */
    float h[N * N];
    static const float profile[N] = {0, 1, 2, 1, 0, 0};
    for (int z = 0; z < N; ++z)
        for (int x = 0; x < N; ++x)
            h[z * N + x] = profile[x];
    cairn_shape *field = cairn_shape_heightfield(h, N, N, (vec3s){{1, 1, 1}});
    cr_assert_not_null(field);
    int checked = 0;
    for (int t = 0; t < cairn_shape_triangle_count(field); ++t) {
        vec3s c[3];
        cairn_shape_triangle(field, t, c);
        for (int e = 0; e < 3; ++e) {
            vec3s a = c[e], b = c[(e + 1) % 3];
            bool border = (a.x == b.x && (a.x == 0 || a.x == N - 1)) ||
                          (a.z == b.z && (a.z == 0 || a.z == N - 1));
            bool ridge = a.x == 2 && b.x == 2;
            bool expected = border || ridge;
            cr_expect_eq(triangles_edge_active(field, t, e), expected,
                         "triangle %d edge %d (%g,%g)-(%g,%g)", t, e, (double)a.x, (double)a.z,
                         (double)b.x, (double)b.z);
            checked += ridge || (a.x == 4 && b.x == 4);
        }
    }
    cr_expect_gt(checked, 0);
    cairn_shape_release(field);
}

/* A flat disc of `count` triangles around one centre vertex (a bucket of `count` edges in the
   edge sort, past its insertion-sort size), its rim at radius 1, and a spike: a last triangle
   standing on the first spoke, which the spoke then joins three times. The spokes between two
   rim triangles are inactive; the rim, the shared-three-times spoke and the spike's own edges are
   active. */
Test(active_edges, a_fan_around_one_vertex_keeps_its_spokes_inactive)
{
    enum { count = 96 };
    vec3s v[count + 2];
    int idx[3 * (count + 1)];
    v[0] = (vec3s){{0, 0, 0}};
    for (int i = 0; i < count; ++i) {
        float angle = 2.0f * GLM_PIf * (float)i / count;
        v[i + 1] = (vec3s){{cosf(angle), 0, -sinf(angle)}}; /* counter-clockwise from +Y */
        idx[3 * i] = 0;
        idx[3 * i + 1] = i + 1;
        idx[3 * i + 2] = (i + 1) % count + 1;
    }
    v[count + 1] = (vec3s){{0.5f, 1, 0.5f}};
    idx[3 * count] = 0, idx[3 * count + 1] = 1, idx[3 * count + 2] = count + 1;
    cairn_shape *mesh = cairn_shape_mesh(v, count + 2, idx, count + 1);
    cr_assert_not_null(mesh, "%s", cairn_last_error());
    int inactive = 0;
    for (int t = 0; t < count; ++t) {
        /* edge 0: centre -> rim i (the spoke before), 1: the rim, 2: the spoke after */
        cr_expect(triangles_edge_active(mesh, t, 1), "triangle %d: its rim edge is not active", t);
        for (int e = 0; e < 3; e += 2) {
            bool first_spoke = (t == 0 && e == 0) || (t == count - 1 && e == 2);
            bool active = triangles_edge_active(mesh, t, e);
            inactive += !active;
            cr_expect_eq(active, first_spoke, "triangle %d, edge %d: active %d", t, e, active);
        }
    }
    cr_expect_eq(inactive, 2 * (count - 1), "%d inactive spoke sides", inactive);
    for (int e = 0; e < 3; ++e)
        cr_expect(triangles_edge_active(mesh, count, e), "the spike's edge %d is not active", e);
    cairn_shape_release(mesh);
}
