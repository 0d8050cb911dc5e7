/* Semi-implicit Euler for awake bodies: velocities from gravity and damping, then positions
   and rotations (quaternion integration with renormalisation). */
#ifndef CAIRN_DYNAMICS_INTEGRATE_H
#define CAIRN_DYNAMICS_INTEGRATE_H

#include "dynamics/world_state.h"

/* Extra velocity that moves positions without being kept (split impulse), per body index. */
typedef struct motion_offset {
    vec3s linear, angular;
} motion_offset;

/* The solver's compact copy of a body's velocity (32 bytes), indexed by body index: the hot
   data of the step, written back to the bodies once at its end. */
typedef struct body_velocity {
    vec3s linear;
    float inverse_mass; /* 0 for static, kinematic and sleeping bodies */
    vec3s angular;
    /* The body's locked translation axes (body_translation_lock) as a float, 0 to 7: the contact
       lanes read it with the velocity. Row updates add 0 to it (solver_vec.h), which leaves a
       whole number as it is. */
    float locked_translation;
} body_velocity;

void velocities_load(const cairn_world *world, body_velocity *velocities);
/* Writes the velocities back to the awake bodies, and makes every zero of their stored state
   (velocities, transform, centre) +0: its sign may differ with the island groups. */
void velocities_store(cairn_world *world, const body_velocity *velocities);
/* The state of a body the step does not move (static, sleeping): at rest, inverse mass 0. */
void velocities_rest(body_velocity *velocities, uint32_t index);
/* Both integrate the awake bodies bodies[start..end) (body indices): each body alone, so ranges
   can run on different workers. */
void integrate_velocities(cairn_world *world, float h, body_velocity *velocities,
                          const uint32_t *bodies, int start, int end);
/* offsets may be NULL. last: the step's last position update, after which every body's world
   inverse inertia must be current; before it, only the bodies whose inertia the next substep
   reads (those with joints or a torque) have it brought up to date. */
void integrate_positions(cairn_world *world, float h, body_velocity *velocities,
                         const motion_offset *offsets, bool last, const uint32_t *bodies, int start,
                         int end);

/* Moves a dynamic body's pose as velocities (linear, angular) would over h, without changing
   its velocity: a position correction (the joints' in split impulse mode). Its world inverse
   inertia is left for the caller to bring up to date. */
void integrate_shift_pose(body *b, vec3s linear, vec3s angular, float h);
/* body_sync_inertia of the bodies of bodies[start, end) that have joints (after the position
   passes moved them), several at a time where the lanes exist: the same bits. */
void integrate_sync_jointed(cairn_world *world, const uint32_t *bodies, int start, int end);

#endif
