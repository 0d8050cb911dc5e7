/* The position update of dynamic bodies four at a time, a lane each: every lane does what the
   one-body form in integrate.c does (cglm's functions written out, in their order of operations),
   so the same bits. cglm turns and normalises quaternions with SSE2 on x86, in an order of its
   own, which the lanes follow; elsewhere the one-body form runs (INTEGRATE_LANES 1). */
#ifndef CAIRN_DYNAMICS_INTEGRATE_LANES_H
#define CAIRN_DYNAMICS_INTEGRATE_LANES_H

#include "dynamics/integrate.h"

#if defined(__SSE2__)
#define INTEGRATE_LANES 4
#else
#define INTEGRATE_LANES 1
#endif

/* Moves the dynamic bodies group[0..count) (count <= INTEGRATE_LANES) over h: centre, rotation
   (h/2 (w, 0) q, renormalised), the angular velocity that keeps the angular momentum, and the
   origin. The world inverse inertia is left to the caller. */
void integrate_lanes(cairn_world *world, float h, body_velocity *velocities,
                     const motion_offset *offsets, const uint32_t *group, int count);
/* body_sync_inertia of the bodies group[l] with sync[l] (l < count <= INTEGRATE_LANES): those
   with a diagonal body-frame inverse inertia a lane each, the others one at a time. */
void integrate_lanes_inertia(cairn_world *world, const uint32_t *group, int count,
                             const bool *sync);

#endif
