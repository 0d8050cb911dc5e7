/* Tightens EPA's upper bound on penetration depth when expansion stopped before its bounds met.
   The support value along any unit direction bounds the depth from above, so every direction
   tried can only improve the answer. Tried: the shapes' own axes (box and hull faces, cylinder
   caps, the side directions of a cylinder or capsule against the other core's edges, which is
   where a cylinder's side meets a polytope), then a shrinking pattern search from the best few
   of those and of EPA's closest faces. Curved cores need this: EPA approximates a cylinder's side
   by facets, and where the whole side ties (a centred sphere, coincident cylinders) the lower
   bound converges far slower than the directions do. */
#include "collision/epa.h"

#include "geometry/shape.h"

#include <math.h>
#include <string.h>

enum { REFINE_STARTS = 3, REFINE_MAX_EVALUATIONS = 240 };

/* The pattern search's first and last step, radians. */
static const double refine_first_step = 0.05;
static const double refine_last_step = 1e-7;

/* The best REFINE_STARTS bounds seen, best first. */
typedef struct refine_starts {
    depth_bound bounds[REFINE_STARTS];
    int count;
} refine_starts;

static dvec3 unit_or_zero(dvec3 v)
{
    double length = sqrt(dvec3_length_sq(v));
    return length > 0.0 ? dvec3_scale(v, 1.0 / length) : dvec3_make(0, 0, 0);
}

static bool evaluate(const support_pair *pair, dvec3 d, depth_bound *out)
{
    d = unit_or_zero(d);
    if (dvec3_length_sq(d) == 0.0)
        return false;
    out->normal = d;
    out->vertex = support_pair_vertex(pair, d);
    out->depth = dvec3_dot(d, out->vertex.w);
    return true;
}

/* Keeps the new bound among the best starts; one start per neighbourhood (the better one). */
static void starts_offer(refine_starts *starts, const depth_bound *b)
{
    for (int i = 0; i < starts->count; ++i) {
        if (dvec3_dot(starts->bounds[i].normal, b->normal) < 1.0 - 1e-4)
            continue;
        if (starts->bounds[i].depth <= b->depth)
            return;
        memmove(&starts->bounds[i], &starts->bounds[i + 1],
                (size_t)(starts->count - i - 1) * sizeof *starts->bounds);
        --starts->count;
        break;
    }
    if (starts->count == REFINE_STARTS && !(b->depth < starts->bounds[REFINE_STARTS - 1].depth))
        return;
    int at = starts->count < REFINE_STARTS ? starts->count++ : REFINE_STARTS - 1;
    starts->bounds[at] = *b;
    for (; at > 0 && starts->bounds[at].depth < starts->bounds[at - 1].depth; --at) {
        depth_bound swap = starts->bounds[at];
        starts->bounds[at] = starts->bounds[at - 1];
        starts->bounds[at - 1] = swap;
    }
}

static void try_direction(const support_pair *pair, dvec3 d, refine_starts *starts)
{
    depth_bound b;
    if (evaluate(pair, d, &b))
        starts_offer(starts, &b);
}

/* Rotation columns: the shape's local axis k in A's frame. */
static dvec3 frame_axis(const mat3s *rotation, int k)
{
    return (dvec3){rotation->raw[k][0], rotation->raw[k][1], rotation->raw[k][2]};
}

static dvec3 frame_vector(const mat3s *rotation, vec3s v)
{
    return dvec3_add(dvec3_add(dvec3_scale(frame_axis(rotation, 0), v.x),
                               dvec3_scale(frame_axis(rotation, 1), v.y)),
                     dvec3_scale(frame_axis(rotation, 2), v.z));
}

/* One shape of the pair, in A's frame. */
typedef struct refine_shape {
    const cairn_shape *shape;
    const mat3s *rotation;
    double sign; /* +1 for A, whose support runs along the normal; -1 for B */
} refine_shape;

/* Both signs of d: the support value picks which one separates. */
static void try_both(const support_pair *pair, dvec3 d, refine_starts *starts)
{
    try_direction(pair, d, starts);
    try_direction(pair, dvec3_neg(d), starts);
}

/* Face directions of a polytope core (box faces, hull faces) and a cylinder's caps. */
static void try_faces(const support_pair *pair, const refine_shape *s, refine_starts *starts)
{
    switch (cairn_shape_get_type(s->shape)) {
    case CAIRN_SHAPE_BOX:
        for (int k = 0; k < 3; ++k)
            try_both(pair, frame_axis(s->rotation, k), starts);
        break;
    case CAIRN_SHAPE_CYLINDER:
        try_both(pair, frame_axis(s->rotation, 1), starts);
        break;
    case CAIRN_SHAPE_HULL: {
        const convex_hull *core = &s->shape->hull.core;
        for (int f = 0; f < core->face_count; ++f)
            try_direction(pair,
                          dvec3_scale(frame_vector(s->rotation, core->faces[f].normal), s->sign),
                          starts);
        break;
    }
    default:
        break;
    }
}

/* Edge directions of a polytope core, A's frame; returns how many (at most capacity). */
static int polytope_edges(const refine_shape *s, dvec3 *out, int capacity)
{
    int count = 0;
    if (cairn_shape_get_type(s->shape) == CAIRN_SHAPE_BOX) {
        for (int k = 0; k < 3 && count < capacity; ++k)
            out[count++] = frame_axis(s->rotation, k);
    } else if (cairn_shape_get_type(s->shape) == CAIRN_SHAPE_HULL) {
        const convex_hull *core = &s->shape->hull.core;
        for (int e = 0; e < core->edge_count && count < capacity; ++e) {
            const hull_half_edge *h = &core->edges[e];
            if (h->twin < e)
                continue; /* each edge once */
            vec3s from = core->vertices[h->origin],
                  to = core->vertices[core->edges[h->next].origin];
            out[count++] = frame_vector(s->rotation, glms_vec3_sub(to, from));
        }
    }
    return count;
}

