/* cairn_step_stats' per-worker times: each worker's time in the solver's parallel stages, and in
   the parallel parts of the broadphase, the narrow phase and the integration. Each lies within
   its stage's time, is zero for workers the world does not have, and with one worker is (nearly)
   the whole of its part. */
#include "threads/thread_scenes.h"

#include <criterion/criterion.h>
#include <math.h>

/* How much of the solve, the narrow phase and the integration the workers' parallel parts
   account for, the least of the three (the sums over the workers). */
static float worker_share(const cairn_step_stats *stats)
{
    const float *worker_ms[] = {stats->solver_worker_ms, stats->narrowphase_worker_ms,
                                stats->integrate_worker_ms};
    const float stage_ms[] = {stats->solver_ms, stats->narrowphase_ms, stats->integrate_ms};
    float least = INFINITY;
    for (int s = 0; s < 3; ++s) {
        float busy = 0.0f;
        for (int w = 0; w < CAIRN_MAX_WORKERS; ++w)
            busy += worker_ms[s][w];
        least = fminf(least, busy / fmaxf(stage_ms[s], 1e-6f));
    }
    return least;
}

/* The pyramid on the given workers (a pool when more than one): of its steps 3 to 8, the one
   whose stages were most in the workers' parallel parts. A step's times are wall clock, and a
   busy machine (a parallel build, CI running beside other work) can stop the thread for
   milliseconds in the serial part of any one step: CI saw 1.58 of 5.83 ms of solve on the
   worker in one. */
static cairn_step_stats pyramid_stats(int workers)
{
    cairn_world *world = thread_pyramid();
    cr_assert_not_null(world);
    cairn_thread_pool *pool;
    cr_assert(thread_bind_pool(world, workers, &pool));
    cairn_step_stats best = {0};
    float best_share = -1.0f;
    for (int n = 0; n < 8; ++n) {
        cairn_world_step(world, 1.0f / 60.0f);
        cairn_step_stats stats = cairn_world_step_stats(world);
        if (n >= 2 && worker_share(&stats) > best_share) {
            best_share = worker_share(&stats);
            best = stats;
        }
    }
    cairn_world_destroy(world);
    cairn_thread_pool_destroy(pool);
    return best;
}

typedef struct stage_times {
    const char *name;
    const float *worker_ms;
    float stage_ms; /* the stage's time, which holds the part the workers share */
} stage_times;

enum { STAGES = 4 };

static void stages_of(const cairn_step_stats *stats, stage_times stages[STAGES])
{
    stages[0] = (stage_times){"solver", stats->solver_worker_ms, stats->solver_ms};
    stages[1] = (stage_times){"broadphase", stats->broadphase_worker_ms, stats->broadphase_ms};
    stages[2] = (stage_times){"narrowphase", stats->narrowphase_worker_ms, stats->narrowphase_ms};
    stages[3] = (stage_times){"integration", stats->integrate_worker_ms, stats->integrate_ms};
}

static void expect_idle_beyond(const cairn_step_stats *stats, int workers)
{
    stage_times stages[STAGES];
    stages_of(stats, stages);
    for (int s = 0; s < STAGES; ++s)
        for (int w = workers; w < CAIRN_MAX_WORKERS; ++w)
            cr_expect_eq(stages[s].worker_ms[w], 0.0f, "%s, worker %d of %d: %g ms", stages[s].name,
                         w, workers, (double)stages[s].worker_ms[w]);
}

/* Each worker's time lies within its stage's (a worker runs its ranges one after another inside
   the stage), and some worker did the work. */
static void expect_within_stages(const cairn_step_stats *stats, int workers)
{
    stage_times stages[STAGES];
    stages_of(stats, stages);
    for (int s = 0; s < STAGES; ++s) {
        float total = 0.0f;
        for (int w = 0; w < workers; ++w) {
            float busy = stages[s].worker_ms[w];
            cr_expect_geq(busy, 0.0f, "%s, worker %d: %g ms", stages[s].name, w, (double)busy);
            cr_expect_leq(busy, stages[s].stage_ms * 1.001f + 1e-4f, "%s, worker %d: %g of %g ms",
                          stages[s].name, w, (double)busy, (double)stages[s].stage_ms);
            total += busy;
        }
        cr_expect_gt(total, 0.0f, "%s: no worker's time", stages[s].name);
    }
    for (int w = 0; w < workers; ++w)
        cr_expect_leq(stats->integrate_worker_ms[w], stats->solver_worker_ms[w] * 1.001f + 1e-4f,
                      "worker %d: integration %g ms beyond its solver time %g ms", w,
                      (double)stats->integrate_worker_ms[w], (double)stats->solver_worker_ms[w]);
}

