/* What the contact solver keeps per manifold outside its wide batches (contact_wide.h): the
   manifolds in the order of the solve, the impulses a constraint accumulated, and the motion of
   a body since the step start. */
#ifndef CAIRN_DYNAMICS_CONTACT_ROWS_H
#define CAIRN_DYNAMICS_CONTACT_ROWS_H

#include "dynamics/contact.h"
#include "dynamics/integrate.h"
#include "dynamics/solver_vec.h"

/* A manifold the step solves, in the order of the solve. */
typedef struct manifold_ref {
    contact *contact;
    manifold *manifold;
} manifold_ref;

/* A body's motion since the step start (position, rotation vector), for re-measuring
   separations inside the step. */
typedef struct body_motion {
    v4 linear, angular;
} body_motion;

/* What a constraint accumulated over the step, for the next one's warm start. */
typedef struct contact_impulses {
    float normal[MANIFOLD_MAX_POINTS], max_normal[MANIFOLD_MAX_POINTS];
    vec3s friction; /* the friction impulse, world axes */
    float twist;
    vec3s rolling; /* the rolling impulse, world axes (zero without rolling resistance) */
} contact_impulses;

#endif
