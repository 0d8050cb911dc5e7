/* Exact ray casts against one shape (core + convex radius): closed forms for spheres and capsules,
   a GJK ray cast (conservative advancement on the support mapping) for boxes, cylinders and hulls.
   No allocation, no global state. */
#ifndef CAIRN_COLLISION_RAYCAST_H
#define CAIRN_COLLISION_RAYCAST_H

#include <cairn/shape.h>

/* Iteration bound of the GJK ray cast (each iteration: one support query and a simplex solve). */
enum { RAYCAST_MAX_ITERATIONS = 96 };

/* The first point of the segment origin + t * translation, t in [0, max_fraction], that lies in
   the full shape placed at xf (world frame). On a hit: true, *fraction = t and *normal = the unit
   outward surface normal there (world frame, pointing against the ray). A ray whose origin is
   inside the shape (or on its surface) hits at fraction 0 with normal = -translation /
   |translation|. A zero translation never hits. Inputs are trusted (finite, unit rotation): the
   world checks them. */
bool shape_raycast(const cairn_shape *shape, cairn_transform xf, vec3s origin, vec3s translation,
                   float max_fraction, float *fraction, vec3s *normal);

/* The same through the GJK ray cast for every shape type, spheres and capsules included (for
   tests comparing the general path against the closed forms). *iterations (may be NULL) receives
   the number of iterations used. */
bool shape_raycast_gjk(const cairn_shape *shape, cairn_transform xf, vec3s origin,
                       vec3s translation, float max_fraction, float *fraction, vec3s *normal,
                       int *iterations);

#endif
