/* EPA: penetration depth and direction of two overlapping cores, from GJK's final simplex. */
#ifndef CAIRN_COLLISION_EPA_H
#define CAIRN_COLLISION_EPA_H

#include "collision/gjk.h"

typedef enum epa_status {
    EPA_CONVERGED, /* the closest face is within the gap tolerance of the support bound */
    EPA_LIMIT,     /* a face, vertex or iteration bound was hit: the best face found so far */
    EPA_TOUCHING,  /* the cores only touch (no volume around the origin): depth 0 */
} epa_status;

typedef struct epa_result {
    epa_status status;
    dvec3 normal;           /* unit, A's frame: moving B by depth * normal separates the cores */
    double depth;           /* >= 0 */
    dvec3 point_a, point_b; /* on the cores, A's frame; point_a - point_b == depth * normal */
    int iterations;
} epa_result;

enum { EPA_MAX_VERTICES = 64, EPA_MAX_FACES = 128, EPA_MAX_ITERATIONS = 60 };

/* s is GJK's final simplex (1-4 vertices) for cores that touch or overlap. fallback_normal is
   used when the cores only touch and no better normal exists. */
epa_result epa_penetration(const support_pair *pair, const simplex *s, dvec3 fallback_normal);

/* epa_penetration, then every face of the final polytope given to fn (for debug drawing). */
typedef void epa_face_fn(void *context, dvec3 a, dvec3 b, dvec3 c);
epa_result epa_penetration_faces(const support_pair *pair, const simplex *s, dvec3 fallback_normal,
                                 epa_face_fn *fn, void *context);

/* An upper bound on the depth of overlapping cores: the support value along a unit normal (A's
   frame) and the support vertex that gives it. Moving B by depth along normal separates them. */
typedef struct depth_bound {
    dvec3 normal;
    double depth;
    simplex_vertex vertex;
} depth_bound;

/* Lowers *bound (never raises it) by searching directions: the seeds (EPA's closest faces'
   normals), the shapes' face, cap and side directions, then a pattern search from the best few
   (depth_refine.c). For EPA stopped before its bounds met. */
void depth_refine(const support_pair *pair, const dvec3 *seeds, int seed_count, depth_bound *bound);

#endif
