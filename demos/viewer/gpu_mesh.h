/* One mesh on the GPU plus its instance buffer: a single instanced draw call per mesh. */
#ifndef CAIRN_DEMO_GPU_MESH_H
#define CAIRN_DEMO_GPU_MESH_H

#include "mesh.h"

#include <epoxy/gl.h>

/* Per-instance data, matching the instance attributes of the shaders (locations 2..6). */
typedef struct mesh_instance {
    mat4s model;  /* rigid: rotation and translation only, so it also transforms normals */
    vec4s colour; /* rgb albedo, a ground-grid strength */
} mesh_instance;

typedef struct gpu_mesh {
    GLuint vao, vertex_buffer, index_buffer, instance_buffer;
    GLsizei index_count;
    GLsizei instance_count;
} gpu_mesh;

void gpu_mesh_upload(gpu_mesh *g, const mesh *m);
/* Replaces the instances drawn by gpu_mesh_draw. */
void gpu_mesh_set_instances(gpu_mesh *g, const mesh_instance *instances, int count);
void gpu_mesh_draw(const gpu_mesh *g);
void gpu_mesh_destroy(gpu_mesh *g);

#endif
