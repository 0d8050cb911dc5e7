/* Merging the manifolds of many part pairs (compound children, mesh triangles) into a body
   pair's few: part pairs facing one way (within COMPOUND_MERGE_COSINE) share a manifold whose
   normal is that of its deepest part pair, last step's normals kept while nearly as deep, points
   reduced to four, deepest first then largest area, those bearing load first. */
#ifndef CAIRN_COLLISION_CLUSTER_H
#define CAIRN_COLLISION_CLUSTER_H

#include "collision/compound.h"

/* Candidate points kept per manifold before a reduction (manifold_reduce takes up to 64). */
enum { CLUSTER_POOL_MAX = 32 };

/* A candidate point with the normal of the child pair it came from. */
typedef struct pool_point {
    manifold_point point;
    vec3s normal;
} pool_point;

/* The child pairs facing one way: they become one manifold. */
typedef struct cluster {
    pool_point points[CLUSTER_POOL_MAX];
    int count;
    vec3s normal; /* of its deepest child pair */
    float deepest;
    vec3s kept_normal; /* of its deepest child pair facing one of last step's normals */
    float kept;
} cluster;

typedef struct cluster_set {
    cluster clusters[CONTACT_MAX_MANIFOLDS];
    int count;
    const vec3s *previous; /* last step's normals */
    int previous_count;
} cluster_set;

void cluster_set_init(cluster_set *set, const vec3s *previous, int previous_count);

/* Adds a part pair's manifold (points re-expressed in the body frames of A and B; feature ids
   made unique per part pair: pair * 16 + the point's own id). `distance` is the pair's signed
   distance (deepest first). */
void cluster_set_add(cluster_set *set, const manifold *m, shape_part pa, cairn_transform xa,
                     shape_part pb, cairn_transform xb, uint32_t pair, float distance);

/* Writes the manifolds deepest first and returns how many (0 when no part pair had points). */
int cluster_set_write(cluster_set *set, manifold out[CONTACT_MAX_MANIFOLDS]);

#endif
