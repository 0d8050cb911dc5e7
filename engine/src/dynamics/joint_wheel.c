/* Wheel joint: body b (the wheel) hangs from body a (the chassis) on a suspension along the
   axis and turns about its axle. Equality rows: b's anchor stays on the suspension line through
   a's anchor (two rows across it, as the slider's), and b's axle stays along a's steered axle
   (two angle rows across it, as the hinge's). Free rows: the suspension's travel (limit,
   spring) and the rotation about the axle (motor). The joint frame's x axis is the suspension,
   its y axis the axle (joint.c). */
#include "dynamics/joint.h"

#include <math.h>

/* A's axle turned about the suspension by the steering angle. */
static vec3s steered_axle(const joint *j, const joint_step *s)
{
    float angle = j->settings.steering;
    return glms_vec3_add(glms_vec3_scale(s->axes_a[1], cosf(angle)),
                         glms_vec3_scale(s->axes_a[2], sinf(angle)));
}

static void wheel_prepare(joint *j, joint_step *s)
{
    joint_wheel_state *w = &j->state.wheel;
    vec3s u = glms_vec3_sub(s->anchor_b, s->anchor_a);
    vec3s x_a = s->axes_a[0], axle_a = steered_axle(j, s);
    vec3s side = glms_vec3_cross(x_a, axle_a);
    vec3s across[2] = {axle_a, side};
    line_prepare(&w->across, &s->pair, across, s->r_a, s->r_b, u);
    /* as the slider's axis row: A's arm reaches to B's anchor */
    w->suspension = axis_row_linear(&s->pair, x_a, glms_vec3_add(s->r_a, u), s->r_b);
    w->travel = glms_vec3_dot(u, x_a);
    /* as the hinge's: axle_a x axle_b is the small rotation that carries A's axle onto B's */
    vec3s turn = glms_vec3_cross(axle_a, joint_axis_y(s->frame_b));
    vec3s lock_axes[2] = {x_a, side};
    float error[2] = {glms_vec3_dot(turn, x_a), glms_vec3_dot(turn, side)};
    angle_prepare(&w->lock, &s->pair, lock_axes, 2, error, !s->direct);
    w->axle = axis_row_angular(&s->pair, axle_a);
}

/* The suspension's impulse (spring and limits) and the axle's (motor). */
static float suspension_impulse(const joint *j)
{
    const axis_impulses *k = &j->free_axis;
    return k->spring + k->lower - k->upper;
}

static void wheel_warm_start(joint *j, joint_step *s)
{
    joint_wheel_state *w = &j->state.wheel;
    axis_row_apply(&w->suspension, &s->pair, suspension_impulse(j));
    axis_row_apply(&w->axle, &s->pair, j->free_axis.motor);
    angle_warm_start(&w->lock, &s->pair);
    line_warm_start(&w->across, &s->pair);
}

/* Spring, motor, then the limits, so that they hold against the spring (joint_free_axis.c). The
   rows are solved alone, also in the rigid modes' block solve of the equality rows. */
static void solve_free_rows(joint *j, joint_step *s)
{
    const cairn_joint_def *d = &j->settings;
    joint_wheel_state *w = &j->state.wheel;
    axis_impulses *k = &j->free_axis;
    if (d->enable_spring && !s->positional)
        row_solve_equality(&w->suspension, &s->pair, axis_row_velocity(&w->suspension, &s->pair),
                           &k->spring, w->travel - d->spring_target,
                           make_soft(d->spring_hertz, d->spring_damping_ratio, s->h));
    if (d->enable_motor && !s->positional)
        row_solve_motor(&w->axle, &s->pair, axis_row_velocity(&w->axle, &s->pair), &k->motor,
                        d->motor_speed, d->max_motor_force * s->h);
    if (d->enable_limit) {
        softness soft = joint_equality_soft(s);
        row_solve_limit(&w->suspension, &s->pair, axis_row_velocity(&w->suspension, &s->pair),
                        &k->lower, w->travel - d->lower, 1.0f, s->inverse_h, soft);
        row_solve_limit(&w->suspension, &s->pair, axis_row_velocity(&w->suspension, &s->pair),
                        &k->upper, d->upper - w->travel, -1.0f, s->inverse_h, soft);
    }
}

static void wheel_solve(joint *j, joint_step *s)
{
    joint_wheel_state *w = &j->state.wheel;
    solve_free_rows(j, s);
    if (s->direct)
        return;
    angle_solve(&w->lock, &s->pair, joint_equality_soft(s));
    line_solve(&w->across, &s->pair, joint_equality_soft(s));
}

static int wheel_rows(joint *j, const joint_step *s, joint_row *out)
{
    (void)s;
    joint_wheel_state *w = &j->state.wheel;
    int count = joint_rows_angle(&w->lock, out);
    return count + joint_rows_line(&w->across, out + count);
}

static float wheel_position(const joint *j, const joint_step *s)
{
    (void)j;
    return joint_translation(s);
}

static void wheel_reaction(const joint *j, vec3s *linear, vec3s *angular)
{
    const joint_wheel_state *w = &j->state.wheel;
    *linear =
        line_add_impulse(&w->across, glms_vec3_scale(w->suspension.linear, suspension_impulse(j)));
    *angular = glms_vec3_add(angle_impulse(&w->lock),
                             glms_vec3_scale(w->axle.angular_b, j->free_axis.motor));
}

const joint_ops joint_wheel_ops = {wheel_prepare,        wheel_warm_start, wheel_solve,
                                   wheel_position,       wheel_reaction,   wheel_rows,
                                   .coupled_parts = true};
