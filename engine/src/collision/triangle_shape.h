/* One triangle of a mesh or heightfield as a convex shape for the narrow phase: a flat hull of
   three vertices, two faces and radius 0, living on the stack. GJK, EPA, manifold clipping and
   SAT read it like any other hull. */
#ifndef CAIRN_COLLISION_TRIANGLE_SHAPE_H
#define CAIRN_COLLISION_TRIANGLE_SHAPE_H

#include "geometry/shape.h"

typedef struct triangle_shape {
    cairn_shape shape; /* type CAIRN_SHAPE_HULL, convex radius 0; points into the arrays below */
    vec3s vertices[3];
    hull_face faces[2]; /* front (counter-clockwise) and back */
    hull_half_edge edges[6];
    int vertex_edge[3];
    int adjacency_start[4];
    int adjacency[6];
} triangle_shape;

/* Fills *t with the triangle (corners in the frame the shape will be placed in). The result must
   not be copied: its shape points into itself. */
void triangle_shape_make(triangle_shape *t, const vec3s corners[3]);

/* Puts a shape made by triangle_shape_make on new corners: only what depends on them changes
   (the vertices, the face planes, the interior point, the bounds). A mesh's triangles against
   one body reuse one shape: half of making one was the parts every triangle shares. */
void triangle_shape_move(triangle_shape *t, const vec3s corners[3]);

/* Closest point of the triangle to p, in double (Ericson's region test). */
void triangle_closest_point(const double corners[3][3], const double p[3], double out[3]);

#endif
