/* Event handling: left drag orbits, middle drag or shift+left drag pans, the wheel zooms; keys
   map to app actions (see input.h). */
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

static unsigned key_action(const SDL_KeyboardEvent *key)
{
    switch (key->keysym.sym) {
    case SDLK_ESCAPE:
        return INPUT_QUIT;
    case SDLK_o:
        return INPUT_STEP; /* held down: keeps stepping at the key repeat rate */
    case SDLK_p:
        return key->repeat ? 0u : INPUT_PAUSE;
    case SDLK_r:
        return key->repeat ? 0u : INPUT_RESET;
    case SDLK_SPACE:
        return key->repeat ? 0u : INPUT_SHOOT;
    default:
        return 0u;
    }
}

unsigned input_handle(const SDL_Event *event, camera *cam, int viewport_height)
{
    switch (event->type) {
    case SDL_QUIT:
        return INPUT_QUIT;
    case SDL_KEYDOWN:
        return key_action(&event->key);
    case SDL_MOUSEMOTION:
        handle_motion(&event->motion, cam, viewport_height);
        return 0u;
    case SDL_MOUSEWHEEL:
        camera_zoom(cam, event->wheel.preciseY);
        return 0u;
    default:
        return 0u;
    }
}
