/* The wheel joint (CAIRN_JOINT_WHEEL) against analytic answers: the suspension spring's sag
   g / w^2 and period 1 / f, the motor's spin-up tau / I, the steered axle, a four-wheeled car
   that drives at the motor's speed times the wheel radius and turns the way it steers; bad
   input. */
#include "joint_helpers.h"

static const float wheel_radius = 0.3f;

/* A ball wheel held by the world at `at` on a vertical suspension, axle along z. */
static cairn_joint_def world_wheel(cairn_world *world, vec3s at, cairn_body_id *wheel)
{
    *wheel = joint_body(world, cairn_shape_sphere(wheel_radius), at);
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_WHEEL);
    def.body_b = *wheel;
    def.anchor_a = def.anchor_b = at;
    def.axis = v3(0, 1, 0);
    def.axle = v3(0, 0, 1);
    return def;
}

static double ball_mass(void)
{
    return 1000.0 * 4.0 / 3.0 * SCENE_PI * pow((double)wheel_radius, 3.0);
}

/* Hung on an undamped 2 Hz spring, the wheel swings about its sag g / w^2 with period 0.5 s and
   stays on the suspension line. */
Test(wheel_joint, the_suspension_spring_sags_by_g_over_w2_and_swings_at_its_frequency)
{
    cairn_world *world = joint_world();
    cairn_body_id wheel;
    cairn_joint_def def = world_wheel(world, v3(0, 2, 0), &wheel);
    double hertz = 2.0, w = 2.0 * SCENE_PI * hertz, sag = SCENE_G / (w * w);
    def.enable_spring = true;
    def.spring_hertz = (float)hertz;
    def.spring_damping_ratio = 0.0f;
    cairn_joint_id joint = joint_make(world, &def);
    double crossings[6], previous = 0.0, sum = 0.0, off_line = 0.0;
    int found = 0, steps = 0;
    for (int step = 1; step <= 240 && found < 6; ++step) {
        cairn_world_step(world, SCENE_DT);
        double travel = (double)cairn_joint_position(world, joint) + sag;
        if (step > 1 && (previous < 0.0) != (travel < 0.0))
            crossings[found++] = (step - 1 + previous / (previous - travel)) * (double)SCENE_DT;
        previous = travel;
        if (found >= 1 && found < 5) {
            sum += travel;
            steps++;
        }
        vec3s p = scene_position(world, wheel);
        off_line = fmax(off_line, fmax(fabs((double)p.x), fabs((double)p.z)));
    }
    cr_assert_eq(found, 6, "the wheel stopped swinging");
    double period = (crossings[5] - crossings[1]) / 2.0;
    cr_expect(fabs(period - 0.5) < 0.01 * 0.5, "period %g s, 1 / f = 0.5", period);
    cr_expect(fabs(sum / steps) < 0.05 * sag, "it swings about %g m below the sag %g", sum / steps,
              sag);
    cr_expect(off_line < 1e-4, "it left the suspension line by %g m", off_line);

    /* critically damped, it comes to rest at the sag */
    cr_assert(cairn_joint_set_spring(world, joint, true, (float)hertz, 1.0f, 0.0f));
    scene_step(world, 240);
    double rest = -(double)cairn_joint_position(world, joint);
    cr_expect(fabs(rest - sag) < 0.01 * sag, "rests %g m down, g / w^2 = %g", rest, sag);
    cairn_world_destroy(world);
}

/* The motor's torque turns the ball at tau / I (I = 2/5 m r^2) until it reaches the motor's
   speed, about the axle only. */
Test(wheel_joint, the_motor_spins_the_wheel_up_at_torque_over_inertia)
{
    cairn_world_def world_def = cairn_world_default_def();
    world_def.gravity = v3(0, 0, 0);
    world_def.angular_damping = 0.0f;
    cairn_world *world = joint_world_with(world_def);
    cairn_body_id wheel;
    cairn_joint_def def = world_wheel(world, v3(0, 2, 0), &wheel);
    double torque = 2.0, inertia = 0.4 * ball_mass() * (double)(wheel_radius * wheel_radius);
    def.enable_motor = true;
    def.motor_speed = 20.0f;
    def.max_motor_force = (float)torque;
    cairn_joint_id joint = joint_make(world, &def);
    scene_step(world, 60);
    double expected = torque / inertia * 1.0;
    vec3s w = cairn_body_angular_velocity(world, wheel);
    cr_expect(fabs((double)w.z - expected) < 0.01 * expected, "w_z %g after 1 s, tau t / I = %g",
              (double)w.z, expected);
    cr_assert(cairn_joint_set_motor(world, joint, true, 20.0f, 1e5f));
    scene_step(world, 10);
    w = cairn_body_angular_velocity(world, wheel);
    cr_expect(fabs((double)w.z - 20.0) < 1e-3, "w_z %g, the motor's 20 rad/s", (double)w.z);
    cr_expect(fabs((double)w.x) < 1e-3 && fabs((double)w.y) < 1e-3, "w (%g, %g, %g)", (double)w.x,
              (double)w.y, (double)w.z);
    cairn_world_destroy(world);
}

