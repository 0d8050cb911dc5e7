/* Mouse and keyboard: camera control and quitting. */
#ifndef CAIRN_DEMO_INPUT_H
#define CAIRN_DEMO_INPUT_H

#include "camera.h"

#include <SDL.h>
#include <stdbool.h>

/* Applies one event to the camera; returns true when the user asked to quit. */
bool input_handle(const SDL_Event *event, camera *cam, int viewport_height);

#endif
