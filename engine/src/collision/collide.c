/* The public pair queries: input checks, the margin logic around GJK and EPA, the per-pair
   cache, and closed forms for spheres and capsules. */
#include "collision/compound.h"
#include "collision/epa.h"
#include "collision/mesh_collide.h"
#include "collision/query.h"

#include "core/error.h"
#include "core/validate.h"
#include "core/xform.h"
#include "geometry/shape.h"

#include <math.h>
#include <string.h>

typedef gjk_cache_data cache_data;
_Static_assert(sizeof(cache_data) <= sizeof(cairn_gjk_cache), "cache_data must fit the cache");

static const float max_coordinate = 1e6f;

bool query_check_transform(const char *function, const char *name, cairn_transform xf)
{
    if (!is_finite_vec3(xf.position))
        return error_set("%s: %s.position is not finite", function, name);
    if (fabsf(xf.position.x) > max_coordinate || fabsf(xf.position.y) > max_coordinate ||
        fabsf(xf.position.z) > max_coordinate)
        return error_set("%s: %s.position is farther than %g m from the origin", function, name,
                         (double)max_coordinate);
    if (!is_unit_quat(xf.rotation))
        return error_set("%s: %s.rotation is not a finite unit quaternion", function, name);
    return true;
}

/* query_check_transform's test without the message: the common case, inlined. */
static inline bool transform_ok(cairn_transform xf)
{
    return is_finite_vec3(xf.position) && fabsf(xf.position.x) <= max_coordinate &&
           fabsf(xf.position.y) <= max_coordinate && fabsf(xf.position.z) <= max_coordinate &&
           is_unit_quat(xf.rotation);
}

bool query_check_pair(const char *function, const cairn_shape *a, cairn_transform xa,
                      const cairn_shape *b, cairn_transform xb)
{
    if (a == NULL || b == NULL)
        return error_set("%s: shape %s is NULL", function, a == NULL ? "a" : "b");
    if (transform_ok(xa) && transform_ok(xb))
        return true;
    return query_check_transform(function, "xa", xa) && query_check_transform(function, "xb", xb);
}

/* Result from witness points on the cores (A's frame) and the unit normal from A to B. The
   points move out by each shape's radius; the gap between them is measured along the normal. */
void query_finish(cairn_transform xa, const cairn_shape *a, const cairn_shape *b, dvec3 core_a,
                  dvec3 core_b, dvec3 normal, double core_distance, cairn_query_result *out)
{
    double ra = a->convex_radius, rb = b->convex_radius;
    double distance = core_distance - ra - rb;
    /* Centre the pair on its midpoint so point_b - point_a == distance * normal holds exactly. */
    dvec3 mid = dvec3_scale(dvec3_add(dvec3_add(core_a, dvec3_scale(normal, ra)),
                                      dvec3_sub(core_b, dvec3_scale(normal, rb))),
                            0.5);
    dvec3 pa = dvec3_sub(mid, dvec3_scale(normal, 0.5 * distance));
    dvec3 pb = dvec3_add(mid, dvec3_scale(normal, 0.5 * distance));
    out->overlap = distance <= 0.0;
    out->distance = (float)distance;
    xa = xform_unit(xa); /* one normalisation for the three turns, the same bits */
    out->normal = glms_vec3_normalize(xform_unit_vector(xa, dvec3_to_float(normal)));
    out->point_a = xform_unit_point(xa, dvec3_to_float(pa));
    out->point_b = xform_unit_point(xa, dvec3_to_float(pb));
}

/* Starts *s from the cache (empty without one). Only the count and the weights are set beyond
   the vertices loaded: GJK reads no vertex past the count, and the whole simplex (420 bytes)
   cleared and returned by value cost more than loading it. */
static void cache_load(const support_pair *pair, const cairn_gjk_cache *cache, dvec3 *axis,
                       simplex *s)
{
    s->count = 0;
    for (int i = 0; i < 4; ++i)
        s->lambda[i] = 0.0;
    if (cache == NULL)
        return;
    cache_data data;
    memcpy(&data, cache, sizeof data);
    if (data.count < 0 || data.count > 4)
        return;
    for (int i = 0; i < data.count; ++i)
        support_pair_reevaluate_into(pair, data.a_local[i], data.b_local[i], &s->vertices[i]);
    s->count = data.count;
    if (glms_vec3_norm2(data.axis) > 0.0f)
        *axis = dvec3_from(data.axis);
}

static void cache_store(cairn_gjk_cache *cache, const simplex *s, dvec3 axis)
{
    if (cache == NULL)
        return;
    cache_data data;
    memset(&data, 0, sizeof data);
    for (int i = 0; i < s->count; ++i) {
        data.a_local[i] = s->vertices[i].a_local;
        data.b_local[i] = s->vertices[i].b_local;
    }
    data.count = s->count;
    data.axis = dvec3_to_float(axis);
    memcpy(cache, &data, sizeof data);
}

static dvec3 unit_or(dvec3 v, dvec3 fallback)
{
    double length = sqrt(dvec3_length_sq(v));
    return length > 0.0 ? dvec3_scale(v, 1.0 / length) : fallback;
}

