/* Compound shapes in the collision queries: ray casts, overlap tests and the merged contact
   manifold, each run over the convex children with their bounds as a prefilter. */
#include "collision/compound.h"

#include "collision/raycast.h"
#include "core/xform.h"
#include "geometry/shape.h"

#include <math.h>

/* Child pairs whose normal is within acos(0.9) ~ 25 degrees of the deepest pair's share its
   manifold. */
static const float merge_cosine = 0.9f;

/* A child pair within about 8 degrees of last step's normal and within 5 mm of the deepest
   pair's depth keeps that normal. */
static const float keep_cosine = 0.99f;
static const float keep_band = 0.005f;

/* Candidate points kept before a reduction (manifold_reduce takes up to 64). */
enum { POOL_MAX = 32 };

int shape_part_count(const cairn_shape *shape)
{
    return shape_is_compound(shape) ? shape->compound.count : 1;
}

shape_part shape_part_at(const cairn_shape *shape, cairn_transform xf, int index)
{
    if (!shape_is_compound(shape))
        return (shape_part){shape, xf};
    return (shape_part){shape->compound.children[index],
                        compound_child_transform(shape, index, xf)};
}

static bool aabb_overlap(cairn_aabb a, cairn_aabb b)
{
    return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y &&
           a.min.z <= b.max.z && b.min.z <= a.max.z;
}

static cairn_aabb aabb_grow(cairn_aabb box, float margin)
{
    return (cairn_aabb){glms_vec3_subs(box.min, margin), glms_vec3_adds(box.max, margin)};
}

bool compound_raycast(const cairn_shape *shape, cairn_transform xf, vec3s origin, vec3s translation,
                      float max_fraction, float *fraction, vec3s *normal)
{
    bool hit = false;
    float best = max_fraction;
    for (int i = 0; i < shape->compound.count; ++i) {
        shape_part part = shape_part_at(shape, xf, i);
        float t;
        vec3s n;
        if (shape_raycast(part.shape, part.xf, origin, translation, best, &t, &n) &&
            (!hit || t < best)) {
            hit = true;
            best = t;
            *normal = n;
        }
    }
    if (hit)
        *fraction = best;
    return hit;
}

bool compound_overlap(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                      cairn_transform xb)
{
    int count_a = shape_part_count(a), count_b = shape_part_count(b);
    for (int i = 0; i < count_a; ++i) {
        shape_part pa = shape_part_at(a, xa, i);
        cairn_aabb bounds_a = cairn_shape_bounds(pa.shape, pa.xf);
        for (int j = 0; j < count_b; ++j) {
            shape_part pb = shape_part_at(b, xb, j);
            if (aabb_overlap(bounds_a, cairn_shape_bounds(pb.shape, pb.xf)) &&
                cairn_overlap(pa.shape, pa.xf, pb.shape, pb.xf))
                return true;
        }
    }
    return false;
}

/* A candidate point with the normal of the child pair it came from. */
typedef struct pool_point {
    manifold_point point;
    vec3s normal;
} pool_point;

typedef struct point_pool {
    pool_point points[POOL_MAX];
    int count;
    vec3s normal; /* of the deepest child pair so far */
    float deepest;
    bool has_previous; /* last step's normal, kept while a child pair still supports it */
    vec3s previous;
    vec3s kept_normal; /* the deepest child pair facing the previous normal */
    float kept;
} point_pool;

/* Keeps the points that agree with the pool's normal, their separations projected on it, and
   reduces them to four. */
static int pool_reduce(point_pool *pool, manifold_point *out)
{
    manifold_point agree[POOL_MAX];
    int count = 0;
    for (int i = 0; i < pool->count; ++i) {
        float cosine = glms_vec3_dot(pool->points[i].normal, pool->normal);
        if (cosine < merge_cosine)
            continue;
        agree[count] = pool->points[i].point;
        agree[count].separation *= cosine;
        ++count;
    }
    return manifold_reduce(agree, count, pool->normal, out);
}

/* Adds a child pair's manifold (points re-expressed in the body frames of A and B). */
static void pool_add(point_pool *pool, const manifold *m, shape_part pa, cairn_transform xa,
                     shape_part pb, cairn_transform xb, uint32_t pair, float distance)
{
    if (distance < pool->deepest) {
        pool->deepest = distance;
        pool->normal = m->normal;
    }
    if (pool->has_previous && glms_vec3_dot(m->normal, pool->previous) >= keep_cosine &&
        distance < pool->kept) {
        pool->kept = distance;
        pool->kept_normal = m->normal;
    }
    for (int k = 0; k < m->point_count; ++k) {
        if (pool->count == POOL_MAX) {
            /* Full: keep the best four of what agrees so far and go on. */
            manifold_point kept[MANIFOLD_MAX_POINTS];
            int n = pool_reduce(pool, kept);
            for (int i = 0; i < n; ++i)
                pool->points[i] = (pool_point){kept[i], pool->normal};
            pool->count = n;
        }
        manifold_point p = m->points[k];
        p.local_a = xform_inverse_point(xa, xform_point(pa.xf, p.local_a));
        p.local_b = xform_inverse_point(xb, xform_point(pb.xf, p.local_b));
        p.id = pair * 16u + (p.id & 15u);
        pool->points[pool->count++] = (pool_point){p, m->normal};
    }
}

int compound_manifold(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                      cairn_transform xb, float margin, const vec3s *previous, manifold *out,
                      compound_stats *stats)
{
    point_pool pool = {.count = 0, .deepest = INFINITY, .kept = INFINITY};
    if (previous) {
        pool.has_previous = true;
        pool.previous = *previous;
    }
    int count_a = shape_part_count(a), count_b = shape_part_count(b);
    for (int i = 0; i < count_a; ++i) {
        shape_part pa = shape_part_at(a, xa, i);
        cairn_aabb bounds_a = aabb_grow(cairn_shape_bounds(pa.shape, pa.xf), margin);
        for (int j = 0; j < count_b; ++j) {
            shape_part pb = shape_part_at(b, xb, j);
            if (!aabb_overlap(bounds_a, cairn_shape_bounds(pb.shape, pb.xf)))
                continue;
            cairn_query_result q;
            if (!cairn_collide(pa.shape, pa.xf, pb.shape, pb.xf, NULL, &q))
                continue;
            stats->queries++;
            stats->gjk_iterations += q.gjk_iterations;
            stats->epa_calls += q.epa_iterations > 0;
            manifold m;
            if (manifold_build(pa.shape, pa.xf, pb.shape, pb.xf, &q, margin, &m) > 0)
                pool_add(&pool, &m, pa, xa, pb, xb, (uint32_t)(i * count_b + j), q.distance);
        }
    }
    /* Hysteresis: last step's normal stays while its child pair is nearly the deepest, so two
       child pairs of about equal depth do not swap the normal every step. */
    if (pool.kept <= pool.deepest + keep_band)
        pool.normal = pool.kept_normal;
    out->normal = pool.count > 0 ? pool.normal : (vec3s){{0.0f, 1.0f, 0.0f}};
    out->friction_impulse = glms_vec3_zero();
    out->twist_impulse = 0.0f;
    out->point_count = pool_reduce(&pool, out->points);
    return out->point_count;
}
