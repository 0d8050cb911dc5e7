/* Fixed 60 Hz stepping driven by a real-time accumulator, with pause and single step, and the
   step timings for the summary. */
#ifndef CAIRN_DEMO_SIM_CLOCK_H
#define CAIRN_DEMO_SIM_CLOCK_H

#include <cairn/cairn.h>

#define SIM_DT                  (1.0 / 60.0)
#define SIM_MAX_STEPS_PER_FRAME 4

/* Called around every step (the drag spring before it, the stats graph after it). */
typedef void sim_step_fn(void *user, cairn_world *world, float dt);

typedef struct sim_clock {
    double accumulator; /* seconds of elapsed time not simulated yet */
    bool paused;
    bool step_once;  /* one step at the next advance, even while paused */
    int steps;       /* steps taken since the last reset */
    double total_ms; /* sum of cairn_step_stats.total_ms over those steps */
    float last_step_ms;
    float time_scale; /* simulated seconds per real second ([ and ]); 0 is taken as 1 */
    sim_step_fn *before_step, *after_step; /* may be NULL */
    void *user;
} sim_clock;

/* Adds elapsed seconds (times time_scale) and takes the whole steps they cover (at most
   SIM_MAX_STEPS_PER_FRAME times the fast-forward factor; a longer stall is dropped, not caught
   up). Paused: only a requested single step. Returns the
   number of steps taken. */
int sim_clock_advance(sim_clock *c, cairn_world *world, double elapsed);
/* Forgets the accumulated time and statistics; keeps paused, the time scale and the hooks. */
void sim_clock_reset(sim_clock *c);
/* Mean cairn_step_stats.total_ms over the steps since the reset; 0 before the first. */
double sim_clock_mean_step_ms(const sim_clock *c);

#endif
