/* Joints: constraints between two bodies (or a body and the world), solved with the contacts by
   the same warm-started sequential-impulse solver. */
#ifndef CAIRN_JOINT_H
#define CAIRN_JOINT_H

#include <cairn/world.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A joint handle: index plus generation; a destroyed joint's id stays invalid. {0,0} is null. */
typedef struct cairn_joint_id {
    uint32_t index;
    uint32_t generation;
} cairn_joint_id;

typedef enum cairn_joint_type {
    CAIRN_JOINT_BALL,     /* anchors coincide: 3 linear rows */
    CAIRN_JOINT_HINGE,    /* ball + the axis kept common; rotation about it: limit, motor, spring */
    CAIRN_JOINT_SLIDER,   /* no rotation, translation only along the axis: limit, motor, spring */
    CAIRN_JOINT_FIXED,    /* weld: no relative motion */
    CAIRN_JOINT_DISTANCE, /* |anchor_b - anchor_a| within [lower, upper] (rope: lower 0), spring */
    CAIRN_JOINT_SWING_TWIST, /* ball + swing of the axis within cone_angle + twist about it
                                within [lower, upper]: ragdoll shoulders, hips, necks */
    CAIRN_JOINT_WHEEL /* a wheel (body b) on a chassis (body a): b's anchor moves only along the
                         axis (the suspension: limit, spring), b turns only about the axle (the
                         drive: motor), and the axle can be steered about the axis */
} cairn_joint_type;

/* What each field means per type:
   - anchor_a, anchor_b: world points at creation; the joint keeps them together (one point:
     anchor_b is ignored, except for DISTANCE, whose length is measured between the two).
   - axis: world axis at creation (HINGE, SLIDER, SWING_TWIST; ignored by the others); any
     length above 1e-6, normalised.
   - limits: HINGE angle about the axis and SWING_TWIST twist, rad, within [-pi, pi] (0 at
     creation); SLIDER translation along the axis, m (0 at creation); DISTANCE length, m,
     lower >= 0 (lower 0: a rope; lower == upper: a rod). Without a limit or a spring a
     DISTANCE joint keeps its length at creation.
   - cone_angle: SWING_TWIST, rad, in (0, pi): the largest angle between the axis as body A
     carries it and as body B carries it. Always on.
   - motor: HINGE (rad/s, max torque N m) and SLIDER (m/s, max force N) drive the relative
     speed towards motor_speed. SWING_TWIST: joint friction, the relative rotation is braked
     with at most max_motor_force N m (motor_speed must be 0).
   - spring: HINGE, SLIDER and DISTANCE pull towards spring_target (rad or m; for DISTANCE a
     length) at spring_hertz (> 0) with spring_damping_ratio (the frequency of the bodies turning
     about their centres of mass: hinged off centre, a body swings slower; joints.md). A BALL
     joint with a spring pulls its anchors together at that frequency instead of holding them
     (spring_target unused): a soft rope end, or a mouse drag with cairn_joint_set_world_anchor.
   - WHEEL: axis is the suspension's direction (up the chassis, say), axle the wheel's axle
     (not parallel to axis; made perpendicular to it). The limits bound the suspension's travel
     along the axis, m (0 at creation); the spring holds it at spring_target m at spring_hertz
     (the wheel's own frequency, as if the chassis were fixed); the motor drives the wheel's
     rotation about the axle relative to the chassis (rad/s, max torque N m); steering turns the
     axle about the axis (rad, cairn_joint_set_steering).
   - break_force: N (on HINGE, SLIDER, FIXED also compared with the reaction torque, N m);
     0 never breaks. A joint whose reaction exceeds it is destroyed after the step and
     reported by cairn_world_joint_events. */
typedef struct cairn_joint_def {
    cairn_joint_type type;
    cairn_body_id body_a, body_b; /* body_a may be the null id: body_b is then held to the world */
    vec3s anchor_a, anchor_b;     /* world points at creation */
    vec3s axis;                   /* world axis at creation */
    bool enable_limit;
    float lower, upper;
    float cone_angle;
    bool enable_motor;
    float motor_speed, max_motor_force;
    bool enable_spring;
    float spring_hertz, spring_damping_ratio, spring_target;
    float break_force;
    bool collide_connected; /* default false: the two bodies do not collide with each other */
    void *user_data;
    vec3s axle;     /* WHEEL: world axle at creation; default +Z */
    float steering; /* WHEEL: rad in [-pi/2, pi/2], the axle turned about the axis; default 0 */
} cairn_joint_def;

/* Defaults: null bodies, anchors at the origin, axis +X, axle +Z, no limit, motor or spring,
   cone angle pi/4 (swing-twist), no steering, never breaks, no collision between the two
   bodies. */
