/* Contact manifolds against the exact penetration depth (brute-force SAT in double precision,
   tests/collision/oracle.h): for overlapping boxes in random poses the deepest manifold point is
   as deep as the pair penetrates along the normal, and no point is deeper. Edge-against-edge
   contacts are the case that matters: the faces that best face the normal are tilted from it,
   so a separation measured across the normal through one face corner, instead of from the face's
   plane, came out near zero for a 71 mm penetration (found in a pile of L-shaped compounds,
   whose arms then sank into each other and stayed). */
#include <criterion/criterion.h>

#include "collision/oracle.h"
#include "dynamics/contact.h"

enum { PAIRS = 3000 };
static const double depth_tolerance = 1e-3; /* m, plus 1% of the depth */

typedef struct box_pair {
    cairn_shape *a, *b;
    cairn_transform xa, xb;
    double depth; /* exact, >= 0 */
} box_pair;

/* Two boxes (no convex radius: the oracle's polytopes are exact) overlapping in random poses. */
static bool random_overlap(oracle_rng *rng, box_pair *p)
{
    double ha[3], hb[3];
    for (int k = 0; k < 3; ++k) {
        ha[k] = oracle_uniform(rng, 0.05, 1.0);
        hb[k] = oracle_uniform(rng, 0.05, 1.0);
    }
    p->xa = oracle_transform(0, 0, 0, oracle_rotation(rng));
    vec3s offset = glms_vec3_scale(oracle_unit_vector(rng),
                                   (float)oracle_uniform(rng, 0.2, 1.0) *
                                       (float)(ha[0] + ha[1] + ha[2] + hb[0] + hb[1] + hb[2]) / 3);
    p->xb = oracle_transform(offset.x, offset.y, offset.z, oracle_rotation(rng));
    oracle_poly pa, pb;
    oracle_poly_from_box(&pa, ha[0], ha[1], ha[2], p->xa);
    oracle_poly_from_box(&pb, hb[0], hb[1], hb[2], p->xb);
    oracle_result truth = oracle_query(&pa, &pb);
    if (!truth.overlap || -truth.distance < 1e-3)
        return false;
    p->depth = -truth.distance;
    p->a = cairn_shape_box((vec3s){{(float)ha[0], (float)ha[1], (float)ha[2]}}, 0.0f);
    p->b = cairn_shape_box((vec3s){{(float)hb[0], (float)hb[1], (float)hb[2]}}, 0.0f);
    return true;
}

static manifold build(const box_pair *p, cairn_query_result *q)
{
    cr_assert(cairn_collide(p->a, p->xa, p->b, p->xb, NULL, q), "%s", cairn_last_error());
    manifold m;
    manifold_build(p->a, p->xa, p->b, p->xb, q, 0.0f, &m);
    return m;
}

static float deepest(const manifold *m)
{
    float d = INFINITY;
    for (int i = 0; i < m->point_count; ++i)
        d = fminf(d, m->points[i].separation);
    return d;
}

Test(manifold, deepest_point_is_the_exact_depth_and_none_is_deeper)
{
    oracle_rng rng;
    oracle_rng_seed(&rng, 0x3a41f01dull);
    int checked = 0, shallow = 0, too_deep = 0;
    double worst = 0;
    while (checked < PAIRS) {
        box_pair p;
        if (!random_overlap(&rng, &p))
            continue;
        cairn_query_result q;
        manifold m = build(&p, &q);
        cr_assert_gt(m.point_count, 0);
        double tolerance = depth_tolerance + 0.01 * p.depth;
        double gap = (double)deepest(&m) + p.depth; /* 0 when the deepest point is exact */
        shallow += gap > tolerance;
        worst = fmax(worst, gap);
        for (int i = 0; i < m.point_count; ++i)
            too_deep += (double)m.points[i].separation < -p.depth - tolerance;
        cairn_shape_release(p.a);
        cairn_shape_release(p.b);
        ++checked;
    }
    cr_expect_eq(shallow, 0, "%d of %d manifolds shallower than the pair (worst by %.1f mm)",
                 shallow, PAIRS, 1000 * worst);
    cr_expect_eq(too_deep, 0, "%d points deeper than the pair penetrates", too_deep);
}

/* The pose from the L-block pile: the two long arms (0.9 x 0.2 x 0.3 m boxes with 2 cm rounding)
   cross edge to edge 71 mm deep. */