/* R v for the rotation of B's frame into A's. */
static dvec3 b_to_a(const support_pair *pair, dvec3 v)
{
    const mat3s *r = &pair->rotation;
    return dvec3_make(r->m00 * v.x + r->m10 * v.y + r->m20 * v.z,
                      r->m01 * v.x + r->m11 * v.y + r->m21 * v.z,
                      r->m02 * v.x + r->m12 * v.y + r->m22 * v.z);
}

/* R^T v. */
static dvec3 a_to_b(const support_pair *pair, dvec3 v)
{
    const mat3s *r = &pair->rotation;
    return dvec3_make(r->m00 * v.x + r->m01 * v.y + r->m02 * v.z,
                      r->m10 * v.x + r->m11 * v.y + r->m12 * v.z,
                      r->m20 * v.x + r->m21 * v.y + r->m22 * v.z);
}

/* A sphere against a box or cylinder, or with its centre inside a hull's core: the centre's
   signed distance to the other core, in closed form. Declines (false) for other pairs and for a
   centre outside a hull. */
static bool sphere_closed_form(const support_pair *pair, cairn_transform xa,
                               cairn_query_result *out)
{
    bool a_is_sphere = pair->a->type == CAIRN_SHAPE_SPHERE;
    if (!a_is_sphere && pair->b->type != CAIRN_SHAPE_SPHERE)
        return false;
    dvec3 offset = dvec3_from(pair->b_in_a.position);
    double distance;
    dvec3 normal;
    if (a_is_sphere) {
        /* A's centre in B's frame; the normal from A to B is minus B's outward normal. */
        if (!core_point_query(pair->b, a_to_b(pair, dvec3_neg(offset)), &distance, &normal))
            return false;
        dvec3 outward = b_to_a(pair, normal);
        dvec3 nearest = dvec3_scale(outward, -distance);
        query_finish(xa, pair->a, pair->b, dvec3_make(0, 0, 0), nearest, dvec3_neg(outward),
                     distance, out);
    } else {
        if (!core_point_query(pair->a, offset, &distance, &normal))
            return false;
        dvec3 nearest = dvec3_sub(offset, dvec3_scale(normal, distance));
        query_finish(xa, pair->a, pair->b, nearest, offset, normal, distance, out);
    }
    out->gjk_iterations = 0;
    out->epa_iterations = 0;
    return true;
}

bool query_gjk_epa(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                   cairn_transform xb, cairn_gjk_cache *cache, cairn_query_result *out,
                   bool *epa_capped)
{
    *epa_capped = false;
    support_pair pair = support_pair_make(a, xa, b, xb);
    if (sphere_closed_form(&pair, xa, out))
        return true;
    return query_gjk_epa_pair(&pair, xa, cache, out, epa_capped);
}

bool query_gjk_epa_pair(const support_pair *pair, cairn_transform xa, cairn_gjk_cache *cache,
                        cairn_query_result *out, bool *epa_capped)
{
    *epa_capped = false;
    const cairn_shape *a = pair->a, *b = pair->b;
    dvec3 direction = dvec3_from(pair->b_in_a.position);
    simplex s;
    cache_load(pair, cache, &direction, &s);
    gjk_result gjk = gjk_distance(pair, &s, direction);
    out->gjk_iterations = gjk.iterations;
    out->epa_iterations = 0;
    if (gjk.status == GJK_SEPARATED) {
        dvec3 normal = dvec3_scale(gjk.closest, -1.0 / gjk.distance);
        query_finish(xa, a, b, gjk.point_a, gjk.point_b, normal, gjk.distance, out);
        cache_store(cache, &s, normal);
        return true;
    }
    dvec3 fallback = unit_or(gjk.direction, unit_or(direction, dvec3_make(0, 1, 0)));
    epa_result epa = epa_penetration(pair, &s, fallback);
    out->epa_iterations = epa.iterations;
    *epa_capped = epa.status == EPA_LIMIT;
    query_finish(xa, a, b, epa.point_a, epa.point_b, epa.normal, -epa.depth, out);
    cache_store(cache, &s, epa.normal);
    return true;
}

/* Closest points of segments p0 + s (p1 - p0) and q0 + t (q1 - q0), s and t in [0, 1]. */
void segment_closest(dvec3 p0, dvec3 p1, dvec3 q0, dvec3 q1, dvec3 *on_p, dvec3 *on_q)
{
    dvec3 d1 = dvec3_sub(p1, p0), d2 = dvec3_sub(q1, q0), r = dvec3_sub(p0, q0);
    double a = dvec3_length_sq(d1), e = dvec3_length_sq(d2), f = dvec3_dot(d2, r);
    double s = 0.0, t = 0.0;
    if (a <= 0.0 && e <= 0.0) {
        s = t = 0.0;
    } else if (a <= 0.0) {
        t = fmin(fmax(f / e, 0.0), 1.0);
    } else {
        double c = dvec3_dot(d1, r);
        if (e <= 0.0) {
            s = fmin(fmax(-c / a, 0.0), 1.0);
        } else {
            double b = dvec3_dot(d1, d2), denominator = a * e - b * b;
            s = denominator > 0.0 ? fmin(fmax((b * f - c * e) / denominator, 0.0), 1.0) : 0.0;
            t = (b * s + f) / e;
            if (t < 0.0) {
                t = 0.0;
                s = fmin(fmax(-c / a, 0.0), 1.0);
            } else if (t > 1.0) {
                t = 1.0;
                s = fmin(fmax((b - c) / a, 0.0), 1.0);
            }
        }
    }
    *on_p = dvec3_add(p0, dvec3_scale(d1, s));
    *on_q = dvec3_add(q0, dvec3_scale(d2, t));
}

