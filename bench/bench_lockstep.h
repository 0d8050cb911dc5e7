/* Worlds of one scene stepped in lockstep on one thread, each with a variant of the solver that
   must give the same state bit for bit (lane widths, island group sizes): the state hashes are
   checked at every step, so each step's ratio of times compares the same work, and the medians
   of those ratios are the speed-ups over the first variant. The contact solver's time is the
   solver stage less integration. Header only, for bench_lanes and bench_groups; define
   _POSIX_C_SOURCE (199309L or later) before any system header, as for bench_util.h. */
#ifndef CAIRN_BENCH_LOCKSTEP_H
#define CAIRN_BENCH_LOCKSTEP_H

#include "bench_scenes.h"
#include "bench_util.h"

#include "dynamics/world_state.h"

#include <stdbool.h>

enum { LOCKSTEP_MAX_VARIANTS = 4 };

typedef struct lockstep_variant {
    const char *label;
    int lanes;           /* cairn_world.solver_lanes */
    int group_manifolds; /* cairn_world.solver_group_manifolds */
} lockstep_variant;

static inline cairn_world *lockstep_world(const scene_spec *spec, cairn_shape *const *shapes,
                                          const lockstep_variant *variant)
{
    cairn_world_def def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&def);
    if (world == NULL) {
        fprintf(stderr, "bench: world: %s\n", cairn_last_error());
        exit(1);
    }
    world->solver_lanes = variant->lanes;
    world->solver_group_manifolds = variant->group_manifolds;
    spec->build(world, shapes);
    return world;
}

typedef struct lockstep_samples {
    double *step_ms, *solve_ms, *step_ratio, *solve_ratio;
} lockstep_samples;

/* Steps the variants in lockstep and prints their medians. Returns the first step whose states
   differ, or -1. */
static inline int lockstep_compare(const scene_spec *spec, cairn_shape *const *shapes, int steps,
                                   const lockstep_variant *variants, int count)
{
    cairn_world *worlds[LOCKSTEP_MAX_VARIANTS] = {0};
    lockstep_samples s[LOCKSTEP_MAX_VARIANTS] = {0};
    for (int w = 0; w < count; ++w) {
        worlds[w] = lockstep_world(spec, shapes, &variants[w]);
        double *block = calloc((size_t)steps * 4, sizeof(double));
        s[w] = (lockstep_samples){block, block + steps, block + 2 * steps, block + 3 * steps};
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
    cairn_step_stats last = cairn_world_step_stats(worlds[count - 1]);
    printf("\n%s, %d steps: %d contacts, %d colours, %d island groups (last variant) at the end\n",
           spec->name, steps, last.contacts, last.colors, last.island_groups);
    for (int w = 0; w < count; ++w)
        printf("  %s: median ms per step %.3f, contact solver %.3f; speed-up over %s: step %.2fx, "
               "contact solver %.2fx\n",
               variants[w].label, bench_median(s[w].step_ms, steps),
               bench_median(s[w].solve_ms, steps), variants[0].label,
               bench_median(s[w].step_ratio, steps), bench_median(s[w].solve_ratio, steps));
    for (int w = 0; w < count; ++w) {
        free(s[w].step_ms);
        cairn_world_destroy(worlds[w]);
    }
    return mismatched;
}

#endif
