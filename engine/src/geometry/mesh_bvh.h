/* The bounding-volume hierarchy of a triangle mesh: built once (binned SAH, up to
   BVH_LEAF_TRIANGLES triangles per leaf), 32-byte nodes in depth-first order, queried by box and
   by ray. No allocation after the build. */
#ifndef CAIRN_GEOMETRY_MESH_BVH_H
#define CAIRN_GEOMETRY_MESH_BVH_H

#include <cairn/base.h>

enum { BVH_LEAF_TRIANGLES = 4, BVH_MAX_DEPTH = 64 };

/* An inner node's left child is the next node; `index` is its right child. A leaf's triangles
   are [index, index + count) of the mesh's (reordered) triangle array. */
typedef struct bvh_node {
    float min[3], max[3];
    int32_t index;
    int32_t count; /* 0 for an inner node */
} bvh_node;

typedef struct mesh_bvh {
    bvh_node *nodes;
    int node_count;
    int capacity; /* nodes allocated */
} mesh_bvh;

/* Builds the hierarchy over count triangles (corner indices into vertices) and reorders
   triangles[] (and order[], carried along: triangle i's tag) so each leaf covers a contiguous
   range. False (error set) when memory runs out. */
bool bvh_build(mesh_bvh *bvh, const vec3s *vertices, int (*triangles)[3], int *order, int count);
void bvh_destroy(mesh_bvh *bvh);

/* Calls visit for every leaf range whose box overlaps `box` (touching counts); visit returns
   false to stop the query. */
typedef bool bvh_leaf_fn(void *context, int first, int count);
void bvh_query_box(const mesh_bvh *bvh, cairn_aabb box, bvh_leaf_fn *visit, void *context);

/* Calls visit for every leaf range whose box the segment origin + t * d, t in [0, *max_t],
   crosses, nearer boxes first; visit may lower *max_t (a closer hit) to prune the rest. */
typedef void bvh_ray_fn(void *context, int first, int count, float *max_t);
void bvh_query_ray(const mesh_bvh *bvh, vec3s origin, vec3s d, float *max_t, bvh_ray_fn *visit,
                   void *context);

#endif
