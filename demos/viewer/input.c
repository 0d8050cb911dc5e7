/* Event handling: left drag orbits, middle drag or shift+left drag pans, the wheel zooms, Esc
   or closing the window quits. */
#include "input.h"

static void handle_motion(const SDL_MouseMotionEvent *m, camera *cam, int viewport_height)
{
    bool left = (m->state & SDL_BUTTON_LMASK) != 0;
    bool middle = (m->state & SDL_BUTTON_MMASK) != 0;
    bool shift = (SDL_GetModState() & KMOD_SHIFT) != 0;
    if (middle || (left && shift)) {
        camera_pan(cam, (float)m->xrel, (float)m->yrel, viewport_height);
    } else if (left) {
        camera_orbit(cam, (float)m->xrel, (float)m->yrel);
    }
}

bool input_handle(const SDL_Event *event, camera *cam, int viewport_height)
{
    switch (event->type) {
    case SDL_QUIT:
        return true;
    case SDL_KEYDOWN:
        return event->key.keysym.sym == SDLK_ESCAPE;
    case SDL_MOUSEMOTION:
        handle_motion(&event->motion, cam, viewport_height);
        return false;
    case SDL_MOUSEWHEEL:
        camera_zoom(cam, event->wheel.preciseY);
        return false;
    default:
        return false;
    }
}
