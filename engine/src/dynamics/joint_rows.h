/* The rows joints are built from, written once: a point part (three linear rows solved as one
   block: anchors together), an angle part (two or three angular rows as one block: axes kept
   common, or rotation locked, or braked), and a scalar axis row with the solves an inequality
   (limit), a motor and a spring need. Each is a sequential-impulse row with an accumulated
   impulse kept for warm starting. */
#ifndef CAIRN_DYNAMICS_JOINT_ROWS_H
#define CAIRN_DYNAMICS_JOINT_ROWS_H

#include "dynamics/integrate.h"
#include "dynamics/softness.h"

/* One body as the rows see it: its velocity in the solver's array, and its response (inverse
   mass and world inverse inertia; zero for static, kinematic and sleeping bodies and the
   world; the world axes it does not move along). */
typedef struct joint_body_state {
    body_velocity *velocity;
    float inverse_mass;
    mat3s inverse_inertia;
    float padding;               /* the matrix's columns load as four lanes (solver_vec.h) */
    uint32_t locked_translation; /* CAIRN_LOCK_TRANSLATION_* bits (body_translation_lock) */
} joint_body_state;

/* The side's inverse mass along each world axis, in lanes 0-2 (0 along a locked axis): how its
   velocity answers an impulse. */
vec3s joint_side_inverse_mass(const joint_body_state *side);
/* The share of a row along d (|d|^2 = length2) that the side answers with its inverse mass:
   body_rail_share of d's free part, 1 for a side without locked translation axes. */
float joint_rail_share(const joint_body_state *side, vec3s d, float length2);

typedef struct joint_pair {
    joint_body_state a, b;
} joint_pair;

/* Anchors together: C = anchor_b - anchor_a, three rows as one 3x3 block. */
typedef struct point_part {
    vec3s r_a, r_b; /* centre of mass to anchor, world */
    mat3s mass;     /* inverse of the effective mass matrix */
    vec3s error;    /* m, this substep */
    vec3s impulse;  /* accumulated, N s, on body b */
    float padding;  /* every vector here loads as four lanes (solver_vec.h) */
} point_part;

/* need_mass false: the tree solve takes the rows (joint_tree.h), no effective mass is needed. */
void point_prepare(point_part *p, const joint_pair *pair, vec3s r_a, vec3s r_b, vec3s error,
                   bool need_mass);
void point_warm_start(const point_part *p, joint_pair *pair);
/* One pass; soft gives the position correction (bias rate 0 solves velocity only). */
void point_solve(point_part *p, joint_pair *pair, softness soft);

/* Angular rows about two or three orthonormal world axes, as one block. */
typedef struct angle_part {
    vec3s axes[3];
    int count;
    float mass[3][3]; /* inverse of the effective mass matrix in the axes' basis */
    float error[3];   /* rad, this substep, per axis */
    float impulse[3]; /* accumulated, N m s, on body b, per axis */
} angle_part;

/* Rows about axes[0..count); error per axis. Keeps the impulses (projected onto the new axes
   when they turn: they are stored as a world vector between substeps). */
void angle_prepare(angle_part *p, const joint_pair *pair, const vec3s *axes, int count,
                   const float *error, bool need_mass);
void angle_warm_start(const angle_part *p, joint_pair *pair);
void angle_solve(angle_part *p, joint_pair *pair, softness soft);
/* Drives the relative angular velocity to zero with an impulse no larger than max_impulse
   (joint friction). */
void angle_solve_friction(angle_part *p, joint_pair *pair, float max_impulse);
/* The accumulated impulse as a world vector. */
vec3s angle_impulse(const angle_part *p);

/* A scalar row J = (-linear, -angular_a, linear, angular_b): the rate at which a joint
   coordinate grows as body b moves away from body a. */
typedef struct axis_row {
    vec3s linear, angular_a, angular_b;
    vec3s response_a, response_b; /* inverse inertia times angular_a, angular_b */
    float mass;                   /* effective mass, 0 when nothing can move; and every vector
                                     here loads as four lanes (solver_vec.h) */
} axis_row;

/* Rotation about a world axis. */
axis_row axis_row_angular(const joint_pair *pair, vec3s axis);
/* Translation along d of a point fixed to b at r_b relative to one fixed to a at arm_a. */
axis_row axis_row_linear(const joint_pair *pair, vec3s d, vec3s arm_a, vec3s r_b);
float axis_row_velocity(const axis_row *row, const joint_pair *pair);
void axis_row_apply(const axis_row *row, joint_pair *pair, float impulse);

/* The solves below take the coordinate's rate (axis_row_velocity, or what the caller knows
   better: joint_free_axis.c's rate with the joint's block held) and move it with row->mass. */
/* An equality row: error -> 0, softened by soft. */
void row_solve_equality(const axis_row *row, joint_pair *pair, float rate, float *impulse,
                        float error, softness soft);
/* An inequality row: keeps c = sign * (coordinate - bound) >= 0 with impulse >= 0 (applied
   along sign * row). A positive c is closed at most in one substep (speculative); a negative
   one is corrected by soft. */
void row_solve_limit(const axis_row *row, joint_pair *pair, float rate, float *impulse, float c,
                     float sign, float inverse_h, softness soft);
/* Drives the coordinate's rate to speed with |impulse| <= max_impulse. */
void row_solve_motor(const axis_row *row, joint_pair *pair, float rate, float *impulse, float speed,
                     float max_impulse);

/* Body b's anchor kept on a line through body a's (a slider's, a wheel's suspension): two
   equality rows across the line. */
typedef struct line_part {
    axis_row rows[2];
    float error[2];   /* m, this substep */
    float impulse[2]; /* accumulated, N s, on body b */
} line_part;

/* Rows along across[0] and across[1] (unit, across the line) for b's anchor at r_b and u from
   a's anchor, a's arm reaching to b's anchor (r_a + u). */
void line_prepare(line_part *p, const joint_pair *pair, const vec3s *across, vec3s r_a, vec3s r_b,
                  vec3s u);
void line_warm_start(const line_part *p, joint_pair *pair);
void line_solve(line_part *p, joint_pair *pair, softness soft);
/* sum plus the accumulated impulse as a world vector (linear, on body b), row by row. */
vec3s line_add_impulse(const line_part *p, vec3s sum);

#endif
