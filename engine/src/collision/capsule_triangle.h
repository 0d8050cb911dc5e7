/* A capsule against one triangle in closed form, in double, in the triangle's frame: the exact
   closest pair when the core segment stays off the triangle, the minimum translation by SAT when
   it crosses it. Pure geometry: one-sidedness and the margin are the caller's (mesh_collide.c). */
#ifndef CAIRN_COLLISION_CAPSULE_TRIANGLE_H
#define CAIRN_COLLISION_CAPSULE_TRIANGLE_H

#include "collision/gjk.h"

typedef struct capsule_triangle_result {
    double core_distance; /* signed distance between core and triangle (< 0: the core crosses) */
    double distance;      /* core_distance - radius: the capsule's signed distance */
    dvec3 normal;         /* unit, from the triangle towards the capsule */
    dvec3 on_triangle;    /* witness on the triangle */
    dvec3 on_core;        /* witness on the core segment (query_finish adds the radius) */
} capsule_triangle_result;

/* The capsule with core segment p0-p1 (equal ends: a sphere) and `radius` against the triangle
   `corners` whose unit front normal is `face`. Both sides of the triangle are solid here; the
   normal may face its back. */
void capsule_triangle(dvec3 p0, dvec3 p1, double radius, const dvec3 corners[3], dvec3 face,
                      capsule_triangle_result *out);

#endif
