/* Fixed joint (weld): the anchors stay together and the relative rotation stays as it was at
   creation. */
#include "dynamics/joint.h"

static void fixed_prepare(joint *j, joint_step *s)
{
    point_prepare(&j->point, &s->pair, s->r_a, s->r_b, glms_vec3_sub(s->anchor_b, s->anchor_a),
                  !s->direct);
    joint_lock_rotation(&j->state.fixed.lock, s);
}

static void fixed_warm_start(joint *j, joint_step *s)
{
    angle_warm_start(&j->state.fixed.lock, &s->pair);
    point_warm_start(&j->point, &s->pair);
}

/* Rotation first, the point last: the point's error is the one seen most. */
static void fixed_solve(joint *j, joint_step *s)
{
    if (s->direct)
        return;
    angle_solve(&j->state.fixed.lock, &s->pair, joint_equality_soft(s));
    point_solve(&j->point, &s->pair, joint_equality_soft(s));
}

static int fixed_rows(joint *j, const joint_step *s, joint_row *out)
{
    (void)s;
    int count = joint_rows_angle(&j->state.fixed.lock, out);
    return count + joint_rows_point(&j->point, out + count);
}

static float fixed_position(const joint *j, const joint_step *s)
{
    (void)j;
    (void)s;
    return 0.0f;
}

static void fixed_reaction(const joint *j, vec3s *linear, vec3s *angular)
{
    *linear = j->point.impulse;
    *angular = angle_impulse(&j->state.fixed.lock);
}

const joint_ops joint_fixed_ops = {fixed_prepare,        fixed_warm_start, fixed_solve,
                                   fixed_position,       fixed_reaction,   fixed_rows,
                                   .coupled_parts = true};
