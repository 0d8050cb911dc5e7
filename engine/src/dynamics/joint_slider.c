/* Slider joint (prismatic): no relative rotation, and body b's anchor moves only along the
   axis as body a carries it: within a limit, driven by a motor or pulled by a spring. */
#include "dynamics/joint.h"

static void slider_prepare(joint *j, joint_step *s)
{
    joint_slider_state *sl = &j->state.slider;
    joint_lock_rotation(&sl->lock, s);
    vec3s u = glms_vec3_sub(s->anchor_b, s->anchor_a);
    line_prepare(&sl->across, &s->pair, &s->axes_a[1], s->r_a, s->r_b, u);
    /* the axis row measures B's anchor as the line's rows do: A's arm reaches to it */
    vec3s arm_a = glms_vec3_add(s->r_a, u);
    vec3s x_a = s->axes_a[0];
    sl->axis = axis_row_linear(&s->pair, x_a, arm_a, s->r_b);
    sl->translation = glms_vec3_dot(u, x_a);
}

static void slider_warm_start(joint *j, joint_step *s)
{
    joint_slider_state *sl = &j->state.slider;
    free_axis_warm_start(j, &s->pair, &sl->axis);
    angle_warm_start(&sl->lock, &s->pair);
    line_warm_start(&sl->across, &s->pair);
}

static void slider_solve(joint *j, joint_step *s)
{
    joint_slider_state *sl = &j->state.slider;
    free_axis_solve(j, s, &sl->axis, sl->translation);
    if (s->direct)
        return;
    angle_solve(&sl->lock, &s->pair, joint_equality_soft(s));
    line_solve(&sl->across, &s->pair, joint_equality_soft(s));
}

static int slider_rows(joint *j, const joint_step *s, joint_row *out)
{
    (void)s;
    joint_slider_state *sl = &j->state.slider;
    int count = joint_rows_angle(&sl->lock, out);
    return count + joint_rows_line(&sl->across, out + count);
}

static float slider_position(const joint *j, const joint_step *s)
{
    (void)j;
    return joint_translation(s);
}

static void slider_reaction(const joint *j, vec3s *linear, vec3s *angular)
{
    const joint_slider_state *sl = &j->state.slider;
    *linear = line_add_impulse(&sl->across, glms_vec3_scale(sl->axis.linear, free_axis_impulse(j)));
    *angular = angle_impulse(&sl->lock);
}

const joint_ops joint_slider_ops = {slider_prepare,       slider_warm_start, slider_solve,
                                    slider_position,      slider_reaction,   slider_rows,
                                    .coupled_parts = true};
