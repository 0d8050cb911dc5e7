/* The overlay pass: stb_easy_font quads and plain rectangles drawn as indexed triangles with
   alpha blending, one draw call per frame. */
#include "overlay.h"

#include "easy_font.h"
#include "shader.h"

#include <epoxy/gl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define MAX_QUADS 60000 /* text (~270 bytes a character) plus graph bars */
#define SCALE     2.0f  /* pixels per font unit */
#define MARGIN    8.0f  /* pixels from the window edge to a panel */
#define PADDING   4.0f  /* font units between a panel's edge and its text */

struct overlay {
    GLuint program, vao, vertex_buffer, index_buffer;
    GLint viewport;
    int width, height, quads;
    easy_font_vertex vertices[4 * MAX_QUADS];
};

static void build_indices(void)
{
    static const uint32_t corner[6] = {0, 1, 2, 0, 2, 3};
    uint32_t *indices = malloc(6 * MAX_QUADS * sizeof *indices);
    if (!indices) {
        return; /* the overlay then draws nothing */
    }
    for (uint32_t q = 0; q < MAX_QUADS; ++q) {
        for (int k = 0; k < 6; ++k) {
            indices[6 * q + k] = 4 * q + corner[k];
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

void overlay_begin(overlay *o, int width, int height)
{
    o->width = width;
    o->height = height;
    o->quads = 0;
}

void overlay_rect(overlay *o, float x0, float y0, float x1, float y1, const unsigned char colour[4])
{
    if (o->quads >= MAX_QUADS) {
        return;
    }
    float corners[4][2] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    easy_font_vertex *v = o->vertices + 4 * o->quads++;
    for (int k = 0; k < 4; ++k) {
        v[k] = (easy_font_vertex){
            corners[k][0], corners[k][1], 0.0f, {colour[0], colour[1], colour[2], colour[3]}};
    }
}

/* Font-unit quads written at (0, 0) are scaled and moved to the pixel position. */
static void add_text(overlay *o, float x, float y, const char *text, const unsigned char colour[4])
{
    easy_font_vertex *v = o->vertices + 4 * o->quads;
    int quads = easy_font_quads(0.0f, 0.0f, text, colour, v, 4 * (MAX_QUADS - o->quads));
    for (int k = 0; k < 4 * quads; ++k) {
        v[k].x = x + SCALE * v[k].x;
        v[k].y = y + SCALE * v[k].y;
    }
    o->quads += quads;
}

void overlay_label(overlay *o, float x, float y, const char *text, const unsigned char colour[4])
{
    add_text(o, x, y, text, colour);
}

void overlay_text_size(const char *text, float *width, float *height)
{
    int w, h;
    easy_font_size(text, &w, &h);
    *width = SCALE * ((float)w + 2.0f * PADDING);
    *height = SCALE * ((float)h + 2.0f * PADDING - 2.0f);
}

int overlay_text(overlay *o, overlay_corner corner, int offset_y, const char *text)
{
    static const unsigned char panel_colour[4] = {16, 20, 26, 150};
    static const unsigned char text_colour[4] = {240, 240, 235, 255};
    float pw, ph;
    overlay_text_size(text, &pw, &ph);
    bool right = corner == OVERLAY_TOP_RIGHT || corner == OVERLAY_BOTTOM_RIGHT;
    bool bottom = corner == OVERLAY_BOTTOM_LEFT || corner == OVERLAY_BOTTOM_RIGHT;
    float x = right ? (float)o->width - MARGIN - pw : MARGIN;
    float y = bottom ? (float)o->height - MARGIN - ph - (float)offset_y : MARGIN + (float)offset_y;
    overlay_rect(o, x, y, x + pw, y + ph, panel_colour);
    add_text(o, x + SCALE * PADDING, y + SCALE * PADDING, text, text_colour);
    return (int)(ph + MARGIN);
}

void overlay_end(overlay *o)
{
    if (o->quads == 0) {
        return;
    }
    glBindBuffer(GL_ARRAY_BUFFER, o->vertex_buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(4 * (size_t)o->quads * sizeof(easy_font_vertex)),
                 o->vertices, GL_STREAM_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(o->program);
    glUniform2f(o->viewport, (float)o->width, (float)o->height);
    glBindVertexArray(o->vao);
    glDrawElements(GL_TRIANGLES, 6 * o->quads, GL_UNSIGNED_INT, NULL);
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
