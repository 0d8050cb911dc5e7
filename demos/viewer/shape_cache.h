/* GPU meshes keyed by shape pointer: one mesh per distinct shape, built the first time a body
   with that shape is drawn. Valid while the world that owns the shapes lives; clear it when the
   world is replaced (a freed shape's address may be reused). */
#ifndef CAIRN_DEMO_SHAPE_CACHE_H
#define CAIRN_DEMO_SHAPE_CACHE_H

#include "gpu_mesh.h"

typedef struct shape_mesh {
    const cairn_shape *shape;
    bool ok; /* false: meshing failed; the shape is skipped, not retried every frame */
    gpu_mesh gpu;
    int first_instance, instance_count; /* this frame's slice of the instance array */
} shape_mesh;

typedef struct shape_cache {
    shape_mesh *meshes;
    int count, capacity;
    int *slots;     /* open addressing on the pointer: mesh index + 1, 0 when empty */
    int slot_count; /* a power of two, at least twice count */
} shape_cache;

/* Index of the shape's mesh, built and uploaded on first use; -1 when it cannot be drawn.
   Needs a current GL context. */
int shape_cache_get(shape_cache *c, const cairn_shape *shape);
/* Deletes every mesh (GL objects included); the cache stays usable. */
void shape_cache_clear(shape_cache *c);
void shape_cache_destroy(shape_cache *c);

#endif