CAIRN_API cairn_joint_def cairn_joint_default_def(cairn_joint_type type);
/* The null id and an error naming the field on a bad def: a stale or null body_b, a stale
   body_a, a joint of a body with itself, no dynamic body among the two, a non-finite or
   out-of-range anchor, a zero or non-finite axis, lower > upper, negative hertz, damping or
   force, a cone angle outside (0, pi), a wheel's axle zero or within 1 degree of its axis or a
   steering outside [-pi/2, pi/2]. Wakes both bodies; a contact between the two ends now unless
   collide_connected. */
CAIRN_API cairn_joint_id cairn_joint_create(cairn_world *world, const cairn_joint_def *def);
/* Wakes both bodies. Destroying a body destroys its joints (their ids go stale). */
CAIRN_API void cairn_joint_destroy(cairn_world *world, cairn_joint_id joint);
CAIRN_API bool cairn_joint_is_valid(const cairn_world *world, cairn_joint_id joint);
/* The force the joint applied on body_b in the last substep of the last step, N (zero before
   the first step or while asleep). */
CAIRN_API vec3s cairn_joint_reaction_force(const cairn_world *world, cairn_joint_id joint);
/* The torque the joint applied on body_b about its anchor, N m, as above. */
CAIRN_API vec3s cairn_joint_reaction_torque(const cairn_world *world, cairn_joint_id joint);
/* HINGE: angle about the axis (rad, 0 at creation, in (-pi, pi]); SLIDER: translation along
   the axis (m, 0 at creation); DISTANCE: current length (m); SWING_TWIST: the swing angle
   (rad); WHEEL: the suspension's travel along the axis (m, 0 at creation); others 0. */
CAIRN_API float cairn_joint_position(const cairn_world *world, cairn_joint_id joint);

/* ---- at run time: each validates like cairn_joint_create, fails with cairn_last_error() and
   changes nothing on bad input; each wakes the joint's bodies ---- */
CAIRN_API bool cairn_joint_set_limits(cairn_world *world, cairn_joint_id joint, bool enable,
                                      float lower, float upper);
CAIRN_API bool cairn_joint_set_motor(cairn_world *world, cairn_joint_id joint, bool enable,
                                     float speed, float max_force);
CAIRN_API bool cairn_joint_set_spring(cairn_world *world, cairn_joint_id joint, bool enable,
                                      float hertz, float damping_ratio, float target);
/* A joint held to the world (null body_a): moves the world's anchor to point (|point| <= 1e6
   m), e.g. a mouse drag's target or a crane's hook; the body follows as the joint allows.
   Fails on a joint between two bodies. */
CAIRN_API bool cairn_joint_set_world_anchor(cairn_world *world, cairn_joint_id joint, vec3s point);
CAIRN_API bool cairn_joint_set_break_force(cairn_world *world, cairn_joint_id joint, float force);
/* WHEEL only: turns the axle about the axis to angle (rad, [-pi/2, pi/2]; 0 as created), a
   steered wheel; the joint turns the wheel there as it holds the axle. */
CAIRN_API bool cairn_joint_set_steering(cairn_world *world, cairn_joint_id joint, float angle);
CAIRN_API bool cairn_joint_set_user_data(cairn_world *world, cairn_joint_id joint, void *user_data);

/* ---- reading back ---- */
/* The joint's current def: the bodies and settings as now set, anchors and axis where body A
   (or the world) carries them now. A zero def (type BALL) and an error on a stale id. */
CAIRN_API cairn_joint_def cairn_joint_get_def(const cairn_world *world, cairn_joint_id joint);
CAIRN_API void *cairn_joint_user_data(const cairn_world *world, cairn_joint_id joint);
/* Live joints (0 for a NULL world). */
CAIRN_API int cairn_world_joint_count(const cairn_world *world);
/* Writes up to capacity ids of live joints in id order (ids may be NULL when capacity is 0);
   returns how many joints there are. */
CAIRN_API int cairn_world_joints(const cairn_world *world, cairn_joint_id *ids, int capacity);
/* Writes up to capacity ids of the body's joints (most recent first) to out (NULL allowed when
   capacity is 0) and returns how many it has; -1 and an error on a NULL world, a stale id, a
   negative capacity or NULL out with capacity > 0. */
CAIRN_API int cairn_body_joints(const cairn_world *world, cairn_body_id body, cairn_joint_id *out,
                                int capacity);

/* Joints broken in the last step, in joint id order; readable until the next step starts. The
   joint's id is already stale; its bodies may be too later on. */
typedef struct cairn_joint_break_event {
    cairn_joint_id joint;
    cairn_body_id body_a, body_b;
    vec3s force, torque; /* the reaction that broke it, N and N m */
    vec3s point;         /* world: body_b's anchor when it broke */
    void *user_data;
} cairn_joint_break_event;
typedef struct cairn_joint_events {
    const cairn_joint_break_event *breaks;
    int break_count;
} cairn_joint_events;
CAIRN_API cairn_joint_events cairn_world_joint_events(const cairn_world *world);

#ifdef __cplusplus
}
#endif

#endif