Test(manifold, crossed_arms_of_the_l_block_pile)
{
    cairn_shape *arm = cairn_shape_box((vec3s){{0.45f, 0.1f, 0.15f}}, 0.02f);
    box_pair p = {arm,
                  arm,
                  {{{-0.214092329f, 1.16123784f, 0.675061226f}},
                   {{0.420290679f, -0.708506763f, -0.200900719f, 0.530106544f}}},
                  {{{-0.0608242378f, 1.32704437f, 0.343398422f}},
                   {{0.0452457964f, -0.413765877f, -0.464731663f, 0.781521082f}}},
                  0.0};
    cairn_query_result q;
    manifold m = build(&p, &q);
    cr_assert_lt(q.distance, -0.06f, "the pair penetrates %.1f mm", -1000 * (double)q.distance);
    /* the faces pushed out by the radius stand in for the rounded edges: up to r (sqrt 2 - 1)
       apart (8 mm here; the bug left 71 mm) */
    float rounding = 0.02f * (sqrtf(2.0f) - 1.0f) + 1e-3f;
    cr_expect_float_eq(deepest(&m), q.distance, rounding, "deepest point %.1f mm, pair %.1f mm",
                       -1000 * (double)deepest(&m), -1000 * (double)q.distance);
    cairn_shape_release(arm);
}

/* A capsule or a cylinder (radius 0.5 m, its axis 1 m long along z) lying on a 200 m box,
   turned about its own axis by each of 720 angles, each shape as A and as B: every manifold point
   lies under the body, within its half-length (plus a millimetre) along the axis and within
   1 cm across it. The side's segment and the box's face tie in alignment; where rounding made
   the segment the clipping reference, its two end planes left the face's corners, points 100 m
   out (a rolling capsule's friction then stopped it turning within a step). */
Test(manifold, a_segment_lying_on_a_face_has_its_points_under_it)
{
    cairn_shape *ground = cairn_shape_box((vec3s){{100.0f, 1.0f, 100.0f}}, 0.0f);
    cairn_shape *sides[2] = {cairn_shape_capsule(0.5f, 0.5f),
                             cairn_shape_cylinder(0.5f, 0.5f, 0.05f)};
    float reach[2] = {0.5f, 0.5f}; /* half of the segment along the axis */
    cairn_transform floor_xf = oracle_transform(0, -1, 0, glms_quat_identity());
    int built = 0, outside = 0;
    double worst = 0;
    for (int s = 0; s < 2; ++s)
        for (int k = 0; k < 720; ++k) {
            /* lying along z (its local y turned onto z), then rolled about z */
            versors lie = glms_quatv(GLM_PI_2f, (vec3s){{1, 0, 0}});
            versors roll = glms_quatv(2.0f * GLM_PIf * (float)k / 720.0f, (vec3s){{0, 0, 1}});
            cairn_transform body = oracle_transform(0.3, 0.499, 0, glms_quat_mul(roll, lie));
            for (int order = 0; order < 2; ++order) {
                const cairn_shape *a = order ? sides[s] : ground, *b = order ? ground : sides[s];
                cairn_transform xa = order ? body : floor_xf, xb = order ? floor_xf : body;
                cairn_query_result q;
                cr_assert(cairn_collide(a, xa, b, xb, NULL, &q), "%s", cairn_last_error());
                manifold m;
                manifold_build(a, xa, b, xb, &q, 0.02f, &m);
                built += m.point_count > 0;
                for (int i = 0; i < m.point_count; ++i) {
                    vec3s p = m.points[i].anchor_a;
                    double across = fabs((double)p.x - 0.3), along = fabs((double)p.z);
                    double off = fmax(across - 0.01, along - (double)reach[s] - 1e-3);
                    outside += off > 0.0;
                    worst = fmax(worst, off);
                }
            }
        }
    cr_expect_eq(built, 2 * 720 * 2, "%d of %d poses had no manifold", 2 * 720 * 2 - built,
                 2 * 720 * 2);
    cr_expect_eq(outside, 0, "%d points outside the body's footprint, the worst by %.3f m", outside,
                 worst);
    cairn_shape_release(ground);
    cairn_shape_release(sides[0]);
    cairn_shape_release(sides[1]);
}
