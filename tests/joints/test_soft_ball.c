/* A ball joint with a spring pulls its anchors together at the spring's frequency (a body on it
   is a mass on a spring), and a world anchor that moves (a mouse drag) takes the body along. */
#include "joint_helpers.h"

#include <string.h>

static cairn_world *weightless_world(void)
{
    cairn_world_def def = cairn_world_default_def();
    def.gravity = v3(0, 0, 0);
    def.angular_damping = 0.0f;
    return joint_world_with(def);
}

static cairn_joint_id drag(cairn_world *world, cairn_body_id body, vec3s target, float hertz,
                           float damping)
{
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_BALL);
    def.body_b = body;
    def.anchor_a = def.anchor_b = cairn_body_transform(world, body).position;
    def.enable_spring = true;
    def.spring_hertz = hertz;
    def.spring_damping_ratio = damping;
    cairn_joint_id joint = joint_make(world, &def);
    cr_assert(cairn_joint_set_world_anchor(world, joint, target), "%s", cairn_last_error());
    return joint;
}

Test(soft_ball, oscillates_at_the_spring_frequency)
{
    cairn_world *world = weightless_world();
    cairn_body_id ball = joint_body(world, cairn_shape_sphere(0.2f), v3(1, 2, 0));
    drag(world, ball, v3(0, 2, 0), 1.5f, 0.0f);
    double first = -1, last = -1;
    int crossings = 0;
    float previous = 1.0f;
    for (int n = 1; n <= 300; ++n) {
        cairn_world_step(world, SCENE_DT);
        float x = cairn_body_transform(world, ball).position.x;
        if (previous > 0.0f && x <= 0.0f) {
            double t = (n - 1 + previous / (previous - x)) * SCENE_DT;
            first = first < 0 ? t : first;
            last = t;
            ++crossings;
        }
        previous = x;
    }
    cr_assert(crossings >= 3, "%d crossings", crossings);
    double frequency = (crossings - 1) / (last - first);
    cr_expect(fabs(frequency - 1.5) < 0.02 * 1.5, "%.4f Hz", frequency);
    cairn_world_destroy(world);
}

Test(soft_ball, a_moving_world_anchor_drags_the_body)
{
    cairn_world *world = joint_world();
    scene_floor(world, 0.5f, 0.0f);
    cairn_body_id box =
        joint_body(world, cairn_shape_box(v3(0.3f, 0.3f, 0.3f), 0.02f), v3(0, 0.3f, 0));
    cairn_joint_id joint = drag(world, box, v3(0, 0.3f, 0), 4.0f, 1.0f);
    vec3s target = v3(0, 0.3f, 0);
    for (int n = 0; n < 240; ++n) {
        if (n <= 120) /* lift it 2 m and carry it 1 m sideways over 2 s */
            target = v3(1.0f * (float)n / 120.0f, 0.3f + 2.0f * (float)n / 120.0f, 0);
        cr_assert(cairn_joint_set_world_anchor(world, joint, target));
        cairn_world_step(world, SCENE_DT);
    }
    vec3s p = cairn_body_transform(world, box).position;
    /* it hangs below the target by the spring's stretch under its weight, g / omega^2 */
    float sag = (float)SCENE_G / powf(2.0f * (float)SCENE_PI * 4.0f, 2.0f);
    cr_expect(fabsf(p.x - 1.0f) < 0.01f && fabsf(p.y - (2.3f - sag)) < 0.01f,
              "at (%.3f, %.3f), target (1, %.3f)", p.x, p.y, 2.3f - sag);
    cairn_world_destroy(world);
}

Test(soft_ball, world_anchor_errors)
{
    cairn_world *world = joint_world();
    cairn_body_id a = joint_body(world, cairn_shape_sphere(0.2f), v3(0, 2, 0));
    cairn_body_id b = joint_body(world, cairn_shape_sphere(0.2f), v3(1, 2, 0));
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_BALL);
    def.body_a = a;
    def.body_b = b;
    def.anchor_a = def.anchor_b = v3(0.5f, 2, 0);
    cairn_joint_id between = joint_make(world, &def);
    cr_expect(!cairn_joint_set_world_anchor(world, between, v3(0, 0, 0)));
    cr_expect(strstr(cairn_last_error(), "not held to the world") != NULL, "%s",
              cairn_last_error());
    def.body_a = (cairn_body_id){0, 0};
    cairn_joint_id held = joint_make(world, &def);
    cr_expect(!cairn_joint_set_world_anchor(world, held, v3(NAN, 0, 0)));
    cr_expect(strstr(cairn_last_error(), "point is not finite") != NULL, "%s", cairn_last_error());
    cr_expect(!cairn_joint_set_world_anchor(world, held, v3(3e6f, 0, 0)));
    cr_expect(glms_vec3_distance(cairn_joint_get_def(world, held).anchor_a, v3(0.5f, 2, 0)) < 1e-6f,
              "unchanged");
    cairn_world_destroy(world);
}
