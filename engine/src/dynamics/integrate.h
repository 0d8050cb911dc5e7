/* Semi-implicit Euler for awake bodies: velocities from gravity and damping, then positions
   and rotations (quaternion integration with renormalisation). */
#ifndef CAIRN_DYNAMICS_INTEGRATE_H
#define CAIRN_DYNAMICS_INTEGRATE_H

#include "dynamics/world_state.h"

/* Extra velocity that moves positions without being kept (split impulse), per body index. */
typedef struct motion_offset {
    vec3s linear, angular;
} motion_offset;

void integrate_velocities(cairn_world *world, float h);
/* offsets may be NULL. */
void integrate_positions(cairn_world *world, float h, const motion_offset *offsets);

#endif
