/* Reducing a merged manifold's points to four (manifold_reduce, used for the manifolds merged
   from compound children and mesh triangles). The independent answer is the support polygon: a
   body at rest stands on the points that bear its load, so its centre of mass must lie inside the
   polygon of the kept points that bear load (within the band of the deepest), or it tips over
   the gap. The case is a box perched on a mesh's convex fold of 4 degrees, from a terrain where
   such boxes rocked and walked along the ridge for a minute without falling asleep. */
#include <criterion/criterion.h>
#include <math.h>

#include "dynamics/contact.h"

static const float band = 0.005f; /* m: what the mesh clusters use */

static manifold_point point_at(float x, float z, float separation)
{
    manifold_point p = {0};
    p.anchor_a = p.anchor_b = (vec3s){{x, 0.0f, z}};
    p.separation = separation;
    return p;
}

/* The box's merged points (the ridge runs along z at x = 0, the box rests on its +x face): the
   ridge's two ends, two corners over the +x face, and three over the -x face, in the air (from
   the pose where it rocked, tests/mesh/test_fold_rest.c). Its centre of mass is over (0.06,
   0.115). */
static int ridge_points(manifold_point *points)
{
    int n = 0;
    points[n++] = point_at(0.0f, 0.380f, -0.0013f);    /* ridge end: the deepest */
    points[n++] = point_at(0.241f, -0.197f, -0.0001f); /* corner over the +x face */
    points[n++] = point_at(-0.285f, -0.006f, 0.0180f); /* corner in the air */
    points[n++] = point_at(0.398f, 0.236f, 0.0000f);   /* corner over the +x face */
    points[n++] = point_at(0.0f, -0.109f, -0.0010f);   /* the ridge's other end */
    points[n++] = point_at(-0.121f, 0.428f, 0.0065f);  /* in the air */
    points[n++] = point_at(-0.227f, 0.274f, 0.0086f);  /* in the air */
    return n;
}

/* Whether (x, z) lies inside the convex hull of the points (y = 0 plane), brute force: inside
   every edge of the hull means on one side of every pair that has all points on one side. */
static bool inside_hull(const manifold_point *p, int n, float x, float z)
{
    bool any_edge = false;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            if (i == j)
                continue;
            float ex = p[j].anchor_a.x - p[i].anchor_a.x, ez = p[j].anchor_a.z - p[i].anchor_a.z;
            bool hull_edge = true;
            for (int k = 0; k < n && hull_edge; ++k) {
                float side = ex * (p[k].anchor_a.z - p[i].anchor_a.z) -
                             ez * (p[k].anchor_a.x - p[i].anchor_a.x);
                hull_edge = side >= -1e-7f;
            }
            if (!hull_edge)
                continue;
            any_edge = true;
            if (ex * (z - p[i].anchor_a.z) - ez * (x - p[i].anchor_a.x) < 0.0f)
                return false;
        }
    return any_edge;
}

/* The kept points that bear load (within the band of the deepest kept). */
static int bearing_of(const manifold_point *kept, int count, manifold_point *out)
{
    float deepest = INFINITY;
    for (int i = 0; i < count; ++i)
        deepest = fminf(deepest, kept[i].separation);
    int n = 0;
    for (int i = 0; i < count; ++i)
        if (kept[i].separation <= deepest + band)
            out[n++] = kept[i];
    return n;
}

Test(manifold_reduce, a_box_on_a_ridge_keeps_the_points_it_stands_on)
{
    manifold_point points[8], kept[MANIFOLD_MAX_POINTS], bearing[MANIFOLD_MAX_POINTS];
    int n = ridge_points(points);
    vec3s up = {{0.0f, 1.0f, 0.0f}};
    /* all the points that bear load surround the centre of mass: it can stand */
    manifold_point all_bearing[8];
    cr_assert(inside_hull(all_bearing, bearing_of(points, n, all_bearing), 0.06f, 0.115f));
    int count = manifold_reduce(points, n, up, band, kept);
    cr_assert_eq(count, 4);
    int b = bearing_of(kept, count, bearing);
    cr_expect(inside_hull(bearing, b, 0.06f, 0.115f),
              "the %d kept points bearing load do not surround the centre of mass", b);
    /* The reduction that ranks by reach alone keeps the corner in the air and one ridge end:
       the box stood on three points around a line beside its centre of mass, and tipped. */
    count = manifold_reduce(points, n, up, -1.0f, kept);
    b = bearing_of(kept, count, bearing);
    cr_expect_not(inside_hull(bearing, b, 0.06f, 0.115f));
}

/* Where every point bears load (a box flat on the ground, all as deep), the band changes nothing:
   the same four points, the deepest first, over random point sets. */
Test(manifold_reduce, flat_contacts_keep_the_same_points)
{
    unsigned seed = 12345u;
    vec3s up = {{0.0f, 1.0f, 0.0f}};
    for (int round = 0; round < 2000; ++round) {
        manifold_point points[16], with_band[MANIFOLD_MAX_POINTS], without[MANIFOLD_MAX_POINTS];
        int n = 5 + (int)(seed % 12u);
        for (int i = 0; i < n; ++i) {
            seed = seed * 1664525u + 1013904223u;
            float x = (float)(seed >> 8) / 16777216.0f - 0.5f;
            seed = seed * 1664525u + 1013904223u;
            float z = (float)(seed >> 8) / 16777216.0f - 0.5f;
            points[i] = point_at(x, z, -0.002f + 0.001f * (float)(i % 3));
        }
        int a = manifold_reduce(points, n, up, band, with_band);
        int b = manifold_reduce(points, n, up, -1.0f, without);
        cr_assert_eq(a, b);
        for (int i = 0; i < a; ++i)
            cr_assert(glms_vec3_eqv(with_band[i].anchor_a, without[i].anchor_a),
                      "round %d: point %d differs", round, i);
    }
}