/* The core of a sphere (a point) or capsule (a segment along Y), in A's frame. */
static void point_or_segment(const cairn_shape *shape, cairn_transform xf, dvec3 *p0, dvec3 *p1)
{
    float h = cairn_shape_get_type(shape) == CAIRN_SHAPE_CAPSULE
                  ? cairn_shape_get_params(shape).half_height
                  : 0.0f;
    *p0 = dvec3_from(xform_point(xf, (vec3s){{0.0f, h, 0.0f}}));
    *p1 = dvec3_from(xform_point(xf, (vec3s){{0.0f, -h, 0.0f}}));
}

static bool is_round(const cairn_shape *shape)
{
    cairn_shape_type type = shape->type;
    return type == CAIRN_SHAPE_SPHERE || type == CAIRN_SHAPE_CAPSULE;
}

/* Spheres and capsules: the distance between points and segments in closed form. Declines
   (false) when the cores touch, where the direction is undefined and EPA decides. */
static bool collide_round(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                          cairn_transform xb, cairn_query_result *out)
{
    support_pair pair = support_pair_make(a, xa, b, xb);
    dvec3 a0, a1, b0, b1, on_a, on_b;
    point_or_segment(a, (cairn_transform){{{0, 0, 0}}, {{0, 0, 0, 1}}}, &a0, &a1);
    point_or_segment(b, pair.b_in_a, &b0, &b1);
    segment_closest(a0, a1, b0, b1, &on_a, &on_b);
    dvec3 gap = dvec3_sub(on_b, on_a);
    double distance = sqrt(dvec3_length_sq(gap));
    if (distance <= 1e-6 * support_pair_scale(&pair))
        return false;
    query_finish(xa, a, b, on_a, on_b, dvec3_scale(gap, 1.0 / distance), distance, out);
    out->gjk_iterations = 0;
    out->epa_iterations = 0;
    return true;
}

bool cairn_collide(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                   cairn_transform xb, cairn_gjk_cache *cache, cairn_query_result *out)
{
    bool epa_capped;
    return query_collide(a, xa, b, xb, cache, out, &epa_capped);
}

bool query_collide(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                   cairn_transform xb, cairn_gjk_cache *cache, cairn_query_result *out,
                   bool *epa_capped)
{
    *epa_capped = false;
    if (out == NULL)
        return error_set("cairn_collide: out is NULL");
    if (!query_check_pair("cairn_collide", a, xa, b, xb))
        return false;
    if (a->type == CAIRN_SHAPE_COMPOUND || b->type == CAIRN_SHAPE_COMPOUND)
        return error_set("cairn_collide: shape %s is a compound; this is a convex-pair query "
                         "(use cairn_overlap or the world)",
                         a->type == CAIRN_SHAPE_COMPOUND ? "a" : "b");
    if (shape_is_triangles(a) || shape_is_triangles(b))
        return error_set("cairn_collide: shape %s is a mesh or heightfield; this is a convex-pair "
                         "query (use cairn_overlap or the world)",
                         shape_is_triangles(a) ? "a" : "b");
    xa.rotation = glms_quat_normalize(xa.rotation);
    xb.rotation = glms_quat_normalize(xb.rotation);
    if (is_round(a) && is_round(b) && collide_round(a, xa, b, xb, out))
        return true;
    return query_gjk_epa(a, xa, b, xb, cache, out, epa_capped);
}

bool cairn_overlap(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                   cairn_transform xb)
{
    if (!query_check_pair("cairn_overlap", a, xa, b, xb))
        return false;
    xa.rotation = glms_quat_normalize(xa.rotation);
    xb.rotation = glms_quat_normalize(xb.rotation);
    if (shape_is_triangles(a) || shape_is_triangles(b))
        return mesh_overlap(a, xa, b, xb);
    if (cairn_shape_get_type(a) == CAIRN_SHAPE_COMPOUND ||
        cairn_shape_get_type(b) == CAIRN_SHAPE_COMPOUND)
        return compound_overlap(a, xa, b, xb);
    support_pair pair = support_pair_make(a, xa, b, xb);
    double radius_sum = cairn_shape_convex_radius(a) + cairn_shape_convex_radius(b);
    int iterations;
    return gjk_overlap(&pair, radius_sum, dvec3_from(pair.b_in_a.position), &iterations);
}
