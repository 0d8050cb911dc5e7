/* The world: bodies, the step pipeline, solver settings. */
#ifndef CAIRN_WORLD_H
#define CAIRN_WORLD_H

#include <cairn/collision.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cairn_world cairn_world;

/* A body handle: index plus generation; a destroyed body's id stays invalid. {0,0} is null. */
typedef struct cairn_body_id {
    uint32_t index;
    uint32_t generation;
} cairn_body_id;

typedef enum cairn_body_type { CAIRN_STATIC, CAIRN_KINEMATIC, CAIRN_DYNAMIC } cairn_body_type;

/* Values of cairn_solver_settings.position_correction. */
enum { CAIRN_BAUMGARTE, CAIRN_SPLIT_IMPULSE, CAIRN_SOFT_STEP };

/* Every solver tunable, with its unit and default (cairn_world_default_def). */
typedef struct cairn_solver_settings {
    int velocity_iterations;     /* velocity passes per step, spread over the substeps (at least
                                    one each); default 8, range [1, 100] */
    int position_iterations;     /* relax (soft step) or split impulse passes per step, spread
                                    over the substeps; default 3, range [0, 100] */
    int substeps;                /* substeps per step (all modes); default 4, range [1, 16] */
    float baumgarte;             /* fraction of penetration corrected per step; 0.2, [0, 1] */
    float linear_slop;           /* allowed penetration, m; 0.005, [0, 0.1] */
    float max_linear_correction; /* per step, m; 0.2, [0, 10] */
    float restitution_threshold; /* approach speed below which no bounce, m/s; 1, [0, 100] */
    float warm_start_factor;     /* scale of last step's impulses; 1, [0, 1] */
    float contact_hertz;         /* soft contact stiffness, Hz (capped at a quarter of the substep
                                    rate); 60, [0, 1000] */
    float contact_damping_ratio; /* soft contact damping, unitless; 10, [0, 100] */
    float max_push_velocity; /* max separation speed from position correction, m/s; 3, [0, 100] */
    float speculative_distance; /* contacts kept while the gap is below this, m; 0.02, [0, 1] */
    int position_correction; /* CAIRN_BAUMGARTE, CAIRN_SPLIT_IMPULSE, CAIRN_SOFT_STEP (default) */
    bool warm_starting;      /* default true */
    bool simplex_caching;    /* default true */
    bool joint_trees;        /* default true: jointed groups that form calm trees (no loop, no
                                contact) are solved directly, exactly, whatever their masses;
                                false: every joint by the Gauss-Seidel passes, cheaper for crowds
                                of jointed bodies, but chains under heavy loads stretch */
    float sleep_linear_velocity;  /* m/s; 0.05, [0, 10] */
    float sleep_angular_velocity; /* rad/s; 0.05, [0, 10] */
    float time_to_sleep;          /* s; 0.5, [0, 100] */
    /* A touching pair whose relative pose moved less than both limits since its manifold was
       built keeps that manifold (its points re-measured) instead of running the narrow phase:
       the body-pair cache of Jolt, Box2D's contact recycling. 0 in either disables it. */
    float pair_cache_distance; /* m; 0.001, [0, 0.1] */
    float pair_cache_angle;    /* rad; 0.035 (2 degrees), [0, 0.5] */
    /* Joints in soft-step mode are soft constraints of this stiffness (capped at a quarter of
       the substep rate, like contacts); in the other modes they are rigid, with a Baumgarte
       bias of `baumgarte`. */
    float joint_hertz;         /* Hz; 60, [0, 1000] */
    float joint_damping_ratio; /* unitless; 2, [0, 100] */
} cairn_solver_settings;

/* ---- threads: the engine never starts a thread itself (as in Box2D v3) ----
   A task covers the items [start, end) of a range; worker is the index, in [0, worker_count), of
   the thread running it: no two tasks running at the same time may share one. */
typedef void cairn_task_fn(int start, int end, int worker, void *task_context);
/* Runs task over the items [0, item_count), split into ranges of at least min_range items, on
   the caller's threads; returns a handle for finish_task, or NULL when it ran the whole range
   before returning. The ranges of one call must either run at the same time or in the order of
   their items (the solver's workers wait for the stages the first range publishes). */
typedef void *cairn_enqueue_task_fn(cairn_task_fn *task, int item_count, int min_range,
                                    void *task_context, void *user_context);
/* Returns when every range of the enqueued task has run. */
typedef void cairn_finish_task_fn(void *user_task, void *user_context);
/* The most workers a world can be given. */
#define CAIRN_MAX_WORKERS 64

