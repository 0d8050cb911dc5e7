/* Each frame's bodies as instances: read from the world, grouped by shape mesh, with the bounds
   the shadow map should cover. */
#ifndef CAIRN_DEMO_BODY_BATCH_H
#define CAIRN_DEMO_BODY_BATCH_H

#include "shape_cache.h"

typedef struct body_batch {
    cairn_body_id *ids;
    int *mesh_of;             /* per body: index into the shape cache, -1 when not drawn */
    mesh_instance *instances; /* grouped by mesh, see shape_mesh.first_instance */
    int capacity;
    int body_count, awake_count;
    cairn_aabb focus;                /* the moving bodies (every body when none moves) */
    cairn_body_id selected, partner; /* drawn highlighted; null ids for none */
} body_batch;

/* Fills the batch from every body of the world and sets each cached mesh's slice. False on out
   of memory (the batch then keeps last frame's contents). */
bool body_batch_gather(body_batch *b, const cairn_world *world, shape_cache *cache);
void body_batch_free(body_batch *b);

#endif
