/* Rigid bodies: storage indexed by id, mass properties, world-space inertia. */
#ifndef CAIRN_DYNAMICS_BODY_H
#define CAIRN_DYNAMICS_BODY_H

#include <cairn/world.h>

typedef struct body {
    cairn_body_type type;
    bool alive;
    bool awake;
    bool allow_sleep;
    uint32_t generation;
    uint32_t wakes; /* times it woke: an awake-only snapshot checks its sleepers did not */
    cairn_shape *shape;
    cairn_transform transform; /* the body origin (the shape's frame) */
    vec3s local_center;        /* centre of mass in the body frame */
    vec3s center;              /* centre of mass, world */
    vec3s linear_velocity;     /* of the centre of mass, world */
    vec3s angular_velocity;    /* world */
    float inverse_mass;        /* 0 for static and kinematic bodies */
    mat3s inertia_local;       /* about the centre of mass, body axes */
    mat3s inverse_inertia_local;
    mat3s inverse_inertia; /* world, updated after each position change */
    float friction, restitution;
    float rolling_resistance; /* [0, 1]: cairn_body_def.rolling_resistance */
    float sleep_time;
    int proxy;          /* broadphase proxy, -1 when none (destroyed or disabled) */
    int32_t awake_slot; /* position in the world's awake set, -1 when not in it */
    void *user_data;
    vec3s force;  /* accumulated until the end of the next step, N (at the centre of mass) */
    vec3s torque; /* N m, world */
    float gravity_scale;
    float linear_damping, angular_damping; /* 1/s, added to the world's */
    float density;                         /* kg/m^3, as created: the mass a new type gets */
    uint32_t layer, mask; /* collision filter bits, handed to the broadphase proxy */
    bool is_sensor;
    bool enabled;            /* a disabled body has no proxy, no contacts and is never awake */
    int32_t joint_edges;     /* the first of its joints' edges (joint index * 2 + side), -1: none */
    uint8_t locked_rotation; /* CAIRN_LOCK_ROTATION_* bits: world axes it does not turn about */
    /* CAIRN_LOCK_TRANSLATION_* bits: world axes it does not move along */
    uint8_t locked_translation;
} body;

/* A body's own damping (cairn_body_def), 1/s: in [0, BODY_MAX_DAMPING] (NaN is not). */
#define BODY_MAX_DAMPING 100.0f
static inline bool body_damping_valid(float damping)
{
    return damping >= 0.0f && damping <= BODY_MAX_DAMPING;
}

/* A rolling resistance (cairn_body_def), in [0, 1] (NaN is not). */
static inline bool body_rolling_resistance_valid(float rolling_resistance)
{
    return rolling_resistance >= 0.0f && rolling_resistance <= 1.0f;
}

/* Whether type is one of the three body types. */
bool body_type_valid(cairn_body_type type);
/* False and an error naming function when the shape cannot be a body of this type (a mesh or
   heightfield for a dynamic body: triangles have no volume, so no mass). */
bool body_shape_allowed(const char *function, const cairn_shape *shape, cairn_body_type type);

/* Sets transform-derived state (centre, world inertia) from body->transform. */
void body_sync(body *b);
/* Only the world inverse inertia (the centre already set). */
void body_sync_inertia(body *b);
/* Whether a dynamic body has a locked rotation axis: its world inverse inertia is then the
   inverse of its world inertia's free block, zero on the locked axes (body_sync_inertia). */
bool body_rotation_locked(const body *b);
/* w without its components about the axes a dynamic body's rotation is locked about. */
vec3s body_lock_angular(const body *b, vec3s w);
/* The CAIRN_LOCK_TRANSLATION_* bits that act on the body: its own for a dynamic body, else 0. */
uint32_t body_translation_lock(const body *b);
/* v with its components along the body's locked translation axes set to +0. */
vec3s body_lock_linear(const body *b, vec3s v);
/* The least share of a row's direction d (unit) that a body with locked translation axes answers
   along its free axes, |d_free|^2: the rows' effective masses take the body's inverse mass times
   body_rail_share(|d_free|^2), exact from 45 degrees off the rail onward. A row nearly along the
   rail can only be met by moving the body far along the free axes: with the exact share, a
   contact 0.1 degree off the rail turned a push-out of 3 m/s into 131,072 m/s sideways, and a row
   along the rail, its mass resting on the body's turning alone, spun it up through a short lever
   (random API sequences). With the floor a row moves the body at most sqrt 2 times the speed it
   asks for, less the closer it lies to the rail, which takes the rest (Jolt and Bullet keep the
   free body's mass for every row: a floor of 1). */
#define BODY_RAIL_MIN_SHARE 0.5f
static inline float body_rail_share(float free_share)
{
    return free_share > BODY_RAIL_MIN_SHARE ? free_share : BODY_RAIL_MIN_SHARE;
}
/* Whether the body-frame inverse inertia is diagonal (spheres, boxes, capsules, cylinders). */
bool body_inertia_is_diagonal(const body *b);
/* Mass, centre and inertia from the shape and density (dynamic bodies). */
bool body_set_mass(body *b, float density);
/* Mass, centre and inertia as given (checked by the caller), for a dynamic body. */
void body_set_mass_properties(body *b, const cairn_mass_properties *mass);
/* The tight bounds of the body's shape at its transform. */
cairn_aabb body_bounds(const body *b);
/* The body's velocity at a world point. */
vec3s body_point_velocity(const body *b, vec3s world_point);

#endif