typedef struct cairn_world_def {
    vec3s gravity; /* m/s^2; default (0, -9.81, 0) */
    cairn_solver_settings solver;
    float linear_damping;      /* 1/s, applied to every dynamic body; 0, [0, 100] */
    float angular_damping;     /* 1/s; 0.05, [0, 100] */
    float max_linear_speed;    /* m/s; 400, [0, 1e4] */
    float max_angular_speed;   /* rad/s; 100, [0, 1e4] */
    float hit_event_threshold; /* approach speed for a hit event, m/s; 1, [0, 1e4] */
    /* Threads: worker_count workers run the step's parallel stages through the two callbacks
       (both or neither; cairn_thread_pool_bind fills them from the optional thread pool). Without
       them worker_count must be 1 and the step runs on the calling thread. The result is the same
       bit for bit for every worker count. The allocator hooks are then called from the workers.
       Not part of a snapshot: a restored world keeps its own. */
    int worker_count;                    /* default 1, [1, CAIRN_MAX_WORKERS] */
    cairn_enqueue_task_fn *enqueue_task; /* default NULL */
    cairn_finish_task_fn *finish_task;   /* default NULL */
    void *user_task_context;             /* passed to both callbacks */
} cairn_world_def;

/* Defaults for every field (all defaults live in one place). */
CAIRN_API cairn_world_def cairn_world_default_def(void);
/* Checks every field against its documented range; false and an error naming the field. */
CAIRN_API bool cairn_world_def_validate(const cairn_world_def *def);
/* NULL and an error on an invalid def. */
CAIRN_API cairn_world *cairn_world_create(const cairn_world_def *def);
CAIRN_API void cairn_world_destroy(cairn_world *world);
/* The largest time step, s: a quarter of a second. */
#define CAIRN_MAX_TIME_STEP 0.25f
/* Advances by dt seconds (0: no-op; negative, not finite or above CAIRN_MAX_TIME_STEP: error,
   nothing changes). A body the step carries beyond 1e6 m from the origin (the range every
   position must be in) is disabled and reported by cairn_world_exit_events. */
CAIRN_API void cairn_world_step(cairn_world *world, float dt);

/* Bodies that left the valid range (|position| > 1e6 m, or a non-finite state) in the last
   step: disabled at once, their velocities zeroed. Readable until the next step starts; teleport
   one back (cairn_body_set_transform) and enable it to use it again. */
typedef struct cairn_body_exit_event {
    cairn_body_id body;
    vec3s position; /* where it was when it left */
} cairn_body_exit_event;
typedef struct cairn_body_exit_events {
    const cairn_body_exit_event *exits;
    int exit_count;
} cairn_body_exit_events;
CAIRN_API cairn_body_exit_events cairn_world_exit_events(const cairn_world *world);

/* Bits of cairn_body_def.locked_rotation: the world axes a body does not turn about. */
#define CAIRN_LOCK_ROTATION_X   1u
#define CAIRN_LOCK_ROTATION_Y   2u
#define CAIRN_LOCK_ROTATION_Z   4u
#define CAIRN_LOCK_ROTATION_ALL 7u
/* Bits of cairn_body_def.locked_translation: the world axes a body does not move along. */
#define CAIRN_LOCK_TRANSLATION_X   1u
#define CAIRN_LOCK_TRANSLATION_Y   2u
#define CAIRN_LOCK_TRANSLATION_Z   4u
#define CAIRN_LOCK_TRANSLATION_ALL 7u