/* Steered by 0.5 rad, the axle turns about the suspension axis: the wheel's own z axis follows
   to (sin 0.5, 0, cos 0.5), and the motor spins it about that axle. */
Test(wheel_joint, steering_turns_the_axle_about_the_suspension)
{
    cairn_world_def world_def = cairn_world_default_def();
    world_def.gravity = v3(0, 0, 0);
    cairn_world *world = joint_world_with(world_def);
    cairn_body_id wheel;
    cairn_joint_def def = world_wheel(world, v3(0, 2, 0), &wheel);
    def.enable_motor = true;
    def.motor_speed = 5.0f;
    def.max_motor_force = 1e4f;
    cairn_joint_id joint = joint_make(world, &def);
    cr_assert(cairn_joint_set_steering(world, joint, 0.5f), "%s", cairn_last_error());
    cr_expect_eq(cairn_joint_get_def(world, joint).steering, 0.5f);
    scene_step(world, 120);
    vec3s w = cairn_body_angular_velocity(world, wheel);
    vec3s axle = v3(sinf(0.5f), 0, cosf(0.5f));
    vec3s along = glms_vec3_scale(axle, 5.0f);
    cr_expect(scene_distance(w, along) < 1e-2, "w (%g, %g, %g), 5 rad/s about (%g, 0, %g)",
              (double)w.x, (double)w.y, (double)w.z, (double)axle.x, (double)axle.z);
    /* the wheel's own z axis (its axle at creation) lies along the steered axle, spinning or not */
    versors q = cairn_body_transform(world, wheel).rotation;
    vec3s own_axle = glms_quat_rotatev(q, v3(0, 0, 1));
    cr_expect(scene_distance(own_axle, axle) < 1e-3, "its axle (%g, %g, %g)", (double)own_axle.x,
              (double)own_axle.y, (double)own_axle.z);
    cairn_world_destroy(world);
}

typedef struct car {
    cairn_body_id chassis, wheels[4];
    cairn_joint_id joints[4]; /* front left, front right, rear left, rear right */
} car;

/* A 1,600 kg box chassis on four ball wheels on 4 Hz suspensions, rear-wheel drive at speed
   (rad/s about +z: negative drives towards +x). */
static car make_car(cairn_world *world, float speed)
{
    car c;
    c.chassis = joint_body(world, cairn_shape_box(v3(1.0f, 0.2f, 0.5f), 0.02f), v3(0, 0.7f, 0));
    const float xs[4] = {0.8f, 0.8f, -0.8f, -0.8f}, zs[4] = {-0.7f, 0.7f, -0.7f, 0.7f};
    for (int i = 0; i < 4; ++i) {
        vec3s at = v3(xs[i], wheel_radius + 0.02f, zs[i]);
        c.wheels[i] = joint_body(world, cairn_shape_sphere(wheel_radius), at);
        cairn_body_set_friction(world, c.wheels[i], 1.0f);
        cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_WHEEL);
        def.body_a = c.chassis;
        def.body_b = c.wheels[i];
        def.anchor_a = def.anchor_b = at;
        def.axis = v3(0, 1, 0);
        def.axle = v3(0, 0, 1);
        def.enable_spring = true;
        def.spring_hertz = 4.0f;
        def.spring_damping_ratio = 0.7f;
        def.enable_limit = true;
        def.lower = -0.15f;
        def.upper = 0.15f;
        def.enable_motor = i >= 2;
        def.motor_speed = speed;
        def.max_motor_force = 2000.0f;
        c.joints[i] = joint_make(world, &def);
    }
    return c;
}

static double yaw_of(versors q)
{
    vec3s forward = glms_quat_rotatev(q, v3(1, 0, 0));
    return atan2(-(double)forward.z, (double)forward.x);
}

/* Driven at -10 rad/s, the rear wheels roll the car forward at 10 r = 3 m/s; the chassis stays
   level on its suspension. */
Test(wheel_joint, a_car_drives_at_the_motor_speed_times_the_wheel_radius)
{
    cairn_world *world = joint_world();
    scene_floor(world, 1.0f, 0.0f);
    car c = make_car(world, -10.0f);
    scene_step(world, 240);
    vec3s v = cairn_body_linear_velocity(world, c.chassis);
    double expected = 10.0 * (double)wheel_radius;
    cr_expect(fabs((double)v.x - expected) < 0.03 * expected, "v_x %g m/s, w r = %g", (double)v.x,
              expected);
    cr_expect(fabs((double)v.z) < 0.01 * expected, "it drifted sideways at %g m/s", (double)v.z);
    versors q = cairn_body_transform(world, c.chassis).rotation;
    vec3s up = glms_quat_rotatev(q, v3(0, 1, 0));
    cr_expect(up.y > 0.999f, "the chassis tilted: up (%g, %g, %g)", (double)up.x, (double)up.y,
              (double)up.z);
    for (int i = 0; i < 4; ++i) {
        float travel = cairn_joint_position(world, c.joints[i]);
        cr_expect(travel > -0.16f && travel < 0.16f, "wheel %d travelled %g m", i, (double)travel);
    }
    cairn_world_destroy(world);
}

