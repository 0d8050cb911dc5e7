/* Compound shapes in the collision queries: ray casts, overlap tests and contact manifolds run
   per child (children prefiltered by their bounds). */
#ifndef CAIRN_COLLISION_COMPOUND_H
#define CAIRN_COLLISION_COMPOUND_H

#include "dynamics/contact.h"

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
    int queries, gjk_iterations, epa_calls;
} compound_stats;

/* The contact manifold of a pair with at least one compound: each child pair whose bounds come
   within `margin` runs cairn_collide and manifold_build; the deepest child pair gives the
   manifold's normal, except that `previous` (last step's normal, NULL when none) is kept while
   a child pair facing it is within 5 mm of the deepest (no swapping between two equally deep
   pairs); points of child pairs whose normal is within about 25 degrees of it are
   merged (separations projected on it, points on A in A's frame, ids unique per child pair)
   and reduced to four, deepest first then largest area. Child pairs facing another way are left
   out: one manifold carries one normal. Returns the point count. */
int compound_manifold(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                      cairn_transform xb, float margin, const vec3s *previous, manifold *out,
                      compound_stats *stats);

#endif
