/* The wide contact solver (contact_wide.h): lanes of 1 (scalar), 4 (SSE2) and 8 (AVX2) contacts
   give the same state bit for bit, step after step, in every position-correction mode and with
   several workers: each lane does the scalar path's operations in the same order, and no fused
   multiply-add is used in a deterministic build (CAIRN_DETERMINISTIC, the default). When the
   build allows FMA in the 8-lane kernel, 8 lanes are held to the equivalence bound instead: every
   body within 1e-5 of the scalar lanes after one step. Scenes from thread_scenes.h. */
#include "threads/thread_scenes.h"

#include "dynamics/contact_wide.h"
#include "dynamics/world_state.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>

/* The scene in a position-correction mode, on its lanes and workers (0: the calling thread). */
static cairn_world *scene_world(const thread_scene *scene, int mode, int lanes)
{
    cairn_world *world = scene->build();
    cr_assert_not_null(world, "%s: %s", scene->name, cairn_last_error());
    cairn_world_def def = cairn_world_get_def(world);
    def.solver.position_correction = mode;
    cr_assert(cairn_world_set_def(world, &def), "%s", cairn_last_error());
    world->solver_lanes = lanes;
    return world;
}

static uint64_t scene_hash(const thread_scene *scene, int mode, int lanes, int workers)
{
    cairn_world *world = scene_world(scene, mode, lanes);
    cairn_thread_pool *pool;
    cr_assert(thread_bind_pool(world, workers, &pool));
    uint64_t hash = thread_run(world, scene->steps, scene->action);
    cairn_world_destroy(world);
    cairn_thread_pool_destroy(pool);
    return hash;
}

static void same_for_every_width(const char *name, int mode)
{
    const thread_scene *scene = thread_scene_named(name);
    cr_assert_not_null(scene, "no thread scene named %s", name);
    uint64_t scalar = scene_hash(scene, mode, 1, 1);
    uint64_t four = scene_hash(scene, mode, 4, 1);
    cr_expect_eq(four, scalar, "%s (mode %d): 4 lanes %016" PRIx64 ", 1 lane %016" PRIx64, name,
                 mode, four, scalar);
    if (contact_wide_select(8) == NULL || contact_wide_select(8)->fused)
        return;
    uint64_t eight = scene_hash(scene, mode, 8, 1);
    cr_expect_eq(eight, scalar, "%s (mode %d): 8 lanes %016" PRIx64 ", 1 lane %016" PRIx64, name,
                 mode, eight, scalar);
}

Test(solver_lanes, the_pyramid_in_every_mode)
{
    same_for_every_width("pyramid", CAIRN_SOFT_STEP);
    same_for_every_width("pyramid", CAIRN_BAUMGARTE);
    same_for_every_width("pyramid", CAIRN_SPLIT_IMPULSE);
}

Test(solver_lanes, a_wall_smashed_by_a_fast_ball_in_every_mode)
{
    same_for_every_width("smash", CAIRN_SOFT_STEP);
    same_for_every_width("smash", CAIRN_BAUMGARTE);
    same_for_every_width("smash", CAIRN_SPLIT_IMPULSE);
}

Test(solver_lanes, two_thousand_mixed_shapes)
{
    same_for_every_width("rain", CAIRN_SOFT_STEP);
}

Test(solver_lanes, sleeping_islands_woken)
{
    same_for_every_width("sleepy stacks", CAIRN_SOFT_STEP);
}

Test(solver_lanes, compounds_ragdolls_and_a_heightfield)
{
    same_for_every_width("compounds", CAIRN_SOFT_STEP);
    same_for_every_width("ragdolls", CAIRN_SOFT_STEP);
    same_for_every_width("heightfield", CAIRN_SOFT_STEP);
}

/* Lanes and workers together: the build's default width on three workers against one lane on
   the calling thread. */
Test(solver_lanes, wide_lanes_on_several_workers)
{
    const thread_scene *scene = thread_scene_named("rain");
    cr_assert_not_null(scene);
    int lanes = contact_wide_select(0)->fused ? 4 : 0;
    uint64_t scalar = scene_hash(scene, CAIRN_SOFT_STEP, 1, 1);
    uint64_t wide = scene_hash(scene, CAIRN_SOFT_STEP, lanes, 3);
    cr_expect_eq(wide, scalar, "rain: %d lanes on 3 workers %016" PRIx64 ", 1 lane %016" PRIx64,
                 contact_wide_select(lanes)->lanes, wide, scalar);
}

/* The largest difference of any body's position or velocity between two worlds. */
static float largest_difference(cairn_world *a, cairn_world *b)
{
    cairn_body_id ids[4096];
    int count = cairn_world_bodies(a, ids, 4096);
    float largest = 0.0f;
    for (int i = 0; i < count; ++i) {
        cairn_transform ta = cairn_body_transform(a, ids[i]), tb = cairn_body_transform(b, ids[i]);
        vec3s va = cairn_body_linear_velocity(a, ids[i]),
              vb = cairn_body_linear_velocity(b, ids[i]);
        vec3s wa = cairn_body_angular_velocity(a, ids[i]);
        vec3s wb = cairn_body_angular_velocity(b, ids[i]);
        vec3s d[3] = {glms_vec3_sub(ta.position, tb.position), glms_vec3_sub(va, vb),
                      glms_vec3_sub(wa, wb)};
        for (int k = 0; k < 3; ++k)
            largest = fmaxf(largest, glms_vec3_norm(d[k]));
    }
    return largest;
}

/* Each width's step from the same state agrees with the scalar lanes' within 1e-5, in the
   pyramid after it has settled for a second (bit for bit in a deterministic build). */
Test(solver_lanes, one_step_from_the_same_state_agrees)
{
    const thread_scene *scene = thread_scene_named("pyramid");
    cr_assert_not_null(scene);
    const int widths[] = {4, 8};
    for (int i = 0; i < 2; ++i) {
        if (contact_wide_select(widths[i]) == NULL)
            continue;
        cairn_world *scalar = scene_world(scene, CAIRN_SOFT_STEP, 1);
        cairn_world *wide = scene_world(scene, CAIRN_SOFT_STEP, 1);
        for (int n = 0; n < 60; ++n) {
            cairn_world_step(scalar, 1.0f / 60.0f);
            cairn_world_step(wide, 1.0f / 60.0f);
        }
        wide->solver_lanes = widths[i];
        cairn_world_step(scalar, 1.0f / 60.0f);
        cairn_world_step(wide, 1.0f / 60.0f);
        float difference = largest_difference(scalar, wide);
        cr_expect_leq(difference, 1e-5f, "%d lanes: %g from the scalar lanes after one step",
                      widths[i], (double)difference);
        cairn_world_destroy(scalar);
        cairn_world_destroy(wide);
    }
}

/* Only the widths the kernel is built for, and 8 only where the processor runs AVX2. */
Test(solver_lanes, widths_offered)
{
    cr_expect_not_null(contact_wide_select(0));
    cr_expect_eq(contact_wide_select(1)->lanes, 1);
    cr_expect_eq(contact_wide_select(4)->lanes, 4);
    cr_expect_null(contact_wide_select(2));
    cr_expect_null(contact_wide_select(16));
    cr_expect_null(contact_wide_select(-1));
#if defined(__x86_64__)
    cr_expect_eq(contact_wide_select(8) != NULL, __builtin_cpu_supports("avx2") != 0);
#endif
}
