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

#endif
