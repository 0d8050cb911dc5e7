/* Key-driven solver tuning within the ranges cairn_world_def_validate accepts. */
#include "tuning.h"

#include <stdio.h>

#define MAX_VELOCITY_ITERATIONS 100
#define MAX_SUBSTEPS            16

static bool step_int(int *value, int delta, int lo, int hi)
{
    int next = *value + delta;
    if (next < lo || next > hi) {
        return false;
    }
    *value = next;
    return true;
}

bool tuning_apply(cairn_solver_settings *s, tune_action action)
{
    switch (action) {
    case TUNE_ITERATIONS_UP:
        return step_int(&s->velocity_iterations, 1, 1, MAX_VELOCITY_ITERATIONS);
    case TUNE_ITERATIONS_DOWN:
        return step_int(&s->velocity_iterations, -1, 1, MAX_VELOCITY_ITERATIONS);
    case TUNE_SUBSTEPS_UP:
        return step_int(&s->substeps, 1, 1, MAX_SUBSTEPS);
    case TUNE_SUBSTEPS_DOWN:
        return step_int(&s->substeps, -1, 1, MAX_SUBSTEPS);
    case TUNE_CORRECTION:
        s->position_correction = (s->position_correction + 1) % 3;
        return true;
    case TUNE_WARM_STARTING:
        s->warm_starting = !s->warm_starting;
        return true;
    case TUNE_SIMPLEX_CACHING:
        s->simplex_caching = !s->simplex_caching;
        return true;
    case TUNE_NONE:
    default:
        return false;
    }
}

const char *tuning_correction_name(int mode)
{
    switch (mode) {
    case CAIRN_BAUMGARTE:
        return "baumgarte";
    case CAIRN_SPLIT_IMPULSE:
        return "split_impulse";
    case CAIRN_SOFT_STEP:
        return "soft_step";
    default:
        return "?";
    }
}

void tuning_format(const cairn_solver_settings *s, const char *note, char *out, size_t capacity)
{
    snprintf(out, capacity,
             "Solver%s%s\n"
             "velocity iterations %d   (I, Shift+I)\n"
             "position iterations %d\n"
             "substeps %d   (U, Shift+U)\n"
             "correction %s   (C)\n"
             "warm starting %s   (H)\n"
             "simplex caching %s   (X)\n"
             "contact %.0f Hz  damping %.1f  slop %.3f m",
             note[0] ? ": " : "", note, s->velocity_iterations, s->position_iterations, s->substeps,
             tuning_correction_name(s->position_correction), s->warm_starting ? "on" : "off",
             s->simplex_caching ? "on" : "off", (double)s->contact_hertz,
             (double)s->contact_damping_ratio, (double)s->linear_slop);
}
