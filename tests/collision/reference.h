/* Double-precision references for pair queries of every convex shape type, written from the
   shapes' definitions and not from the engine's algorithms:

   - support values h(n) from each shape's parameters: exact for spheres, boxes, capsules and
     cylinders (core plus convex radius), and sharp hulls (their vertices); a rounded hull's
     core is whatever the engine's shrinking made of it (vertices moved in by at least the
     radius from every adjacent face), so its support values come from the public support
     mapping (tested on its own by tests/geometry);
   - the separation s(n) = -h_B(-n) - h_A(n) of the pair along a unit axis n (A towards B). The
     signed distance of two convex shapes is the maximum of s over all axes, so any axis gives a
     lower bound on it (an upper bound on the depth), and s > 0 proves the shapes apart;
   - a search for the best axis: the shapes' own axes, a Fibonacci sphere of directions, and a
     shrinking pattern search around the best few;
   - exact distances where a closed form exists: sphere and capsule pairs (segments), and a
     sphere against a box or a cylinder (signed distance of its centre, oracle.h). */
#ifndef CAIRN_TESTS_COLLISION_REFERENCE_H
#define CAIRN_TESTS_COLLISION_REFERENCE_H

#include "collision/oracle.h"

enum { REF_MAX_CORE = 256 };

typedef struct ref_shape {
    const cairn_shape *shape;
    cairn_transform transform;
    cairn_shape_params params;
    oracle_xf xf;
    int vertex_count; /* sharp hulls: the vertices, local frame */
    double vertices[REF_MAX_CORE][3];
} ref_shape;

static inline ref_shape ref_shape_make(const cairn_shape *shape, cairn_transform xf)
{
    ref_shape s;
    memset(&s, 0, sizeof s);
    s.shape = shape;
    s.transform = xf;
    s.params = cairn_shape_get_params(shape);
    s.xf = oracle_xf_from(xf);
    if (s.params.type != CAIRN_SHAPE_HULL || s.params.convex_radius > 0.0f)
        return s;
    int n = cairn_hull_vertex_count(shape);
    s.vertex_count = n < REF_MAX_CORE ? n : REF_MAX_CORE;
    for (int i = 0; i < s.vertex_count; ++i)
        ov_from(s.vertices[i], cairn_hull_vertex(shape, i));
    return s;
}

/* h(n) = max over the full shape of dot(n, x), n unit, world space. */
static inline double ref_support_value(const ref_shape *s, const double n[3])
{
    double l[3];
    oracle_xf_inv_dir(&s->xf, n, l);
    double rc = s->params.convex_radius, value = 0.0;
    switch (s->params.type) {
    case CAIRN_SHAPE_SPHERE:
        value = s->params.radius;
        break;
    case CAIRN_SHAPE_BOX:
        for (int k = 0; k < 3; ++k)
            value += fabs(l[k]) * (s->params.half_extents.raw[k] - rc);
        value += rc;
        break;
    case CAIRN_SHAPE_CAPSULE:
        value = fabs(l[1]) * s->params.half_height + s->params.radius;
        break;
    case CAIRN_SHAPE_CYLINDER:
        value = fabs(l[1]) * (s->params.half_height - rc) +
                sqrt(l[0] * l[0] + l[2] * l[2]) * (s->params.radius - rc) + rc;
        break;
    case CAIRN_SHAPE_HULL:
        if (rc > 0.0)
            return oracle_shape_support_value(s->shape, s->transform, n);
        value = -INFINITY;
        for (int i = 0; i < s->vertex_count; ++i)
            value = fmax(value, ov_dot(l, s->vertices[i]));
        break;
    case CAIRN_SHAPE_MESH:
    case CAIRN_SHAPE_HEIGHTFIELD:
    case CAIRN_SHAPE_COMPOUND:
        value = INFINITY;
        break;
    }
    return value + ov_dot(n, s->xf.p);
}

/* s(n): the gap between the shapes' projections on n when B lies towards +n (negative: overlap). */
static inline double ref_separation(const ref_shape *a, const ref_shape *b, const double n[3])
{
    double l = ov_norm(n);
    double u[3] = {n[0] / l, n[1] / l, n[2] / l}, m[3] = {-u[0], -u[1], -u[2]};
    return -ref_support_value(b, m) - ref_support_value(a, u);
}

typedef struct ref_axis {
    double separation; /* s(axis): a lower bound on the signed distance */
    double axis[3];
} ref_axis;

static inline void ref_try(const ref_shape *a, const ref_shape *b, const double n[3],
                           ref_axis *best)
{
    if (!(ov_norm(n) > 0.0))
        return;
    double value = ref_separation(a, b, n);
    if (value > best->separation) {
        double l = ov_norm(n);
        best->separation = value;
        ov_set(best->axis, n[0] / l, n[1] / l, n[2] / l);
    }
}

/* Local axes of the shape, world space (boxes' faces, capsules' and cylinders' axes, hull faces).
 */