typedef struct cairn_body_def {
    cairn_body_type type;                    /* default CAIRN_DYNAMIC */
    cairn_transform transform;               /* default identity */
    vec3s linear_velocity, angular_velocity; /* m/s, rad/s (world frame); default 0 */
    const cairn_shape *shape;                /* retained by the body; required */
    float density;                           /* kg/m^3; default 1000, > 0 */
    float friction, restitution; /* default 0.6 and 0; friction >= 0, restitution [0, 1] */
    bool allow_sleep;            /* default true */
    void *user_data;             /* default NULL */
    float gravity_scale;         /* multiplies the world gravity; default 1, [-100, 100] */
    uint32_t layer;              /* collision layer bits; default 1 */
    uint32_t mask;               /* layers this body collides with; default all bits. Two bodies
                                    meet when (layer_a & mask_b) && (layer_b & mask_a). */
    bool is_sensor; /* reports overlaps (cairn_world_sensor_events), never pushes; default false */
    bool enabled;   /* a disabled body is out of the world until enabled; default true */
    /* This body's own damping, added to the world's (cairn_world_def): 1/s, default 0,
       [0, 100]; e.g. a balloon, or debris that should settle fast. */
    float linear_damping, angular_damping;
    /* World axes a dynamic body does not turn about (CAIRN_LOCK_ROTATION_* bits, default 0): an
       upright capsule that must not tip (X | Z), a crate that only slides (all). See
       cairn_body_set_locked_rotation. */
    uint32_t locked_rotation;
    /* World axes a dynamic body does not move along (CAIRN_LOCK_TRANSLATION_* bits, default 0):
       with locked_rotation X | Y, Z keeps a 2.5D game's bodies in the plane z = constant. See
       cairn_body_set_locked_translation. */
    uint32_t locked_translation;
    /* Resistance to rolling, [0, 1], default 0 (none): a contact's rolling torque is held to
       rolling_resistance x its normal force x the rolling radius (the distance from the moving
       body's centre of mass to the contact plane), so a ball rolling on the flat slows at
       5/7 x rolling_resistance x g and stays put on a slope up to atan(rolling_resistance).
       Spinning about the contact normal meets the same torque (a ball spun in place stops). A
       pair takes the larger of its bodies' values. E.g. 0.02 for a ball on grass. */
    float rolling_resistance;
} cairn_body_def;

/* Defaults for every field (see each field's comment); set shape before creating. */
CAIRN_API cairn_body_def cairn_body_default_def(void);
/* The null id and an error on a bad def (no shape, NaN, out of range values). */
CAIRN_API cairn_body_id cairn_body_create(cairn_world *world, const cairn_body_def *def);
CAIRN_API void cairn_body_destroy(cairn_world *world, cairn_body_id body);
CAIRN_API bool cairn_body_is_valid(const cairn_world *world, cairn_body_id body);
/* Whether two ids name the same body slot and generation (two null ids are equal). */
CAIRN_API bool cairn_body_id_equal(cairn_body_id a, cairn_body_id b);
CAIRN_API cairn_transform cairn_body_transform(const cairn_world *world, cairn_body_id body);
CAIRN_API vec3s cairn_body_linear_velocity(const cairn_world *world, cairn_body_id body);
CAIRN_API vec3s cairn_body_angular_velocity(const cairn_world *world, cairn_body_id body);
/* An impulse, N s, at a world point: changes the velocities at once and wakes the body. Static,
   kinematic and disabled bodies ignore it (no error), as they ignore forces. */
CAIRN_API void cairn_body_apply_impulse(cairn_world *world, cairn_body_id body, vec3s impulse,
                                        vec3s world_point);
CAIRN_API bool cairn_body_is_awake(const cairn_world *world, cairn_body_id body);

/* Contact events of the last step (and of bodies destroyed since), readable until the next
   step starts, even while bodies are destroyed: their end events do not move what was read
   (read again to see them). Ordered by body pair, so they are deterministic. No event callbacks
   run in the step. */
typedef struct cairn_contact_begin_event {
    cairn_body_id body_a, body_b;
} cairn_contact_begin_event;
typedef struct cairn_contact_end_event {
    cairn_body_id body_a, body_b; /* an id may already be destroyed */
} cairn_contact_end_event;
typedef struct cairn_contact_hit_event {
    cairn_body_id body_a, body_b;
    vec3s point, normal;  /* world; normal from A to B */
    float approach_speed; /* m/s, above cairn_world_def.hit_event_threshold */
} cairn_contact_hit_event;
typedef struct cairn_contact_events {
    const cairn_contact_begin_event *begins;
    int begin_count;
    const cairn_contact_end_event *ends;
    int end_count;
    const cairn_contact_hit_event *hits;
    int hit_count;
} cairn_contact_events;
/* The last step's contact events (empty arrays for a NULL world). */
CAIRN_API cairn_contact_events cairn_world_contact_events(const cairn_world *world);

/* One contact manifold of a body, as the body sees it: the body it touches, the normal pointing
   from the body towards that one, and up to four points, measured at the start of the last
   step (its narrow phase). */
typedef struct cairn_contact_data {
    cairn_body_id other;
    vec3s normal;           /* unit, world, from the body towards other */
    int point_count;        /* 1 to 4 */
    vec3s points[4];        /* world, midway between the two surfaces */
    float separations[4];   /* m; < 0 when penetrating, > 0 for a speculative point */
    float normal_forces[4]; /* N, >= 0: the push the solver applied in the last substep */
} cairn_contact_data;
/* The manifolds of the body's touching contacts after the last step (sleeping ones included,
   sensors never): writes the first min(total, capacity) to out (NULL allowed when capacity is
   0) and returns the total. A pair with a compound may give several, one per direction it
   touches along. The sum of normal_forces over a resting body's contacts balances its weight.
   Walks every contact of the world: meant for a few bodies a frame (is the player grounded?).
   -1 and an error for a NULL world, a stale id, a negative capacity or NULL out with
   capacity > 0. */
