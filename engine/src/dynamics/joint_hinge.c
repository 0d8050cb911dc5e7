/* Hinge joint (revolute): the anchors stay together and the axis stays common to both bodies;
   the rotation about it is free, within a limit, driven by a motor or pulled by a spring. */
#include "dynamics/joint.h"

static void hinge_prepare(joint *j, joint_step *s)
{
    joint_hinge_state *h = &j->state.hinge;
    point_prepare(&j->point, &s->pair, s->r_a, s->r_b, glms_vec3_sub(s->anchor_b, s->anchor_a),
                  !s->direct);
    vec3s x_a = s->axes_a[0], x_b = s->x_b;
    vec3s across[2] = {s->axes_a[1], s->axes_a[2]};
    /* x_a x x_b is the small rotation that carries A's axis onto B's */
    vec3s turn = glms_vec3_cross(x_a, x_b);
    float error[2] = {glms_vec3_dot(turn, across[0]), glms_vec3_dot(turn, across[1])};
    angle_prepare(&h->lock, &s->pair, across, 2, error, !s->direct);
    h->axis = axis_row_angular(&s->pair, x_a);
    h->angle = joint_twist_angle(joint_relative_rotation(s));
}

static void hinge_warm_start(joint *j, joint_step *s)
{
    free_axis_warm_start(j, &s->pair, &j->state.hinge.axis);
    angle_warm_start(&j->state.hinge.lock, &s->pair);
    point_warm_start(&j->point, &s->pair);
}

static void hinge_solve(joint *j, joint_step *s)
{
    joint_hinge_state *h = &j->state.hinge;
    free_axis_solve(j, s, &h->axis, h->angle);
    if (s->direct)
        return;
    angle_solve(&h->lock, &s->pair, joint_equality_soft(s));
    point_solve(&j->point, &s->pair, joint_equality_soft(s));
}

static int hinge_rows(joint *j, const joint_step *s, joint_row *out)
{
    (void)s;
    int count = joint_rows_angle(&j->state.hinge.lock, out);
    return count + joint_rows_point(&j->point, out + count);
}

static float hinge_position(const joint *j, const joint_step *s)
{
    (void)j;
    return joint_twist_angle(joint_relative_rotation(s));
}

static void hinge_reaction(const joint *j, vec3s *linear, vec3s *angular)
{
    *linear = j->point.impulse;
    *angular = glms_vec3_add(angle_impulse(&j->state.hinge.lock),
                             glms_vec3_scale(j->state.hinge.axis.angular_b, free_axis_impulse(j)));
}

const joint_ops joint_hinge_ops = {hinge_prepare,        hinge_warm_start, hinge_solve,
                                   hinge_position,       hinge_reaction,   hinge_rows,
                                   .coupled_parts = true};
