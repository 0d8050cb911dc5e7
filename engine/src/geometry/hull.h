/* Convex hull of a point cloud (quickhull): polygonal faces with planes, half-edges and vertex
   adjacency. Built once when a hull shape is created; read-only afterwards. */
#ifndef CAIRN_GEOMETRY_HULL_H
#define CAIRN_GEOMETRY_HULL_H

#include <cairn/base.h>

/* A half-edge runs from vertex `origin` to the origin of `next`, with its face on the left
   (faces are counter-clockwise seen from outside). twin is the opposite half-edge. */
typedef struct hull_half_edge {
    int origin;
    int twin;
    int next;
    int face;
} hull_half_edge;

/* A convex polygon: edge_count half-edges starting at first_edge, following `next`.
   Plane: dot(normal, x) = offset for x on the face; normal is unit and points outwards. */
typedef struct hull_face {
    vec3s normal;
    float offset;
    int first_edge;
    int edge_count;
} hull_face;

typedef struct convex_hull {
    int vertex_count;
    int face_count;
    int edge_count;  /* half-edges; always even (twins) */
    vec3s *vertices; /* hull vertices only (a subset of the input, no duplicates) */
    hull_face *faces;
    hull_half_edge *edges;
    int *vertex_edge;     /* per vertex: one half-edge leaving it */
    int *adjacency_start; /* CSR vertex adjacency: neighbours of v are */
    int *adjacency;       /* adjacency[adjacency_start[v] .. adjacency_start[v + 1]) */
    vec3s interior;       /* a point strictly inside (the vertex centroid) */
    float tolerance;      /* distance below which points counted as on a plane, metres */
} convex_hull;

/* Builds the hull of count points into *hull (all arrays allocated with mem_alloc). Returns false
   and sets the error message when count < 4, a point is NaN/Inf, or the points are coincident,
   collinear or coplanar (within tolerance). Duplicate and interior points are fine.
   Coplanar neighbouring triangles (within tolerance) are merged into one convex polygon, so a
   box given as 8 (or more) points has 6 faces; the result satisfies:
   - every input point is behind every face plane by at most `tolerance`;
   - every face is a convex polygon, counter-clockwise seen from outside, with >= 3 vertices;
   - V - E/2 + F = 2 (edge_count counts half-edges). */
bool hull_build(const vec3s *points, int count, convex_hull *hull);
void hull_destroy(convex_hull *hull);

/* The tolerance hull_build uses: max(1e-5 * the largest extent, 16 float epsilons * the sum over
   axes of the largest coordinate magnitude), i.e. well above the float rounding of the input. */
float hull_default_tolerance(const vec3s *points, int count);
/* hull_build with an explicit tolerance (metres, finite, >= 0). */
bool hull_build_with_tolerance(const vec3s *points, int count, float tolerance, convex_hull *hull);

/* Index of the hull vertex farthest along direction, by hill-climbing over the adjacency from
   vertex `start` (any valid vertex). Exact for a convex hull. */
int hull_support_climb(const convex_hull *hull, vec3s direction, int start);
/* The same by a linear scan over all vertices (the reference, and faster for small hulls). */
int hull_support_scan(const convex_hull *hull, vec3s direction);

#endif
