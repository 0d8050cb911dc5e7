/* The OpenGL renderer: a shadow pass and a lit pass over the scene, one instanced draw call
   per shape mesh. */
#ifndef CAIRN_DEMO_RENDERER_H
#define CAIRN_DEMO_RENDERER_H

#include "camera.h"
#include "scene.h"

typedef struct renderer renderer;

/* Loads the shaders from shader_dir and builds one mesh per scene shape. NULL on failure, after
   printing why (shader file and GL info log included) to stderr. Needs a current GL context. */
renderer *renderer_create(const char *shader_dir, const scene *s);
/* Draws the scene into the default framebuffer of the given size in pixels. */
void renderer_draw(renderer *r, const scene *s, const camera *cam, int width, int height);
void renderer_destroy(renderer *r);

#endif
