/* What it costs two workers to hand work to each other on this machine, and what that allows
   a tall island such as the 1,240-box pyramid on two workers (issue 15's goal: 1.8 times its
   one-worker speed).

   1. A cache line's trip between two threads on two CPUs (a ping-pong of one atomic word): the
      least any handoff costs, as the second core must see what the first one wrote.
   2. A short stage of the solver's team (core/team.h) on two workers, a block of 1 µs each:
      what one colour's publish, claims and wait cost beyond the work.
   3. The pyramid on one worker: its step, its solve and its solver stages (cairn_step_stats).
      The order-keeping colours give it about 127 colours, each passed over 17 times a step.

   The bound: sharing each stage between two workers, a step takes at least half of one
   worker's whole step (every part perfectly halved, which is generous) plus, for each stage,
   one wait: at least one cache line's trip (the floor), or the team's measured overhead.
   Usage: bench_handoff [pyramid steps]. */
#define _GNU_SOURCE /* pthread_setaffinity_np: the two threads on two different CPUs */
#include "bench_scenes.h"
#include "bench_util.h"
#include "core/team.h"

#include <cairn/thread_pool.h>

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

/* Issue 15's goal for the pyramid on two workers, times its one-worker speed. */
#define GOAL 1.8

enum {
    DEFAULT_STEPS = 200,
    REPEATS = 7,          /* each measurement's runs; the median is printed */
    ROUND_TRIPS = 200000, /* ping-pongs per run */
    STAGES_PER_RUN = 20000,
    BLOCK_NS = 1000,   /* the work of a block of a stage */
    SETTLE_STEPS = 60, /* the pyramid's first steps, not measured (its colours grow) */
    TWO_WORKERS = 2,
};

typedef struct ping_pong {
    _Alignas(64) _Atomic int turn; /* odd: the ponger's turn; even: the pinger's */
    bool pinned;
} ping_pong;

/* The calling thread on cpu, when the system lets it: unpinned, the scheduler may put both
   threads on one CPU for a while, and the trips would then be free or very slow. */
static bool pin_to(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

static void *pong(void *context)
{
    ping_pong *game = context;
    game->pinned = pin_to(1) && game->pinned;
    for (int i = 0; i < ROUND_TRIPS; ++i) {
        while (atomic_load_explicit(&game->turn, memory_order_acquire) != 2 * i + 1)
            ;
        atomic_store_explicit(&game->turn, 2 * i + 2, memory_order_release);
    }
    return NULL;
}

/* Nanoseconds of one trip of a cache line from one CPU to the other (half a round trip);
 *pinned says whether both threads could be pinned. */
static double one_way_ns(bool *pinned)
{
    /* The caller's CPUs come back afterwards: threads it starts later inherit them. */
    cpu_set_t caller_cpus;
    bool restorable = pthread_getaffinity_np(pthread_self(), sizeof caller_cpus, &caller_cpus) == 0;
    ping_pong game = {.pinned = pin_to(0)};
    atomic_init(&game.turn, 0);
    pthread_t thread;
    if (pthread_create(&thread, NULL, pong, &game) != 0) {
        fprintf(stderr, "bench_handoff: cannot start a thread\n");
        exit(1);
    }
    double start = bench_now_ns();
    for (int i = 0; i < ROUND_TRIPS; ++i) {
        atomic_store_explicit(&game.turn, 2 * i + 1, memory_order_release);
        while (atomic_load_explicit(&game.turn, memory_order_acquire) != 2 * i + 2)
            ;
    }
    double elapsed = bench_now_ns() - start;
    pthread_join(thread, NULL);
    if (restorable)
        pthread_setaffinity_np(pthread_self(), sizeof caller_cpus, &caller_cpus);
    *pinned = game.pinned;
    return elapsed / ROUND_TRIPS / 2.0;
}

/* Each block of a stage works for BLOCK_NS: long enough that each worker takes its own block
   (an empty block would be taken by whichever worker came first, and the stage would then cost
   no handoff at all), short like a colour of the pyramid. */
static void work_a_while(void *context, int start, int end, int worker)
{
    (void)context, (void)start, (void)end, (void)worker;
    double until = bench_now_ns() + BLOCK_NS;
    while (bench_now_ns() < until)
        ;
}

/* The team's program: stages of one block per worker (each claims its own share first). */
static void short_stages(team *t, void *context)
{
    (void)context;
    for (int i = 0; i < STAGES_PER_RUN; ++i)
        team_stage_run_blocks(t, TEAM_CONSTRAINTS, work_a_while, NULL, t->workers, 1);
}

/* Nanoseconds a stage of the team on the pool's workers takes beyond its blocks' work: the
   publishing, the claims and the wait for the last block. */
static double stage_overhead_ns(cairn_thread_pool *pool)
{
    cairn_world_def def = cairn_world_default_def();
    cairn_thread_pool_bind(pool, &def);
    double start = bench_now_ns();
    team_run(&def, true, short_stages, NULL, (team_times){0});
    return (bench_now_ns() - start) / STAGES_PER_RUN - BLOCK_NS;
}

typedef struct pyramid_figures {
    double step_ms, solver_ms, stages, colors;
} pyramid_figures;

/* The pyramid on one worker: medians of its step, its solve and its solver stages. */
static pyramid_figures pyramid_on_one_worker(int steps)
{
    cairn_shape *shapes[BENCH_SCENE_SHAPES];
    bench_scene_shapes(shapes);
    cairn_world_def def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&def);
    if (world == NULL) {
        fprintf(stderr, "bench_handoff: world: %s\n", cairn_last_error());
        exit(1);
    }
    one_pyramid(world, shapes);
    for (int i = 0; i < SETTLE_STEPS; ++i)
        cairn_world_step(world, 1.0f / 60.0f);
    double *step = malloc(sizeof(double) * 4 * (size_t)steps);
    if (step == NULL)
        exit(1);
    double *solver = step + steps, *stages = solver + steps, *colors = stages + steps;
    for (int i = 0; i < steps; ++i) {
        cairn_world_step(world, 1.0f / 60.0f);
        cairn_step_stats stats = cairn_world_step_stats(world);
        step[i] = stats.total_ms;
        solver[i] = stats.solver_ms;
        stages[i] = stats.solver_stages;
        colors[i] = stats.colors;
    }
    pyramid_figures figures = {bench_median(step, steps), bench_median(solver, steps),
                               bench_median(stages, steps), bench_median(colors, steps)};
    free(step);
    cairn_world_destroy(world);
    for (int i = 0; i < BENCH_SCENE_SHAPES; ++i)
        cairn_shape_release(shapes[i]);
    return figures;
}

