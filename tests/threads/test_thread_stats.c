/* cairn_step_stats.solver_worker_ms: each worker's time in the solver's parallel stages. It lies
   within the solver's time, is zero for workers the world does not have, and with one worker is
   the whole solve. */
#include "threads/thread_scenes.h"

#include <criterion/criterion.h>

/* The pyramid after a few steps on the given workers (a pool when more than one). */
static cairn_step_stats pyramid_stats(int workers)
{
    cairn_world *world = thread_pyramid();
    cr_assert_not_null(world);
    cairn_thread_pool *pool;
    cr_assert(thread_bind_pool(world, workers, &pool));
    for (int n = 0; n < 5; ++n)
        cairn_world_step(world, 1.0f / 60.0f);
    cairn_step_stats stats = cairn_world_step_stats(world);
    cairn_world_destroy(world);
    cairn_thread_pool_destroy(pool);
    return stats;
}

static void expect_idle_beyond(const cairn_step_stats *stats, int workers)
{
    for (int w = workers; w < CAIRN_MAX_WORKERS; ++w)
        cr_expect_eq(stats->solver_worker_ms[w], 0.0f, "worker %d of %d: %g ms", w, workers,
                     (double)stats->solver_worker_ms[w]);
}

Test(thread_stats, one_worker_spends_the_whole_solve)
{
    cairn_step_stats stats = pyramid_stats(1);
    float busy = stats.solver_worker_ms[0];
    cr_expect_gt(busy, 0.5f * stats.solver_ms, "%g of %g ms", (double)busy,
                 (double)stats.solver_ms);
    cr_expect_leq(busy, stats.solver_ms * 1.001f, "%g of %g ms", (double)busy,
                  (double)stats.solver_ms);
    expect_idle_beyond(&stats, 1);
}

Test(thread_stats, each_of_three_workers_within_the_solve)
{
    cairn_step_stats stats = pyramid_stats(3);
    cr_expect_eq(stats.workers, 3);
    float total = 0.0f;
    for (int w = 0; w < 3; ++w) {
        cr_expect_geq(stats.solver_worker_ms[w], 0.0f);
        cr_expect_leq(stats.solver_worker_ms[w], stats.solver_ms * 1.001f, "worker %d: %g of %g", w,
                      (double)stats.solver_worker_ms[w], (double)stats.solver_ms);
        total += stats.solver_worker_ms[w];
    }
    cr_expect_gt(total, 0.0f);
    expect_idle_beyond(&stats, 3);
}
