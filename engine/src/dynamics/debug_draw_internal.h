/* What the debug-draw layers share: a point with its line fallback, the joints' layer
   (joint_draw.c) and the mesh layers. */
#ifndef CAIRN_DYNAMICS_DEBUG_DRAW_INTERNAL_H
#define CAIRN_DYNAMICS_DEBUG_DRAW_INTERNAL_H

#include <cairn/debug_draw.h>

/* A point through draw->point, or a small cross of lines without one. */
void debug_draw_point(const cairn_debug_draw *d, vec3s at, vec4s colour);
void joints_debug_draw(const cairn_world *world, const cairn_debug_draw *d);
/* The MESH_BVH and MESH_EDGES layers (debug_draw_mesh.c) of every mesh and heightfield body. */
void meshes_debug_draw(const cairn_world *world, const cairn_debug_draw *d, uint32_t flags);

#endif
