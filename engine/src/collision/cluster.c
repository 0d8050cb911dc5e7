/* Part-pair manifolds merged per direction into a body pair's manifolds (cluster.h). */
#include "collision/cluster.h"

#include "core/xform.h"

#include <math.h>

/* A manifold whose deepest child pair is within 5 mm of one facing one of last step's normals
   (within about 8 degrees) keeps that normal. */
static const float keep_cosine = 0.99f;
static const float keep_band = 0.005f;

/* Points within this of the deepest's depth bear the load with it, m: the reduction keeps the
   farthest of them as its second point. A box perched on a mesh's convex fold of a few degrees
   bears on the ridge line, and its merged points hold the ridge's two ends and the box's far
   corners over both faces: keeping the deepest end and the farthest corner (in the air) left it
   on one point at a time, rocking and walking along the ridge (10-20 cm in 30 s, never asleep). */
static const float support_band = 0.005f;

/* Keeps the cluster's points that agree with its normal, their separations projected on it,
   reduced to four. */
static int cluster_reduce(const cluster *k, manifold_point *out)
{
    manifold_point agree[CLUSTER_POOL_MAX];
    int count = 0;
    for (int i = 0; i < k->count; ++i) {
        float cosine = glms_vec3_dot(k->points[i].normal, k->normal);
        if (cosine < COMPOUND_MERGE_COSINE)
            continue;
        agree[count] = k->points[i].point;
        agree[count].separation *= cosine;
        ++count;
    }
    return manifold_reduce(agree, count, k->normal, support_band, out);
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

void cluster_set_add(cluster_set *set, const manifold *m, shape_part pa, cairn_transform xa,
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
    /* Normalised once for all the points (xform_unit: the same bits as per point). */
    xa = xform_unit(xa);
    xb = xform_unit(xb);
    pa.xf = xform_unit(pa.xf);
    pb.xf = xform_unit(pb.xf);
    for (int i = 0; i < m->point_count; ++i) {
        if (k->count == CLUSTER_POOL_MAX) {
            /* Full: keep the best four of what agrees so far and go on. */
            manifold_point kept[MANIFOLD_MAX_POINTS];
            int n = cluster_reduce(k, kept);
            for (int j = 0; j < n; ++j)
                k->points[j] = (pool_point){kept[j], k->normal};
            k->count = n;
        }
        manifold_point p = m->points[i];
        p.local_a = xform_unit_inverse_point(xa, xform_unit_point(pa.xf, p.local_a));
        p.local_b = xform_unit_inverse_point(xb, xform_unit_point(pb.xf, p.local_b));
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

void cluster_set_init(cluster_set *set, const vec3s *previous, int previous_count)
{
    set->count = 0;
    set->previous = previous;
    set->previous_count = previous_count;
}

int cluster_set_write(cluster_set *set, manifold out[CONTACT_MAX_MANIFOLDS])
{
    sort_clusters(set);
    int written = 0;
    for (int i = 0; i < set->count; ++i) {
        cluster *k = &set->clusters[i];
        /* Hysteresis: last step's normal stays while its part pair is nearly the deepest, so
           two part pairs of about equal depth do not swap the normal every step. */
        if (k->kept <= k->deepest + keep_band)
            k->normal = k->kept_normal;
        manifold *m = &out[written];
        m->normal = k->normal;
        m->friction_impulse = glms_vec3_zero();
        m->twist_impulse = 0.0f;
        m->rolling_impulse = glms_vec3_zero();
        m->point_count = cluster_reduce(k, m->points);
        written += m->point_count > 0;
    }
    return written;
}
