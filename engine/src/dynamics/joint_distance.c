/* Distance joint: the distance between the two anchors stays within [lower, upper] (a rope when
   lower is 0, a rod when they are equal), pulled by a spring towards its target; with neither
   limit nor spring (nor motor) it keeps its length at creation. */
#include "dynamics/joint.h"

#include <math.h>

static bool keeps_rest_length(const joint *j)
{
    const cairn_joint_def *d = &j->settings;
    return !d->enable_limit && !d->enable_spring && !d->enable_motor;
}

static void distance_prepare(joint *j, joint_step *s)
{
    joint_distance_state *ds = &j->state.distance;
    vec3s u = glms_vec3_sub(s->anchor_b, s->anchor_a);
    ds->length = glms_vec3_norm(u);
    /* Coincident anchors have no direction: any one will do, the error is 0 along it. */
    vec3s n = ds->length > 1e-6f ? glms_vec3_scale(u, 1.0f / ds->length) : s->axes_a[0];
    ds->axis = axis_row_linear(&s->pair, n, s->r_a, s->r_b);
}

static void distance_warm_start(joint *j, joint_step *s)
{
    joint_distance_state *ds = &j->state.distance;
    free_axis_warm_start(j, &s->pair, &ds->axis);
    axis_row_apply(&ds->axis, &s->pair, ds->rigid_impulse);
}

static void distance_solve(joint *j, joint_step *s)
{
    joint_distance_state *ds = &j->state.distance;
    if (keeps_rest_length(j) && !s->direct)
        row_solve_equality(&ds->axis, &s->pair, axis_row_velocity(&ds->axis, &s->pair),
                           &ds->rigid_impulse, ds->length - ds->rest_length,
                           joint_equality_soft(s));
    else if (!keeps_rest_length(j))
        free_axis_solve(j, s, &ds->axis, ds->length);
}

/* Only the rod of fixed length is an equality row; limits and springs are not. */
static int distance_rows(joint *j, const joint_step *s, joint_row *out)
{
    (void)s;
    joint_distance_state *ds = &j->state.distance;
    if (!keeps_rest_length(j))
        return 0;
    out[0] = joint_row_axis(&ds->axis, ds->length - ds->rest_length, &ds->rigid_impulse);
    return 1;
}

static float distance_position(const joint *j, const joint_step *s)
{
    (void)j;
    return glms_vec3_distance(s->anchor_a, s->anchor_b);
}

static void distance_reaction(const joint *j, vec3s *linear, vec3s *angular)
{
    const joint_distance_state *ds = &j->state.distance;
    *linear = glms_vec3_scale(ds->axis.linear, free_axis_impulse(j) + ds->rigid_impulse);
    *angular = glms_vec3_zero();
}

const joint_ops joint_distance_ops = {distance_prepare,  distance_warm_start, distance_solve,
                                      distance_position, distance_reaction,   distance_rows};
