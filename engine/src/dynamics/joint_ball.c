/* Ball joint (point to point): the two anchors stay together, rotation is free. */
#include "dynamics/joint.h"

static void ball_prepare(joint *j, joint_step *s)
{
    point_prepare(&j->point, &s->pair, s->r_a, s->r_b, glms_vec3_sub(s->anchor_b, s->anchor_a));
}

static void ball_warm_start(joint *j, joint_step *s)
{
    point_warm_start(&j->point, &s->pair);
}

static void ball_solve(joint *j, joint_step *s)
{
    if (!s->direct)
        point_solve(&j->point, &s->pair, joint_equality_soft(s));
}

static int ball_rows(joint *j, const joint_step *s, joint_row *out)
{
    (void)s;
    return joint_rows_point(&j->point, out);
}

static float ball_position(const joint *j, const joint_step *s)
{
    (void)j;
    (void)s;
    return 0.0f;
}

static void ball_reaction(const joint *j, vec3s *linear, vec3s *angular)
{
    *linear = j->point.impulse;
    *angular = glms_vec3_zero();
}

const joint_ops joint_ball_ops = {ball_prepare,  ball_warm_start, ball_solve,
                                  ball_position, ball_reaction,   ball_rows};
