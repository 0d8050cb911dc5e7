/* Hulls of nearly flat clouds: thicker than the builder's planes but within the promised
   tolerance. The quickhull loop merged two faces back to back and then walked their shared
   boundary forever; such input is now rejected as coplanar (the cloud's width across the first
   triangle is measured against the promised tolerance, and a result without volume is an
   error). */
#include <criterion/criterion.h>
#include <string.h>

#include <cairn/cairn.h>

/* Found by tests/collision/test_stress_pairs.c: 11 points 1.7e-4 m thick over 24 m. */
Test(hull_near_flat, thin_cloud_is_rejected_as_coplanar, .timeout = 10)
{
    const vec3s points[] = {{{4.05349398f, -6.98104777e-05f, 10.6689215f}},
                            {{-5.98398876f, -3.39763246e-05f, 0.799477339f}},
                            {{-9.37305164f, 8.12684084e-05f, 4.91325378f}},
                            {{0.476231188f, -6.4810898e-05f, -3.08713865f}},
                            {{8.22833824f, 3.45433946e-05f, -10.9309368f}},
                            {{5.15253496f, -2.36702381e-05f, 4.09541321f}},
                            {{3.36358523f, -1.55347243e-05f, 13.2072105f}},
                            {{-7.72317266f, 5.62679888e-05f, -2.64718127f}},
                            {{8.54705143f, -4.86640602e-05f, 4.84213448f}},
                            {{9.10574436f, -7.97692264e-05f, -1.57796919f}},
                            {{7.49722719f, 9.30379611e-05f, -9.74312115f}}};
    cairn_shape *shape = cairn_shape_hull(points, 11, 0.000877144048f);
    cr_expect_null(shape);
    cr_expect(strstr(cairn_last_error(), "coplanar") != NULL, "error: %s", cairn_last_error());
}

/* ---- random slabs a few tolerances thick (they once overflowed the heap in the merge of two
   faces, hung, or came out with points thousands of tolerances in front of a face) ---- */

#include "core/alloc.h"
#include "geometry/hull.h"

#include <math.h>

static double slab_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return (double)(*state >> 11) / 9007199254740992.0;
}

/* A cloud on the unit square of the xz plane, tilted by a random angle about z, with heights
   spread over `thickness` default tolerances. */
static int slab_cloud(uint64_t *state, double thickness, vec3s *points, int capacity)
{
    int n = 4 + (int)(slab_random(state) * (capacity - 4));
    for (int i = 0; i < n; ++i)
        points[i] = (vec3s){
            {(float)(slab_random(state) * 2 - 1), 0.0f, (float)(slab_random(state) * 2 - 1)}};
    double tolerance = hull_default_tolerance(points, n);
    double angle = slab_random(state) * 3.14159, c = cos(angle), s = sin(angle);
    for (int i = 0; i < n; ++i) {
        double y = (slab_random(state) - 0.5) * thickness * (0.5 + slab_random(state)) * tolerance;
        double x = points[i].x;
        points[i].x = (float)(c * x - s * y);
        points[i].y = (float)(s * x + c * y);
    }
    return n;
}

/* Built and keeping the contract (every point behind every face within the hull's tolerance,
   Euler's formula), or refused as flat; never anything else, and no byte leaked. */
static void check_slab(const vec3s *points, int n, int trial, int *built)
{
    size_t before = cairn_allocated_bytes();
    convex_hull hull;
    if (!hull_build(points, n, &hull)) {
        const char *error = cairn_last_error();
        cr_assert(strstr(error, "coplanar") || strstr(error, "too close to flat"),
                  "trial %d: unexpected error: %s", trial, error);
        cr_assert_eq(cairn_allocated_bytes(), before, "trial %d: a refusal leaked", trial);
        return;
    }
    ++*built;
    cr_assert_eq(hull.vertex_count - hull.edge_count / 2 + hull.face_count, 2, "trial %d", trial);
    for (int f = 0; f < hull.face_count; ++f)
        for (int i = 0; i < n; ++i) {
            const hull_face *face = &hull.faces[f];
            double d = (double)face->normal.x * points[i].x + (double)face->normal.y * points[i].y +
                       (double)face->normal.z * points[i].z - face->offset;
            cr_assert_leq(d, hull.tolerance, "trial %d: point %d is %g in front of face %d", trial,
                          i, d, f);
        }
    hull_destroy(&hull);
    cr_assert_eq(cairn_allocated_bytes(), before, "trial %d: leaked", trial);
}

Test(hull_near_flat, random_slabs_build_correctly_or_are_refused, .timeout = 60)
{
    enum { TRIALS = 3000, CAPACITY = 64 };
    const double thicknesses[] = {2.0, 6.0, 24.0, 96.0}; /* in default tolerances */
    uint64_t state = 88172645463325252u;
    vec3s points[CAPACITY];
    for (size_t k = 0; k < sizeof thicknesses / sizeof thicknesses[0]; ++k) {
        int built = 0;
        for (int trial = 0; trial < TRIALS; ++trial) {
            int n = slab_cloud(&state, thicknesses[k], points, CAPACITY);
            check_slab(points, n, trial, &built);
        }
        /* slabs well above the tolerance are ordinary hulls: nearly all must build */
        if (thicknesses[k] >= 24.0)
            cr_expect_geq(built, TRIALS * 99 / 100, "%g tolerances thick: %d of %d built",
                          thicknesses[k], built, TRIALS);
    }
}
