/* Compound shapes in the collision queries: ray casts, overlap tests and the contact manifolds
   (one per direction the child pairs touch along), each run over the convex children with their
   bounds as a prefilter. */
#include "collision/compound.h"

#include "collision/cluster.h"
#include "collision/query.h"
#include "collision/raycast.h"
#include "core/xform.h"
#include "geometry/shape.h"

#include <math.h>

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

int compound_manifolds(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                       cairn_transform xb, float margin, const vec3s *previous, int previous_count,
                       manifold out[CONTACT_MAX_MANIFOLDS], compound_stats *stats)
{
    cluster_set set;
    cluster_set_init(&set, previous, previous_count);
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
                cluster_set_add(&set, &m, pa, xa, pb, xb, (uint32_t)(i * count_b + j), q.distance);
        }
    }
    return cluster_set_write(&set, out);
}
