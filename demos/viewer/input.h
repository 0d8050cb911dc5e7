/* Mouse and keyboard: camera control directly, everything else as actions for the app. */
#ifndef CAIRN_DEMO_INPUT_H
#define CAIRN_DEMO_INPUT_H

#include "camera.h"

#include <SDL.h>
#include <stdbool.h>

/* Bits of what input_handle returns. */
enum {
    INPUT_QUIT = 1u << 0,  /* Esc or closing the window */
    INPUT_PAUSE = 1u << 1, /* P: toggle pause */
    INPUT_STEP = 1u << 2,  /* O: one step while paused (repeats while held) */
    INPUT_RESET = 1u << 3, /* R: rebuild the scene */
    INPUT_SHOOT = 1u << 4, /* Space: fire a sphere from the camera */
};

/* Applies one event to the camera; returns the INPUT_* actions it asks for (0 for none). */
unsigned input_handle(const SDL_Event *event, camera *cam, int viewport_height);

#endif
