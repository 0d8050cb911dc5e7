/* Debug line/point batch: growable vertex arrays, one buffer upload and two draw calls (lines,
   points) per depth pass. */
#include "debug_lines.h"

#include "shader.h"

#include <epoxy/gl.h>
#include <stddef.h>
#include <stdlib.h>

#define HIDDEN_ALPHA 0.25f /* opacity of what lies behind surfaces */

typedef struct line_vertex {
    float position[3];
    float colour[4];
    float size;
} line_vertex;

typedef struct vertex_list {
    line_vertex *data;
    int count, capacity;
} vertex_list;

struct debug_lines {
    GLuint program, vao, buffer;
    GLint view_projection, alpha;
    vertex_list lines, points;
};

static bool push(vertex_list *list, vec3s at, vec4s colour, float size)
{
    if (list->count == list->capacity) {
        int capacity = list->capacity ? 2 * list->capacity : 4096;
        line_vertex *data = realloc(list->data, (size_t)capacity * sizeof *data);
        if (!data) {
            return false;
        }
        list->data = data;
        list->capacity = capacity;
    }
    list->data[list->count++] =
        (line_vertex){{at.x, at.y, at.z}, {colour.x, colour.y, colour.z, colour.w}, size};
    return true;
}

void debug_lines_add(debug_lines *d, vec3s from, vec3s to, vec4s colour)
{
    /* Both ends or neither: a lone vertex would pair with the next line's first. */
    if (push(&d->lines, from, colour, 1.0f) && !push(&d->lines, to, colour, 1.0f)) {
        --d->lines.count;
    }
}

void debug_lines_add_point(debug_lines *d, vec3s at, float size_pixels, vec4s colour)
{
    (void)push(&d->points, at, colour, size_pixels);
}

static void on_line(void *context, vec3s from, vec3s to, vec4s colour)
{
    debug_lines_add(context, from, to, colour);
}

static void on_point(void *context, vec3s at, float size_pixels, vec4s colour)
{
    debug_lines_add_point(context, at, size_pixels, colour);
}

cairn_debug_draw debug_lines_api(debug_lines *d)
{
    /* Boxes and frames fall back to lines inside the engine. */
    return (cairn_debug_draw){.line = on_line, .point = on_point, .context = d};
}

debug_lines *debug_lines_create(const char *shader_dir)
{
    debug_lines *d = calloc(1, sizeof *d);
    if (!d) {
        return NULL;
    }
    d->program = shader_program_load(shader_dir, "lines");
    if (!d->program) {
        free(d);
        return NULL;
    }
    d->view_projection = glGetUniformLocation(d->program, "u_view_projection");
    d->alpha = glGetUniformLocation(d->program, "u_alpha");
    glGenVertexArrays(1, &d->vao);
    glGenBuffers(1, &d->buffer);
    glBindVertexArray(d->vao);
    glBindBuffer(GL_ARRAY_BUFFER, d->buffer);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(line_vertex),
                          (const void *)offsetof(line_vertex, position));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(line_vertex),
                          (const void *)offsetof(line_vertex, colour));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, sizeof(line_vertex),
                          (const void *)offsetof(line_vertex, size));
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return d;
}

void debug_lines_clear(debug_lines *d)
{
    d->lines.count = 0;
    d->points.count = 0;
}

int debug_lines_count(const debug_lines *d)
{
    return d->lines.count / 2 + d->points.count;
}

static void draw_pass(const debug_lines *d, float alpha)
{
    glUniform1f(d->alpha, alpha);
    glDrawArrays(GL_LINES, 0, d->lines.count);
    glDrawArrays(GL_POINTS, d->lines.count, d->points.count);
}

void debug_lines_draw(debug_lines *d, mat4s view_projection)
{
    int total = d->lines.count + d->points.count;
    if (total == 0) {
        return;
    }
    glBindBuffer(GL_ARRAY_BUFFER, d->buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)total * sizeof(line_vertex)), NULL,
                 GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)((size_t)d->lines.count * sizeof(line_vertex)),
                    d->lines.data);
    glBufferSubData(GL_ARRAY_BUFFER, (GLintptr)((size_t)d->lines.count * sizeof(line_vertex)),
                    (GLsizeiptr)((size_t)d->points.count * sizeof(line_vertex)), d->points.data);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glUseProgram(d->program);
    glUniformMatrix4fv(d->view_projection, 1, GL_FALSE, view_projection.raw[0]);
    glBindVertexArray(d->vao);
    glEnable(GL_PROGRAM_POINT_SIZE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_CULL_FACE);
    glDepthMask(GL_FALSE);
    /* Contacts sit inside stacks: draw what is hidden faintly, then the visible parts solid. */
    glDisable(GL_DEPTH_TEST);
    draw_pass(d, HIDDEN_ALPHA);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    draw_pass(d, 1.0f);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
    glDisable(GL_PROGRAM_POINT_SIZE);
    glBindVertexArray(0);
}

void debug_lines_destroy(debug_lines *d)
{
    if (!d) {
        return;
    }
    glDeleteVertexArrays(1, &d->vao);
    glDeleteBuffers(1, &d->buffer);
    glDeleteProgram(d->program);
    free(d->lines.data);
    free(d->points.data);
    free(d);
}
