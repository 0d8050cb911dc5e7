/* The overlay pass: stb_easy_font quads drawn as indexed triangles with alpha blending. */
#include "overlay.h"

#include "easy_font.h"
#include "shader.h"

#include <epoxy/gl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define MAX_QUADS 2048 /* ~270 bytes per character: room for several hundred characters */
#define SCALE     2.0f /* pixels per font unit */
#define MARGIN    8.0f /* pixels from the window corner to the panel */
#define PADDING   4.0f /* font units between the panel's edge and the text */

struct overlay {
    GLuint program, vao, vertex_buffer, index_buffer;
    GLint viewport;
    easy_font_vertex vertices[4 * MAX_QUADS];
};

static void build_indices(void)
{
    static const uint16_t corner[6] = {0, 1, 2, 0, 2, 3};
    uint16_t *indices = malloc(6 * MAX_QUADS * sizeof *indices);
    if (!indices) {
        return; /* the overlay then draws nothing */
    }
    for (int q = 0; q < MAX_QUADS; ++q) {
        for (int k = 0; k < 6; ++k) {
            indices[6 * q + k] = (uint16_t)(4 * q + corner[k]);
        }
    }
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, 6 * MAX_QUADS * sizeof *indices, indices, GL_STATIC_DRAW);
    free(indices);
}

overlay *overlay_create(const char *shader_dir)
{
    overlay *o = calloc(1, sizeof *o);
    if (!o) {
        return NULL;
    }
    o->program = shader_program_load(shader_dir, "overlay");
    if (!o->program) {
        free(o);
        return NULL;
    }
    o->viewport = glGetUniformLocation(o->program, "u_viewport");
    glGenVertexArrays(1, &o->vao);
    glGenBuffers(1, &o->vertex_buffer);
    glGenBuffers(1, &o->index_buffer);
    glBindVertexArray(o->vao);
    glBindBuffer(GL_ARRAY_BUFFER, o->vertex_buffer);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(easy_font_vertex),
                          (const void *)offsetof(easy_font_vertex, x));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(easy_font_vertex),
                          (const void *)offsetof(easy_font_vertex, colour));
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, o->index_buffer);
    build_indices();
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return o;
}

/* The panel is the first quad, the text follows; everything scaled to pixels. */
static int build_vertices(overlay *o, const char *text)
{
    static const unsigned char panel_colour[4] = {16, 20, 26, 150};
    static const unsigned char text_colour[4] = {240, 240, 235, 255};
    int w, h;
    easy_font_size(text, &w, &h);
    float x1 = (float)w + 2.0f * PADDING, y1 = (float)h + 2.0f * PADDING - 2.0f;
    float corners[4][2] = {{0.0f, 0.0f}, {x1, 0.0f}, {x1, y1}, {0.0f, y1}};
    for (int k = 0; k < 4; ++k) {
        o->vertices[k] = (easy_font_vertex){corners[k][0], corners[k][1], 0.0f, {0}};
        for (int c = 0; c < 4; ++c) {
            o->vertices[k].colour[c] = panel_colour[c];
        }
    }
    int quads = 1 + easy_font_quads(PADDING, PADDING, text, text_colour, o->vertices + 4,
                                    4 * (MAX_QUADS - 1));
    for (int v = 0; v < 4 * quads; ++v) {
        o->vertices[v].x = MARGIN + SCALE * o->vertices[v].x;
        o->vertices[v].y = MARGIN + SCALE * o->vertices[v].y;
    }
    return quads;
}

void overlay_draw(overlay *o, const char *text, int width, int height)
{
    int quads = build_vertices(o, text);
    glBindBuffer(GL_ARRAY_BUFFER, o->vertex_buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(4 * quads * (int)sizeof(easy_font_vertex)),
                 o->vertices, GL_STREAM_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(o->program);
    glUniform2f(o->viewport, (float)width, (float)height);
    glBindVertexArray(o->vao);
    glDrawElements(GL_TRIANGLES, 6 * quads, GL_UNSIGNED_SHORT, NULL);
    glBindVertexArray(0);
    glDisable(GL_BLEND);
}

void overlay_destroy(overlay *o)
{
    if (!o) {
        return;
    }
    glDeleteVertexArrays(1, &o->vao);
    glDeleteBuffers(1, &o->vertex_buffer);
    glDeleteBuffers(1, &o->index_buffer);
    glDeleteProgram(o->program);
    free(o);
}
