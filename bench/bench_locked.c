/* The cost of locked translation axes: each scene of bench_scenes.h stepped twice in lockstep on
   one thread, once free and once with every dynamic body held along z (cairn_body_set_locked_
   translation): its contacts' batches then run the solver passes that zero the locked velocities.
   The two worlds move apart (the held bodies cannot move along z), so a step's ratio compares the
   same scene, not the same work; the medians of the ratios over the steps are printed. Usage:
   bench_locked [steps] (default 200). */
#define _POSIX_C_SOURCE 199309L
#include "bench_scenes.h"
#include "bench_util.h"

enum { DEFAULT_STEPS = 200, MAX_BODIES = 16384 };

static cairn_world *scene_world(const scene_spec *spec, cairn_shape *const *shapes, bool held)
{
    cairn_world_def def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&def);
    if (world == NULL) {
        fprintf(stderr, "bench_locked: world: %s\n", cairn_last_error());
        exit(1);
    }
    spec->build(world, shapes);
    static cairn_body_id ids[MAX_BODIES];
    int count = cairn_world_bodies(world, ids, MAX_BODIES);
    for (int i = 0; i < count && held; ++i)
        if (cairn_body_get_type(world, ids[i]) == CAIRN_DYNAMIC)
            cairn_body_set_locked_translation(world, ids[i], CAIRN_LOCK_TRANSLATION_Z);
    return world;
}

/* The contact solver's time: the solver stage less integration. */
static double contact_solver_ms(const cairn_world *world)
{
    cairn_step_stats stats = cairn_world_step_stats(world);
    return stats.solver_ms - stats.integrate_ms;
}

static void run_scene(const scene_spec *spec, cairn_shape *const *shapes, int steps)
{
    cairn_world *free_world = scene_world(spec, shapes, false);
    cairn_world *held_world = scene_world(spec, shapes, true);
    double *samples = calloc((size_t)steps * 6, sizeof(double));
    double *free_solve = samples, *held_solve = samples + steps, *solve_ratio = samples + 2 * steps;
    double *free_step = samples + 3 * steps, *held_step = samples + 4 * steps;
    double *step_ratio = samples + 5 * steps;
    for (int n = 0; n < steps; ++n) {
        double start = bench_now_ms();
        cairn_world_step(free_world, 1.0f / 60.0f);
        double middle = bench_now_ms();
        cairn_world_step(held_world, 1.0f / 60.0f);
        free_step[n] = middle - start;
        held_step[n] = bench_now_ms() - middle;
        free_solve[n] = contact_solver_ms(free_world);
        held_solve[n] = contact_solver_ms(held_world);
        step_ratio[n] = held_step[n] / free_step[n];
        solve_ratio[n] = held_solve[n] / free_solve[n];
    }
    printf("\n%s, %d steps: %d and %d contacts at the end\n", spec->name, steps,
           cairn_world_step_stats(free_world).contacts,
           cairn_world_step_stats(held_world).contacts);
    printf("  free: median ms per step %.3f, contact solver %.3f\n", bench_median(free_step, steps),
           bench_median(free_solve, steps));
    printf("  held along z: median ms per step %.3f, contact solver %.3f\n",
           bench_median(held_step, steps), bench_median(held_solve, steps));
    printf("  held / free, medians of the steps' ratios: step %.2fx, contact solver %.2fx\n",
           bench_median(step_ratio, steps), bench_median(solve_ratio, steps));
    free(samples);
    cairn_world_destroy(free_world);
    cairn_world_destroy(held_world);
}

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : DEFAULT_STEPS;
    if (steps < 1) {
        fprintf(stderr, "usage: %s [steps >= 1] (default %d)\n", argv[0], DEFAULT_STEPS);
        return 2;
    }
    cairn_shape *shapes[BENCH_SCENE_SHAPES];
    bench_scene_shapes(shapes);
    printf("bench_locked: default settings, sleeping off, 60 Hz, one thread; every dynamic body "
           "free, then held along z\n");
    for (size_t i = 0; i < sizeof scenes / sizeof scenes[0]; ++i)
        if (scenes[i].build != NULL)
            run_scene(&scenes[i], shapes, steps);
    for (int i = 0; i < BENCH_SCENE_SHAPES; ++i)
        cairn_shape_release(shapes[i]);
    return 0;
}
