/* A limb on a swing-twist joint, shaken hard: its axis never leaves the cone and its twist
   stays within the limits, both measured from the body's rotation (the swing-twist
   decomposition about the axis), not from the joint. */
#include "joint_helpers.h"

static const float cone = 0.5f, twist_lower = -0.3f, twist_upper = 0.4f;

/* Swing angle and twist angle of rotation q about the unit axis a (body frame = world frame at
   creation): q = swing * twist, twist = (a (a . q.xyz), q.w) normalised. */
static void decompose(versors q, vec3s a, float *swing, float *twist)
{
    vec3s moved = glms_quat_rotatev(q, a);
    *swing = acosf(fminf(1.0f, fmaxf(-1.0f, glms_vec3_dot(moved, a))));
    float along = q.x * a.x + q.y * a.y + q.z * a.z, w = q.w;
    if (w < 0.0f) {
        along = -along;
        w = -w;
    }
    *twist = 2.0f * atan2f(along, w);
}

Test(swing_twist, limb_stays_in_its_cone_and_twist)
{
    cairn_world *world = joint_world();
    vec3s pivot = v3(0, 5, 0);
    cairn_body_id limb = joint_body(world, cairn_shape_capsule(0.3f, 0.08f), v3(0, 4.62f, 0));
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_SWING_TWIST);
    def.body_b = limb;
    def.anchor_a = def.anchor_b = pivot;
    def.axis = v3(0, -1, 0);
    def.cone_angle = cone;
    def.enable_limit = true;
    def.lower = twist_lower;
    def.upper = twist_upper;
    cairn_joint_id joint = joint_make(world, &def);
    const vec3s kicks[] = {{{4, 0, 0}}, {{0, 3, 0}}, {{0, -3, 2}}, {{-3, 0, -4}}, {{1, 5, 1}}};
    float worst_swing = 0.0f, lowest = 0.0f, highest = 0.0f;
    for (int n = 0; n < 600; ++n) {
        if (n % 60 == 0)
            cairn_body_apply_angular_impulse(world, limb, kicks[(n / 60) % 5]);
        cairn_world_step(world, SCENE_DT);
        float swing, twist;
        decompose(cairn_body_transform(world, limb).rotation, v3(0, -1, 0), &swing, &twist);
        worst_swing = fmaxf(worst_swing, swing);
        lowest = fminf(lowest, twist);
        highest = fmaxf(highest, twist);
        cr_assert(fabsf(cairn_joint_position(world, joint) - swing) < 1e-3f,
                  "position %g, swing %g", (double)cairn_joint_position(world, joint),
                  (double)swing);
    }
    cr_expect(worst_swing < cone + 0.02f, "swung %.4f rad, cone %.4f", worst_swing, cone);
    cr_expect(worst_swing > cone - 0.05f, "the kicks never reached the cone: %.4f", worst_swing);
    cr_expect(lowest > twist_lower - 0.02f && highest < twist_upper + 0.02f,
              "twist in [%.4f, %.4f], limits [%.2f, %.2f]", lowest, highest, twist_lower,
              twist_upper);
    cr_expect(highest > twist_upper - 0.05f, "the kicks never reached the twist limit");
    cairn_world_destroy(world);
}

/* The motor is joint friction: a limb swinging freely comes to rest much sooner with it. */
Test(swing_twist, friction_brings_a_limb_to_rest)
{
    float speed[2];
    for (int with = 0; with < 2; ++with) {
        cairn_world *world = joint_world();
        cairn_body_id limb = joint_body(world, cairn_shape_capsule(0.3f, 0.08f), v3(0, 4.62f, 0));
        cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_SWING_TWIST);
        def.body_b = limb;
        def.anchor_a = def.anchor_b = v3(0, 5, 0);
        def.axis = v3(0, -1, 0);
        def.cone_angle = 1.5f;
        def.enable_motor = with;
        def.max_motor_force = 2.0f;
        joint_make(world, &def);
        cairn_body_apply_angular_impulse(world, limb, v3(0.5f, 0, 0.2f));
        for (int n = 0; n < 300; ++n)
            cairn_world_step(world, SCENE_DT);
        speed[with] = glms_vec3_norm(cairn_body_angular_velocity(world, limb));
        cairn_world_destroy(world);
    }
    cr_expect(speed[1] < 0.1f * speed[0], "with friction %.4f rad/s, without %.4f", speed[1],
              speed[0]);
}
