/* Island groups of the contact solver (issue 15's scaling): the same scenes solved with every
   island in one group, all of the step's constraints pass after pass, against the default groups
   (at most 8,192 manifolds, and one group for a step of fewer than 16,384) and groups of at most
   2,048, each group through all its passes before the next, while its constraints are in the
   caches. Worlds stepped in lockstep on one thread; the
   grouping gives the same state bit for bit (checked at every step). The ten pyramids are ten
   islands; the single pyramid is one island, so its grouping cannot change. Usage: bench_groups
   [steps]. */
#define _POSIX_C_SOURCE 199309L
#include "bench_lockstep.h"

enum { DEFAULT_STEPS = 120 };

static const lockstep_variant sizes[] = {
    {"one group", 0, INT32_MAX}, {"default groups", 0, 0}, {"groups of 2,048", 0, 2048}};

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : DEFAULT_STEPS;
    if (steps < 1) {
        fprintf(stderr, "usage: %s [steps >= 1] (default %d)\n", argv[0], DEFAULT_STEPS);
        return 2;
    }
    cairn_shape *shapes[BENCH_SCENE_SHAPES];
    bench_scene_shapes(shapes);
    printf("bench_groups: default settings, sleeping off, 60 Hz, one thread, the build's default "
           "lanes\n");
    int status = 0;
    for (size_t i = 0; i < sizeof scenes / sizeof scenes[0]; ++i) {
        int mismatched = lockstep_compare(&scenes[i], shapes, steps, sizes, 3);
        printf("  state: %s\n", mismatched < 0 ? "the same for every grouping at every step"
                                               : "DIFFERS (a determinism bug)");
        if (mismatched >= 0) {
            printf("  first different at step %d\n", mismatched);
            status = 1;
        }
    }
    for (int i = 0; i < BENCH_SCENE_SHAPES; ++i)
        cairn_shape_release(shapes[i]);
    return status;
}
