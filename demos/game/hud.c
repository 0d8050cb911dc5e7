/* The text panel: each easy_font quad becomes two triangles in one stream buffer, drawn with
   alpha blending after the scene. */
#include "hud.h"

#include "easy_font.h"
#include "shader.h"

#include <epoxy/gl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_QUADS 4096  /* a few hundred characters */
#define SCALE     2.0f  /* pixels per font unit */
#define MARGIN    10.0f /* pixels between the window's corner and the panel */
#define PADDING   4.0f  /* font units between the panel's edge and the text */

typedef struct hud_vertex {
    float x, y; /* pixels, y down */
    unsigned char colour[4];
} hud_vertex;

struct hud {
    GLuint program, vao, buffer;
    GLint viewport;
    easy_font_vertex quads[4 * MAX_QUADS];
    hud_vertex triangles[6 * MAX_QUADS];
};

hud *hud_create(const char *shader_dir)
{
    hud *h = calloc(1, sizeof *h);
    if (!h) {
        fprintf(stderr, "cairn-game: out of memory for the text panel\n");
        return NULL;
    }
    h->program = shader_program_load(shader_dir, "overlay");
    if (!h->program) {
        free(h);
        return NULL;
    }
    h->viewport = glGetUniformLocation(h->program, "u_viewport");
    glGenVertexArrays(1, &h->vao);
    glGenBuffers(1, &h->buffer);
    glBindVertexArray(h->vao);
    glBindBuffer(GL_ARRAY_BUFFER, h->buffer);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(hud_vertex),
                          (const void *)offsetof(hud_vertex, x));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(hud_vertex),
                          (const void *)offsetof(hud_vertex, colour));
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return h;
}

/* Quad q of h->quads as two triangles, scaled from font units to pixels. */
static void emit_quad(hud *h, int q)
{
    static const int corner[6] = {0, 1, 2, 0, 2, 3};
    for (int k = 0; k < 6; ++k) {
        const easy_font_vertex *v = &h->quads[4 * q + corner[k]];
        hud_vertex *out = &h->triangles[6 * q + k];
        out->x = MARGIN + SCALE * v->x;
        out->y = MARGIN + SCALE * v->y;
        for (int c = 0; c < 4; ++c) {
            out->colour[c] = v->colour[c];
        }
    }
}

/* The panel is quad 0, the text's quads follow; returns the quad count. */
static int build(hud *h, const char *text)
{
    static const unsigned char panel[4] = {12, 16, 22, 160};
    static const unsigned char ink[4] = {250, 240, 200, 255};
    int w, t;
    easy_font_size(text, &w, &t);
    float x1 = (float)w + 2.0f * PADDING, y1 = (float)t + 2.0f * PADDING - 2.0f;
    const float corners[4][2] = {{0.0f, 0.0f}, {x1, 0.0f}, {x1, y1}, {0.0f, y1}};
    for (int k = 0; k < 4; ++k) {
        h->quads[k] = (easy_font_vertex){
            corners[k][0], corners[k][1], 0.0f, {panel[0], panel[1], panel[2], panel[3]}};
    }
    int quads = 1 + easy_font_quads(PADDING, PADDING, text, ink, h->quads + 4, 4 * (MAX_QUADS - 1));
    for (int q = 0; q < quads; ++q) {
        emit_quad(h, q);
    }
    return quads;
}

void hud_draw(hud *h, const char *text, int width, int height)
{
    int quads = build(h, text);
    glBindBuffer(GL_ARRAY_BUFFER, h->buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(6 * quads * (int)sizeof(hud_vertex)), h->triangles,
                 GL_STREAM_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(h->program);
    glUniform2f(h->viewport, (float)width, (float)height);
    glBindVertexArray(h->vao);
    glDrawArrays(GL_TRIANGLES, 0, 6 * quads);
    glBindVertexArray(0);
    glDisable(GL_BLEND);
}

void hud_destroy(hud *h)
{
    if (!h) {
        return;
    }
    glDeleteVertexArrays(1, &h->vao);
    glDeleteBuffers(1, &h->buffer);
    glDeleteProgram(h->program);
    free(h);
}
