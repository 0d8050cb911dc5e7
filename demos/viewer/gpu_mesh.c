/* Vertex array setup for instanced meshes: per-vertex position/normal, per-instance model
   matrix (four vec4 columns) and colour. */
#include "gpu_mesh.h"

#include <stddef.h>
#include <string.h>

enum { ATTR_POSITION = 0, ATTR_NORMAL = 1, ATTR_MODEL = 2, ATTR_COLOUR = 6 };

static void vertex_attributes(void)
{
    glEnableVertexAttribArray(ATTR_POSITION);
    glVertexAttribPointer(ATTR_POSITION, 3, GL_FLOAT, GL_FALSE, sizeof(mesh_vertex),
                          (const void *)offsetof(mesh_vertex, position));
    glEnableVertexAttribArray(ATTR_NORMAL);
    glVertexAttribPointer(ATTR_NORMAL, 3, GL_FLOAT, GL_FALSE, sizeof(mesh_vertex),
                          (const void *)offsetof(mesh_vertex, normal));
}

static void instance_attributes(void)
{
    for (int column = 0; column < 4; ++column) {
        GLuint loc = ATTR_MODEL + (GLuint)column;
        glEnableVertexAttribArray(loc);
        glVertexAttribPointer(
            loc, 4, GL_FLOAT, GL_FALSE, sizeof(mesh_instance),
            (const void *)(offsetof(mesh_instance, model) + (size_t)column * sizeof(vec4s)));
        glVertexAttribDivisor(loc, 1);
    }
    glEnableVertexAttribArray(ATTR_COLOUR);
    glVertexAttribPointer(ATTR_COLOUR, 4, GL_FLOAT, GL_FALSE, sizeof(mesh_instance),
                          (const void *)offsetof(mesh_instance, colour));
    glVertexAttribDivisor(ATTR_COLOUR, 1);
}

void gpu_mesh_upload(gpu_mesh *g, const mesh *m)
{
    memset(g, 0, sizeof *g);
    glGenVertexArrays(1, &g->vao);
    glGenBuffers(1, &g->vertex_buffer);
    glGenBuffers(1, &g->index_buffer);
    glGenBuffers(1, &g->instance_buffer);
    glBindVertexArray(g->vao);

    glBindBuffer(GL_ARRAY_BUFFER, g->vertex_buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)m->vertex_count * (GLsizeiptr)sizeof(mesh_vertex),
                 m->vertices, GL_STATIC_DRAW);
    vertex_attributes();

    glBindBuffer(GL_ARRAY_BUFFER, g->instance_buffer);
    instance_attributes();

    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->index_buffer);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)m->index_count * (GLsizeiptr)sizeof(uint32_t),
                 m->indices, GL_STATIC_DRAW);
    g->index_count = m->index_count;

    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void gpu_mesh_set_instances(gpu_mesh *g, const mesh_instance *instances, int count)
{
    /* A fresh allocation each frame lets the driver keep drawing last frame's data meanwhile. */
    glBindBuffer(GL_ARRAY_BUFFER, g->instance_buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)count * (GLsizeiptr)sizeof(mesh_instance), instances,
                 GL_STREAM_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    g->instance_count = count;
}

void gpu_mesh_draw(const gpu_mesh *g)
{
    if (g->instance_count == 0) {
        return;
    }
    glBindVertexArray(g->vao);
    glDrawElementsInstanced(GL_TRIANGLES, g->index_count, GL_UNSIGNED_INT, NULL, g->instance_count);
    glBindVertexArray(0);
}

void gpu_mesh_destroy(gpu_mesh *g)
{
    glDeleteBuffers(1, &g->vertex_buffer);
    glDeleteBuffers(1, &g->index_buffer);
    glDeleteBuffers(1, &g->instance_buffer);
    glDeleteVertexArrays(1, &g->vao);
    memset(g, 0, sizeof *g);
}