CAIRN_API int cairn_body_contacts(const cairn_world *world, cairn_body_id body,
                                  cairn_contact_data *out, int capacity);

/* What the last step did, for overlays and tuning; times in milliseconds. */
typedef struct cairn_step_stats {
    float broadphase_ms, narrowphase_ms, solver_ms, islands_ms, total_ms; /* per stage, ms */
    int bodies, awake_bodies; /* live bodies; awake dynamic bodies */
    int pairs;                /* broadphase pairs */
    int contacts;          /* contacts with at least one manifold point among those the step walked
                              (contacts of sleeping islands are parked and not counted) */
    int points;            /* their manifold points */
    float gjk_iterations;  /* mean per narrow-phase query */
    int cache_hits;        /* queries that reused a cached simplex (a mesh or heightfield pair
                              counts each part-triangle query) */
    int epa_calls;         /* narrow-phase queries that needed EPA (overlapping cores) */
    int manifolds_reused;  /* pairs whose manifold was re-measured, or kept empty while the pair
                              is still apart for certain, not rebuilt (pair cache) */
    float integrate_ms;    /* velocity and position integration, ms (a part of solver_ms) */
    int joints;            /* live joints */
    int epa_cap_stops;     /* narrow-phase queries whose EPA stopped on a bound (iterations, vertex
                              or face store) before converging; their depth is its upper bound */
    int colors;            /* graph colours the solver's contacts took (solved one colour at a
                              time, the contacts of a colour on all workers at once) */
    int overflow_contacts; /* contact manifolds that found no colour: solved alone, in order */
    int workers;           /* the world's worker count */
    /* Per worker, the time it spent in the solver's parallel stages, ms (worker 0 steps the
       world; with one worker, the whole solver). The rest of solver_ms is the coordinator's
       serial code and the workers' waiting: how evenly the solver's work is shared. */
    float solver_worker_ms[CAIRN_MAX_WORKERS];
    /* Per worker, the time it spent in the other stages' parallel parts, ms (zero beyond the
       worker count; with one worker, that part's whole time): the awake bodies' new bounds (a
       part of broadphase_ms), the pairs' manifolds (of narrowphase_ms), and the velocity and
       position integration (of integrate_ms and of solver_worker_ms). */
    float broadphase_worker_ms[CAIRN_MAX_WORKERS];
    float narrowphase_worker_ms[CAIRN_MAX_WORKERS];
    float integrate_worker_ms[CAIRN_MAX_WORKERS];
    /* The workers the solver ran on: the world's, or 1 when less than three quarters of the
       constraints lie in colours large enough to share (the others would mostly wait, and slow
       the one that works). The integration goes with the solve; the broadphase's and the
       narrow phase's parallel parts are shared either way. */
    int solver_workers;
    /* The groups of islands the solver took one after another, each through all its passes
       while its constraints are in the caches: on one worker, islands up to 8,192 contact
       manifolds and joints a group (a step of fewer than 16,384 is one group); on several,
       about four groups a worker. */
    int island_groups;
    /* Whether the workers took whole island groups, each solving its groups alone (at least two
       groups per worker, none over a worker's share), instead of sharing each colour. */
    bool island_groups_shared;
    /* The solver's stages, one after another: a pass over one colour's constraints, or over the
       bodies (their velocities, their positions). A tall pile's contacts take many colours, so
       it has many stages (the 1,240-box pyramid: about 1,900 a step). */
    int solver_stages;
    /* Of those, the stages the workers shared, each ending with them waiting for one another
       (0 on one worker, or when the solve stays on one; 1 when they took whole island groups):
       on two cores, each such wait costs at least one cache line's trip between them
       (bench/bench_handoff). */
    int solver_shared_stages;
} cairn_step_stats;
/* Statistics of the last step (all zero before the first). */
CAIRN_API cairn_step_stats cairn_world_step_stats(const cairn_world *world);
/* Live bodies (0 for a NULL world). */
CAIRN_API int cairn_world_body_count(const cairn_world *world);
/* Writes up to capacity ids of live bodies in id order; returns how many bodies there are. */
CAIRN_API int cairn_world_bodies(const cairn_world *world, cairn_body_id *ids, int capacity);
/* The body's shape (owned by the body), type and user data; NULL / CAIRN_STATIC for a stale id. */
CAIRN_API const cairn_shape *cairn_body_shape(const cairn_world *world, cairn_body_id body);
CAIRN_API cairn_body_type cairn_body_get_type(const cairn_world *world, cairn_body_id body);
CAIRN_API void *cairn_body_user_data(const cairn_world *world, cairn_body_id body);

