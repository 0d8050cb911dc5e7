/* Shared pieces of the public pair queries (collide.c, sat.c). */
#ifndef CAIRN_COLLISION_QUERY_H
#define CAIRN_COLLISION_QUERY_H

#include "collision/gjk.h"

/* What cairn_gjk_cache holds: the last simplex as local points on A and B (the first count of
   them are read), and the last axis (A's frame, from A towards B). Copied in and out with
   memcpy: the public type is bytes. */
typedef struct gjk_cache_data {
    vec3s a_local[4], b_local[4];
    vec3s axis;
    int count;
} gjk_cache_data;

/* Checks a transform at the API boundary: finite, within 1e6 m of the origin, unit rotation
   (error "<function>: <name>.position ..." set on failure). */
bool query_check_transform(const char *function, const char *name, cairn_transform xf);

/* Checks shapes and transforms at the API boundary (error set on failure). */
bool query_check_pair(const char *function, const cairn_shape *a, cairn_transform xa,
                      const cairn_shape *b, cairn_transform xb);

/* Fills *out from witness points on the cores (A's frame), the unit normal from A to B (A's
   frame) and the signed core distance (< 0: core penetration); adds the convex radii. */
void query_finish(cairn_transform xa, const cairn_shape *a, const cairn_shape *b, dvec3 core_a,
                  dvec3 core_b, dvec3 normal, double core_distance, cairn_query_result *out);

/* Closest points of segments p0-p1 and q0-q1 (either may be a point). */
void segment_closest(dvec3 p0, dvec3 p1, dvec3 q0, dvec3 q1, dvec3 *on_p, dvec3 *on_q);

/* The GJK / EPA path with margins (cache may be NULL). *epa_capped: EPA stopped on a bound
   (iterations, vertex or face store) before its bounds met. */
bool query_gjk_epa(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                   cairn_transform xb, cairn_gjk_cache *cache, cairn_query_result *out,
                   bool *epa_capped);

/* query_gjk_epa on a pair the caller made (support_pair_make, or support_pair_posed for many
   pairs at one relative pose) and A's transform; no sphere closed form. */
bool query_gjk_epa_pair(const support_pair *pair, cairn_transform xa, cairn_gjk_cache *cache,
                        cairn_query_result *out, bool *epa_capped);

/* cairn_collide, also telling whether EPA stopped on a bound before converging (the step
   statistics count those: cairn_step_stats.epa_cap_stops). */
bool query_collide(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                   cairn_transform xb, cairn_gjk_cache *cache, cairn_query_result *out,
                   bool *epa_capped);

/* Signed distance from point p (the shape's frame) to the core of a box or cylinder (< 0 inside)
   and the core's outward unit normal there (outside: from the nearest point towards p; inside:
   out through the nearest face, cap or side); for a hull only when p is inside (false when
   outside). False for other shapes (point_depth.c). */
bool core_point_query(const cairn_shape *shape, dvec3 p, double *distance, dvec3 *normal);

#endif