/* Front wheels steered by +0.3 rad (about +y) turn the car's heading the same way; a
   bicycle model at the same speed would turn v tan(0.3) / 1.6 m = 0.58 rad/s. */
Test(wheel_joint, a_steered_car_turns_the_way_its_front_wheels_point)
{
    cairn_world *world = joint_world();
    scene_floor(world, 1.0f, 0.0f);
    car c = make_car(world, -10.0f);
    scene_step(world, 60);
    double before = yaw_of(cairn_body_transform(world, c.chassis).rotation);
    for (int i = 0; i < 2; ++i)
        cr_assert(cairn_joint_set_steering(world, c.joints[i], 0.3f), "%s", cairn_last_error());
    scene_step(world, 60);
    double turned = yaw_of(cairn_body_transform(world, c.chassis).rotation) - before;
    vec3s v = cairn_body_linear_velocity(world, c.chassis);
    double speed = sqrt((double)v.x * v.x + (double)v.z * v.z);
    double bicycle = speed * tan(0.3) / 1.6;
    cr_expect(turned > 0.5 * bicycle && turned < 1.2 * bicycle,
              "turned %g rad in 1 s at %g m/s; a bicycle model turns %g", turned, speed, bicycle);
    cairn_world_destroy(world);
}

Test(wheel_joint, bad_wheels_are_refused)
{
    cairn_world *world = joint_world();
    cairn_body_id wheel;
    cairn_joint_def def = world_wheel(world, v3(0, 2, 0), &wheel);
    cairn_joint_def bad = def;
    bad.axle = v3(0, 2, 0.01f);
    cr_expect(joint_id_is_null(cairn_joint_create(world, &bad)));
    cr_expect(strstr(cairn_last_error(), "within 1 degree") != NULL, "%s", cairn_last_error());
    bad.axle = v3(0, 0, 0);
    cr_expect(joint_id_is_null(cairn_joint_create(world, &bad)));
    cr_expect(strstr(cairn_last_error(), "axle is zero") != NULL, "%s", cairn_last_error());
    bad.axle = v3(NAN, 0, 1);
    cr_expect(joint_id_is_null(cairn_joint_create(world, &bad)));
    bad = def;
    bad.steering = 2.0f;
    cr_expect(joint_id_is_null(cairn_joint_create(world, &bad)));
    cr_expect(strstr(cairn_last_error(), "steering") != NULL, "%s", cairn_last_error());
    bad.steering = NAN;
    cr_expect(joint_id_is_null(cairn_joint_create(world, &bad)));

    cairn_joint_id joint = joint_make(world, &def);
    cr_expect(!cairn_joint_set_steering(world, joint, 1.6f));
    cr_expect(!cairn_joint_set_steering(world, joint, INFINITY));
    cr_expect_eq(cairn_joint_get_def(world, joint).steering, 0.0f, "a refused steering stuck");
    cairn_joint_def hinge = def;
    hinge.type = CAIRN_JOINT_HINGE;
    cairn_joint_id other = joint_make(world, &hinge);
    cr_expect(!cairn_joint_set_steering(world, other, 0.1f));
    cr_expect(strstr(cairn_last_error(), "hinge joint has no steering") != NULL, "%s",
              cairn_last_error());
    cairn_joint_destroy(world, joint);
    cr_expect(!cairn_joint_set_steering(world, joint, 0.1f), "a stale id was steered");
    cairn_world_destroy(world);
}

/* A snapshot keeps the steering and the suspension's state: a restore after a steer goes on as
   the saved world did. */
Test(wheel_joint, a_snapshot_keeps_the_steering)
{
    cairn_world *world = joint_world();
    scene_floor(world, 1.0f, 0.0f);
    car c = make_car(world, -10.0f);
    cr_assert(cairn_joint_set_steering(world, c.joints[0], 0.2f));
    scene_step(world, 30);
    size_t size = cairn_world_snapshot_size(world);
    void *buffer = malloc(size);
    cr_assert(cairn_world_snapshot(world, buffer, size), "%s", cairn_last_error());
    scene_step(world, 60);
    uint64_t expected = cairn_world_state_hash(world);
    cr_assert(cairn_world_restore(world, buffer, size), "%s", cairn_last_error());
    cr_assert(cairn_joint_set_steering(world, c.joints[0], -0.4f));
    cr_assert(cairn_world_restore(world, buffer, size), "%s", cairn_last_error());
    cr_expect_eq(cairn_joint_get_def(world, c.joints[0]).steering, 0.2f);
    scene_step(world, 60);
    cr_expect_eq(cairn_world_state_hash(world), expected, "the restored car went elsewhere");
    free(buffer);
    cairn_world_destroy(world);
}
