/* A direct solver for the equality rows of jointed groups that form calm trees (a pendulum, a
   hanging chain, a crane's load): Baraff's linear-time elimination ("Linear-Time Dynamics using
   Lagrange Multipliers", 1996) over the graph whose nodes are bodies and joints. Gauss-Seidel
   needs many passes to carry a load down a chain and stretches under mass ratios; the tree
   solve meets every equality row of a tree at once, whatever the masses, in time linear in its
   rows. A group is left to Gauss-Seidel when it is not calm: a joint of it would close a loop,
   or hold it to the world (or a body the step does not move) a second time, or it touches a
   contact (rigid joints against soft contacts and redundant joints fight: a welded wall held
   60 kN at rest, ragdolls on stairs never all slept). */
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

/* Both bodies' velocities in the order of a row's Jacobian: (v_a, w_a, v_b, w_b). */
static inline void joint_pair_velocities(const joint_pair *pair, float out[12])
{
    const body_velocity *sides[2] = {pair->a.velocity, pair->b.velocity};
    for (int s = 0; s < 2; ++s)
        for (int c = 0; c < 3; ++c) {
            out[s * 6 + c] = sides[s]->linear.raw[c];
            out[s * 6 + 3 + c] = sides[s]->angular.raw[c];
        }
}

/* J v of a row, in double, the terms added in order. */
static inline double joint_row_rate(const joint_row *row, const float v[12])
{
    double jv = 0.0;
    for (int k = 0; k < 12; ++k)
        jv += (double)row->jacobian[k] * (double)v[k];
    return jv;
}

/* A joint's equality rows this substep, with its bodies and softness. */
typedef struct tree_joint {
    joint_row rows[JOINT_MAX_ROWS];
    int count;
    joint_pair *pair;
    softness soft;
    bool moves_a, moves_b; /* which sides are nodes of the tree (awake dynamic bodies) */
} tree_joint;

typedef struct tree_node tree_node;
typedef struct tree_numbers tree_numbers;

typedef struct joint_tree {
    tree_node *nodes;      /* children before parents */
    tree_numbers *numbers; /* by node */
    int node_count;
    /* Each tree's nodes are contiguous, its root last: tree i ends before tree_end[i]. Trees
       share no moving body, so they can be factored and solved on different workers. */
    int *tree_end;
    int tree_count;
    void *scratch; /* the build's working memory, popped with the nodes */
} joint_tree;

/* Decides which joints join calm trees (in_tree) and orders the nodes. bodies[k] are joint k's
   body indices (only read for the sides that move); joints[k] its rows (count 0: none), pair
   and moves_a/b; touching[body] whether a contact touches the body this step. False when
   scratch ran out (then no joint is in a tree). */
bool joint_tree_build(joint_tree *t, arena *scratch, int body_count, const tree_joint *joints,
                      const uint32_t (*bodies)[2], int count, const bool *touching, bool *in_tree);
/* The trees [first, end): */
/* at each substep, after the rows are set: the elimination at the current Jacobians; */
void joint_tree_factor(joint_tree *t, const tree_joint *joints, int first, int end);
/* one pass: every tree row meets its target at once; impulses and velocities updated. */
void joint_tree_solve(const joint_tree *t, tree_joint *joints, int first, int end);
void joint_tree_free(joint_tree *t, arena *scratch);
/* The active index of a joint of tree i (every tree has one). */
int joint_tree_some_joint(const joint_tree *t, int i);
/* alone[k] = true for each joint that is the only joint of its tree (others untouched). */
void joint_tree_mark_alone(const joint_tree *t, bool *alone);

/* Rows of the parts (joint_rows.h), for the per-type equality_rows. */
int joint_rows_point(point_part *p, joint_row *out);
int joint_rows_angle(angle_part *p, joint_row *out);
int joint_rows_line(line_part *p, joint_row *out);
joint_row joint_row_axis(const axis_row *row, float error, float *impulse);

#endif
