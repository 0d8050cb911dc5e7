/* Shape casts: the first time of impact of B translating against A by conservative advancement
   on the GJK distance (cairn_collide), warm-started from one step to the next; compounds run per
   child pair with the swept child bounds as a prefilter. */
#include "collision/toi.h"

#include "collision/compound.h"
#include "collision/triangle_shape.h"
#include "core/xform.h"
#include "geometry/triangles.h"
#include "collision/query.h"
#include "core/error.h"
#include "core/validate.h"

#include <float.h>
#include <math.h>

static const float max_translation = 2e6f;

/* The gap at which the shapes count as touching: 1e-5 m for shapes up to 1 m, relative beyond,
   and never below what float positions far from the origin can resolve. */
static float cast_tolerance(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                            cairn_transform xb, vec3s translation)
{
    cairn_aabb ba = cairn_shape_local_bounds(a), bb = cairn_shape_local_bounds(b);
    float size = fmaxf(glms_vec3_distance(ba.min, ba.max), glms_vec3_distance(bb.min, bb.max));
    float reach = 0.0f;
    for (int axis = 0; axis < 3; ++axis)
        reach = fmaxf(reach, fmaxf(fabsf(xa.position.raw[axis]),
                                   fabsf(xb.position.raw[axis]) + fabsf(translation.raw[axis])));
    return fmaxf(1e-5f * fmaxf(1.0f, size), 8.0f * FLT_EPSILON * reach);
}

/* One convex pair. Each step B advances by gap / closing speed along the current normal: the
   separating plane cannot be crossed sooner, so t never passes the time of impact. */
static bool cast_convex(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                        cairn_transform xb, vec3s translation, float max_fraction,
                        cairn_cast_hit *hit)
{
    cairn_gjk_cache cache = {{0}};
    float tolerance = cast_tolerance(a, xa, b, xb, translation);
    float t = 0.0f;
    for (int i = 0; i < TOI_MAX_ITERATIONS; ++i) {
        cairn_transform moved = xb;
        moved.position = glms_vec3_add(xb.position, glms_vec3_scale(translation, t));
        cairn_query_result q;
        if (!cairn_collide(a, xa, b, moved, &cache, &q))
            return false;
        if (q.distance <= tolerance) {
            *hit = (cairn_cast_hit){t, q.point_a, q.normal, i + 1};
            return true;
        }
        float closing = -glms_vec3_dot(translation, q.normal);
        if (!(closing > 0.0f))
            return false; /* the separating plane stays separating for every t */
        t += q.distance / closing;
        if (t > max_fraction)
            return false;
    }
    return false; /* no convergence: better no hit than a wrong one */
}

/* Called per convex part pair (a triangle or a child of A, a child of B) that the translation
   may bring together; returns false to stop the walk. */
typedef bool part_pair_fn(void *context, const cairn_shape *a, cairn_transform xa,
                          const cairn_shape *b, cairn_transform xb);

/* B's part against the triangles of a mesh or heightfield under its swept bounds. */
typedef struct triangle_walk {
    cairn_transform mesh_xf;
    shape_part part;
    part_pair_fn *visit;
    void *context;
    bool stopped;
} triangle_walk;

static bool walk_triangle(void *context, int triangle, const vec3s corners[3])
{
    (void)triangle;
    triangle_walk *w = context;
    triangle_shape t;
    triangle_shape_make(&t, corners);
    w->stopped = !w->visit(w->context, &t.shape, w->mesh_xf, w->part.shape, w->part.xf);
    return !w->stopped;
}

/* The swept bounds of the part in the mesh's frame. */
static cairn_aabb swept_in(cairn_transform mesh_xf, shape_part part, vec3s translation)
{
    return aabb_sweep(cairn_shape_bounds(part.shape, xform_relative(mesh_xf, part.xf)),
                      xform_inverse_vector(mesh_xf, translation));
}

/* Every part pair of A (convex, compound, mesh or heightfield) and B (convex or compound) whose
   bounds meet B's part's swept bounds, until visit stops. None when B is a mesh or heightfield:
   a surface is not cast (cairn_shape_cast reports it). */
