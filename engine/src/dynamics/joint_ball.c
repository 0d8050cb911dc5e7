/* Ball joint (point to point): the two anchors stay together, rotation is free. With a spring
   the anchors are pulled together by it instead (a soft rope end, a mouse drag). */
#include "dynamics/joint.h"

static void ball_prepare(joint *j, joint_step *s)
{
    /* a spring's rows are the type's own, never a tree's or a block's */
    point_prepare(&j->point, &s->pair, s->r_a, s->r_b, glms_vec3_sub(s->anchor_b, s->anchor_a),
                  !s->direct || j->settings.enable_spring);
}

static void ball_warm_start(joint *j, joint_step *s)
{
    point_warm_start(&j->point, &s->pair);
}

static void ball_solve(joint *j, joint_step *s)
{
    const cairn_joint_def *d = &j->settings;
    if (d->enable_spring) {
        if (!s->positional)
            point_solve(&j->point, &s->pair,
                        make_soft(d->spring_hertz, d->spring_damping_ratio, s->h));
    } else if (!s->direct)
        point_solve(&j->point, &s->pair, joint_equality_soft(s));
}

/* A sprung ball joint is not rigid: it stays out of the tree solve. */
static int ball_rows(joint *j, const joint_step *s, joint_row *out)
{
    (void)s;
    return j->settings.enable_spring ? 0 : joint_rows_point(&j->point, out);
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

const joint_ops joint_ball_ops = {ball_prepare,  ball_warm_start, ball_solve, ball_position,
                                  ball_reaction, ball_rows,       true};
