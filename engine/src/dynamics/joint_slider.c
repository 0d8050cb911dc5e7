/* Slider joint (prismatic): no relative rotation, and body b's anchor moves only along the
   axis as body a carries it: within a limit, driven by a motor or pulled by a spring. */
#include "dynamics/joint.h"

static void slider_prepare(joint *j, joint_step *s)
{
    joint_slider_state *sl = &j->state.slider;
    joint_lock_rotation(&sl->lock, s);
    vec3s u = glms_vec3_sub(s->anchor_b, s->anchor_a);
    /* A's anchor point follows A; the row measures B's anchor against the axis through it,
       so A's arm reaches to B's anchor */
    vec3s arm_a = glms_vec3_add(s->r_a, u);
    vec3s across[2] = {s->axes_a[1], s->axes_a[2]};
    for (int k = 0; k < 2; ++k) {
        sl->across[k] = axis_row_linear(&s->pair, across[k], arm_a, s->r_b);
        sl->across_error[k] = glms_vec3_dot(u, across[k]);
    }
    vec3s x_a = s->axes_a[0];
    sl->axis = axis_row_linear(&s->pair, x_a, arm_a, s->r_b);
    sl->translation = glms_vec3_dot(u, x_a);
}

static void slider_warm_start(joint *j, joint_step *s)
{
    joint_slider_state *sl = &j->state.slider;
    free_axis_warm_start(j, &s->pair, &sl->axis);
    angle_warm_start(&sl->lock, &s->pair);
    for (int k = 0; k < 2; ++k)
        axis_row_apply(&sl->across[k], &s->pair, sl->across_impulse[k]);
}

static void slider_solve(joint *j, joint_step *s)
{
    joint_slider_state *sl = &j->state.slider;
    free_axis_solve(j, s, &sl->axis, sl->translation);
    if (s->direct)
        return;
    angle_solve(&sl->lock, &s->pair, joint_equality_soft(s));
    for (int k = 0; k < 2; ++k)
        row_solve_equality(&sl->across[k], &s->pair, axis_row_velocity(&sl->across[k], &s->pair),
                           &sl->across_impulse[k], sl->across_error[k], joint_equality_soft(s));
}

static int slider_rows(joint *j, const joint_step *s, joint_row *out)
{
    (void)s;
    joint_slider_state *sl = &j->state.slider;
    int count = joint_rows_angle(&sl->lock, out);
    for (int k = 0; k < 2; ++k)
        out[count++] = joint_row_axis(&sl->across[k], sl->across_error[k], &sl->across_impulse[k]);
    return count;
}

static float slider_position(const joint *j, const joint_step *s)
{
    (void)j;
    return glms_vec3_dot(glms_vec3_sub(s->anchor_b, s->anchor_a), joint_axis_x(s->frame_a));
}

static void slider_reaction(const joint *j, vec3s *linear, vec3s *angular)
{
    const joint_slider_state *sl = &j->state.slider;
    *linear = glms_vec3_scale(sl->axis.linear, free_axis_impulse(j));
    for (int k = 0; k < 2; ++k)
        *linear =
            glms_vec3_add(*linear, glms_vec3_scale(sl->across[k].linear, sl->across_impulse[k]));
    *angular = angle_impulse(&sl->lock);
}

const joint_ops joint_slider_ops = {slider_prepare,       slider_warm_start, slider_solve,
                                    slider_position,      slider_reaction,   slider_rows,
                                    .coupled_parts = true};
