/* Compound shapes in the collision queries: ray casts, overlap tests and the contact manifolds
   (one per direction the child pairs touch along), each run over the convex children with their
   bounds as a prefilter. */
#include "collision/compound.h"

#include "collision/query.h"
#include "collision/raycast.h"
#include "core/xform.h"
#include "geometry/shape.h"

#include <math.h>

/* A manifold whose deepest child pair is within 5 mm of one facing one of last step's normals
   (within about 8 degrees) keeps that normal. */
static const float keep_cosine = 0.99f;
static const float keep_band = 0.005f;

/* Candidate points kept per manifold before a reduction (manifold_reduce takes up to 64). */
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

/* The child pairs facing one way: they become one manifold. */
typedef struct cluster {
    pool_point points[POOL_MAX];
    int count;
    vec3s normal; /* of its deepest child pair */
    float deepest;
    vec3s kept_normal; /* of its deepest child pair facing one of last step's normals */
    float kept;
} cluster;

typedef struct cluster_set {
    cluster clusters[CONTACT_MAX_MANIFOLDS];
    int count;
    const vec3s *previous; /* last step's normals */
    int previous_count;
} cluster_set;

/* Keeps the cluster's points that agree with its normal, their separations projected on it,
   reduced to four. */
static int cluster_reduce(const cluster *k, manifold_point *out)
{
    manifold_point agree[POOL_MAX];
    int count = 0;
    for (int i = 0; i < k->count; ++i) {
        float cosine = glms_vec3_dot(k->points[i].normal, k->normal);
        if (cosine < COMPOUND_MERGE_COSINE)
            continue;
        agree[count] = k->points[i].point;
        agree[count].separation *= cosine;
        ++count;
    }
    return manifold_reduce(agree, count, k->normal, out);
}

/* The cluster a child pair with this normal joins: the first facing its way, else a new one,
   else (all taken) the closest. */
static cluster *cluster_for(cluster_set *set, vec3s normal)
{
    int closest = 0;
    float best = -2.0f;
    for (int i = 0; i < set->count; ++i) {
        float cosine = glms_vec3_dot(set->clusters[i].normal, normal);
        if (cosine >= COMPOUND_MERGE_COSINE)
            return &set->clusters[i];
        if (cosine > best)
            best = cosine, closest = i;
    }
    if (set->count == CONTACT_MAX_MANIFOLDS)
        return &set->clusters[closest];
    cluster *k = &set->clusters[set->count++];
    k->count = 0;
    k->normal = normal;
    k->deepest = INFINITY;
    k->kept = INFINITY;
    return k;
}

static bool faces_previous(const cluster_set *set, vec3s normal)
{
    for (int i = 0; i < set->previous_count; ++i)
        if (glms_vec3_dot(normal, set->previous[i]) >= keep_cosine)
            return true;
    return false;
}

/* Adds a child pair's manifold (points re-expressed in the body frames of A and B). */
static void cluster_add(cluster_set *set, const manifold *m, shape_part pa, cairn_transform xa,
                        shape_part pb, cairn_transform xb, uint32_t pair, float distance)
{
    cluster *k = cluster_for(set, m->normal);
    if (distance < k->deepest) {
        k->deepest = distance;
        k->normal = m->normal;
    }
    if (distance < k->kept && faces_previous(set, m->normal)) {
        k->kept = distance;
        k->kept_normal = m->normal;
    }
    for (int i = 0; i < m->point_count; ++i) {
        if (k->count == POOL_MAX) {
            /* Full: keep the best four of what agrees so far and go on. */
            manifold_point kept[MANIFOLD_MAX_POINTS];
            int n = cluster_reduce(k, kept);
            for (int j = 0; j < n; ++j)
                k->points[j] = (pool_point){kept[j], k->normal};
            k->count = n;
        }
        manifold_point p = m->points[i];
        p.local_a = xform_inverse_point(xa, xform_point(pa.xf, p.local_a));
        p.local_b = xform_inverse_point(xb, xform_point(pb.xf, p.local_b));
        p.id = pair * 16u + (p.id & 15u);
        k->points[k->count++] = (pool_point){p, m->normal};
    }
}

/* Deepest first; equal depths keep the order they were found in (insertion sort: stable). */
static void sort_clusters(cluster_set *set)
{
    for (int i = 1; i < set->count; ++i)
        for (int j = i; j > 0 && set->clusters[j].deepest < set->clusters[j - 1].deepest; --j) {
            cluster t = set->clusters[j];
            set->clusters[j] = set->clusters[j - 1];
            set->clusters[j - 1] = t;
        }
}

int compound_manifolds(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                       cairn_transform xb, float margin, const vec3s *previous, int previous_count,
                       manifold out[CONTACT_MAX_MANIFOLDS], compound_stats *stats)
{
    cluster_set set = {.count = 0, .previous = previous, .previous_count = previous_count};
    int count_a = shape_part_count(a), count_b = shape_part_count(b);
    for (int i = 0; i < count_a; ++i) {
        shape_part pa = shape_part_at(a, xa, i);
        cairn_aabb bounds_a = aabb_grow(cairn_shape_bounds(pa.shape, pa.xf), margin);
        for (int j = 0; j < count_b; ++j) {
            shape_part pb = shape_part_at(b, xb, j);
            if (!aabb_overlap(bounds_a, cairn_shape_bounds(pb.shape, pb.xf)))
                continue;
            cairn_query_result q;
            bool epa_capped;
            if (!query_collide(pa.shape, pa.xf, pb.shape, pb.xf, NULL, &q, &epa_capped))
                continue;
            stats->queries++;
            stats->gjk_iterations += q.gjk_iterations;
            stats->epa_calls += q.epa_iterations > 0;
            stats->epa_cap_stops += epa_capped;
            manifold m;
            if (manifold_build(pa.shape, pa.xf, pb.shape, pb.xf, &q, margin, &m) > 0)
                cluster_add(&set, &m, pa, xa, pb, xb, (uint32_t)(i * count_b + j), q.distance);
        }
    }
    sort_clusters(&set);
    int written = 0;
    for (int i = 0; i < set.count; ++i) {
        cluster *k = &set.clusters[i];
        /* Hysteresis: last step's normal stays while its child pair is nearly the deepest, so
           two child pairs of about equal depth do not swap the normal every step. */
        if (k->kept <= k->deepest + keep_band)
            k->normal = k->kept_normal;
        manifold *m = &out[written];
        m->normal = k->normal;
        m->friction_impulse = glms_vec3_zero();
        m->twist_impulse = 0.0f;
        m->point_count = cluster_reduce(k, m->points);
        written += m->point_count > 0;
    }
    return written;
}
