/* A 2D text overlay in the top-left corner: white text on a translucent panel. */
#ifndef CAIRN_DEMO_OVERLAY_H
#define CAIRN_DEMO_OVERLAY_H

typedef struct overlay overlay;

/* Loads shaders/overlay.{vert,frag}; NULL (message on stderr) on failure. Needs a current GL
   context. */
overlay *overlay_create(const char *shader_dir);
/* Draws text (may contain '\n') over whatever is in the framebuffer of the given size. */
void overlay_draw(overlay *o, const char *text, int width, int height);
void overlay_destroy(overlay *o);

#endif
