/* Queries between two convex shapes: distance, penetration, overlap, separating axes. */
#ifndef CAIRN_COLLISION_H
#define CAIRN_COLLISION_H

#include <cairn/shape.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Frame-to-frame coherence for one pair: the last simplex (as local support points of A and B,
   re-evaluated under the new transforms) and the last separating axis. Opaque; zero-initialise
   before first use; one cache per ordered pair of shapes. */
typedef struct cairn_gjk_cache {
    _Alignas(16) unsigned char opaque[128];
} cairn_gjk_cache;

typedef struct cairn_query_result {
    bool overlap;           /* the full shapes (convex radius included) intersect */
    float distance;         /* separated: gap between the surfaces (>= 0);
                               overlapping: minus the penetration depth (<= 0), m */
    vec3s normal;           /* unit, from A towards B: translating B by -distance*normal
                               makes the shapes just touch */
    vec3s point_a, point_b; /* witness points on each surface, world space:
                              point_b - point_a == distance * normal */
    int gjk_iterations;
    int epa_iterations; /* 0 when EPA was not needed */
} cairn_query_result;

/* GJK distance on the cores, margins added back; EPA only when the cores overlap.
   cache may be NULL; when given, the last simplex/separating axis warm-starts the query.
   False (and an error, *out untouched) on invalid input: NULL shapes or result, non-finite or
   non-unit transforms. */
CAIRN_API bool cairn_collide(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                             cairn_transform xb, cairn_gjk_cache *cache, cairn_query_result *out);
/* Boolean overlap test (ISA-GJK): stops at the first separating axis. False on invalid input
   (with an error set). */
CAIRN_API bool cairn_overlap(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                             cairn_transform xb);
/* Separating-axis test for boxes and hulls: same result contract as cairn_collide. False (and
   an error) for other shape types or invalid input. */
CAIRN_API bool cairn_collide_sat(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                                 cairn_transform xb, cairn_query_result *out);

#ifdef __cplusplus
}
#endif

#endif
