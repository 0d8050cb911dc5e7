/* A batch of world-space debug lines and points, filled through the engine's cairn_debug_draw
   callbacks (or directly) during a frame and drawn on top of the scene. */
#ifndef CAIRN_DEMO_DEBUG_LINES_H
#define CAIRN_DEMO_DEBUG_LINES_H

#include <cairn/cairn.h>

typedef struct debug_lines debug_lines;

/* Loads shaders/lines.{vert,frag}; NULL (message on stderr) on failure. Needs a GL context. */
debug_lines *debug_lines_create(const char *shader_dir);
/* Forgets the last frame's lines and points. */
void debug_lines_clear(debug_lines *d);
void debug_lines_add(debug_lines *d, vec3s from, vec3s to, vec4s colour);
void debug_lines_add_point(debug_lines *d, vec3s at, float size_pixels, vec4s colour);
/* Callbacks that append to this batch. */
cairn_debug_draw debug_lines_api(debug_lines *d);
/* Draws the batch: visible parts solid, parts behind the scene's depth faint. */
void debug_lines_draw(debug_lines *d, mat4s view_projection);
/* Lines and points in the batch (for the overlay). */
int debug_lines_count(const debug_lines *d);
void debug_lines_destroy(debug_lines *d);

#endif
