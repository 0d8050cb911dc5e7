/* The fixed-step accumulator: real frame time in, whole 1/60 s world steps out. */
#include "sim_clock.h"

static void take_step(sim_clock *c, cairn_world *world)
{
    if (c->before_step) {
        c->before_step(c->user, world, (float)SIM_DT);
    }
    cairn_world_step(world, (float)SIM_DT);
    if (c->after_step) {
        c->after_step(c->user, world, (float)SIM_DT);
    }
    c->last_step_ms = cairn_world_step_stats(world).total_ms;
    c->total_ms += c->last_step_ms;
    ++c->steps;
}

int sim_clock_advance(sim_clock *c, cairn_world *world, double elapsed)
{
    if (c->paused) {
        c->accumulator = 0.0;
        bool once = c->step_once;
        c->step_once = false;
        if (once) {
            take_step(c, world);
        }
        return once ? 1 : 0;
    }
    c->step_once = false;
    double scale = c->time_scale > 0.0f ? c->time_scale : 1.0;
    int max_steps = SIM_MAX_STEPS_PER_FRAME * (scale > 1.0 ? (int)scale : 1);
    c->accumulator += elapsed * scale;
    int taken = 0;
    while (c->accumulator >= SIM_DT && taken < max_steps) {
        take_step(c, world);
        c->accumulator -= SIM_DT;
        ++taken;
    }
    if (c->accumulator >= SIM_DT) {
        c->accumulator = 0.0; /* too slow to keep up: run in slow motion rather than spiral */
    }
    return taken;
}

void sim_clock_reset(sim_clock *c)
{
    *c = (sim_clock){.paused = c->paused,
                     .time_scale = c->time_scale,
                     .before_step = c->before_step,
                     .after_step = c->after_step,
                     .user = c->user};
}

double sim_clock_mean_step_ms(const sim_clock *c)
{
    return c->steps > 0 ? c->total_ms / c->steps : 0.0;
}