/* A cylinder's or capsule's side against the other core: across its axis and the other's edges
   (or, for two such shapes, across both axes). */
static void try_sides(const support_pair *pair, const refine_shape *round,
                      const refine_shape *other, refine_starts *starts)
{
    cairn_shape_type type = cairn_shape_get_type(round->shape);
    if (type != CAIRN_SHAPE_CYLINDER && type != CAIRN_SHAPE_CAPSULE)
        return;
    dvec3 axis = frame_axis(round->rotation, 1);
    enum { MAX_EDGES = 96 };
    dvec3 edges[MAX_EDGES];
    int count = polytope_edges(other, edges, MAX_EDGES);
    cairn_shape_type other_type = cairn_shape_get_type(other->shape);
    if (other_type == CAIRN_SHAPE_CYLINDER || other_type == CAIRN_SHAPE_CAPSULE)
        edges[count++] = frame_axis(other->rotation, 1);
    for (int e = 0; e < count; ++e)
        try_both(pair, dvec3_cross(axis, edges[e]), starts);
}

/* A cylinder's or capsule's support value has a crease (|d . axis| in it) along the great circle
   of directions across its axis: the depth is often least somewhere on that circle, where a
   pattern search over the sphere stalls (every step off the crease climbs). So from a start's
   part across the axis, a search along the circle itself: one angle, the step halving when
   neither neighbour is better. */
static void crease_search(const support_pair *pair, dvec3 axis, depth_bound *best)
{
    double step = refine_first_step;
    int evaluations = 0;
    while (step > refine_last_step && evaluations < REFINE_MAX_EVALUATIONS) {
        dvec3 n = best->normal, along = unit_or_zero(dvec3_cross(axis, n));
        bool moved = false;
        for (int k = 0; k < 2 && !moved; ++k, ++evaluations) {
            double turn = k == 0 ? step : -step;
            depth_bound b;
            if (evaluate(pair, dvec3_add(dvec3_scale(n, cos(turn)), dvec3_scale(along, sin(turn))),
                         &b) &&
                b.depth < best->depth) {
                *best = b;
                moved = true;
            }
        }
        if (!moved)
            step *= 0.5;
    }
}

/* A start's part across a cylinder's or capsule's axis, searched along its crease. */
static void try_across_axis(const support_pair *pair, const refine_shape *s, dvec3 n,
                            refine_starts *starts)
{
    cairn_shape_type type = cairn_shape_get_type(s->shape);
    if (type != CAIRN_SHAPE_CYLINDER && type != CAIRN_SHAPE_CAPSULE)
        return;
    dvec3 axis = frame_axis(s->rotation, 1);
    depth_bound b;
    if (!evaluate(pair, dvec3_sub(n, dvec3_scale(axis, dvec3_dot(n, axis))), &b))
        return;
    crease_search(pair, axis, &b);
    starts_offer(starts, &b);
}

/* Eight neighbours on a circle of angle `step` around the normal; the step halves when none is
   better. */
static void pattern_search(const support_pair *pair, depth_bound *best)
{
    double step = refine_first_step;
    int evaluations = 0;
    while (step > refine_last_step && evaluations < REFINE_MAX_EVALUATIONS) {
        dvec3 n = best->normal;
        dvec3 u = unit_or_zero(
            dvec3_cross(n, fabs(n.x) < 0.57 ? dvec3_make(1, 0, 0) : dvec3_make(0, 1, 0)));
        dvec3 v = dvec3_cross(n, u);
        bool moved = false;
        for (int k = 0; k < 8 && !moved; ++k, ++evaluations) {
            double angle = k * GLM_PI / 4.0;
            dvec3 offset = dvec3_add(dvec3_scale(u, cos(angle)), dvec3_scale(v, sin(angle)));
            depth_bound b;
            if (evaluate(pair, dvec3_add(n, dvec3_scale(offset, step)), &b) &&
                b.depth < best->depth) {
                *best = b;
                moved = true;
            }
        }
        if (!moved)
            step *= 0.5;
    }
}

void depth_refine(const support_pair *pair, const dvec3 *seeds, int seed_count, depth_bound *bound)
{
    static const mat3s identity = GLMS_MAT3_IDENTITY_INIT;
    refine_shape a = {pair->a, &identity, 1.0}, b = {pair->b, &pair->rotation, -1.0};
    refine_starts starts = {.count = 0};
    starts_offer(&starts, bound);
    for (int i = 0; i < seed_count; ++i)
        try_direction(pair, seeds[i], &starts);
    try_faces(pair, &a, &starts);
    try_faces(pair, &b, &starts);
    try_sides(pair, &a, &b, &starts);
    try_sides(pair, &b, &a, &starts);
    dvec3 normals[REFINE_STARTS];
    int count = starts.count;
    for (int i = 0; i < count; ++i)
        normals[i] = starts.bounds[i].normal;
    for (int i = 0; i < count; ++i) {
        try_across_axis(pair, &a, normals[i], &starts);
        try_across_axis(pair, &b, normals[i], &starts);
    }
    for (int i = 0; i < starts.count; ++i) {
        depth_bound start = starts.bounds[i];
        pattern_search(pair, &start);
        if (start.depth < bound->depth)
            *bound = start;
    }
}
