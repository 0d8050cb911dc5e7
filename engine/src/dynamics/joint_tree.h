/* A direct solver for the equality rows of joints that form trees (chains, ragdolls, bridges,
   cars): Baraff's linear-time elimination ("Linear-Time Dynamics using Lagrange Multipliers",
   1996) over the graph whose nodes are bodies and joints. Gauss-Seidel needs many passes to
   carry a load down a chain and stretches under mass ratios; the tree solve meets every
   equality row of a tree at once, whatever the masses, in time linear in its rows. Joints
   that would close a loop, and a second joint to the world (or a body the step does not move)
   in one tree, stay with Gauss-Seidel. */
#ifndef CAIRN_DYNAMICS_JOINT_TREE_H
#define CAIRN_DYNAMICS_JOINT_TREE_H

#include "dynamics/joint_rows.h"

#include "core/arena.h"

enum { JOINT_MAX_ROWS = 6 };

/* One equality row: J = (linear_a, angular_a, linear_b, angular_b), the rate of the
   coordinate; error its value now; impulse where its accumulated impulse is kept. */
typedef struct joint_row {
    float jacobian[12];
    float error;
    float *impulse;
} joint_row;

/* A joint's equality rows this substep, with its bodies and softness. */
typedef struct tree_joint {
    joint_row rows[JOINT_MAX_ROWS];
    int count;
    joint_pair *pair;
    softness soft, relax_soft; /* in the velocity passes, in soft step's relax passes */
    bool moves_a, moves_b;     /* which sides are nodes of the tree (awake dynamic bodies) */
} tree_joint;

typedef struct tree_node tree_node;

typedef struct joint_tree {
    tree_node *nodes; /* children before parents */
    int node_count;
    void *scratch; /* the build's working memory, popped with the nodes */
} joint_tree;

/* Decides which joints join trees (in_tree) and orders the nodes. bodies[k] are joint k's
   body indices (only read for the sides that move); joints[k] its rows (count 0: none), pair
   and moves_a/b. False when scratch ran out (then no joint is in a tree). */
bool joint_tree_build(joint_tree *t, arena *scratch, int body_count, const tree_joint *joints,
                      const uint32_t (*bodies)[2], int count, bool *in_tree);
/* At each substep, after the rows are set: the elimination at the current Jacobians. */
void joint_tree_factor(joint_tree *t, const tree_joint *joints);
/* One pass: every tree row meets its target at once; impulses and velocities updated. relax:
   with each joint's relax_soft. */
void joint_tree_solve(const joint_tree *t, tree_joint *joints, bool relax);
/* Whether each joint's tree is calm: no body of it touches a contact (touching[body]) or a
   joint outside the tree. Calm trees keep their bias in the relax passes (joint_solver.c). */
void joint_tree_calm(const joint_tree *t, const tree_joint *joints, const bool *touching,
                     bool *calm);
void joint_tree_free(joint_tree *t, arena *scratch);

/* Rows of the parts (joint_rows.h), for the per-type equality_rows. */
int joint_rows_point(point_part *p, joint_row *out);
int joint_rows_angle(angle_part *p, joint_row *out);
joint_row joint_row_axis(const axis_row *row, float error, float *impulse);

#endif
