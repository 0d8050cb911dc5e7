/* Joints inside the world: storage, the per-body joint lists, and the one interface through
   which the solver calls every joint type (prepare a substep, warm start, solve). Each type
   lives in its own joint_<type>.c, built from the rows of joint_rows.h. */
#ifndef CAIRN_DYNAMICS_JOINT_H
#define CAIRN_DYNAMICS_JOINT_H

#include <cairn/joint.h>

#include "dynamics/joint_block.h"
#include "dynamics/joint_rows.h"
#include "dynamics/joint_tree.h"
#include "dynamics/world_state.h"

/* body_a of a joint held to the world. */
#define JOINT_WORLD UINT32_MAX

/* What a type adds to the rows every joint may have. */
typedef struct joint_hinge_state {
    angle_part lock; /* the two axes across the hinge axis */
    axis_row axis;   /* rotation about the hinge axis: limit, motor, spring */
    float angle;     /* rad, this substep */
} joint_hinge_state;

typedef struct joint_slider_state {
    angle_part lock;   /* all three rotations */
    line_part across;  /* b's anchor on the axis */
    axis_row axis;     /* translation along the axis: limit, motor, spring */
    float translation; /* m, this substep */
} joint_slider_state;

typedef struct joint_fixed_state {
    angle_part lock;
} joint_fixed_state;

typedef struct joint_distance_state {
    axis_row axis;     /* along the line between the anchors */
    float length;      /* m, this substep */
    float rest_length; /* m, at creation: kept when there is neither limit nor spring */
    float rigid_impulse;
} joint_distance_state;

typedef struct joint_swing_twist_state {
    axis_row swing; /* across the cone's edge */
    float swing_angle, swing_impulse;
    axis_row twist; /* about the mean of the two axes */
    float twist_angle;
    angle_part friction; /* the motor as joint friction: relative rotation braked */
} joint_swing_twist_state;

typedef struct joint_wheel_state {
    line_part across;    /* b's anchor on the suspension: rows along the axle and the side */
    axis_row suspension; /* along the axis: limit, spring */
    float travel;        /* m, this substep */
    angle_part lock;     /* the two axes across the steered axle */
    axis_row axle;       /* rotation about the axle: motor */
} joint_wheel_state;

/* The accumulated impulses of the limit, motor and spring on a joint's free axis (a wheel's
   motor acts about its axle, its limit and spring along its suspension). */
typedef struct axis_impulses {
    float lower, upper, motor, spring;
} axis_impulses;

typedef struct joint {
    cairn_joint_type type;
    bool alive;
    bool broken;      /* over its break force in the last step: destroyed after it */
    bool was_in_tree; /* in the last step: its first substep skips the masses GS would need */
    uint32_t generation;
    uint32_t body_a, body_b; /* body indices; body_a may be JOINT_WORLD */
    /* The joint frame in each body's frame (the world's for JOINT_WORLD): the anchor, and the
       rotation that takes the joint's x axis to the axis. The two frames coincide at creation
       (DISTANCE: the anchors may differ). */
    vec3s local_anchor_a, local_anchor_b;
    versors local_frame_a, local_frame_b;
    cairn_joint_def settings; /* as set: limits, motor, spring, break force, user data */
    /* The free list of a body's joints: edge 0 is the joint's place in body_a's list, edge 1 in
       body_b's; keys are joint index * 2 + edge, -1 ends. */
    int32_t next[2], prev[2];
    /* Solver state, kept between steps for warm starting: every field from here on
       (joint_copy_without_state copies the fields before it). */
    point_part point; /* ball, hinge, fixed, swing-twist */
    axis_impulses free_axis;
    union {
        joint_hinge_state hinge;
        joint_slider_state slider;
        joint_fixed_state fixed;
        joint_distance_state distance;
        joint_swing_twist_state swing_twist;
        joint_wheel_state wheel;
    } state;
    vec3s reaction_force, reaction_torque; /* N, N m: on body_b, last substep */
} joint;

/* One joint's view of the step: both bodies (the world as a body at rest), the joint frames
   in world space this substep, and how the rows correct position error. */