/* ---- body control: every setter validates, fails with cairn_last_error() and changes nothing
   on bad input (NULL world, stale id, NaN/Inf, out of range) ---- */

/* Teleport: moves the body (and its broadphase proxy) at once, so queries see it at the new
   place before the next step; wakes it and every body touching it. |position| <= 1e6 m, unit
   rotation. Velocities are kept. */
CAIRN_API bool cairn_body_set_transform(cairn_world *world, cairn_body_id body,
                                        cairn_transform transform);
/* Velocity of the centre of mass, m/s (|v| <= 1e4), and angular velocity, rad/s (|w| <= 1e4).
   Static bodies cannot move (error). Wakes the body. */
CAIRN_API bool cairn_body_set_linear_velocity(cairn_world *world, cairn_body_id body,
                                              vec3s velocity);
CAIRN_API bool cairn_body_set_angular_velocity(cairn_world *world, cairn_body_id body,
                                               vec3s velocity);
/* A force, N, acting at a world point for the next step (it also adds the torque
   (point - centre of mass) x force); forces and torques accumulate until that step ends. Wakes
   the body. Static, kinematic and disabled bodies ignore forces and torques (no error). */
CAIRN_API bool cairn_body_apply_force(cairn_world *world, cairn_body_id body, vec3s force,
                                      vec3s world_point);
/* A torque, N m (world axes), for the next step; accumulates like forces. */
CAIRN_API bool cairn_body_apply_torque(cairn_world *world, cairn_body_id body, vec3s torque);
/* An angular impulse, N m s (world axes): changes the angular velocity at once by I^-1 L.
   Ignored by static, kinematic and disabled bodies, like cairn_body_apply_impulse. */
CAIRN_API bool cairn_body_apply_angular_impulse(cairn_world *world, cairn_body_id body,
                                                vec3s impulse);
/* Kinematic bodies only: sets the linear and angular velocity that bring the body to target in
   dt seconds (dt > 0; one step), so it pushes and carries dynamic bodies on the way. The
   velocity stays until changed: call it every step to follow a path. */
CAIRN_API bool cairn_body_set_kinematic_target(cairn_world *world, cairn_body_id body,
                                               cairn_transform target, float dt);
/* Multiplies the world gravity for this body; [-100, 100] (0 floats, -1 rises). */
CAIRN_API bool cairn_body_set_gravity_scale(cairn_world *world, cairn_body_id body, float scale);
CAIRN_API float cairn_body_gravity_scale(const cairn_world *world, cairn_body_id body);
/* The body's own damping, 1/s in [0, 100], added to the world's; wakes the body. */
CAIRN_API bool cairn_body_set_linear_damping(cairn_world *world, cairn_body_id body, float damping);
CAIRN_API float cairn_body_linear_damping(const cairn_world *world, cairn_body_id body);
CAIRN_API bool cairn_body_set_angular_damping(cairn_world *world, cairn_body_id body,
                                              float damping);
CAIRN_API float cairn_body_angular_damping(const cairn_world *world, cairn_body_id body);
/* Locks a dynamic body's rotation about world axes (CAIRN_LOCK_ROTATION_* bits; 0 frees it), as
   Box2D's fixed rotation and Jolt's allowed DOFs do: its angular velocity about a locked axis is
   zero from now on (the part of it a caller sets is dropped), as if a joint held it against
   every torque, contact and joint. About the free axes it turns with the inertia it has about
   them (the free block of its world inertia: a tilted body spun about Y gets torque / I_yy), and
   without gyroscopic coupling. Static and kinematic bodies keep the bits and ignore them until
   made dynamic. Its joints are solved by Gauss-Seidel, not the tree solve (joints.md). Wakes the
   body. False and an error: a stale id, bits beyond CAIRN_LOCK_ROTATION_ALL, or a call from a
   step callback. */
CAIRN_API bool cairn_body_set_locked_rotation(cairn_world *world, cairn_body_id body,
                                              uint32_t axes);
