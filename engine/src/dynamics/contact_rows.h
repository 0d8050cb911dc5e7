/* The contact solver's constraints as prepared once per step, one per manifold (the layout the
   step's setup writes and the wide batches are packed from, contact_wide.h), and the motion of
   a body since the step start. */
#ifndef CAIRN_DYNAMICS_CONTACT_ROWS_H
#define CAIRN_DYNAMICS_CONTACT_ROWS_H

#include "dynamics/contact.h"
#include "dynamics/integrate.h"
#include "dynamics/solver_vec.h"

/* One row of the constraint: direction d at anchors r_a, r_b. The angular parts and their
   images under the inverse inertia are computed once per step (inertia is held fixed over the
   step, as is usual for sequential impulses). Lane 3 of every vector is 0. */
typedef struct solver_row {
    v4 ra_x, rb_x;       /* r_a x d, r_b x d */
    v4 ia_ra_x, ib_rb_x; /* inverse inertia times the above */
} solver_row;

typedef struct solver_point {
    solver_row normal;
    float mass;            /* effective mass of the normal row */
    float base_separation; /* separation at the step start */
    float relative_velocity;
    float pseudo_impulse;
    float normal_impulse; /* accumulated this step, written back at the end */
    float max_normal;     /* largest normal increment this step: did the point push at all */
} solver_point;

/* Central friction (as in Rubikon, after Gregorius): two tangent rows and a twist row about the
   normal at the centre of the manifold's points, limited by friction times the sum of the
   normal impulses (the twist by that times an effective radius of the patch). Three rows per
   manifold instead of two per point, and no box-shaped friction limit: the tangent impulse is
   clamped to a circle. */
typedef struct solver_friction {
    solver_row tangent[2];
    solver_row twist; /* ra_x = rb_x = the normal, direction 0: angular only */
    float mass[3];    /* tangent 0, tangent 1, twist */
    float impulse[3];
    float twist_radius; /* m: 2/3 of the mean distance of the points from the centre */
    float surface[2];   /* m/s: the sliding velocity friction drives towards (conveyors) */
} solver_friction;

typedef struct solver_contact {
    v4 normal, tangent[2];
    body_velocity *va, *vb; /* what the passes read and write */
    body *a, *b;            /* for setup: centres, inertia */
    int index_a, index_b;   /* body indices, for the per-body motion arrays */
    float friction, restitution;
    int point_count;
    solver_friction tangential;
    solver_point points[MANIFOLD_MAX_POINTS];
} solver_contact;

/* A body's motion since the step start (position, rotation vector), for re-measuring
   separations inside the step. */
typedef struct body_motion {
    v4 linear, angular;
} body_motion;

/* The constraint of manifold m of contact c, at the velocities of the step start (by body
   index); warm: the factor on last step's impulses (contact_prepare.c). */
void contact_prepare(cairn_world *w, body_velocity *velocities, solver_contact *sc, contact *c,
                     manifold *m, float warm);
/* What a constraint accumulated over the step, for the next one's warm start. */
typedef struct contact_impulses {
    float normal[MANIFOLD_MAX_POINTS], max_normal[MANIFOLD_MAX_POINTS];
    vec3s friction; /* the friction impulse, world axes */
    float twist;
} contact_impulses;

/* The step's impulses back into the manifold its constraint was prepared from. */
void contact_store_impulses(manifold *m, const contact_impulses *impulses);

#endif