static inline void ref_try_own_axes(const ref_shape *s, const ref_shape *a, const ref_shape *b,
                                    ref_axis *best)
{
    for (int k = 0; k < 3; ++k) {
        double e[3] = {0, 0, 0}, w[3];
        e[k] = 1.0;
        oracle_xf_dir(&s->xf, e, w);
        ref_try(a, b, w, best);
        ov_set(w, -w[0], -w[1], -w[2]);
        ref_try(a, b, w, best);
    }
    for (int f = 0; f < cairn_hull_face_count(s->shape); ++f) {
        float offset;
        double l[3], w[3];
        ov_from(l, cairn_hull_face_normal(s->shape, f, &offset));
        oracle_xf_dir(&s->xf, l, w);
        ref_try(a, b, w, best);
        ov_set(w, -w[0], -w[1], -w[2]);
        ref_try(a, b, w, best);
    }
}

/* Pattern search on the sphere around best->axis: eight neighbours, the step halving when none
   is better, at most `budget` evaluations. */
static inline void ref_polish(const ref_shape *a, const ref_shape *b, ref_axis *best, int budget)
{
    static const double c8[8] = {1,  0.70710678118654752,  0, -0.70710678118654752,
                                 -1, -0.70710678118654752, 0, 0.70710678118654752};
    double step = 0.05;
    while (step > 1e-8 && budget > 0) {
        double n[3], u[3], v[3], helper[3];
        ov_copy(n, best->axis);
        ov_set(helper, fabs(n[0]) < 0.57 ? 1 : 0, fabs(n[0]) < 0.57 ? 0 : 1, 0);
        ov_cross(u, n, helper);
        double lu = ov_norm(u);
        ov_set(u, u[0] / lu, u[1] / lu, u[2] / lu);
        ov_cross(v, n, u);
        double before = best->separation;
        for (int k = 0; k < 8; ++k, --budget) {
            double c = c8[k] * step, s = c8[(k + 6) % 8] * step, d[3];
            for (int i = 0; i < 3; ++i)
                d[i] = n[i] + c * u[i] + s * v[i];
            ref_try(a, b, d, best);
        }
        if (!(best->separation > before))
            step *= 0.5;
    }
}

/* The best axis found by sampling `samples` directions plus the shapes' own axes and the line
   between their centres, polished around the best few. */
static inline ref_axis ref_best_axis(const ref_shape *a, const ref_shape *b, int samples)
{
    ref_axis best = {.separation = -INFINITY, .axis = {0, 0, 1}};
    double centres[3];
    ov_sub(centres, b->xf.p, a->xf.p);
    ref_try(a, b, centres, &best);
    ref_try_own_axes(a, a, b, &best);
    ref_try_own_axes(b, a, b, &best);
    enum { KEEP = 3 };
    ref_axis seeds[KEEP];
    for (int k = 0; k < KEEP; ++k)
        seeds[k] = (ref_axis){.separation = -INFINITY, .axis = {0, 0, 1}};
    const double golden = ORACLE_PI * (3.0 - sqrt(5.0));
    for (int i = 0; i < samples; ++i) {
        double y = 1.0 - 2.0 * (i + 0.5) / samples, r = sqrt(1.0 - y * y), t = golden * i;
        double n[3] = {r * cos(t), y, r * sin(t)};
        ref_axis one = {.separation = -INFINITY};
        ref_try(a, b, n, &one);
        int worst = 0;
        for (int k = 1; k < KEEP; ++k)
            if (seeds[k].separation < seeds[worst].separation)
                worst = k;
        if (one.separation > seeds[worst].separation)
            seeds[worst] = one;
    }
    for (int k = 0; k < KEEP; ++k) {
        ref_polish(a, b, &seeds[k], 160);
        if (seeds[k].separation > best.separation)
            best = seeds[k];
    }
    ref_polish(a, b, &best, 320);
    return best;
}

/* The core segment of a sphere (a point) or capsule, world space. */
static inline void ref_segment(const ref_shape *s, double p0[3], double p1[3])
{
    double h = s->params.type == CAIRN_SHAPE_CAPSULE ? s->params.half_height : 0.0;
    double top[3] = {0, h, 0}, bottom[3] = {0, -h, 0};
    oracle_xf_point(&s->xf, top, p0);
    oracle_xf_point(&s->xf, bottom, p1);
}

static inline bool ref_is_round(const ref_shape *s)
{
    return s->params.type == CAIRN_SHAPE_SPHERE || s->params.type == CAIRN_SHAPE_CAPSULE;
}

/* The exact signed distance when a closed form exists (false otherwise): between the segments of
   two spheres or capsules minus their radii (crossing segments: minus the radii, the difference
   of two segments being flat), or a sphere's centre against a box or cylinder minus its radius. */
static inline bool ref_exact_distance(const ref_shape *a, const ref_shape *b, double *distance)
{
    if (ref_is_round(a) && ref_is_round(b)) {
        double a0[3], a1[3], b0[3], b1[3], ca[3], cb[3];
        ref_segment(a, a0, a1);
        ref_segment(b, b0, b1);
        *distance =
            oracle_segment_segment(a0, a1, b0, b1, ca, cb) - a->params.radius - b->params.radius;
        return true;
    }
    const ref_shape *sphere = a->params.type == CAIRN_SHAPE_SPHERE ? a : b;
    const ref_shape *other = sphere == a ? b : a;
    if (sphere->params.type != CAIRN_SHAPE_SPHERE ||
        (other->params.type != CAIRN_SHAPE_BOX && other->params.type != CAIRN_SHAPE_CYLINDER))
        return false;
    *distance =
        oracle_shape_sdf(other->shape, other->transform, sphere->xf.p) - sphere->params.radius;
    return true;
}

#endif