typedef struct joint_step {
    joint_pair pair;
    vec3s anchor_a, anchor_b; /* world points */
    vec3s r_a, r_b;           /* from each centre of mass to its anchor */
    versors frame_a, frame_b; /* world rotations of the joint frames */
    /* frame_a's axes and frame_b's x axis (joint_axis_x, _y, _z of them, to the bit): the
       prepare functions read them, several times each */
    vec3s axes_a[3], x_b;
    float h, inverse_h;
    softness rigid_soft; /* the world's joint softness (or Baumgarte) for equality rows */
    softness relax_soft; /* in soft step's relax pass: no bias, except in calm trees */
    bool relaxing;       /* this pass is a relax pass */
    bool direct;         /* the equality rows are the tree solve's or a block's (joint_tree.h,
                            joint_block.h): the type skips them */
    bool baumgarte;      /* rigid mode: Baumgarte bias, no softness */
    bool positional;     /* a position pass (joint_solver.h): no motor, spring or friction */
    /* In the rigid modes, the joint's equality rows as one factored block (joint_block.h),
       which its free axis's rows are solved against; NULL otherwise. */
    const joint_block *block;
    const tree_joint *block_rows;
    block_coupling coupling; /* of the free axis to the block, once a substep (joint_block.h) */
    bool coupled;            /* coupling is this substep's */
} joint_step;

/* The per-type half of the solver interface. prepare reads the frames of the substep and sets
   up the rows (effective masses); warm_start applies last substep's impulses; solve runs one
   pass; position is cairn_joint_position. */
typedef struct joint_ops {
    void (*prepare)(joint *j, joint_step *s);
    void (*warm_start)(joint *j, joint_step *s);
    void (*solve)(joint *j, joint_step *s);
    float (*position)(const joint *j, const joint_step *s);
    /* The impulse of the last substep on body b: linear (N s) and angular (N m s). */
    void (*reaction)(const joint *j, vec3s *linear, vec3s *angular);
    /* The equality rows after prepare, for the tree solve; returns how many (0: none). */
    int (*equality_rows)(joint *j, const joint_step *s, joint_row *out);
    /* The type reads only the anchors: the substep leaves its frames unset. */
    bool frameless;
    /* Its equality rows are two parts (the point and an angle lock, or the angle lock and the
       rows across a slider): in the rigid modes the joint solver solves them as one block. */
    bool coupled_parts;
} joint_ops;

extern const joint_ops joint_ball_ops, joint_hinge_ops, joint_slider_ops, joint_fixed_ops,
    joint_distance_ops, joint_swing_twist_ops, joint_wheel_ops;

const joint_ops *joint_ops_of(cairn_joint_type type);

/* cairn_joint_position at the bodies' current poses (joint_solver.c). */
float joint_position_now(const cairn_world *world, const joint *j);
/* Forgets every accumulated impulse (no warm start; a limit, motor or spring switched). */
void joint_reset_impulses(joint *j);
/* out = j with its solver state cleared, as j copied and reset would be: the fields before the
   solver state copied, the rest zeroed (a position pass's working copy). */
void joint_copy_without_state(joint *out, const joint *j);

/* The relative rotation of the joint frames, B's in A's (identity at creation). */
versors joint_relative_rotation(const joint_step *s);
/* The joint frame's axes in world space: x is the joint axis. */
vec3s joint_axis_x(versors frame);
vec3s joint_axis_y(versors frame);
vec3s joint_axis_z(versors frame);
/* Rotation of q about the frame's x axis, rad in (-pi, pi] (its twist). */
float joint_twist_angle(versors q);
/* The rotation vector (axis times angle, angle in [0, pi]) of a unit quaternion. */
vec3s joint_rotation_vector(versors q);
/* B's anchor along frame A's x axis from A's anchor, m (slider, wheel). */
float joint_translation(const joint_step *s);
/* The lock of all three relative rotations (fixed, slider): axes of frame A, error the
   relative rotation's rotation vector in them. */
void joint_lock_rotation(angle_part *lock, const joint_step *s);

/* The softness of equality rows and of violated limits: the world's joint softness, or a
   Baumgarte bias in the rigid modes; in a relax pass, velocity only. */
static inline softness joint_equality_soft(const joint_step *s)
{
    return s->relaxing ? s->relax_soft : s->rigid_soft;
}

/* The free axis's rows: limit (lower, upper as C >= 0 rows), motor, spring, all on one
   Jacobian. value is the joint's position on that axis. */
void free_axis_warm_start(const joint *j, joint_pair *pair, const axis_row *row);
void free_axis_solve(joint *j, joint_step *s, const axis_row *row, float value);
/* The free axis's impulse this substep (for the reaction). */
float free_axis_impulse(const joint *j);

#endif
