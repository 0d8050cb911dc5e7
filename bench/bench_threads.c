/* Multi-threaded step (issue 15): ms per step on 1 and on T workers of the thread pool for Jolt's
   1,240-box pyramid, ten pyramids side by side (12,400 boxes), a 10,000-shape falling pile, the
   same pile once it has landed (a large heap is one island: what a game's debris costs while
   awake) and the demo's 40 ragdolls (jointed).
   The two worlds are stepped in lockstep, one step each in turn: they hold the same state at
   every step (the step is deterministic for every worker count, which this checks), so each
   step's ratio compares like with like, and the median of the ratios is the speed-up. Wall
   clock: the point of threads is the time the caller waits. Usage: bench_threads [steps] [T]. */
#define _POSIX_C_SOURCE 199309L
#include "bench_scenes.h"
#include "bench_util.h"

#include <cairn/cairn.h>
#include <cairn/io.h>
#include <cairn/thread_pool.h>

#include <stdio.h>
#include <stdlib.h>

enum { DEFAULT_STEPS = 300, STAGES = 5, PARTS = 4 };

/* Steps before the settled pile is measured: by then its shapes have landed (its contacts stop
   growing at about step 180) and lie in one heap. */
enum { PILE_SETTLE_STEPS = 300 };

static const char *const stage_names[STAGES] = {"broadphase", "narrowphase", "solver", "integrate",
                                                "islands"};

/* A scene file's world on the pool's workers, sleeping off like the built scenes. */
static cairn_world *load_world(const char *path, cairn_thread_pool *pool)
{
    cairn_world *world = NULL;
    cairn_io_error err;
    if (!cairn_scene_load(path, &world, &err)) {
        fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line, err.column, err.message);
        exit(1);
    }
    cairn_world_def def = cairn_world_get_def(world);
    cairn_thread_pool_bind(pool, &def);
    int count = cairn_world_body_count(world);
    cairn_body_id *ids = malloc(sizeof *ids * (size_t)count);
    if (ids == NULL || !cairn_world_set_def(world, &def)) {
        fprintf(stderr, "bench_threads: %s: %s\n", path, cairn_last_error());
        exit(1);
    }
    count = cairn_world_bodies(world, ids, count);
    for (int i = 0; i < count; ++i)
        if (cairn_body_get_type(world, ids[i]) == CAIRN_DYNAMIC)
            cairn_body_set_allow_sleep(world, ids[i], false);
    free(ids);
    return world;
}

static cairn_world *make_world(const scene_spec *spec, cairn_shape *const *shapes,
                               cairn_thread_pool *pool)
{
    if (spec->file)
        return load_world(spec->file, pool);
    cairn_world_def def = cairn_world_default_def();
    cairn_thread_pool_bind(pool, &def);
    cairn_world *world = cairn_world_create(&def);
    if (world == NULL) {
        fprintf(stderr, "bench_threads: world: %s\n", cairn_last_error());
        exit(1);
    }
    spec->build(world, shapes);
    return world;
}

/* The falling pile again, measured once it has landed. */
static const scene_spec settled_pile = {"settled pile (the falling pile, landed)", falling_pile,
                                        NULL};

/* Joints on the workers: the 40 ragdolls of the demo falling down its stairs. */
static const scene_spec jointed = {"40 ragdolls (demos/scenes/ragdolls.yaml, 400 joints)", NULL,
                                   CAIRN_SOURCE_DIR "/demos/scenes/ragdolls.yaml"};

static void stage_times(const cairn_step_stats *s, double *out)
{
    out[0] = s->broadphase_ms;
    out[1] = s->narrowphase_ms;
    out[2] = s->solver_ms - s->integrate_ms;
    out[3] = s->integrate_ms;
    out[4] = s->islands_ms;
}

/* The stages' parallel parts, whose time the step reports per worker. */
static const char *const part_names[PARTS] = {"bounds", "narrowphase", "constraints", "integrate"};

static double part_time(const cairn_step_stats *s, int part, int worker)
{
    switch (part) {
    case 0:
        return s->broadphase_worker_ms[worker];
    case 1:
        return s->narrowphase_worker_ms[worker];
    case 2:
        return s->solver_worker_ms[worker] - s->integrate_worker_ms[worker];
    default:
        return s->integrate_worker_ms[worker];
    }
}

typedef struct samples {
    double *ms[2], *ratio, *stage[2][STAGES];
    double *busy[PARTS][CAIRN_MAX_WORKERS]; /* the T-worker world's time per part and worker */
} samples;

static void print_parts(samples *s, int workers, int steps)
{
    printf("  %d workers, median ms per worker in each stage's parallel part:\n", workers);
    for (int p = 0; p < PARTS; ++p) {
        printf("    %-12s", part_names[p]);
        for (int k = 0; k < workers; ++k)
            printf(" %.3f", bench_median(s->busy[p][k], steps));
        printf("\n");
    }
}

/* Steps both worlds settle times, unmeasured; returns the first step at which their states
   differ, or -1. */
static int settle_worlds(cairn_world *worlds[2], int settle)
{
    for (int n = 0; n < settle; ++n) {
        cairn_world_step(worlds[0], 1.0f / 60.0f);
        cairn_world_step(worlds[1], 1.0f / 60.0f);
        if (cairn_world_state_hash(worlds[0]) != cairn_world_state_hash(worlds[1]))
            return n;
    }
    return -1;
}

