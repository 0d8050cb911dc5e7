/* Compound shapes in the collision queries: ray casts, overlap tests and contact manifolds run
   per child (children prefiltered by their bounds). */
#ifndef CAIRN_COLLISION_COMPOUND_H
#define CAIRN_COLLISION_COMPOUND_H

#include "dynamics/contact.h"

/* Child pairs whose normals are within acos(0.9) ~ 25 degrees share a manifold; a new manifold
   inherits impulses from an old one facing its way within the same angle. */
#define COMPOUND_MERGE_COSINE 0.9f

/* Whether two boxes overlap (touching counts). */
static inline bool aabb_overlap(cairn_aabb a, cairn_aabb b)
{
    return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y &&
           a.min.z <= b.max.z && b.min.z <= a.max.z;
}

/* The box that covers `box` over the whole translation. */
static inline cairn_aabb aabb_sweep(cairn_aabb box, vec3s translation)
{
    return (cairn_aabb){glms_vec3_minv(box.min, glms_vec3_add(box.min, translation)),
                        glms_vec3_maxv(box.max, glms_vec3_add(box.max, translation))};
}

/* One convex piece of a shape: the shape itself, or a compound's child, placed in the world. */
typedef struct shape_part {
    const cairn_shape *shape;
    cairn_transform xf;
} shape_part;

/* 1 for a convex shape, the child count for a compound. */
int shape_part_count(const cairn_shape *shape);
shape_part shape_part_at(const cairn_shape *shape, cairn_transform xf, int index);

/* shape_raycast for a compound: the closest hit over its children. */
bool compound_raycast(const cairn_shape *shape, cairn_transform xf, vec3s origin, vec3s translation,
                      float max_fraction, float *fraction, vec3s *normal);

/* cairn_overlap when either shape is a compound (inputs already checked). */
bool compound_overlap(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                      cairn_transform xb);

/* Narrow-phase work, for the step statistics. */
typedef struct compound_stats {
    int queries, gjk_iterations, epa_calls, epa_cap_stops;
    int cache_hits; /* queries warm-started from a cached simplex (mesh pairs) */
} compound_stats;

/* The contact manifolds of a pair with at least one compound. Each child pair whose bounds come
   within `margin` runs cairn_collide and manifold_build. Child pairs whose normals are within
   about 25 degrees share a manifold, whose normal is that of its deepest child pair; points are
   merged (separations projected on the normal, points on A in A's frame, ids unique per child
   pair) and reduced to four, deepest first then largest area. So an L-shaped body in the crook
   of another gets one manifold per direction it is pushed, up to CONTACT_MAX_MANIFOLDS (beyond
   that a child pair joins the closest manifold, where its points count only if they agree).
   `previous` (count previous_count, last step's normals) are kept while a child pair facing one
   is within 5 mm of its manifold's deepest: no swapping between two equally deep pairs. Writes
   the manifolds deepest first and returns how many (0 when no child pair has points). */
int compound_manifolds(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                       cairn_transform xb, float margin, const vec3s *previous, int previous_count,
                       manifold out[CONTACT_MAX_MANIFOLDS], compound_stats *stats);

#endif