static void walk_part_pairs(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                            cairn_transform xb, vec3s translation, part_pair_fn *visit,
                            void *context)
{
    if (shape_is_triangles(b))
        return;
    int count_a = shape_part_count(a), count_b = shape_part_count(b);
    for (int j = 0; j < count_b; ++j) {
        shape_part pb = shape_part_at(b, xb, j);
        if (shape_is_triangles(a)) {
            triangle_walk w = {xa, pb, visit, context, false};
            triangles_query_box(a, swept_in(xa, pb, translation), walk_triangle, &w);
            if (w.stopped)
                return;
            continue;
        }
        cairn_aabb swept = aabb_sweep(cairn_shape_bounds(pb.shape, pb.xf), translation);
        for (int i = 0; i < count_a; ++i) {
            shape_part pa = shape_part_at(a, xa, i);
            if (aabb_overlap(cairn_shape_bounds(pa.shape, pa.xf), swept) &&
                !visit(context, pa.shape, pa.xf, pb.shape, pb.xf))
                return;
        }
    }
}

/* The earliest hit over the part pairs. */
typedef struct earliest_hit {
    vec3s translation;
    float max_fraction;
    cairn_cast_hit *hit;
    bool found;
} earliest_hit;

static bool keep_earliest(void *context, const cairn_shape *a, cairn_transform xa,
                          const cairn_shape *b, cairn_transform xb)
{
    earliest_hit *e = context;
    cairn_cast_hit h;
    if (cast_convex(a, xa, b, xb, e->translation, e->max_fraction, &h) &&
        (!e->found || h.fraction < e->hit->fraction)) {
        *e->hit = h;
        e->max_fraction = h.fraction;
        e->found = true;
    }
    return true;
}

bool toi_cast(const cairn_shape *a, cairn_transform xa, const cairn_shape *b, cairn_transform xb,
              vec3s translation, float max_fraction, cairn_cast_hit *hit)
{
    earliest_hit e = {translation, max_fraction, hit, false};
    walk_part_pairs(a, xa, b, xb, translation, keep_earliest, &e);
    return e.found;
}

/* Whether some part pair meets deeper than `depth`. */
typedef struct deep_hit {
    vec3s translation;
    float depth;
    bool found;
} deep_hit;

static bool find_deep(void *context, const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                      cairn_transform xb)
{
    deep_hit *d = context;
    cairn_cast_hit h;
    /* A lies behind the plane B met it on: B goes no deeper into A than past that plane. */
    d->found = cast_convex(a, xa, b, xb, d->translation, 1.0f, &h) &&
               -glms_vec3_dot(d->translation, h.normal) * (1.0f - h.fraction) > d->depth;
    return !d->found;
}

bool toi_cast_goes_deeper(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                          cairn_transform xb, vec3s translation, float depth)
{
    deep_hit d = {translation, depth, false};
    walk_part_pairs(a, xa, b, xb, translation, find_deep, &d);
    return d.found;
}

bool cairn_shape_cast(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                      cairn_transform xb, vec3s translation, cairn_cast_hit *hit)
{
    if (hit == NULL)
        return error_set("cairn_shape_cast: hit is NULL");
    if (!query_check_pair("cairn_shape_cast", a, xa, b, xb))
        return false;
    if (!is_finite_vec3(translation))
        return error_set("cairn_shape_cast: translation (%g, %g, %g) is not finite",
                         (double)translation.x, (double)translation.y, (double)translation.z);
    if (glms_vec3_norm(translation) > max_translation)
        return error_set("cairn_shape_cast: |translation| = %g is above %g m",
                         (double)glms_vec3_norm(translation), (double)max_translation);
    if (shape_is_triangles(b))
        return error_set("cairn_shape_cast: shape b is a mesh or heightfield; only convex shapes "
                         "and compounds can be cast");
    xa.rotation = glms_quat_normalize(xa.rotation);
    xb.rotation = glms_quat_normalize(xb.rotation);
    return toi_cast(a, xa, b, xb, translation, 1.0f, hit);
}