/* The body's CAIRN_LOCK_ROTATION_* bits; 0 and an error on a stale id. */
CAIRN_API uint32_t cairn_body_locked_rotation(const cairn_world *world, cairn_body_id body);
/* Locks a dynamic body's motion along world axes (CAIRN_LOCK_TRANSLATION_* bits; 0 frees it), as
   Jolt's allowed DOFs and Bullet's linear factor do: its linear velocity along a locked axis is
   zero from now on (the part of it a caller sets, an impulse's or a force's, is dropped), so the
   step never moves its centre of mass along the axis, as if a frictionless rail held it against
   gravity, contacts and joints. Along the free axes it answers with its mass: contacts and
   joints see the per-axis inverse mass (a push at 45 degrees to a locked axis meets twice the
   mass; nearer the rail, as if half the push went along the free axes). A teleport still moves
   it anywhere. Static and kinematic bodies keep the bits and
   ignore them until made dynamic. Its joints are solved by Gauss-Seidel, not the tree solve
   (joints.md). Wakes the body. False and an error: a stale id, bits beyond
   CAIRN_LOCK_TRANSLATION_ALL, or a call from a step callback. */
CAIRN_API bool cairn_body_set_locked_translation(cairn_world *world, cairn_body_id body,
                                                 uint32_t axes);
/* The body's CAIRN_LOCK_TRANSLATION_* bits; 0 and an error on a stale id. */
CAIRN_API uint32_t cairn_body_locked_translation(const cairn_world *world, cairn_body_id body);
/* Disabling takes the body out of the broadphase, the contacts and the solver (its touches end
   at the next step; bodies resting on it wake); it keeps its transform and velocities and comes
   back where it was on enable. */
CAIRN_API bool cairn_body_set_enabled(cairn_world *world, cairn_body_id body, bool enabled);
CAIRN_API bool cairn_body_is_enabled(const cairn_world *world, cairn_body_id body);
/* Sleep control. Forbidding sleep wakes the body. set_awake(false) puts the body and every
   dynamic body touching it (its island) to sleep now; true wakes them. Dynamic bodies only
   sleep: set_awake on another type, or on a disabled body, is an error. */
CAIRN_API bool cairn_body_set_allow_sleep(cairn_world *world, cairn_body_id body, bool allow);
CAIRN_API bool cairn_body_is_sleep_allowed(const cairn_world *world, cairn_body_id body);
CAIRN_API bool cairn_body_set_awake(cairn_world *world, cairn_body_id body, bool awake);
/* Materials (friction >= 0, restitution [0, 1]); contacts that exist already take the new
   combined values (friction sqrt(fa fb), restitution max(ra, rb)) at once. */
CAIRN_API bool cairn_body_set_friction(cairn_world *world, cairn_body_id body, float friction);
CAIRN_API bool cairn_body_set_restitution(cairn_world *world, cairn_body_id body,
                                          float restitution);
CAIRN_API float cairn_body_friction(const cairn_world *world, cairn_body_id body);
CAIRN_API float cairn_body_restitution(const cairn_world *world, cairn_body_id body);
/* See cairn_body_def.rolling_resistance: [0, 1], else false and an error; the body's contacts
   take the new value at the next step. */
CAIRN_API bool cairn_body_set_rolling_resistance(cairn_world *world, cairn_body_id body,
                                                 float rolling_resistance);
CAIRN_API float cairn_body_rolling_resistance(const cairn_world *world, cairn_body_id body);
CAIRN_API bool cairn_body_set_user_data(cairn_world *world, cairn_body_id body, void *user_data);
/* Collision filter bits (see cairn_body_def.layer); pairs that exist already are refiltered at
   the next step (a pair the new bits reject ends its touch then). */
CAIRN_API bool cairn_body_set_filter(cairn_world *world, cairn_body_id body, uint32_t layer,
                                     uint32_t mask);
CAIRN_API uint32_t cairn_body_layer(const cairn_world *world, cairn_body_id body);
CAIRN_API uint32_t cairn_body_mask(const cairn_world *world, cairn_body_id body);
CAIRN_API bool cairn_body_is_sensor(const cairn_world *world, cairn_body_id body);
/* Mass, kg (0 for static and kinematic bodies); inertia about the centre of mass in body axes,
   kg m^2 (zero for static and kinematic bodies); centre of mass, world, m. 0 / zero on a stale
   id (with an error). */
CAIRN_API float cairn_body_mass(const cairn_world *world, cairn_body_id body);
CAIRN_API mat3s cairn_body_inertia(const cairn_world *world, cairn_body_id body);
CAIRN_API vec3s cairn_body_center_of_mass(const cairn_world *world, cairn_body_id body);

