/* The OpenGL renderer: a shadow pass and a lit pass over every body of a world, one instanced
   draw call per distinct shape. */
#ifndef CAIRN_DEMO_RENDERER_H
#define CAIRN_DEMO_RENDERER_H

#include "camera.h"

#include <cairn/cairn.h>

typedef struct renderer renderer;

/* Loads the shaders from shader_dir. NULL on failure, after printing why (shader file and GL
   info log included) to stderr. Needs a current GL context. */
renderer *renderer_create(const char *shader_dir);
/* Draws the world's bodies into the default framebuffer of the given size in pixels. */
void renderer_draw(renderer *r, const cairn_world *world, const camera *cam, int width, int height);
/* Bodies drawn highlighted from the next frame on (null ids for none). */
void renderer_set_selection(renderer *r, cairn_body_id selected, cairn_body_id partner);
/* The view-projection matrix of the last drawn frame (for debug lines on top). */
mat4s renderer_view_projection(const renderer *r);
/* Drops the meshes built for the shapes of a world that is about to be destroyed. */
void renderer_forget_shapes(renderer *r);
/* Bodies and awake bodies in the last drawn frame. */
void renderer_body_counts(const renderer *r, int *bodies, int *awake);
void renderer_destroy(renderer *r);

#endif
