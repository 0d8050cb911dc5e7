/* Contact manifolds from clipping alone (manifold.c), for contacts whose query pair is no
   contact point of its own. */
#ifndef CAIRN_COLLISION_MANIFOLD_CLIP_H
#define CAIRN_COLLISION_MANIFOLD_CLIP_H

#include "dynamics/contact.h"

/* manifold_build without its last resort: when clipping the supporting features leaves no point
   (a point feature, no face facing the normal, nothing within speculative_distance), the
   manifold stays empty instead of taking the query's witness pair. The query's distance still
   bounds how deep a clipped point may be. */
int manifold_build_clipped(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                           cairn_transform xb, const cairn_query_result *query,
                           float speculative_distance, manifold *out);

/* A triangle (A) against a convex part (B): manifold_build (witness true) or
   manifold_build_clipped (false), with the triangle's face the reference over a segment of B (a
   capsule's side) whenever it faces the normal. Left to the alignments, which tie for a capsule
   lying on the face, rounding could pick the segment, which bounds what it clips only at its two
   end planes: a strip across the whole triangle, points metres beside the capsule. */
int manifold_build_triangle(const cairn_shape *triangle, cairn_transform xa, const cairn_shape *b,
                            cairn_transform xb, const cairn_query_result *query,
                            float speculative_distance, bool witness, manifold *out);

#endif