Test(thread_stats, one_worker_spends_the_whole_solve)
{
    cairn_step_stats stats = pyramid_stats(1);
    float busy = stats.solver_worker_ms[0];
    cr_expect_gt(busy, 0.5f * stats.solver_ms, "%g of %g ms", (double)busy,
                 (double)stats.solver_ms);
    cr_expect_leq(busy, stats.solver_ms * 1.001f, "%g of %g ms", (double)busy,
                  (double)stats.solver_ms);
    expect_within_stages(&stats, 1);
    expect_idle_beyond(&stats, 1);
}

/* With one worker each part runs whole on the stepping thread: its time is most of its stage's
   (the rest is the serial code around it: the broadphase's tree, the narrow phase's events). */
Test(thread_stats, one_worker_spends_each_parallel_part)
{
    cairn_step_stats stats = pyramid_stats(1);
    cr_expect_gt(stats.integrate_worker_ms[0], 0.5f * stats.integrate_ms, "integration %g of %g ms",
                 (double)stats.integrate_worker_ms[0], (double)stats.integrate_ms);
    cr_expect_gt(stats.narrowphase_worker_ms[0], 0.5f * stats.narrowphase_ms,
                 "narrow phase %g of %g ms", (double)stats.narrowphase_worker_ms[0],
                 (double)stats.narrowphase_ms);
    cr_expect_gt(stats.broadphase_worker_ms[0], 0.0f);
}

Test(thread_stats, each_of_three_workers_within_each_stage)
{
    cairn_step_stats stats = pyramid_stats(3);
    cr_expect_eq(stats.workers, 3);
    expect_within_stages(&stats, 3);
    expect_idle_beyond(&stats, 3);
}

static vec3s vec3_of(float x, float y, float z)
{
    return (vec3s){{x, y, z}};
}

/* A world of boxes on a static ground, made from def, on `workers` workers: a stack of `high`
   boxes in each of the `wide` x `wide` places, 1.5 m apart. Its stats after 20 steps. */
static cairn_step_stats boxes_stats_with(cairn_world_def def, int workers, int wide, int high)
{
    cairn_world *world = cairn_world_create(&def);
    cr_assert_not_null(world);
    cairn_shape *ground = cairn_shape_box(vec3_of(40, 1, 40), 0.05f);
    cairn_shape *box = cairn_shape_box(vec3_of(0.5f, 0.5f, 0.5f), 0.05f);
    cairn_body_def box_def = cairn_body_default_def();
    box_def.type = CAIRN_STATIC;
    box_def.shape = ground;
    box_def.transform.position = vec3_of(0, -1, 0);
    cairn_body_create(world, &box_def);
    box_def.type = CAIRN_DYNAMIC;
    box_def.shape = box;
    box_def.allow_sleep = false;
    for (int x = 0; x < wide; ++x)
        for (int z = 0; z < wide; ++z)
            for (int y = 0; y < high; ++y) {
                box_def.transform.position =
                    vec3_of(1.5f * (float)x, 0.5f + (float)y, 1.5f * (float)z);
                cairn_body_create(world, &box_def);
            }
    cairn_thread_pool *pool;
    cr_assert(thread_bind_pool(world, workers, &pool));
    for (int n = 0; n < 20; ++n)
        cairn_world_step(world, 1.0f / 60.0f);
    cairn_step_stats stats = cairn_world_step_stats(world);
    cr_expect_eq(stats.workers, workers);
    cairn_world_destroy(world);
    cairn_thread_pool_destroy(pool);
    cairn_shape_release(ground);
    cairn_shape_release(box);
    return stats;
}

static cairn_step_stats boxes_stats(int workers, int wide, int high)
{
    return boxes_stats_with(cairn_world_default_def(), workers, wide, high);
}

static int solver_workers_of(int workers, int wide, int high)
{
    return boxes_stats(workers, wide, high).solver_workers;
}

/* The solve is shared only when most constraints lie in colours large enough to split: a wide
   layer of 400 boxes on the ground (one colour of 400 contacts) is; a tall stack (colours of
   one contact) is not, and neither is anything on one worker. */
Test(thread_stats, the_solve_is_shared_only_where_its_colours_are_large)
{
    cr_expect_eq(solver_workers_of(2, 20, 1), 2, "a wide layer");
    cr_expect_eq(solver_workers_of(3, 20, 1), 3, "a wide layer");
    cr_expect_eq(solver_workers_of(2, 1, 16), 1, "a tall stack");
    cr_expect_eq(solver_workers_of(1, 20, 1), 1, "one worker");
}

