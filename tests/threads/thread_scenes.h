/* The scenes the thread tests step on several worker counts, and the run that folds every step's
   state hash and contact events into one value. Shared by the Criterion tests and by the plain
   race check that runs under ThreadSanitizer (Criterion cannot start under it). */
#ifndef CAIRN_TESTS_THREAD_SCENES_H
#define CAIRN_TESTS_THREAD_SCENES_H

#include <cairn/cairn.h>
#include <cairn/io.h>
#include <cairn/thread_pool.h>

#include "dynamics/world_state.h"

#include <stdio.h>
#include <string.h>

#define THREAD_SCENES CAIRN_SOURCE_DIR "/demos/scenes/"

typedef cairn_world *(*thread_scene_fn)(void);
typedef void (*thread_action_fn)(cairn_world *world, int step);

typedef struct thread_scene {
    const char *name;
    thread_scene_fn build;
    int steps;
    thread_action_fn action; /* may be NULL */
} thread_scene;

static inline uint64_t thread_mix(uint64_t hash, const void *data, size_t size)
{
    const unsigned char *bytes = data;
    for (size_t k = 0; k < size; ++k)
        hash = (hash ^ bytes[k]) * 1099511628211ull;
    return hash;
}

/* Every step's state hash and contact events, folded into one value. */
static inline uint64_t thread_run(cairn_world *world, int steps, thread_action_fn action)
{
    uint64_t hash = 1469598103934665603ull;
    for (int n = 0; n < steps; ++n) {
        if (action)
            action(world, n);
        cairn_world_step(world, 1.0f / 60.0f);
        uint64_t state = cairn_world_state_hash(world);
        cairn_contact_events events = cairn_world_contact_events(world);
        hash = thread_mix(hash, &state, sizeof state);
        hash = thread_mix(hash, events.begins, sizeof *events.begins * (size_t)events.begin_count);
        hash = thread_mix(hash, events.ends, sizeof *events.ends * (size_t)events.end_count);
        hash = thread_mix(hash, events.hits, sizeof *events.hits * (size_t)events.hit_count);
    }
    return hash;
}

/* A task system that runs each task whole, at once, on the calling thread. */
static inline void *thread_run_inline(cairn_task_fn *task, int item_count, int min_range,
                                      void *task_context, void *user_context)
{
    (void)min_range;
    (void)user_context;
    task(0, item_count, 0, task_context);
    return NULL;
}

static inline void thread_finish_nothing(void *user_task, void *user_context)
{
    (void)user_task;
    (void)user_context;
}

/* A pool of `workers` bound to the world. Through `pool`: NULL with one worker (the world then
   steps on the calling thread) or when it cannot be made. False, after saying why, on failure. */
static inline bool thread_bind_pool(cairn_world *world, int workers, cairn_thread_pool **pool)
{
    *pool = NULL;
    if (workers <= 1)
        return true;
    *pool = cairn_thread_pool_create(workers);
    bool ok = *pool != NULL;
    if (ok) {
        cairn_world_def def = cairn_world_get_def(world);
        cairn_thread_pool_bind(*pool, &def);
        ok = cairn_world_set_def(world, &def);
    }
    if (!ok)
        fprintf(stderr, "%d workers: %s %s\n", workers, cairn_thread_pool_last_error(),
                cairn_last_error());
    return ok;
}

/* The scene stepped on `workers` workers of a thread pool (0: the inline task system with three
   workers). False, after saying why, when the scene or the pool cannot be made. */
