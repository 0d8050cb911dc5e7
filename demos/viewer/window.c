/* SDL video and GL context set-up; MSAA is tried first and dropped silently when refused. */
#include "window.h"

#include <stdio.h>

static void set_attributes(int samples)
{
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    SDL_GL_SetAttribute(SDL_GL_MULTISAMPLEBUFFERS, samples > 0 ? 1 : 0);
    SDL_GL_SetAttribute(SDL_GL_MULTISAMPLESAMPLES, samples);
}

static bool try_open(window *w, const char *title, int width, int height, int samples)
{
    set_attributes(samples);
    w->sdl = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, width, height,
                              SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE);
    if (w->sdl) {
        w->gl = SDL_GL_CreateContext(w->sdl);
    }
    if (w->gl) {
        SDL_GL_GetAttribute(SDL_GL_MULTISAMPLESAMPLES, &w->samples);
        return true;
    }
    if (w->sdl) {
        SDL_DestroyWindow(w->sdl);
        w->sdl = NULL;
    }
    return false;
}

bool window_open(window *w, const char *title, int width, int height, bool vsync)
{
    *w = (window){0};
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "cairn-demo: cannot start SDL video: %s\n", SDL_GetError());
        return false;
    }
    if (!try_open(w, title, width, height, 4) && !try_open(w, title, width, height, 0)) {
        fprintf(stderr, "cairn-demo: cannot create an OpenGL 3.3 core window: %s\n",
                SDL_GetError());
        SDL_Quit();
        return false;
    }
    /* Vsync is a nicety; some drivers refuse it and that is fine. */
    SDL_GL_SetSwapInterval(vsync ? 1 : 0);
    return true;
}

void window_close(window *w)
{
    if (w->gl) {
        SDL_GL_DeleteContext(w->gl);
    }
    if (w->sdl) {
        SDL_DestroyWindow(w->sdl);
    }
    *w = (window){0};
    SDL_Quit();
}

void window_drawable_size(const window *w, int *width, int *height)
{
    SDL_GL_GetDrawableSize(w->sdl, width, height);
}
