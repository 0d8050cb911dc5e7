/* The wide contact solver (issue 15): the same scenes with the solver's contacts in lanes of 1
   (scalar), 4 (SSE2) and 8 (AVX2, when the processor has it), worlds stepped in lockstep on one
   thread. The widths give the same state bit for bit (checked at every step), so each step's
   ratio of times compares the same work; the medians of those ratios are the speed-ups over the
   scalar lanes. The contact solver's time is the solver stage less integration (joints are
   scalar in every width, and these scenes have none). Usage: bench_lanes [steps]. */
#define _POSIX_C_SOURCE 199309L
#include "bench_lockstep.h"

#include "dynamics/contact_wide.h"

enum { DEFAULT_STEPS = 200 };

static const lockstep_variant widths[] = {{"1 lane", 1, 0}, {"4 lanes", 4, 0}, {"8 lanes", 8, 0}};

static void run_scene(const scene_spec *spec, cairn_shape *const *shapes, int steps, int count)
{
    int mismatched = lockstep_compare(spec, shapes, steps, widths, count);
    bool fused = count == 3 && contact_wide_select(8)->fused;
    printf("  state: %s\n", mismatched < 0 ? "the same for every width at every step"
                            : fused        ? "differs (8 lanes use FMA: CAIRN_DETERMINISTIC is off)"
                                           : "DIFFERS (a determinism bug)");
    if (mismatched >= 0)
        printf("  first different at step %d\n", mismatched);
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
