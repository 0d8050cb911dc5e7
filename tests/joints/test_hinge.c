/* A wheel on a hinge about the vertical (gravity exerts no torque about it): the motor reaches
   its speed, a torque-limited motor accelerates it at max_torque / I, a spring oscillates at its
   frequency, and limits hold against the motor. */
#include "joint_helpers.h"

static const float wheel_radius = 0.5f, wheel_half_height = 0.1f;

typedef struct wheel {
    cairn_body_id body;
    cairn_joint_id hinge;
    float inertia; /* about the axis, kg m^2 */
} wheel;

static wheel make_wheel(cairn_world *world, cairn_joint_def def)
{
    wheel w;
    vec3s at = v3(0, 2, 0);
    w.body = joint_body(world, cairn_shape_cylinder(wheel_half_height, wheel_radius, 0.0f), at);
    def.body_b = w.body;
    def.anchor_a = def.anchor_b = at;
    def.axis = v3(0, 1, 0);
    w.hinge = joint_make(world, &def);
    w.inertia = cairn_body_inertia(world, w.body).raw[1][1];
    /* the cylinder's inertia about its axis is m r^2 / 2 */
    float expect = 0.5f * cairn_body_mass(world, w.body) * wheel_radius * wheel_radius;
    cr_assert(fabsf(w.inertia - expect) < 1e-3f * expect, "inertia %g, expected %g",
              (double)w.inertia, (double)expect);
    return w;
}

static float spin(const cairn_world *world, const wheel *w)
{
    return cairn_body_angular_velocity(world, w->body).y;
}

Test(hinge, motor_reaches_its_speed)
{
    cairn_world *world = joint_world();
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_HINGE);
    def.enable_motor = true;
    def.motor_speed = 5.0f;
    def.max_motor_force = 1000.0f;
    wheel w = make_wheel(world, def);
    for (int n = 0; n < 60; ++n)
        cairn_world_step(world, SCENE_DT);
    cr_expect(fabsf(spin(world, &w) - 5.0f) < 0.05f, "spins at %.4f rad/s", spin(world, &w));
    cairn_world_destroy(world);
}

Test(hinge, limited_torque_accelerates_at_torque_over_inertia)
{
    cairn_world *world = joint_world();
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_HINGE);
    def.enable_motor = true;
    def.motor_speed = 100.0f;
    def.max_motor_force = 2.0f; /* N m: far from the speed in 1 s */
    wheel w = make_wheel(world, def);
    for (int n = 0; n < 60; ++n)
        cairn_world_step(world, SCENE_DT);
    float expect = def.max_motor_force / w.inertia * 1.0f;
    cr_expect(fabsf(spin(world, &w) - expect) < 0.05f * expect, "%.4f rad/s after 1 s, %.4f",
              spin(world, &w), expect);
    /* the motor's torque is what the joint reports */
    float torque = cairn_joint_reaction_torque(world, w.hinge).y;
    cr_expect(fabsf(torque - def.max_motor_force) < 0.01f * def.max_motor_force, "torque %g",
              (double)torque);
    cairn_world_destroy(world);
}

Test(hinge, spring_oscillates_at_its_frequency)
{
    cairn_world *world = joint_world();
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_HINGE);
    def.enable_spring = true;
    def.spring_hertz = 2.0f;
    def.spring_damping_ratio = 0.0f;
    def.spring_target = 0.3f; /* rad: it swings about 0.3, from 0 */
    wheel w = make_wheel(world, def);
    double first = -1.0, last = -1.0;
    int crossings = 0;
    float previous = cairn_joint_position(world, w.hinge) - def.spring_target;
    for (int n = 1; n <= 300; ++n) {
        cairn_world_step(world, SCENE_DT);
        float now = cairn_joint_position(world, w.hinge) - def.spring_target;
        if (previous < 0.0f && now >= 0.0f) {
            double t = (n - 1 + previous / (previous - now)) * SCENE_DT;
            first = first < 0.0 ? t : first;
            last = t;
            ++crossings;
        }
        previous = now;
    }
    cr_assert(crossings >= 4, "%d crossings", crossings);
    double frequency = (crossings - 1) / (last - first);
    cr_expect(fabs(frequency - 2.0) < 0.02 * 2.0, "%.4f Hz", frequency);
    cairn_world_destroy(world);
}

Test(hinge, limits_hold_against_the_motor)
{
    cairn_world *world = joint_world();
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_HINGE);
    def.enable_motor = true;
    def.motor_speed = 3.0f;
    def.max_motor_force = 50.0f;
    def.enable_limit = true;
    def.lower = -0.5f;
    def.upper = 0.8f;
    wheel w = make_wheel(world, def);
    float highest = -10.0f;
    for (int n = 0; n < 120; ++n) {
        cairn_world_step(world, SCENE_DT);
        highest = fmaxf(highest, cairn_joint_position(world, w.hinge));
    }
    cr_expect(highest < 0.8f + 0.01f, "reached %.4f rad", highest);
    cr_expect(highest > 0.8f - 0.01f, "stopped at %.4f rad, short of the limit", highest);
    /* reversed, it stops at the lower limit */
    cr_assert(cairn_joint_set_motor(world, w.hinge, true, -3.0f, 50.0f), "%s", cairn_last_error());
    float lowest = 10.0f;
    for (int n = 0; n < 120; ++n) {
        cairn_world_step(world, SCENE_DT);
        lowest = fminf(lowest, cairn_joint_position(world, w.hinge));
    }
    cr_expect(fabsf(lowest + 0.5f) < 0.01f, "reached %.4f rad", lowest);
    cairn_world_destroy(world);
}

/* A door hinged about a horizontal axis swings down under gravity: the joint reports the angle
   about its axis from the creation pose, positive by the right-hand rule. */
Test(hinge, position_is_the_angle_about_the_axis)
{
    cairn_world *world = joint_world();
    cairn_body_id door =
        joint_body(world, cairn_shape_box(v3(0.5f, 0.05f, 0.5f), 0.0f), v3(0.5f, 3, 0));
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_HINGE);
    def.body_b = door;
    def.anchor_a = def.anchor_b = v3(0, 3, 0);
    def.axis = v3(0, 0, 1);
    cairn_joint_id hinge = joint_make(world, &def);
    for (int n = 0; n < 10; ++n)
        cairn_world_step(world, SCENE_DT);
    cairn_transform xf = cairn_body_transform(world, door);
    /* the door's centre at angle a about +z: (0.5 cos a, 3 + 0.5 sin a) */
    float angle = atan2f(xf.position.y - 3.0f, xf.position.x);
    cr_expect(angle < -0.05f, "the door did not swing down: %g", (double)angle);
    cr_expect(fabsf(cairn_joint_position(world, hinge) - angle) < 1e-3f, "position %g, angle %g",
              (double)cairn_joint_position(world, hinge), (double)angle);
    cairn_world_destroy(world);
}
