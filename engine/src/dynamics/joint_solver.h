/* The joints' part of the solver step: which joints take part, and the passes the contact
   solver interleaves with its own (joints first in every pass, as in Box2D v3). */
#ifndef CAIRN_DYNAMICS_JOINT_SOLVER_H
#define CAIRN_DYNAMICS_JOINT_SOLVER_H

#include "dynamics/graph_color.h"
#include "dynamics/integrate.h"
#include "dynamics/joint_block.h"
#include "dynamics/joint_tree.h"

#include "core/team.h"

struct joint_step;
struct body_motion;

/* The joints of one island group of the step (island_groups.h): their positions in the solve
   order, colour by colour, and their trees. */
typedef struct joint_group {
    int color_first[GRAPH_BUCKETS +
                    1];       /* positions in joint_solver.order; the end after the last */
    int tree_first, tree_end; /* in joint_solver.group_trees */
} joint_group;

typedef struct joint_solver {
    cairn_world *world;
    team *team;
    body_velocity *velocities; /* by body index; the slot at bodies.count is the world's */
    struct joint_step *steps;  /* one per active joint */
    uint32_t *active;          /* their joint indices */
    int count;
    float h;
    /* Each active joint's equality rows: the tree solve's (joint_tree.h) when it is in a tree,
       else one block of the passes (joint_block.h). */
    tree_joint *rows;
    joint_block *blocks; /* per active joint: the factored block of a joint outside trees */
    uint32_t (*bodies)[2];
    bool *in_tree;
    bool *alone; /* in a tree as its only joint (joint_tree_mark_alone) */
    joint_tree tree;
    bool tree_built; /* after joints_begin's first prepare, which finds the trees */
    /* Whether the tree solve runs in every pass: only when rows outside it (limits, motors,
       cones) act on its bodies; otherwise its one solve a substep is already exact. */
    bool tree_iterates;
    bool tree_solved;     /* in this substep */
    const bool *touching; /* by body index: a contact touches it this step (may be NULL) */
    /* The active joints group by group, in a group colour by colour (graph_color.h), the
       overflow last, each in index order: order[p] is the active index at position p. */
    uint32_t *order;
    joint_group *groups; /* group_count of them */
    int group_count;
    int *group_trees;          /* the trees, group by group */
    const joint_group *group;  /* the group the passes now solve */
    int stage_first;           /* the first position (or tree) of the current stage */
    struct body_motion *moved; /* the bodies' motion this step, for the position passes */
} joint_solver;

/* Collects the joints with an awake body (scratch memory; none when it runs out), puts the
   bodies the step does not move at rest in velocities, and finds the trees at the step's poses.
   touching[body]: a contact touches the body this step (NULL: take every body as touched).
   group_of[joint index]: the island group of each joint with an awake body, group_count groups
   (group_of NULL: one group). */
void joints_begin(joint_solver *js, cairn_world *world, team *t, body_velocity *velocities, float h,
                  const bool *touching, const int *group_of, int group_count);
/* The island group the next passes solve (group < the count given to joints_begin): every pass
   below acts on its joints alone. */
void joints_use_group(joint_solver *js, int group);
/* At the start of each substep: the frames at the current positions, the rows and their
   effective masses, and the trees' factors. at_step_start: the bodies have not moved since
   joints_begin, whose rows stand (made once, where the trees were found). */
void joints_prepare(joint_solver *js, bool at_step_start);
void joints_warm_start(joint_solver *js);
/* One pass: Gauss-Seidel over the rows outside trees (colour by colour: the order of one pass over
   the joints in index order), then the tree solve (tree by tree). relax: soft step's
   relax pass, which removes the soft joints' bias velocities like the contacts' (calm trees
   keep theirs: joint_solver.c). */
void joints_solve(joint_solver *js, bool relax);
/* Split impulse mode, after the substep moved the bodies: one pass of position correction
   (nonlinear Gauss-Seidel, as Box2D v2.4's joints: each joint's error measured again at the
   poses the joints before it left, and closed by moving the poses, not the velocities).
   moved[body index] gathers each body's motion since the step start. */
void joints_correct_positions(joint_solver *js, struct body_motion *moved);
/* Reaction forces, the break test, and the scratch memory back. */
void joints_end(joint_solver *js);

#endif