/* The narrow phase is handed to the workers only when the last step's took more than about
   twice what handing it out costs (contact.c): 144 boxes resting on the ground never are; the
   pyramid's first step, with no last step to go by, stays on the stepping thread, and its
   later steps (milliseconds of pairs) are handed out. Its bodies' bounds never are. */
Test(thread_stats, the_narrow_phase_is_shared_only_when_it_is_large)
{
    cairn_step_stats small = boxes_stats(2, 12, 1);
    cr_expect_gt(small.narrowphase_worker_ms[0], 0.0f);
    cr_expect_eq(small.narrowphase_worker_ms[1], 0.0f, "144 boxes: %g ms on worker 1",
                 (double)small.narrowphase_worker_ms[1]);
    cairn_world *world = thread_pyramid();
    cr_assert_not_null(world);
    cairn_thread_pool *pool;
    cr_assert(thread_bind_pool(world, 2, &pool));
    cairn_world_step(world, 1.0f / 60.0f);
    cairn_step_stats first = cairn_world_step_stats(world);
    cr_expect_eq(first.narrowphase_worker_ms[1], 0.0f, "first step: %g ms on worker 1",
                 (double)first.narrowphase_worker_ms[1]);
    /* offered to both workers from the second step; a worker thread asleep on this virtual
       machine sometimes wakes only after the other has taken both halves, so over a few steps */
    float shared = 0.0f, bounds_shared = 0.0f;
    for (int n = 0; n < 30 && shared == 0.0f; ++n) {
        cairn_world_step(world, 1.0f / 60.0f);
        cairn_step_stats stats = cairn_world_step_stats(world);
        shared = stats.narrowphase_worker_ms[1];
        bounds_shared += stats.broadphase_worker_ms[1];
    }
    cr_expect_gt(shared, 0.0f, "after %g ms of pairs, none shared",
                 (double)first.narrowphase_worker_ms[0]);
    /* 1,240 boxes' bounds are far under 1 ms (world.c): never shared */
    cr_expect_eq(bounds_shared, 0.0f, "the pyramid's bounds: %g ms on worker 1",
                 (double)bounds_shared);
    cairn_world_destroy(world);
    cairn_thread_pool_destroy(pool);
}

/* The soft step's stages, from its settings: the constraints' setup; in each substep a pass over
   the bodies' velocities, then the warm start, the velocity passes and the relax passes (at
   least one) over each colour in turn, then a pass moving the bodies; last, restitution over
   each colour. */
static int soft_step_stages(const cairn_solver_settings *settings, int colors)
{
    int substeps = settings->substeps;
    int velocity = (settings->velocity_iterations + substeps - 1) / substeps;
    int relax = (settings->position_iterations + substeps - 1) / substeps;
    int per_color = 1 + velocity + (relax > 0 ? relax : 1);
    return 1 + substeps * (2 + colors * per_color) + colors;
}

/* A stack of `high` boxes takes `high` colours (each contact the colour after the one below),
   whatever the number of stacks beside it; the stage count follows the colours and the settings.
   Two sets of settings, so that a count that ignores them fails. */
Test(thread_stats, the_solver_stages_are_its_passes_over_each_colour)
{
    cairn_world_def fewer = cairn_world_default_def();
    fewer.solver.substeps = 2;
    fewer.solver.velocity_iterations = 6;
    fewer.solver.position_iterations = 0;
    const cairn_world_def defs[] = {cairn_world_default_def(), fewer};
    for (int d = 0; d < 2; ++d)
        for (int high = 1; high <= 6; high += 5) {
            cairn_step_stats stats = boxes_stats_with(defs[d], 1, 3, high);
            cr_expect_eq(stats.colors, high, "settings %d, stacks of %d", d, high);
            cr_expect_eq(stats.solver_stages, soft_step_stages(&defs[d].solver, high),
                         "settings %d, stacks of %d", d, high);
            cr_expect_eq(stats.solver_shared_stages, 0, "one worker shares nothing");
        }
}

/* Shared stages are those the workers waited on: none when the solve stays on one worker (a
   tall stack on two), some but never more than all when it is shared (a wide layer). */
Test(thread_stats, the_shared_stages_are_those_the_workers_shared)
{
    cairn_step_stats tall = boxes_stats(2, 1, 16);
    cr_expect_eq(tall.solver_workers, 1);
    cr_expect_eq(tall.solver_shared_stages, 0);
    cr_expect_gt(tall.solver_stages, 16);
    cairn_step_stats wide = boxes_stats(2, 20, 1);
    cr_expect_eq(wide.solver_workers, 2);
    cr_expect_gt(wide.solver_shared_stages, 0);
    cr_expect_leq(wide.solver_shared_stages, wide.solver_stages);
}
