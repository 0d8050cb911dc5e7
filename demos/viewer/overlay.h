/* The 2D overlay: translucent panels of text and filled rectangles (graphs), gathered during a
   frame and drawn with one call at the end. Pixel coordinates, origin top-left, y down. */
#ifndef CAIRN_DEMO_OVERLAY_H
#define CAIRN_DEMO_OVERLAY_H

typedef struct overlay overlay;

/* Which corner of the window a text panel hangs from. */
typedef enum overlay_corner {
    OVERLAY_TOP_LEFT,
    OVERLAY_TOP_RIGHT,
    OVERLAY_BOTTOM_LEFT,
    OVERLAY_BOTTOM_RIGHT,
} overlay_corner;

/* Loads shaders/overlay.{vert,frag}; NULL (message on stderr) on failure. Needs a current GL
   context. */
overlay *overlay_create(const char *shader_dir);
/* Starts a frame of the given size in pixels; forgets what the last frame added. */
void overlay_begin(overlay *o, int width, int height);
/* A panel with text (may contain '\n', at most ~1000 characters) at a corner, pushed inwards by
   offset_y pixels; returns the panel's height in pixels. */
int overlay_text(overlay *o, overlay_corner corner, int offset_y, const char *text);
/* The size in pixels of the panel overlay_text would draw for this text (margin excluded). */
void overlay_text_size(const char *text, float *width, float *height);
/* A filled rectangle in pixels; colour is RGBA 0..255. */
void overlay_rect(overlay *o, float x0, float y0, float x1, float y1,
                  const unsigned char colour[4]);
/* Text at a pixel position without a panel, in the given colour. */
void overlay_label(overlay *o, float x, float y, const char *text, const unsigned char colour[4]);
/* Draws everything added since overlay_begin over the framebuffer. */
void overlay_end(overlay *o);
void overlay_destroy(overlay *o);

#endif
