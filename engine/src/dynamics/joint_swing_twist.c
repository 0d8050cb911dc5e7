/* Swing-twist joint (ragdoll shoulders, hips, necks): the anchors stay together; the axis as
   body b carries it stays within cone_angle of the axis as body a carries it (swing), and the
   rotation about it stays within [lower, upper] (twist). The motor brakes the relative rotation
   with at most max_motor_force (joint friction), which lets a ragdoll come to rest. */
#include "dynamics/joint.h"

#include <math.h>

static void swing_twist_prepare(joint *j, joint_step *s)
{
    joint_swing_twist_state *st = &j->state.swing_twist;
    point_prepare(&j->point, &s->pair, s->r_a, s->r_b, glms_vec3_sub(s->anchor_b, s->anchor_a),
                  !s->direct);
    vec3s x_a = s->axes_a[0], x_b = s->x_b;
    vec3s turn = glms_vec3_cross(x_a, x_b);
    float sine = glms_vec3_norm(turn), cosine = glms_vec3_dot(x_a, x_b);
    st->swing_angle = atan2f(sine, cosine);
    /* Swinging about turn opens the angle; straight or reversed axes have no such direction,
       and any axis across x_a serves. */
    vec3s swing_axis = sine > 1e-6f ? glms_vec3_scale(turn, 1.0f / sine) : s->axes_a[1];
    st->swing = axis_row_angular(&s->pair, swing_axis);
    /* The twist of the swing-twist decomposition turns at w . (x_a + x_b) / (1 + x_a . x_b)
       (w the relative angular velocity): that is the row, not the unit mean axis, which
       undercounts the rate as the swing opens. Reversed axes have no twist to speak of. */
    float along = 1.0f + cosine;
    vec3s rate = along > 1e-3f ? glms_vec3_scale(glms_vec3_add(x_a, x_b), 1.0f / along) : x_a;
    st->twist = axis_row_angular(&s->pair, rate);
    st->twist_angle = joint_twist_angle(joint_relative_rotation(s));
    if (j->settings.enable_motor) {
        vec3s axes[3] = {x_a, s->axes_a[1], s->axes_a[2]};
        angle_prepare(&st->friction, &s->pair, axes, 3, NULL, true);
    }
}

static void swing_twist_warm_start(joint *j, joint_step *s)
{
    joint_swing_twist_state *st = &j->state.swing_twist;
    if (j->settings.enable_motor)
        angle_warm_start(&st->friction, &s->pair);
    axis_row_apply(&st->swing, &s->pair, -st->swing_impulse);
    axis_row_apply(&st->twist, &s->pair, j->free_axis.lower - j->free_axis.upper);
    point_warm_start(&j->point, &s->pair);
}

static void swing_twist_solve(joint *j, joint_step *s)
{
    joint_swing_twist_state *st = &j->state.swing_twist;
    const cairn_joint_def *d = &j->settings;
    softness soft = joint_equality_soft(s);
    if (d->enable_motor)
        angle_solve_friction(&st->friction, &s->pair, d->max_motor_force * s->h);
    row_solve_limit(&st->swing, &s->pair, axis_row_velocity(&st->swing, &s->pair),
                    &st->swing_impulse, d->cone_angle - st->swing_angle, -1.0f, s->inverse_h, soft);
    if (d->enable_limit) {
        row_solve_limit(&st->twist, &s->pair, axis_row_velocity(&st->twist, &s->pair),
                        &j->free_axis.lower, st->twist_angle - d->lower, 1.0f, s->inverse_h, soft);
        row_solve_limit(&st->twist, &s->pair, axis_row_velocity(&st->twist, &s->pair),
                        &j->free_axis.upper, d->upper - st->twist_angle, -1.0f, s->inverse_h, soft);
    }
    if (!s->direct)
        point_solve(&j->point, &s->pair, soft);
}

static int swing_twist_rows(joint *j, const joint_step *s, joint_row *out)
{
    (void)s;
    return joint_rows_point(&j->point, out);
}

static float swing_twist_position(const joint *j, const joint_step *s)
{
    (void)j;
    vec3s x_a = joint_axis_x(s->frame_a), x_b = joint_axis_x(s->frame_b);
    return atan2f(glms_vec3_norm(glms_vec3_cross(x_a, x_b)), glms_vec3_dot(x_a, x_b));
}

static void swing_twist_reaction(const joint *j, vec3s *linear, vec3s *angular)
{
    const joint_swing_twist_state *st = &j->state.swing_twist;
    *linear = j->point.impulse;
    *angular = glms_vec3_add(
        glms_vec3_scale(st->swing.angular_b, -st->swing_impulse),
        glms_vec3_scale(st->twist.angular_b, j->free_axis.lower - j->free_axis.upper));
    if (j->settings.enable_motor)
        *angular = glms_vec3_add(*angular, angle_impulse(&st->friction));
}

const joint_ops joint_swing_twist_ops = {swing_twist_prepare,  swing_twist_warm_start,
                                         swing_twist_solve,    swing_twist_position,
                                         swing_twist_reaction, swing_twist_rows};