static inline bool thread_scene_hash(const thread_scene *scene, int steps, int workers,
                                     uint64_t *hash)
{
    cairn_world *world = scene->build();
    if (world == NULL)
        return false;
    cairn_thread_pool *pool = NULL;
    cairn_world_def def = cairn_world_get_def(world);
    if (workers == 0) {
        def.worker_count = 3;
        def.enqueue_task = thread_run_inline;
        def.finish_task = thread_finish_nothing;
    } else if ((pool = cairn_thread_pool_create(workers)) != NULL) {
        cairn_thread_pool_bind(pool, &def);
    }
    /* the parallel narrow phase and bounds however small the scene */
    world->narrow_gate.least_ms = world->bounds_gate.least_ms = -1.0f;
    bool ok = (workers == 0 || pool != NULL) && cairn_world_set_def(world, &def);
    if (!ok)
        fprintf(stderr, "%s on %d workers: %s %s\n", scene->name, workers,
                cairn_thread_pool_last_error(), cairn_last_error());
    else
        *hash = thread_run(world, steps, scene->action);
    cairn_world_destroy(world);
    cairn_thread_pool_destroy(pool);
    return ok;
}

/* A scene file, with a settings file over it (settings NULL: none). */
static inline cairn_world *thread_load_with(const char *path, const char *settings)
{
    cairn_world *world = NULL;
    cairn_io_error err;
    cairn_scene_options options = cairn_scene_default_options();
    options.settings_path = settings;
    if (!cairn_scene_load_ex(path, &options, &world, &err))
        fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line, err.column, err.message);
    return world;
}

static inline cairn_world *thread_load(const char *path)
{
    return thread_load_with(path, NULL);
}

static inline cairn_world *thread_pyramid(void)
{
    return thread_load(THREAD_SCENES "pyramid_1240.yaml");
}

static inline cairn_world *thread_rain(void)
{
    return thread_load(THREAD_SCENES "rain.yaml");
}

static inline cairn_world *thread_smash(void)
{
    return thread_load(THREAD_SCENES "smash.yaml");
}

static inline cairn_world *thread_ragdolls(void)
{
    return thread_load(THREAD_SCENES "ragdolls.yaml");
}

/* The ragdolls with each island its own group (the default is one group for so few): forty
   groups of joints and contacts, which several workers share whole. */
static inline cairn_world *thread_ragdolls_in_groups(void)
{
    cairn_world *world = thread_ragdolls();
    if (world)
        world->solver_group_manifolds = 1;
    return world;
}

/* The ragdolls in split impulse mode: their joints' position passes go colour by colour. */
static inline cairn_world *thread_ragdolls_split_impulse(void)
{
    return thread_load_with(THREAD_SCENES "ragdolls.yaml",
                            CAIRN_SOURCE_DIR "/tests/io/data/split_impulse.yaml");
}

static inline cairn_world *thread_bridge(void)
{
    return thread_load(THREAD_SCENES "bridge.yaml");
}

static inline cairn_world *thread_compounds(void)
{
    return thread_load(THREAD_SCENES "compounds.yaml");
}

static inline cairn_world *thread_heightfield(void)
{
    return thread_load(THREAD_SCENES "heightfield.yaml");
}

static inline void thread_add_body(cairn_world *world, cairn_shape *shape, cairn_body_type type,
                                   vec3s position, float density)
{
    cairn_body_def def = cairn_body_default_def();
    def.type = type;
    def.shape = shape;
    def.transform.position = position;
    def.density = density;
    cairn_body_create(world, &def);
    cairn_shape_release(shape); /* the body keeps it */
}

/* Twelve stacks of three boxes, and a heavy ball at rest beside them (no Criterion helpers
   here: the race check runs without it). */
static inline cairn_world *thread_sleepy_stacks(void)
{
    cairn_world_def world_def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&world_def);
    thread_add_body(world, cairn_shape_box((vec3s){{50, 1, 50}}, 0.0f), CAIRN_STATIC,
                    (vec3s){{0, -1, 0}}, 1000.0f);
    for (int s = 0; s < 12; ++s)
        for (int k = 0; k < 3; ++k)
            thread_add_body(world, cairn_shape_box((vec3s){{0.4f, 0.4f, 0.4f}}, 0.04f),
                            CAIRN_DYNAMIC, (vec3s){{2.0f * (float)s, 0.4f + 0.8f * (float)k, 0}},
                            1000.0f);
    thread_add_body(world, cairn_shape_sphere(0.5f), CAIRN_DYNAMIC, (vec3s){{-3, 0.5f, 0}},
                    5000.0f);
    return world;
}

