/* A slider with limits stops a falling box at the limit with no sideways drift and carries its
   weight; a rope (distance joint with limits [0, 2]) catches a falling ball at 2 m. */
#include "joint_helpers.h"

Test(slider, limit_stops_a_falling_box)
{
    cairn_world *world = joint_world();
    vec3s at = v3(1, 5, -2);
    cairn_body_id box = joint_body(world, cairn_shape_box(v3(0.3f, 0.2f, 0.4f), 0.02f), at);
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_SLIDER);
    def.body_b = box;
    def.anchor_a = def.anchor_b = at;
    def.axis = v3(0, 1, 0);
    def.enable_limit = true;
    def.lower = -1.0f;
    def.upper = 0.5f;
    cairn_joint_id slider = joint_make(world, &def);
    float lowest = 0.0f, drift = 0.0f;
    for (int n = 0; n < 120; ++n) {
        cairn_world_step(world, SCENE_DT);
        vec3s p = cairn_body_transform(world, box).position;
        lowest = fminf(lowest, p.y - at.y);
        drift = fmaxf(drift, hypotf(p.x - at.x, p.z - at.z));
    }
    cr_expect(lowest > -1.0f - 0.005f, "fell to %.4f m", lowest);
    float rest = cairn_body_transform(world, box).position.y - at.y;
    cr_expect(fabsf(rest + 1.0f) < 0.005f, "rests at %.4f m", rest);
    cr_expect(drift < 1e-4f, "drifted %.6f m sideways", drift);
    cr_expect(fabsf(cairn_joint_position(world, slider) - rest) < 1e-4f, "position %g",
              (double)cairn_joint_position(world, slider));
    /* at rest the limit carries the weight: the reaction on the box is m g up */
    float weight = cairn_body_mass(world, box) * (float)SCENE_G;
    vec3s force = cairn_joint_reaction_force(world, slider);
    cr_expect(fabsf(force.y - weight) < 0.01f * weight, "reaction %g N, weight %g N",
              (double)force.y, (double)weight);
    cairn_world_destroy(world);
}

Test(slider, motor_drives_along_the_axis_without_turning)
{
    cairn_world *world = joint_world();
    cairn_world_def def0 = cairn_world_get_def(world);
    def0.gravity = v3(0, 0, 0);
    cr_assert(cairn_world_set_def(world, &def0));
    vec3s at = v3(0, 1, 0);
    cairn_body_id box = joint_body(world, cairn_shape_box(v3(0.3f, 0.2f, 0.4f), 0.02f), at);
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_SLIDER);
    def.body_b = box;
    def.anchor_a = def.anchor_b = at;
    def.axis = glms_vec3_normalize(v3(1, 1, 0));
    def.enable_motor = true;
    def.motor_speed = 2.0f;
    def.max_motor_force = 1e4f;
    cairn_joint_id slider = joint_make(world, &def);
    cairn_body_apply_angular_impulse(world, box, v3(3, 1, 2)); /* the slider must undo this */
    for (int n = 0; n < 60; ++n)
        cairn_world_step(world, SCENE_DT);
    float position = cairn_joint_position(world, slider);
    cr_expect(fabsf(position - 2.0f) < 0.05f, "moved %.4f m in 1 s at 2 m/s", position);
    versors q = cairn_body_transform(world, box).rotation;
    cr_expect(fabsf(q.w) > 0.9999f, "turned: w = %g", (double)q.w);
    cairn_world_destroy(world);
}

Test(distance, rope_catches_a_falling_ball_at_its_length)
{
    cairn_world *world = joint_world();
    vec3s pivot = v3(0, 10, 0);
    cairn_body_id ball = joint_body(world, cairn_shape_sphere(0.1f), v3(0.2f, 9.5f, 0));
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_DISTANCE);
    def.body_b = ball;
    def.anchor_a = pivot;
    def.anchor_b = v3(0.2f, 9.5f, 0);
    def.enable_limit = true;
    def.lower = 0.0f;
    def.upper = 2.0f;
    cairn_joint_id rope = joint_make(world, &def);
    float longest = 0.0f, shortest = 10.0f;
    for (int n = 0; n < 300; ++n) {
        cairn_world_step(world, SCENE_DT);
        float length = glms_vec3_distance(cairn_body_transform(world, ball).position, pivot);
        longest = fmaxf(longest, length);
        shortest = fminf(shortest, length);
    }
    cr_expect(longest < 2.01f, "stretched to %.4f m", longest);
    cr_expect(longest > 1.99f, "never caught: %.4f m", longest);
    cr_expect(shortest < 0.6f, "a rope does not push: %.4f m", shortest);
    cr_expect(fabsf(cairn_joint_position(world, rope) -
                    glms_vec3_distance(cairn_body_transform(world, ball).position, pivot)) < 1e-4f,
              "position is the length");
    cairn_world_destroy(world);
}

Test(distance, rod_keeps_its_length)
{
    cairn_world *world = joint_world();
    cairn_body_id a = joint_body(world, cairn_shape_sphere(0.1f), v3(0, 5, 0));
    cairn_body_id b = joint_body(world, cairn_shape_sphere(0.1f), v3(1.5f, 5, 0));
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_DISTANCE);
    def.body_a = a;
    def.body_b = b;
    def.anchor_a = v3(0, 5, 0);
    def.anchor_b = v3(1.5f, 5, 0);
    joint_make(world, &def);
    cairn_body_apply_impulse(world, b, v3(0, 5, 3), v3(1.5f, 5, 0));
    float worst = 0.0f;
    for (int n = 0; n < 120; ++n) {
        cairn_world_step(world, SCENE_DT);
        float length = glms_vec3_distance(cairn_body_transform(world, a).position,
                                          cairn_body_transform(world, b).position);
        worst = fmaxf(worst, fabsf(length - 1.5f));
    }
    cr_expect(worst < 0.001f, "length off by %.5f m", worst);
    cairn_world_destroy(world);
}
