/* The SDL window with an OpenGL 3.3 core context, 4x MSAA when the system offers it. */
#ifndef CAIRN_DEMO_WINDOW_H
#define CAIRN_DEMO_WINDOW_H

#include <SDL.h>
#include <stdbool.h>

typedef struct window {
    SDL_Window *sdl;
    SDL_GLContext gl;
    int samples; /* MSAA samples actually obtained, 0 without */
} window;

/* False (SDL's message on stderr) when no window or GL 3.3 core context can be made. */
bool window_open(window *w, const char *title, int width, int height, bool vsync);
void window_close(window *w);
/* Drawable size in pixels (differs from the window size on high-DPI displays). */
void window_drawable_size(const window *w, int *width, int *height);

#endif