/* Sixty-four stacks of three boxes that never sleep, their islands in groups of at most 16
   contact manifolds (the default is 8,192): about a dozen groups from the first step, which
   several workers share whole. */
static inline cairn_world *thread_stacks_in_groups(void)
{
    cairn_world_def world_def = cairn_world_default_def();
    world_def.solver.time_to_sleep = 100.0f;
    cairn_world *world = cairn_world_create(&world_def);
    thread_add_body(world, cairn_shape_box((vec3s){{50, 1, 50}}, 0.0f), CAIRN_STATIC,
                    (vec3s){{0, -1, 0}}, 1000.0f);
    for (int s = 0; s < 64; ++s)
        for (int k = 0; k < 3; ++k) {
            vec3s at = {{2.0f * (float)(s % 8), 0.4f + 0.8f * (float)k, 2.0f * (float)(s / 8)}};
            thread_add_body(world, cairn_shape_box((vec3s){{0.4f, 0.4f, 0.4f}}, 0.04f),
                            CAIRN_DYNAMIC, at, 1000.0f);
        }
    world->solver_group_manifolds = 16;
    return world;
}

/* At step 120, when the stacks sleep, the ball rolls through them and wakes them one by one. */
static inline void thread_launch_ball(cairn_world *world, int step)
{
    if (step != 120)
        return;
    cairn_body_id ids[64];
    int count = cairn_world_bodies(world, ids, 64);
    if (cairn_world_step_stats(world).awake_bodies > 1)
        fprintf(stderr, "sleepy stacks: %d bodies still awake at step 120\n",
                cairn_world_step_stats(world).awake_bodies);
    cairn_body_set_linear_velocity(world, ids[count - 1], (vec3s){{12, 0, 0}});
}

/* The rain with three bodies in four locked about one or more axes (locked bodies integrate
   alone, outside the lanes of four), and two in five held along one or two axes (their contacts'
   batches take the locked passes, mixed with free bodies in the lanes). */
static inline cairn_world *thread_locked_rain(void)
{
    cairn_world *world = thread_rain();
    cairn_body_id ids[4096];
    int count = cairn_world_bodies(world, ids, 4096);
    for (int i = 0; i < count && i < 4096; ++i) {
        cairn_body_set_locked_rotation(world, ids[i], (uint32_t)(i % 4) * 2u + (i % 4 == 3));
        uint32_t held[5] = {0u, CAIRN_LOCK_TRANSLATION_Z, 0u, 0u,
                            CAIRN_LOCK_TRANSLATION_X | CAIRN_LOCK_TRANSLATION_Z};
        cairn_body_set_locked_translation(world, ids[i], held[i % 5]);
    }
    return world;
}

static const thread_scene thread_scenes[] = {
    {"pyramid", thread_pyramid, 60, NULL},
    {"rain", thread_rain, 150, NULL},
    {"locked rain", thread_locked_rain, 100, NULL},
    {"smash", thread_smash, 90, NULL},
    {"ragdolls", thread_ragdolls, 90, NULL},
    {"ragdolls in groups", thread_ragdolls_in_groups, 90, NULL},
    {"ragdolls split impulse", thread_ragdolls_split_impulse, 90, NULL},
    {"heightfield", thread_heightfield, 120, NULL},
    {"bridge", thread_bridge, 120, NULL},
    {"compounds", thread_compounds, 120, NULL},
    {"sleepy stacks", thread_sleepy_stacks, 240, thread_launch_ball},
    {"stacks in groups", thread_stacks_in_groups, 60, NULL},
};
#define THREAD_SCENE_COUNT ((int)(sizeof thread_scenes / sizeof thread_scenes[0]))

/* The scene of that name (NULL when there is none). */
static inline const thread_scene *thread_scene_named(const char *name)
{
    for (int i = 0; i < THREAD_SCENE_COUNT; ++i)
        if (strcmp(thread_scenes[i].name, name) == 0)
            return &thread_scenes[i];
    return NULL;
}

#endif
