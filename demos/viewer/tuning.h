/* Live tuning of the solver settings from the keyboard, and the panel that shows them. */
#ifndef CAIRN_DEMO_TUNING_H
#define CAIRN_DEMO_TUNING_H

#include <cairn/cairn.h>
#include <stddef.h>

typedef enum tune_action {
    TUNE_NONE,
    TUNE_ITERATIONS_UP,   /* I */
    TUNE_ITERATIONS_DOWN, /* Shift+I */
    TUNE_SUBSTEPS_UP,     /* U */
    TUNE_SUBSTEPS_DOWN,   /* Shift+U */
    TUNE_CORRECTION,      /* C: Baumgarte -> split impulse -> soft step */
    TUNE_WARM_STARTING,   /* H */
    TUNE_SIMPLEX_CACHING, /* X */
} tune_action;

/* Changes one setting within its documented range; false when it was already at the limit. */
bool tuning_apply(cairn_solver_settings *s, tune_action action);
/* The panel: the effective solver settings and the keys that change them. */
void tuning_format(const cairn_solver_settings *s, const char *note, char *out, size_t capacity);
const char *tuning_correction_name(int mode);

#endif
