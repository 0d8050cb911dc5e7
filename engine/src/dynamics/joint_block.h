/* A joint's equality rows solved as one block in the Gauss-Seidel passes: every row of the joint
   meets its target at once (K = J M^-1 J^T, up to 6 x 6, factored once a substep), as Box2D's
   rigid weld and Bullet's fixed constraint do with their 3 x 3 and 6 x 6 blocks. Solved part by
   part (the anchors, then the rotation) the rows fight whenever the anchor is far from a centre
   of mass: pulling the anchor mostly turns the body, which the angle rows then undo. A box
   welded 2 m from its centre then converged so slowly that Baumgarte's bias fed the error back
   faster than the passes removed it: the box reached 780 m/s. */
#ifndef CAIRN_DYNAMICS_JOINT_BLOCK_H
#define CAIRN_DYNAMICS_JOINT_BLOCK_H

#include "dynamics/joint_tree.h"

typedef struct joint_block {
    double factors[JOINT_MAX_ROWS * JOINT_MAX_ROWS]; /* K as L D L^T (small_ldl.h) */
} joint_block;

/* K of the rows at their current Jacobians and the bodies' responses, factored. */
void joint_block_factor(joint_block *block, const tree_joint *rows);
/* One pass: the impulses that bring every row to its target (softened by soft), accumulated
   in the rows' impulses and applied to the bodies the step moves. */
void joint_block_solve(const joint_block *block, tree_joint *rows, softness soft);

/* A joint's other row (a limit or motor on its free axis) seen with the block held: a hinge's
   limit alone stops the body turning about its centre, and the anchor rows then turn it back,
   so over a long lever the two fought as the parts did. An impulse on the row followed by the
   block's solve moves the row's rate by the inverse of `mass` (the Schur complement
   k - K_le K_ee^-1 K_el) from joint_block_rate's value: solved with these, the row and the
   block meet their targets together in one pass. */
typedef struct block_coupling {
    /* The rate once the block has met its targets is J' v - bias_rate * held_error, with
       J' = J - (K_ee^-1 K_el)^T J_e: the rate now less what the block's next solve takes. */
    float jacobian[12];
    float held_error;
    float mass; /* 1 / (k - K_le K_ee^-1 K_el), 0 when the row cannot move */
} block_coupling;

/* The coupling of row to the factored block, at the rows' Jacobians (once a substep). */
void joint_block_couple(const joint_block *block, const tree_joint *rows, const axis_row *row,
                        block_coupling *out);
/* The row's rate once the block has met its targets (bias_rate: the block's softness). */
float joint_block_rate(const block_coupling *coupling, const joint_pair *pair, float bias_rate);

#endif
