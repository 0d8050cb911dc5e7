/* The wide contact solver (issue 15): the same scenes with the solver's contacts in lanes of 1
   (scalar), 4 (SSE2) and 8 (AVX2, when the processor has it), worlds stepped in lockstep on one
   thread. The widths give the same state bit for bit (checked at every step), so each step's
   ratio of times compares the same work; the medians of those ratios are the speed-ups over the
   scalar lanes. The contact solver's time is the solver stage less integration (joints are
   scalar in every width, and these scenes have none). Usage: bench_lanes [steps]. */
#define _POSIX_C_SOURCE 199309L
#include "bench_scenes.h"
#include "bench_util.h"

#include "dynamics/contact_wide.h"
#include "dynamics/world_state.h"

enum { DEFAULT_STEPS = 200, WIDTHS = 3 };

static const int widths[WIDTHS] = {1, 4, 8};

static cairn_world *make_world(const scene_spec *spec, cairn_shape *const *shapes, int lanes)
{
    cairn_world_def def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&def);
    if (world == NULL) {
        fprintf(stderr, "bench_lanes: world: %s\n", cairn_last_error());
        exit(1);
    }
    world->solver_lanes = lanes;
    spec->build(world, shapes);
    return world;
}

typedef struct lane_samples {
    double *step_ms, *solve_ms, *step_ratio, *solve_ratio;
} lane_samples;

static void run_scene(const scene_spec *spec, cairn_shape *const *shapes, int steps, int count)
{
    cairn_world *worlds[WIDTHS] = {0};
    lane_samples s[WIDTHS] = {0};
    for (int w = 0; w < count; ++w) {
        worlds[w] = make_world(spec, shapes, widths[w]);
        double *block = calloc((size_t)steps * 4, sizeof(double));
        s[w] = (lane_samples){block, block + steps, block + 2 * steps, block + 3 * steps};
    }
    int mismatched = -1;
    for (int n = 0; n < steps; ++n) {
        for (int w = 0; w < count; ++w) {
            double start = bench_now_ms();
            cairn_world_step(worlds[w], 1.0f / 60.0f);
            s[w].step_ms[n] = bench_now_ms() - start;
            cairn_step_stats stats = cairn_world_step_stats(worlds[w]);
            s[w].solve_ms[n] = stats.solver_ms - stats.integrate_ms;
            s[w].step_ratio[n] = s[0].step_ms[n] / s[w].step_ms[n];
            s[w].solve_ratio[n] = s[0].solve_ms[n] / s[w].solve_ms[n];
            if (mismatched < 0 &&
                cairn_world_state_hash(worlds[w]) != cairn_world_state_hash(worlds[0]))
                mismatched = n;
        }
    }
    cairn_step_stats last = cairn_world_step_stats(worlds[0]);
    printf("\n%s, %d steps: %d contacts, %d colours at the end\n", spec->name, steps, last.contacts,
           last.colors);
    for (int w = 0; w < count; ++w) {
        printf("  %d lane%s: median ms per step %.3f, contact solver %.3f; speed-up over 1 lane: "
               "step %.2fx, contact solver %.2fx\n",
               widths[w], widths[w] > 1 ? "s" : " ", bench_median(s[w].step_ms, steps),
               bench_median(s[w].solve_ms, steps), bench_median(s[w].step_ratio, steps),
               bench_median(s[w].solve_ratio, steps));
    }
    bool fused = count == WIDTHS && contact_wide_select(8)->fused;
    printf("  state: %s\n", mismatched < 0 ? "the same for every width at every step"
                            : fused        ? "differs (8 lanes use FMA: CAIRN_DETERMINISTIC is off)"
                                           : "DIFFERS (a determinism bug)");
    if (mismatched >= 0)
        printf("  first different at step %d\n", mismatched);
    for (int w = 0; w < count; ++w) {
        free(s[w].step_ms);
        cairn_world_destroy(worlds[w]);
    }
}

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : DEFAULT_STEPS;
    if (steps < 1) {
        fprintf(stderr, "usage: %s [steps >= 1] (default %d)\n", argv[0], DEFAULT_STEPS);
        return 2;
    }
    int count = contact_wide_select(8) ? 3 : 2;
    cairn_shape *shapes[BENCH_SCENE_SHAPES];
    bench_scene_shapes(shapes);
    printf("bench_lanes: default settings, sleeping off, 60 Hz, one thread; the build's default "
           "is %d lanes; %s\n",
           contact_wide_select(0)->lanes,
           count == 3 ? "this processor runs 8 lanes" : "this processor has no AVX2: 1 and 4");
    for (size_t i = 0; i < sizeof scenes / sizeof scenes[0]; ++i)
        run_scene(&scenes[i], shapes, steps, count);
    for (int i = 0; i < BENCH_SCENE_SHAPES; ++i)
        cairn_shape_release(shapes[i]);
    return 0;
}
