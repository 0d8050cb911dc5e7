/* Meshes for the mesh tests: tessellated floors and random triangle soups, built through the
   public API, and a small deterministic random generator. */
#ifndef CAIRN_TESTS_MESH_HELPERS_H
#define CAIRN_TESTS_MESH_HELPERS_H

#include <cairn/cairn.h>
#include "dynamics/scene_helpers.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct test_rng {
    uint64_t state;
} test_rng;

static inline double rng_unit(test_rng *r)
{
    r->state = r->state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(r->state >> 11) / 9007199254740992.0;
}

static inline float rng_range(test_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)rng_unit(r);
}

/* A floor of cells x cells squares of side `cell` centred on the origin in the XZ plane, two
   triangles per square split along alternating diagonals, facing +Y, rotated by `tilt` radians
   about +Z. */
static inline cairn_shape *floor_mesh(int cells, float cell, float tilt)
{
    int n = cells + 1;
    vec3s *v = malloc((size_t)(n * n) * sizeof *v);
    int *idx = malloc((size_t)(cells * cells * 6) * sizeof *idx);
    float half = 0.5f * (float)cells * cell, c = cosf(tilt), s = sinf(tilt);
    for (int z = 0; z < n; ++z)
        for (int x = 0; x < n; ++x) {
            float px = (float)x * cell - half, pz = (float)z * cell - half;
            v[z * n + x] = (vec3s){{px * c, px * s, pz}};
        }
    int k = 0;
    for (int z = 0; z < cells; ++z)
        for (int x = 0; x < cells; ++x) {
            int a = z * n + x, b = a + 1, d = a + n, e = d + 1;
            if ((x + z) % 2 == 0) {
                int t[6] = {a, d, e, a, e, b};
                for (int i = 0; i < 6; ++i)
                    idx[k++] = t[i];
            } else {
                int t[6] = {a, d, b, b, d, e};
                for (int i = 0; i < 6; ++i)
                    idx[k++] = t[i];
            }
        }
    cairn_shape *shape = cairn_shape_mesh(v, n * n, idx, cells * cells * 2);
    free(v);
    free(idx);
    return shape;
}

/* A constructor call that must fail: NULL, a message holding `needle`, nothing leaked. */
#define REJECT(call, needle)                                                                       \
    do {                                                                                           \
        cairn_clear_error();                                                                       \
        size_t before = cairn_allocated_bytes();                                                   \
        cairn_shape *shape = (call);                                                               \
        cr_expect_null(shape, "%s was accepted", #call);                                           \
        cr_expect(strstr(cairn_last_error(), needle) != NULL, "%s: message '%s' lacks '%s'",       \
                  #call, cairn_last_error(), needle);                                              \
        cairn_shape_release(shape);                                                                \
        cr_expect_eq(cairn_allocated_bytes(), before, "%s leaked", #call);                         \
    } while (0)

/* A mesh of the one triangle with corners c (its local frame), asserted built. */
static inline cairn_shape *one_triangle_mesh(const double c[3][3])
{
    vec3s corners[3];
    for (int v = 0; v < 3; ++v)
        corners[v] = (vec3s){{(float)c[v][0], (float)c[v][1], (float)c[v][2]}};
    int idx[3] = {0, 1, 2};
    cairn_shape *mesh = cairn_shape_mesh(corners, 3, idx, 1);
    cr_assert_not_null(mesh, "%s", cairn_last_error());
    return mesh;
}

/* The unit square in the XZ plane, as two triangles facing +Y. */
static const vec3s unit_quad[4] = {{{0, 0, 0}}, {{1, 0, 0}}, {{1, 0, 1}}, {{0, 0, 1}}};
static const int unit_quad_triangles[6] = {0, 3, 2, 0, 2, 1};

/* A 0.8 x 0.5 x 0.8 m box of the given friction at (x, on the ground, -7) sliding along +z at
   5 m/s, never sleeping: the materials tests' probe of v^2 / (2 mu g). */
static inline cairn_body_id mesh_sliding_box(cairn_world *world, float x, float friction)
{
    cairn_body_def def = cairn_body_default_def();
    vec3s half = v3(0.4f, 0.25f, 0.4f);
    def.shape = cairn_shape_box(half, SCENE_RADIUS);
    def.transform = scene_at(v3(x, half.y, -7.0f));
    def.linear_velocity = v3(0, 0, 5.0f);
    def.friction = friction;
    def.allow_sleep = false;
    cairn_body_id id = cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);
    return id;
}

#endif
