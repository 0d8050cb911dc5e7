/* Triangle meshes built from Cairn shapes through the public shape API (CPU side, no GL). */
#ifndef CAIRN_DEMO_MESH_H
#define CAIRN_DEMO_MESH_H

#include <cairn/cairn.h>
#include <stdint.h>

typedef struct mesh_vertex {
    float position[3];
    float normal[3];
} mesh_vertex;

/* Triangles wound counter-clockwise seen from outside, in the shape's frame. */
typedef struct mesh {
    mesh_vertex *vertices;
    int vertex_count, vertex_capacity;
    uint32_t *indices;
    int index_count, index_capacity;
    bool failed; /* an allocation failed; the mesh is incomplete */
} mesh;

/* False (message on stderr) on an unknown shape or out of memory; free the mesh either way. */
bool mesh_from_shape(const cairn_shape *shape, mesh *out);
void mesh_free(mesh *m);

#endif
