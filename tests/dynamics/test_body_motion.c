/* The body setters that move bodies, each against its analytic effect: a teleport is seen by a
   raycast on the same frame, a force F for t seconds gives v = F t / m, a torque gives
   w = I^-1 T t (in the body's new frame after a teleport), gravity scale 0 floats and -1 rises
   at g, a kinematic target is reached in one step, and velocity setters wake. */
#include "scene_helpers.h"

/* No gravity and no damping: only what the test applies changes the velocities. */
static cairn_world *free_space_world(void)
{
    cairn_world_def def = cairn_world_default_def();
    def.gravity = v3(0, 0, 0);
    def.angular_damping = 0.0f;
    def.linear_damping = 0.0f;
    return scene_world(&def);
}

static double relative_error(double got, double expected)
{
    return fabs(got - expected) / fabs(expected);
}

static double sphere_mass(double radius, double density)
{
    return density * 4.0 / 3.0 * SCENE_PI * radius * radius * radius;
}

Test(body_motion, teleport_is_seen_by_a_raycast_on_the_same_frame)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id box = scene_box(world, v3(0, 0.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    scene_step(world, 60);
    cairn_transform to = cairn_transform_identity();
    to.position = v3(20, 3, -7);
    to.rotation = glms_quatv(0.5f, glms_vec3_normalize(v3(1, 2, 3)));
    cr_assert(cairn_body_set_transform(world, box, to), "%s", cairn_last_error());
    cairn_ray_hit hit;
    /* Straight down through the new centre: the top of the turned box, below y = 3 + sqrt(3)/2. */
    cr_assert(cairn_world_raycast(world, v3(20, 10, -7), v3(0, -10, 0), &hit));
    cr_expect_eq(hit.body.index, box.index);
    cr_expect(hit.point.y > 3.0f && hit.point.y < 3.0f + 0.87f, "hit at y = %g", hit.point.y);
    /* The old place is empty: the ray reaches the floor. */
    cr_assert(cairn_world_raycast(world, v3(0, 10, 0), v3(0, -20, 0), &hit));
    cr_expect_neq(hit.body.index, box.index);
    cr_expect(fabsf(hit.point.y) < 1e-3f, "floor hit at y = %g", hit.point.y);
    vec3s center = cairn_body_center_of_mass(world, box);
    cr_expect(scene_distance(center, to.position) < 1e-5, "centre not moved with the body");
    cr_expect(cairn_body_is_awake(world, box));
    cairn_world_destroy(world);
}

Test(body_motion, teleporting_a_sleeping_body_wakes_it_and_it_falls)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id box = scene_box(world, v3(0, 0.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    scene_step(world, 120);
    cr_assert(!cairn_body_is_awake(world, box), "the box should be asleep before the teleport");
    cr_assert(cairn_body_set_transform(world, box, scene_at(v3(0, 5, 0))));
    cr_expect(cairn_body_is_awake(world, box));
    scene_step(world, 30); /* 0.5 s: it falls 0.5 g t^2 = 1.23 m */
    double y = scene_position(world, box).y;
    cr_expect(fabs(y - (5.0 - 0.5 * SCENE_G * 0.25)) < 0.05, "y = %g after 0.5 s", y);
    cairn_world_destroy(world);
}

Test(body_motion, force_for_one_second_gives_f_t_over_m)
{
    cairn_world *world = free_space_world();
    float radius = 0.5f, density = 800.0f;
    cairn_body_id ball = scene_sphere(world, v3(0, 0, 0), radius, density, 0.5f, 0.0f);
    vec3s force = v3(30, -12, 5);
    for (int n = 0; n < 60; ++n) {
        cr_assert(cairn_body_apply_force(world, ball, force, scene_position(world, ball)));
        cairn_world_step(world, SCENE_DT);
    }
    double m = sphere_mass(radius, density), t = 60.0 * (double)SCENE_DT;
    vec3s v = cairn_body_linear_velocity(world, ball);
    for (int k = 0; k < 3; ++k)
        cr_expect(relative_error(v.raw[k], force.raw[k] * t / m) < 1e-4, "v[%d] = %g, want %g", k,
                  v.raw[k], force.raw[k] * t / m);
    cr_expect(scene_length(cairn_body_angular_velocity(world, ball)) < 1e-6,
              "a force at the centre turned the ball");
    /* Forces last one step: without a new call the velocity stays. */
    scene_step(world, 10);
    vec3s after = cairn_body_linear_velocity(world, ball);
    cr_expect(scene_distance(after, v) < 1e-6, "the force was not cleared after the step");
    cairn_world_destroy(world);
}

Test(body_motion, torque_on_a_sphere_gives_inverse_inertia_times_torque_times_t)
{
    cairn_world *world = free_space_world();
    float radius = 0.4f, density = 1200.0f;
    cairn_body_id ball = scene_sphere(world, v3(0, 0, 0), radius, density, 0.5f, 0.0f);
    vec3s torque = v3(0.3f, -0.2f, 0.5f);
    for (int n = 0; n < 60; ++n) {
        cr_assert(cairn_body_apply_torque(world, ball, torque));
        cairn_world_step(world, SCENE_DT);
    }
    double inertia = 0.4 * sphere_mass(radius, density) * radius * radius;
    vec3s w = cairn_body_angular_velocity(world, ball);
    for (int k = 0; k < 3; ++k)
        cr_expect(relative_error(w.raw[k], torque.raw[k] / inertia) < 1e-4, "w[%d] = %g, want %g",
                  k, w.raw[k], torque.raw[k] / inertia);
    cr_expect(scene_length(cairn_body_linear_velocity(world, ball)) < 1e-6);
    cairn_world_destroy(world);
}

/* An impulse or a torque so large that the velocity's squared length overflows a float (past
   1.8e19) is held to the world's speed limits like any other, in its own direction: it once
   stopped the body instead (the limit over an infinite length). */
Test(body_motion, a_huge_impulse_or_torque_is_held_to_the_speed_limits)
{
    cairn_world *world = free_space_world();
    cairn_world_def def = cairn_world_get_def(world);
    cairn_body_id ball = scene_sphere(world, v3(0, 0, 0), 0.5f, 800.0f, 0.5f, 0.0f);
    cairn_body_id top = scene_sphere(world, v3(0, 0, 50), 0.5f, 800.0f, 0.5f, 0.0f);
    vec3s push = v3(3e30f, 4e30f, 0), turn = v3(0, 0, -1e30f);
    cairn_body_apply_impulse(world, ball, push, scene_position(world, ball));
    cr_assert(cairn_body_apply_torque(world, top, turn));
    cairn_world_step(world, SCENE_DT);
    vec3s v = cairn_body_linear_velocity(world, ball), w = cairn_body_angular_velocity(world, top);
    cr_expect(relative_error(scene_length(v), def.max_linear_speed) < 1e-5, "|v| = %g, limit %g",
              (double)scene_length(v), (double)def.max_linear_speed);
    cr_expect(relative_error(v.x, 0.6 * def.max_linear_speed) < 1e-5, "v.x = %g", (double)v.x);
    cr_expect(relative_error(v.y, 0.8 * def.max_linear_speed) < 1e-5, "v.y = %g", (double)v.y);
    cr_expect(relative_error(w.z, -def.max_angular_speed) < 1e-5, "w.z = %g, limit %g", (double)w.z,
              (double)def.max_angular_speed);
    cairn_world_destroy(world);
}

/* A force F at a point r from the centre adds the torque r x F. */
Test(body_motion, force_off_centre_adds_its_torque)
{
    cairn_world *world = free_space_world();
    float radius = 0.5f, density = 1000.0f;
    cairn_body_id ball = scene_sphere(world, v3(1, 2, 3), radius, density, 0.5f, 0.0f);
    vec3s force = v3(4, 0, 0), arm = v3(0, radius, 0);
    cr_assert(cairn_body_apply_force(world, ball, force, glms_vec3_add(v3(1, 2, 3), arm)));
    cairn_world_step(world, SCENE_DT);
    double m = sphere_mass(radius, density), inertia = 0.4 * m * radius * radius;
    vec3s torque = glms_vec3_cross(arm, force);
    vec3s w = cairn_body_angular_velocity(world, ball), v = cairn_body_linear_velocity(world, ball);
    cr_expect(relative_error(w.z, torque.z * SCENE_DT / inertia) < 1e-4, "w.z = %g", w.z);
    cr_expect(relative_error(v.x, force.x * SCENE_DT / m) < 1e-4, "v.x = %g", v.x);
    cairn_world_destroy(world);
}

/* After a teleport that turns a long box, a torque acts through the turned inertia
   R I R^T, computed here from the box's analytic inertia. */
Test(body_motion, teleport_turns_the_world_inertia)
{
    cairn_world *world = free_space_world();
    vec3s half = v3(1.0f, 0.5f, 0.25f);
    cairn_body_id box = scene_body(world, cairn_shape_box(half, 0.0f), CAIRN_DYNAMIC,
                                   scene_at(v3(0, 0, 0)), 1000.0f, 0.5f, 0.0f);
    cairn_transform to = cairn_transform_identity();
    to.rotation = glms_quatv(0.7f, glms_vec3_normalize(v3(1, -1, 2)));
    cr_assert(cairn_body_set_transform(world, box, to));
    vec3s impulse = v3(0.2f, 0.1f, -0.3f);
    cr_assert(cairn_body_apply_angular_impulse(world, box, impulse));
    double m = 1000.0 * 8.0 * half.x * half.y * half.z;
    double diag[3] = {m / 3.0 * (half.y * half.y + half.z * half.z),
                      m / 3.0 * (half.x * half.x + half.z * half.z),
                      m / 3.0 * (half.x * half.x + half.y * half.y)};
    /* w = R I^-1 R^T L */
    vec3s local = glms_quat_rotatev(glms_quat_conjugate(to.rotation), impulse);
    vec3s scaled =
        v3((float)(local.x / diag[0]), (float)(local.y / diag[1]), (float)(local.z / diag[2]));
    vec3s expected = glms_quat_rotatev(to.rotation, scaled);
    vec3s w = cairn_body_angular_velocity(world, box);
    cr_expect(scene_distance(w, expected) < 1e-4 * scene_length(expected), "w = (%g, %g, %g)", w.x,
              w.y, w.z);
    cairn_world_destroy(world);
}

Test(body_motion, gravity_scale_zero_floats_and_minus_one_rises_at_g)
{
    cairn_world *world = scene_default_world();
    cairn_body_id floating = scene_sphere(world, v3(0, 5, 0), 0.5f, 1000.0f, 0.5f, 0.0f);
    cairn_body_id rising = scene_sphere(world, v3(5, 5, 0), 0.5f, 1000.0f, 0.5f, 0.0f);
    cairn_body_id falling = scene_sphere(world, v3(-5, 5, 0), 0.5f, 1000.0f, 0.5f, 0.0f);
    cr_assert(cairn_body_set_gravity_scale(world, floating, 0.0f));
    cr_assert(cairn_body_set_gravity_scale(world, rising, -1.0f));
    cr_expect_eq(cairn_body_gravity_scale(world, rising), -1.0f);
    cr_expect_eq(cairn_body_gravity_scale(world, falling), 1.0f);
    scene_step(world, 60);
    double t = 60.0 * (double)SCENE_DT;
    cr_expect(scene_length(cairn_body_linear_velocity(world, floating)) == 0.0);
    cr_expect(scene_distance(scene_position(world, floating), v3(0, 5, 0)) == 0.0);
    vec3s up = cairn_body_linear_velocity(world, rising);
    vec3s down = cairn_body_linear_velocity(world, falling);
    cr_expect(relative_error(up.y, SCENE_G * t) < 1e-4, "rising at %g m/s", up.y);
    cr_expect(relative_error(down.y, -SCENE_G * t) < 1e-4, "falling at %g m/s", down.y);
    cairn_world_destroy(world);
}

/* A kinematic body sent to a pose 1.2 m away and turned by 2 rad gets there in one step. */
Test(body_motion, kinematic_target_is_reached_in_one_step)
{
    cairn_world *world = scene_default_world();
    vec3s points[5] = {v3(0, 0, 0), v3(2, 0, 0), v3(0, 1, 0), v3(0, 0, 1.5f), v3(1, 1, 1)};
    cairn_transform start = cairn_transform_identity();
    start.position = v3(1, 2, 3);
    cairn_body_id k = scene_body(world, cairn_shape_hull(points, 5, 0.0f), CAIRN_KINEMATIC, start,
                                 1000.0f, 0.5f, 0.0f);
    cairn_transform target;
    target.position = v3(1.5f, 2.8f, 2.2f);
    target.rotation = glms_quatv(2.0f, glms_vec3_normalize(v3(0.3f, 1, -0.5f)));
    cr_assert(cairn_body_set_kinematic_target(world, k, target, SCENE_DT), "%s",
              cairn_last_error());
    cairn_world_step(world, SCENE_DT);
    cairn_transform got = cairn_body_transform(world, k);
    cr_expect(scene_distance(got.position, target.position) < 1e-4, "at (%g, %g, %g)",
              got.position.x, got.position.y, got.position.z);
    float dot = fabsf(glms_quat_dot(got.rotation, target.rotation));
    cr_expect(dot > 1.0f - 1e-6f, "rotation off by |q.q'| = %.9f", dot);
    vec3s w = cairn_body_angular_velocity(world, k);
    cr_expect(fabs(scene_length(w) - 2.0 / SCENE_DT) < 1e-2, "|w| = %g", scene_length(w));
    cairn_world_destroy(world);
}

Test(body_motion, velocity_setters_set_and_wake)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id box = scene_box(world, v3(0, 0.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    scene_step(world, 120);
    cr_assert(!cairn_body_is_awake(world, box));
    cr_assert(cairn_body_set_linear_velocity(world, box, v3(0, 3, 0)));
    cr_expect(cairn_body_is_awake(world, box));
    cr_expect_eq(cairn_body_linear_velocity(world, box).y, 3.0f);
    cr_assert(cairn_body_set_angular_velocity(world, box, v3(0, 2, 0)));
    cr_expect_eq(cairn_body_angular_velocity(world, box).y, 2.0f);
    cairn_world_step(world, SCENE_DT);
    cr_expect(scene_position(world, box).y > 0.5f + 0.04f, "the box did not rise");
    cairn_world_destroy(world);
}

Test(body_motion, world_def_changes_between_steps)
{
    cairn_world *world = scene_default_world();
    cairn_body_id ball = scene_sphere(world, v3(0, 5, 0), 0.5f, 1000.0f, 0.5f, 0.0f);
    cairn_world_def def = cairn_world_get_def(world);
    cr_expect_eq(def.gravity.y, -9.81f);
    def.gravity = v3(2, 0, 0);
    cr_assert(cairn_world_set_def(world, &def), "%s", cairn_last_error());
    scene_step(world, 60);
    vec3s v = cairn_body_linear_velocity(world, ball);
    cr_expect(relative_error(v.x, 2.0 * 60.0 * (double)SCENE_DT) < 1e-4, "v.x = %g", v.x);
    cr_expect(fabsf(v.y) < 1e-6f, "old gravity still acts: v.y = %g", v.y);
    cr_expect_eq(cairn_world_get_def(world).gravity.x, 2.0f);
    cairn_world_destroy(world);
}
