/* The rows on a joint's free axis (hinge angle, slider translation, distance length): spring,
   motor, then the two limits, all on one Jacobian; the limits last, so they hold against the
   motor's and the spring's pull. */
#include "dynamics/joint.h"

float free_axis_impulse(const joint *j)
{
    const axis_impulses *k = &j->free_axis;
    return k->spring + k->motor + k->lower - k->upper;
}

void free_axis_warm_start(const joint *j, joint_pair *pair, const axis_row *row)
{
    axis_row_apply(row, pair, free_axis_impulse(j));
}

void free_axis_solve(joint *j, joint_step *s, const axis_row *row, float value)
{
    const cairn_joint_def *d = &j->settings;
    axis_impulses *k = &j->free_axis;
    if (d->enable_spring && !s->positional) {
        softness spring = make_soft(d->spring_hertz, d->spring_damping_ratio, s->h);
        row_solve_equality(row, &s->pair, &k->spring, value - d->spring_target, spring);
    }
    if (d->enable_motor && !s->positional)
        row_solve_motor(row, &s->pair, &k->motor, d->motor_speed, d->max_motor_force * s->h);
    if (d->enable_limit) {
        softness soft = joint_equality_soft(s);
        row_solve_limit(row, &s->pair, &k->lower, value - d->lower, 1.0f, s->inverse_h, soft);
        row_solve_limit(row, &s->pair, &k->upper, d->upper - value, -1.0f, s->inverse_h, soft);
    }
}