/* Changes a body's type between steps (a platform that starts to fall, a picked-up crate that
   turns kinematic). The body keeps its id, transform, joints, filter and materials; its mass is
   what cairn_body_def.density gives the shape, as at creation (an override by
   cairn_body_set_mass_properties is dropped). A static body's velocities become zero; a body
   that stops being dynamic loses its forces. It wakes (unless disabled) with what it touches and
   is jointed to. Its contacts are decided again at once: those the new type allows go on, the
   others end (their events readable until the next step), and pairs that now need a contact (a
   body that became dynamic next to a static or kinematic one) get one, touching from the next
   step (a disabled body's are decided at the next step). A joint whose bodies are then both static
   or kinematic is kept but not solved until one is dynamic again. False and an error: a stale id,
   an unknown type, a mesh or heightfield made dynamic, or a call from a step callback. */
CAIRN_API bool cairn_body_set_type(cairn_world *world, cairn_body_id body, cairn_body_type type);
/* Replaces a dynamic body's mass, centre of mass (body frame) and inertia (about that centre,
   body axes) with the given ones, e.g. a car's lowered centre of mass. The body keeps its
   transform and its motion (the velocity of the new centre is the one the old motion gives it)
   and wakes. cairn_shape_mass_properties gives the shape's own (scale them as needed). False and
   an error: a stale id, a static or kinematic body, NULL, a mass that is not finite and
   positive, a centre not finite or beyond 1e6 m, an inertia that is not finite, symmetric and
   positive definite, or a call from a step callback. */
CAIRN_API bool cairn_body_set_mass_properties(cairn_world *world, cairn_body_id body,
                                              const cairn_mass_properties *mass);
/* Replaces a body's shape between steps (a crouching capsule, a crate that breaks into a smaller
   one). The world takes a reference to the new shape and releases the old one. The body keeps
   its id, transform (the shape's frame), type, joints, filter and materials; a dynamic body's
   mass is what its density gives the new shape (an override is dropped), and it keeps its
   motion (every point its velocity). It wakes with what it touches; its touches end at once
   (end events readable until the next step, as for cairn_body_destroy) and begin again at the
   next step where the new shape touches. A snapshot carries no shapes: a restore refuses a body
   whose shape differs from the one it had at the save. False and an error: a stale id, NULL, a
   mesh or heightfield for a dynamic body, or a call from a step callback. */
CAIRN_API bool cairn_body_set_shape(cairn_world *world, cairn_body_id body,
                                    const cairn_shape *shape);

/* ---- collision filtering on the world ---- */

/* Asked once when two bodies start to share a broadphase pair (after the layer/mask test);
   false keeps them from ever forming a contact or a sensor overlap while the pair lasts. Runs
   during cairn_world_step (never inside the solver) and during cairn_world_set_pair_filter. It
   may read the world; from a step, a call that would change it is refused with an error. */
typedef bool cairn_pair_filter_fn(cairn_body_id a, cairn_body_id b, void *context);
/* Installs the filter (NULL removes it) and applies it to every existing pair at once: contacts
   it rejects end now (their end events are readable until the next step starts, like those of
   a destroyed body), pairs it now accepts gain a contact. */
CAIRN_API bool cairn_world_set_pair_filter(cairn_world *world, cairn_pair_filter_fn *filter,
                                           void *context);

/* ---- contact modification ---- */

/* One touching contact as the pre-solve callback sees it: the bodies and the manifold are read
   only; enabled, friction, restitution, surface_velocity and rolling_resistance may be changed,
   for this step. */
typedef struct cairn_contact_modify {
    cairn_body_id body_a, body_b;
    vec3s normal;             /* unit, world, from A to B */
    int point_count;          /* of the deepest manifold, 1 to 4 */
    vec3s points[4];          /* world, on A */
    float separations[4];     /* m, < 0 when penetrating */
    bool enabled;             /* true; false: the solver ignores the contact this step (events
                                 are still reported: it still touches) */
    float friction;           /* the combined value, >= 0 */
    float restitution;        /* the combined value, [0, 1] */
    vec3s surface_velocity;   /* m/s, world: the sliding velocity of B's surface against A's that
                                 friction drives towards (its part along the normal is ignored):
                                 a conveyor belt that is body A moves its load at +v; one that is
                                 body B at -v. Default 0 */
    float rolling_resistance; /* the combined value, [0, 1] (cairn_body_def.rolling_resistance) */
} cairn_contact_modify;

/* Called once per step for every touching contact of an awake body (in the narrow phase,
   after the manifold is built, in body-pair order), before the solver; values it writes out of
   range are clamped (friction >= 0, restitution and rolling resistance in [0, 1], a non-finite
   surface velocity is taken as 0). It runs on the thread that steps the world, whatever the worker
   count (after the workers built the manifolds). It may read the world; a call that would change it
   (bodies, joints, characters, settings, a step) is refused with an error and changes nothing. */
