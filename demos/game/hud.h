/* The game's text panel: stb_easy_font quads (the viewer's easy_font) drawn with the viewer's
   overlay shaders in the top-left corner. */
#ifndef CAIRN_GAME_HUD_H
#define CAIRN_GAME_HUD_H

typedef struct hud hud;

/* Loads shaders/overlay.{vert,frag}; NULL (message on stderr) on failure. Needs a current GL
   context. */
hud *hud_create(const char *shader_dir);
/* Draws text (may contain '\n') on a translucent panel over a framebuffer of the given size. */
void hud_draw(hud *h, const char *text, int width, int height);
void hud_destroy(hud *h);

#endif