/* The best speed-up two workers could reach over one, each stage costing wait_ns. */
static double speed_up_bound(const pyramid_figures *one, double wait_ns)
{
    return one->step_ms / (0.5 * one->step_ms + one->stages * wait_ns * 1e-6);
}

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : DEFAULT_STEPS;
    if (steps < 1) {
        fprintf(stderr, "usage: %s [pyramid steps >= 1] (default %d)\n", argv[0], DEFAULT_STEPS);
        return 2;
    }
    /* the trips first, before the pool's threads exist to compete for the CPUs */
    double trip[REPEATS], stage[REPEATS];
    bool pinned = true;
    for (int r = 0; r < REPEATS; ++r) {
        bool run_pinned;
        trip[r] = one_way_ns(&run_pinned);
        pinned = pinned && run_pinned;
    }
    cairn_thread_pool *pool = cairn_thread_pool_create(TWO_WORKERS);
    if (pool == NULL) {
        fprintf(stderr, "bench_handoff: %s\n", cairn_thread_pool_last_error());
        return 1;
    }
    for (int r = 0; r < REPEATS; ++r)
        stage[r] = stage_overhead_ns(pool);
    cairn_thread_pool_destroy(pool);
    double trip_ns = bench_median(trip, REPEATS), stage_ns = bench_median(stage, REPEATS);
    printf("bench_handoff: medians of %d runs\n", REPEATS);
    printf("  a cache line from one CPU to the other: %.0f ns (threads %s)\n", trip_ns,
           pinned ? "pinned to CPUs 0 and 1" : "NOT pinned: the figure may be meaningless");
    printf("  a solver stage on 2 workers, beyond its work (a block of %d ns each): %.0f ns\n",
           BLOCK_NS, stage_ns);

    pyramid_figures one = pyramid_on_one_worker(steps);
    printf("pyramid (1,240 boxes), one worker, %d steps after %d: step %.3f ms, solver %.3f ms, "
           "%.0f colours, %.0f solver stages a step (%.0f ns of solve each)\n",
           steps, SETTLE_STEPS, one.step_ms, one.solver_ms, one.colors, one.stages,
           one.solver_ms * 1e6 / one.stages);
    printf("  the best two workers sharing every stage could do (the step halved, plus a wait per "
           "stage):\n");
    printf("    a cache line's trip per stage: %.3f ms, %.2fx one worker\n",
           0.5 * one.step_ms + one.stages * trip_ns * 1e-6, speed_up_bound(&one, trip_ns));
    printf("    the team's stage overhead per stage: %.3f ms, %.2fx one worker\n",
           0.5 * one.step_ms + one.stages * stage_ns * 1e-6, speed_up_bound(&one, stage_ns));
    /* The stages a step may have for the goal at the floor, and the colours that makes at the
       pyramid's stages per colour. */
    double most_stages = (one.step_ms / GOAL - 0.5 * one.step_ms) * 1e6 / trip_ns;
    printf("  issue 15's goal, %.2fx, allows at most %.0f stages a step at a cache line's trip "
           "each: %.0f colours at the pyramid's %.1f stages per colour\n",
           GOAL, most_stages, most_stages * one.colors / one.stages, one.stages / one.colors);
    return 0;
}