typedef void cairn_presolve_fn(cairn_contact_modify *contact, void *context);
/* Installs the callback (NULL removes it, and every contact takes its materials' values
   again). False and an error for a NULL world. */
CAIRN_API bool cairn_world_set_presolve(cairn_world *world, cairn_presolve_fn *presolve,
                                        void *context);

/* ---- sensors ---- */

/* Sensor overlap events of the last step: one begin when a body starts to overlap a sensor
   (cairn_overlap on the full shapes) and one end when it stops, is disabled or destroyed.
   Ordered by body pair; readable until the next step starts. A sensor sees every non-sensor
   body (sensors never see each other); pairs of sleeping bodies keep their state. */
typedef struct cairn_sensor_event {
    cairn_body_id sensor, visitor; /* an id in an end event may already be destroyed */
} cairn_sensor_event;
typedef struct cairn_sensor_events {
    const cairn_sensor_event *begins;
    int begin_count;
    const cairn_sensor_event *ends;
    int end_count;
} cairn_sensor_events;
/* The last step's sensor events (empty arrays for a NULL world). */
CAIRN_API cairn_sensor_events cairn_world_sensor_events(const cairn_world *world);

/* ---- world settings at run time ---- */

/* The world's current def. */
CAIRN_API cairn_world_def cairn_world_get_def(const cairn_world *world);
/* Replaces the def between steps (gravity, solver settings, damping, ...); validated like
   cairn_world_create: false, an error naming the field and no change on a bad def. */
CAIRN_API bool cairn_world_set_def(cairn_world *world, const cairn_world_def *def);

/* 64-bit hash of every body's transform and velocities, then every joint's id and accumulated
   impulses: equal hashes after the same steps prove a deterministic run. Characters are not in
   it (hash cairn_character_position yourself). A NULL world hashes like an empty one. */
CAIRN_API uint64_t cairn_world_state_hash(const cairn_world *world);

/* ---- snapshots: the whole simulation state, for rollback, replays and save games ---- */

/* Bytes a snapshot of the world takes now (0 and an error for a NULL world). */
CAIRN_API size_t cairn_world_snapshot_size(const cairn_world *world);
/* Writes the snapshot: bodies (state, sleep, broadphase boxes), contacts with their warm-start
   impulses and caches, joints with theirs, the settings. Versioned and checksummed, no
   pointers, in this machine's byte order (little-endian on x86 and ARM; a snapshot from the
   other order is refused). False and an error for a NULL world or buffer, or size below
   cairn_world_snapshot_size. */
CAIRN_API bool cairn_world_snapshot(const cairn_world *world, void *buffer, size_t size);
/* Restores a snapshot of this world: the world must have the same bodies (ids and types) as when
   it was saved (a snapshot carries no shapes; bodies a rollback may undo are best made in
   advance and disabled, then enabled instead of created); joints are restored in full. Restoring
   and stepping N times gives the cairn_world_state_hash that the saved world had after the same N
   steps. A truncated, corrupt or foreign buffer: false, an error saying which, and the world
   unchanged. */
CAIRN_API bool cairn_world_restore(cairn_world *world, const void *buffer, size_t size);
/* An awake-only snapshot, for rollback of worlds that are mostly asleep: the awake bodies and
   their contacts in full, every sleeping (or static) body as a 16-byte fingerprint, the joints
   and characters in full. cairn_world_restore takes it like a full one, into the world it came
   from, as long as every body asleep at the save still sleeps, unchanged and never woken since
   (the fingerprint is checked: otherwise false, an error naming the body, and the world
   unchanged; restore a full snapshot then). The world keeps its own sleeping part. */
CAIRN_API size_t cairn_world_snapshot_awake_size(const cairn_world *world);
CAIRN_API bool cairn_world_snapshot_awake(const cairn_world *world, void *buffer, size_t size);

typedef struct cairn_ray_hit {
    cairn_body_id body;
    vec3s point, normal;
    float fraction;
    int material; /* the hit mesh or heightfield triangle's material index; -1 for other shapes or
                     no materials */
} cairn_ray_hit;
/* Closest hit along origin + t * translation, t in [0, 1]; false when nothing is hit. */
CAIRN_API bool cairn_world_raycast(const cairn_world *world, vec3s origin, vec3s translation,
                                   cairn_ray_hit *hit);

#ifdef __cplusplus
}
#endif

#endif
