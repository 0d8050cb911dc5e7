/* Meshes and heightfields behind one interface: the triangles under a box, the closest triangle
   along a ray, one triangle's corners. Everything in the shape's own frame. */
#ifndef CAIRN_GEOMETRY_TRIANGLES_H
#define CAIRN_GEOMETRY_TRIANGLES_H

#include "geometry/shape.h"

/* Called per triangle; returns false to stop the query. */
typedef bool triangle_fn(void *context, int triangle, const vec3s corners[3]);

/* Every triangle whose bounds overlap `box` (touching counts), possibly a few more. */
void triangles_query_box(const cairn_shape *shape, cairn_aabb box, triangle_fn *visit,
                         void *context);

typedef struct triangle_hit {
    float fraction;
    vec3s normal; /* unit, facing against the ray */
    int triangle;
} triangle_hit;

/* The closest triangle hit by origin + t * d, t in [0, max_fraction] (either side of a triangle
   counts). False when none is hit. */
bool triangles_raycast(const cairn_shape *shape, vec3s origin, vec3s d, float max_fraction,
                       triangle_hit *hit);

/* One triangle's corners (valid index assumed). */
void triangles_corners(const cairn_shape *shape, int triangle, vec3s corners[3]);

/* Ray against one triangle, either side, in double: true with *t in [0, max_t] on a hit. */
bool triangle_ray(const vec3s corners[3], vec3s origin, vec3s d, float max_t, float *t);

/* Unit normal of a triangle's front (counter-clockwise) side. */
vec3s triangle_normal(const vec3s corners[3]);

/* Whether edge `edge` (from corner edge to corner edge + 1) of a triangle may produce contact
   normals other than the face normal (triangle_edges.c): false when it is shared with a
   neighbour in the same plane or folding inwards. */
bool triangles_edge_active(const cairn_shape *shape, int triangle, int edge);
/* The rule itself, given the neighbour's corner opposite the edge. */
bool edge_is_active(const vec3s corners[3], int edge, vec3s opposite);
/* Sets mesh->edge_flags from shared vertex indices (false when memory runs out). */
bool mesh_build_edge_flags(mesh_data *mesh);

static inline void mesh_corners_of(const mesh_data *m, int kept, vec3s corners[3])
{
    for (int c = 0; c < 3; ++c)
        corners[c] = m->vertices[m->triangles[kept][c]];
}

/* The kind-specific halves (mesh_shape.c, heightfield.c). */
void mesh_query_box(const cairn_shape *shape, cairn_aabb box, triangle_fn *visit, void *context);
bool mesh_raycast(const cairn_shape *shape, vec3s origin, vec3s d, float max_fraction,
                  triangle_hit *hit);
void mesh_corners(const cairn_shape *shape, int kept, vec3s corners[3]);
void heightfield_query_box(const cairn_shape *shape, cairn_aabb box, triangle_fn *visit,
                           void *context);
bool heightfield_raycast(const cairn_shape *shape, vec3s origin, vec3s d, float max_fraction,
                         triangle_hit *hit);
void heightfield_corners(const cairn_shape *shape, int triangle, vec3s corners[3]);
/* Whether cell (x, z) has a hole at one of its corners, and so no triangles. */
bool heightfield_cell_is_hole(const heightfield_data *h, int x, int z);
/* Whether a heightfield triangle (a valid index) exists: false when its cell is a hole. */
bool heightfield_has_triangle(const cairn_shape *shape, int triangle);

#endif
