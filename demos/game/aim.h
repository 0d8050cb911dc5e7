/* Mouse aiming: the world point under a pixel of the game's view. */
#ifndef CAIRN_GAME_AIM_H
#define CAIRN_GAME_AIM_H

#include "camera.h"

/* The first body surface under pixel (x, y) of a width x height view (y down); when the ray
   hits nothing, the point on it as far from the eye as the camera's target. */
vec3s aim_point(const cairn_world *world, const camera *cam, float x, float y, int width,
                int height);

#endif
