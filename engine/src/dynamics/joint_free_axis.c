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

/* The free axis's row as its rows are solved: alone, or against the joint's block
   (joint_block.h) with the mass it has once the block holds. */
static axis_row row_of(joint_step *s, const axis_row *row)
{
    axis_row view = *row;
    if (s->block) {
        if (!s->coupled)
            joint_block_couple(s->block, s->block_rows, row, &s->coupling);
        s->coupled = true;
        view.mass = s->coupling.mass;
    }
    return view;
}

/* Its rate: now, or once the block holds. */
static float rate_of(const joint_step *s, const axis_row *row)
{
    if (s->block == NULL)
        return axis_row_velocity(row, &s->pair);
    return joint_block_rate(&s->coupling, &s->pair, joint_equality_soft(s).bias_rate);
}

void free_axis_solve(joint *j, joint_step *s, const axis_row *row, float value)
{
    const cairn_joint_def *d = &j->settings;
    axis_impulses *k = &j->free_axis;
    /* the spring alone: its frequency is that of the bodies turning about their centres of
       mass (joints.md), whatever holds them */
    if (d->enable_spring && !s->positional) {
        softness spring = make_soft(d->spring_hertz, d->spring_damping_ratio, s->h);
        row_solve_equality(row, &s->pair, axis_row_velocity(row, &s->pair), &k->spring,
                           value - d->spring_target, spring);
    }
    if (!(d->enable_motor && !s->positional) && !d->enable_limit)
        return;
    axis_row coupled = row_of(s, row);
    const axis_row *r = &coupled;
    if (d->enable_motor && !s->positional)
        row_solve_motor(r, &s->pair, rate_of(s, row), &k->motor, d->motor_speed,
                        d->max_motor_force * s->h);
    if (d->enable_limit) {
        softness soft = joint_equality_soft(s);
        row_solve_limit(r, &s->pair, rate_of(s, row), &k->lower, value - d->lower, 1.0f,
                        s->inverse_h, soft);
        row_solve_limit(r, &s->pair, rate_of(s, row), &k->upper, d->upper - value, -1.0f,
                        s->inverse_h, soft);
    }
}
