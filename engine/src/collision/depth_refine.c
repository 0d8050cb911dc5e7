/* Tightens EPA's upper bound on penetration depth when expansion stopped before its bounds met:
   the support value along any unit direction bounds the depth from above, so trying the shapes'
   own feature directions near the best normal, then a shrinking pattern search around it, can
   only improve the answer. Curved cores (cylinders) need this: EPA approximates their sides by
   facets and converges slowly there. */
#include "collision/epa.h"

#include "geometry/shape.h"

#include <math.h>

enum { REFINE_MAX_EVALUATIONS = 320, REFINE_MAX_FEATURES = 8 };

/* Directions a pattern search starts and stops at, radians. */
static const double refine_first_step = 0.05;
static const double refine_last_step = 1e-7;

static dvec3 unit_or_zero(dvec3 v)
{
    double length = sqrt(dvec3_length_sq(v));
    return length > 0.0 ? dvec3_scale(v, 1.0 / length) : dvec3_make(0, 0, 0);
}

/* Evaluates the support value along d (normalised); keeps it when it is a smaller bound. */
static bool try_direction(const support_pair *pair, dvec3 d, depth_bound *best)
{
    d = unit_or_zero(d);
    if (dvec3_length_sq(d) == 0.0)
        return false;
    simplex_vertex w = support_pair_vertex(pair, d);
    double value = dvec3_dot(d, w.w);
    if (!(value < best->depth))
        return false;
    best->depth = value;
    best->normal = d;
    best->vertex = w;
    return true;
}

/* Column k of the rotation from the shape's frame to A's frame. */
static dvec3 shape_axis(const mat3s *rotation, int k)
{
    return (dvec3){rotation->raw[k][0], rotation->raw[k][1], rotation->raw[k][2]};
}

/* Feature directions of one shape near n (A's frame): where its support is flat (a box face, a
   hull face, a cylinder's cap) or where n has no part along its axis (a cylinder's or capsule's
   side, which is straight along the axis and round across it). */
static int feature_directions(const cairn_shape *shape, const mat3s *rotation, dvec3 n, dvec3 *out)
{
    int count = 0;
    switch (cairn_shape_get_type(shape)) {
    case CAIRN_SHAPE_CYLINDER:
    case CAIRN_SHAPE_CAPSULE: {
        dvec3 axis = shape_axis(rotation, 1);
        double along = dvec3_dot(n, axis);
        out[count++] = dvec3_sub(n, dvec3_scale(axis, along));
        out[count++] = dvec3_scale(axis, along >= 0.0 ? 1.0 : -1.0);
        break;
    }
    case CAIRN_SHAPE_BOX:
        for (int k = 0; k < 3; ++k) {
            dvec3 axis = shape_axis(rotation, k);
            out[count++] = dvec3_scale(axis, dvec3_dot(n, axis) >= 0.0 ? 1.0 : -1.0);
        }
        break;
    case CAIRN_SHAPE_HULL: {
        const convex_hull *core = &shape->hull.core;
        double best = -INFINITY;
        dvec3 closest = n;
        for (int f = 0; f < core->face_count; ++f) {
            vec3s normal = core->faces[f].normal;
            dvec3 d = dvec3_make(
                rotation->m00 * normal.x + rotation->m10 * normal.y + rotation->m20 * normal.z,
                rotation->m01 * normal.x + rotation->m11 * normal.y + rotation->m21 * normal.z,
                rotation->m02 * normal.x + rotation->m12 * normal.y + rotation->m22 * normal.z);
            if (dvec3_dot(d, n) > best) {
                best = dvec3_dot(d, n);
                closest = d;
            }
        }
        out[count++] = closest;
        break;
    }
    default:
        break;
    }
    return count;
}

/* A's features face along n, B's along -n (its support runs the other way). */
static void try_features(const support_pair *pair, depth_bound *best)
{
    static const mat3s identity = GLMS_MAT3_IDENTITY_INIT;
    dvec3 n = best->normal;
    dvec3 candidates[REFINE_MAX_FEATURES];
    int count = feature_directions(pair->a, &identity, n, candidates);
    int from_b = feature_directions(pair->b, &pair->rotation, dvec3_neg(n), candidates + count);
    for (int i = count; i < count + from_b; ++i)
        candidates[i] = dvec3_neg(candidates[i]);
    for (int i = 0; i < count + from_b; ++i)
        try_direction(pair, candidates[i], best);
}

/* Any unit vector perpendicular to unit n. */
static dvec3 tangent_of(dvec3 n)
{
    dvec3 axis = fabs(n.x) < 0.57 ? dvec3_make(1, 0, 0) : dvec3_make(0, 1, 0);
    return unit_or_zero(dvec3_cross(n, axis));
}

/* Eight neighbours on a circle of angle `step` around the best normal; the step halves when none
   is better. Support values are convex in the direction, so descent finds the minimum nearby. */
static void pattern_search(const support_pair *pair, depth_bound *best)
{
    double step = refine_first_step;
    int evaluations = 0;
    while (step > refine_last_step && evaluations < REFINE_MAX_EVALUATIONS) {
        dvec3 n = best->normal, u = tangent_of(n), v = dvec3_cross(n, u);
        bool moved = false;
        for (int k = 0; k < 8 && !moved; ++k, ++evaluations) {
            double angle = k * GLM_PI / 4.0;
            dvec3 offset = dvec3_add(dvec3_scale(u, cos(angle)), dvec3_scale(v, sin(angle)));
            moved = try_direction(pair, dvec3_add(n, dvec3_scale(offset, step)), best);
        }
        if (!moved)
            step *= 0.5;
    }
}

void depth_refine(const support_pair *pair, depth_bound *bound)
{
    try_features(pair, bound);
    pattern_search(pair, bound);
    try_features(pair, bound);
}