/* The scene's worlds on 1 and T workers, measured over steps after settle steps unmeasured. */
static void run_scene(const scene_spec *spec, cairn_shape *const *shapes, int settle, int steps,
                      cairn_thread_pool *pools[2])
{
    cairn_world *worlds[2] = {make_world(spec, shapes, pools[0]),
                              make_world(spec, shapes, pools[1])};
    samples s;
    s.ratio = calloc((size_t)steps, sizeof(double));
    for (int w = 0; w < 2; ++w) {
        s.ms[w] = calloc((size_t)steps, sizeof(double));
        for (int k = 0; k < STAGES; ++k)
            s.stage[w][k] = calloc((size_t)steps, sizeof(double));
    }
    int workers = cairn_thread_pool_workers(pools[1]);
    for (int p = 0; p < PARTS; ++p)
        for (int k = 0; k < workers; ++k)
            s.busy[p][k] = calloc((size_t)steps, sizeof(double));
    int mismatched = settle_worlds(worlds, settle);
    cairn_step_stats last = {0};
    for (int n = 0; n < steps; ++n) {
        for (int w = 0; w < 2; ++w) {
            double start = bench_now_ms();
            cairn_world_step(worlds[w], 1.0f / 60.0f);
            s.ms[w][n] = bench_now_ms() - start;
            cairn_step_stats stats = cairn_world_step_stats(worlds[w]);
            double times[STAGES];
            stage_times(&stats, times);
            for (int k = 0; k < STAGES; ++k)
                s.stage[w][k][n] = times[k];
            for (int p = 0; p < PARTS && w == 1; ++p)
                for (int k = 0; k < workers; ++k)
                    s.busy[p][k][n] = part_time(&stats, p, k);
            last = stats;
        }
        s.ratio[n] = s.ms[0][n] / s.ms[1][n];
        if (mismatched < 0 &&
            cairn_world_state_hash(worlds[0]) != cairn_world_state_hash(worlds[1]))
            mismatched = settle + n;
    }
    printf("\n%s, %d steps", spec->name, steps);
    if (settle > 0)
        printf(" after %d unmeasured", settle);
    printf(": %d contacts, %d colours, %d overflow, %d island groups (%s) at the "
           "end, %d workers\n",
           last.contacts, last.colors, last.overflow_contacts, last.island_groups,
           last.island_groups_shared ? "taken whole" : "colours shared", workers);
    printf("  median ms per step: 1 worker %.3f, %d workers %.3f; speed-up (median of per-step "
           "ratios) %.2fx\n",
           bench_median(s.ms[0], steps), workers, bench_median(s.ms[1], steps),
           bench_median(s.ratio, steps));
    for (int w = 0; w < 2; ++w) {
        printf("  stages, %d worker%s (median ms):", w ? workers : 1, w && workers > 1 ? "s" : "");
        for (int k = 0; k < STAGES; ++k)
            printf(" %s %.3f", stage_names[k], bench_median(s.stage[w][k], steps));
        printf("\n");
    }
    print_parts(&s, workers, steps);
    for (int p = 0; p < PARTS; ++p)
        for (int k = 0; k < workers; ++k)
            free(s.busy[p][k]);
    printf("  state: %s\n",
           mismatched < 0 ? "the same on both at every step" : "DIFFERS (a determinism bug)");
    if (mismatched >= 0)
        printf("  first different at step %d\n", mismatched);
    for (int w = 0; w < 2; ++w) {
        free(s.ms[w]);
        for (int k = 0; k < STAGES; ++k)
            free(s.stage[w][k]);
        cairn_world_destroy(worlds[w]);
    }
    free(s.ratio);
}

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : DEFAULT_STEPS;
    int threads = argc > 2 ? atoi(argv[2]) : 2;
    if (steps < 1 || threads < 2 || threads > CAIRN_MAX_WORKERS) {
        fprintf(stderr, "usage: %s [steps >= 1] [threads in [2, %d]] (default %d 2)\n", argv[0],
                CAIRN_MAX_WORKERS, DEFAULT_STEPS);
        return 2;
    }
    cairn_thread_pool *pools[2] = {cairn_thread_pool_create(1), cairn_thread_pool_create(threads)};
    if (!pools[0] || !pools[1]) {
        fprintf(stderr, "bench_threads: %s\n", cairn_thread_pool_last_error());
        return 1;
    }
    cairn_shape *shapes[BENCH_SCENE_SHAPES];
    bench_scene_shapes(shapes);
    printf("bench_threads: default settings, sleeping off, 60 Hz, worlds stepped in lockstep on "
           "1 and %d workers (cairn_thread_pool)\n",
           threads);
    for (size_t i = 0; i < sizeof scenes / sizeof scenes[0]; ++i)
        run_scene(&scenes[i], shapes, 0, steps, pools);
    run_scene(&settled_pile, shapes, PILE_SETTLE_STEPS, steps, pools);
    run_scene(&jointed, shapes, 0, steps, pools);
    for (int i = 0; i < BENCH_SCENE_SHAPES; ++i)
        cairn_shape_release(shapes[i]);
    cairn_thread_pool_destroy(pools[1]);
    cairn_thread_pool_destroy(pools[0]);
    return 0;
}
