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
    float sleep_linear_velocity;  /* m/s; 0.05, [0, 10] */
    float sleep_angular_velocity; /* rad/s; 0.05, [0, 10] */
    float time_to_sleep;          /* s; 0.5, [0, 100] */
    /* A touching pair whose relative pose moved less than both limits since its manifold was
       built keeps that manifold (its points re-measured) instead of running the narrow phase:
       the body-pair cache of Jolt, Box2D's contact recycling. 0 in either disables it. */
    float pair_cache_distance; /* m; 0.001, [0, 0.1] */
    float pair_cache_angle;    /* rad; 0.035 (2 degrees), [0, 0.5] */
} cairn_solver_settings;

typedef struct cairn_world_def {
    vec3s gravity; /* m/s^2; default (0, -9.81, 0) */
    cairn_solver_settings solver;
    float linear_damping;      /* 1/s, applied to every dynamic body; 0, [0, 100] */
    float angular_damping;     /* 1/s; 0.05, [0, 100] */
    float max_linear_speed;    /* m/s; 400, [0, 1e4] */
    float max_angular_speed;   /* rad/s; 100, [0, 1e4] */
    float hit_event_threshold; /* approach speed for a hit event, m/s; 1, [0, 1e4] */
} cairn_world_def;

/* Defaults for every field (all defaults live in one place). */
CAIRN_API cairn_world_def cairn_world_default_def(void);
/* Checks every field against its documented range; false and an error naming the field. */
CAIRN_API bool cairn_world_def_validate(const cairn_world_def *def);
/* NULL and an error on an invalid def. */
CAIRN_API cairn_world *cairn_world_create(const cairn_world_def *def);
CAIRN_API void cairn_world_destroy(cairn_world *world);
/* Advances by dt seconds (0: no-op; negative or not finite: error, nothing changes). */
CAIRN_API void cairn_world_step(cairn_world *world, float dt);

typedef struct cairn_body_def {
    cairn_body_type type;                    /* default CAIRN_DYNAMIC */
    cairn_transform transform;               /* default identity */
    vec3s linear_velocity, angular_velocity; /* m/s, rad/s (world frame); default 0 */
    const cairn_shape *shape;                /* retained by the body; required */
    float density;                           /* kg/m^3; default 1000, > 0 */
    float friction, restitution; /* default 0.6 and 0; friction >= 0, restitution [0, 1] */
    bool allow_sleep;            /* default true */
    void *user_data;             /* default NULL */
} cairn_body_def;

CAIRN_API cairn_body_def cairn_body_default_def(void);
/* The null id and an error on a bad def (no shape, NaN, out of range values). */
CAIRN_API cairn_body_id cairn_body_create(cairn_world *world, const cairn_body_def *def);
CAIRN_API void cairn_body_destroy(cairn_world *world, cairn_body_id body);
CAIRN_API bool cairn_body_is_valid(const cairn_world *world, cairn_body_id body);
CAIRN_API cairn_transform cairn_body_transform(const cairn_world *world, cairn_body_id body);
CAIRN_API vec3s cairn_body_linear_velocity(const cairn_world *world, cairn_body_id body);
CAIRN_API vec3s cairn_body_angular_velocity(const cairn_world *world, cairn_body_id body);
CAIRN_API void cairn_body_apply_impulse(cairn_world *world, cairn_body_id body, vec3s impulse,
                                        vec3s world_point);
CAIRN_API bool cairn_body_is_awake(const cairn_world *world, cairn_body_id body);

/* Contact events of the last step (and of bodies destroyed since), readable until the next
   step starts; ordered by body pair, so they are deterministic. No callbacks run in the step. */
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
CAIRN_API cairn_contact_events cairn_world_contact_events(const cairn_world *world);

/* What the last step did, for overlays and tuning; times in milliseconds. */
typedef struct cairn_step_stats {
    float broadphase_ms, narrowphase_ms, solver_ms, islands_ms, total_ms;
    int bodies, awake_bodies;
    int pairs;            /* broadphase pairs */
    int contacts;         /* contacts with at least one manifold point */
    int points;           /* manifold points */
    float gjk_iterations; /* mean per narrow-phase query */
    int cache_hits;       /* queries that reused a cached simplex */
    int epa_calls;
    int manifolds_reused; /* pairs whose manifold was re-measured, not rebuilt (pair cache) */
    float integrate_ms;   /* velocity and position integration, ms (a part of solver_ms) */
} cairn_step_stats;
CAIRN_API cairn_step_stats cairn_world_step_stats(const cairn_world *world);
CAIRN_API int cairn_world_body_count(const cairn_world *world);
/* Writes up to capacity ids of live bodies in id order; returns how many bodies there are. */
CAIRN_API int cairn_world_bodies(const cairn_world *world, cairn_body_id *ids, int capacity);
/* The body's shape (owned by the body), type and user data; NULL / CAIRN_STATIC for a stale id. */
CAIRN_API const cairn_shape *cairn_body_shape(const cairn_world *world, cairn_body_id body);
CAIRN_API cairn_body_type cairn_body_get_type(const cairn_world *world, cairn_body_id body);
CAIRN_API void *cairn_body_user_data(const cairn_world *world, cairn_body_id body);

/* 64-bit hash of every body's transform and velocities: equal hashes after the same steps
   prove a deterministic run. */
CAIRN_API uint64_t cairn_world_state_hash(const cairn_world *world);

typedef struct cairn_ray_hit {
    cairn_body_id body;
    vec3s point, normal;
    float fraction;
} cairn_ray_hit;
/* Closest hit along origin + t * translation, t in [0, 1]; false when nothing is hit. */
CAIRN_API bool cairn_world_raycast(const cairn_world *world, vec3s origin, vec3s translation,
                                   cairn_ray_hit *hit);

#ifdef __cplusplus
}
#endif

#endif
