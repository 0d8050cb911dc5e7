/* The body setters that change what a body is: a disabled body is not hit and does not collide
   and comes back where it was; sleep control; a material change acts on an existing contact;
   user data; the mass getters against the analytic mass of a sphere and a box. */
#include "scene_helpers.h"

static bool ray_hits(const cairn_world *world, vec3s origin, vec3s translation, cairn_body_id id)
{
    cairn_ray_hit hit;
    return cairn_world_raycast(world, origin, translation, &hit) && hit.body.index == id.index &&
           hit.body.generation == id.generation;
}

Test(body_control, a_disabled_body_is_not_hit_does_not_collide_and_comes_back)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    /* A static shelf at y = 2 and a box resting on it. */
    cairn_body_id shelf = scene_body(world, cairn_shape_box(v3(2, 0.25f, 2), SCENE_RADIUS),
                                     CAIRN_STATIC, scene_at(v3(0, 2, 0)), 1000.0f, 0.6f, 0.0f);
    cairn_body_id box = scene_box(world, v3(0, 2.75f, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    scene_step(world, 60);
    cr_assert(ray_hits(world, v3(1.5f, 5, 0), v3(0, -5, 0), shelf));
    cr_assert(cairn_body_set_enabled(world, shelf, false));
    cr_expect(!cairn_body_is_enabled(world, shelf));
    cr_expect(!ray_hits(world, v3(1.5f, 5, 0), v3(0, -5, 0), shelf), "a disabled body was hit");
    cr_expect(cairn_body_is_awake(world, box), "the box resting on the shelf did not wake");
    scene_step(world, 90);
    double y = scene_position(world, box).y;
    cr_expect(fabs(y - 0.5) < 0.02, "the box did not fall through to the floor (y = %g)", y);
    cr_assert(cairn_body_set_enabled(world, shelf, true));
    cr_expect(ray_hits(world, v3(1.5f, 5, 0), v3(0, -5, 0), shelf), "the shelf did not come back");
    cr_expect(scene_distance(scene_position(world, shelf), v3(0, 2, 0)) == 0.0);
    /* It collides again: a box dropped onto it stops on it. */
    cairn_body_id second = scene_box(world, v3(0, 4, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    scene_step(world, 90);
    y = scene_position(world, second).y;
    cr_expect(fabs(y - 2.75) < 0.02, "the second box is at y = %g, not on the shelf", y);
    cairn_world_destroy(world);
}

Test(body_control, a_disabled_dynamic_body_keeps_its_state_and_resumes)
{
    cairn_world *world = scene_default_world();
    cairn_body_id ball = scene_sphere(world, v3(0, 10, 0), 0.5f, 1000.0f, 0.5f, 0.0f);
    cr_assert(cairn_body_set_linear_velocity(world, ball, v3(1, 2, 3)));
    cr_assert(cairn_body_set_enabled(world, ball, false));
    cr_expect(!cairn_body_is_awake(world, ball));
    scene_step(world, 60);
    cr_expect(scene_distance(scene_position(world, ball), v3(0, 10, 0)) == 0.0,
              "a disabled body moved");
    cr_expect(scene_distance(cairn_body_linear_velocity(world, ball), v3(1, 2, 3)) == 0.0);
    /* An impulse or a wake does not bring it back, and the impulses are ignored, as forces are
       (kept, a pooled body would fly off when enabled: a 0.08 m sphere pushed off its centre
       came back spinning at 1,932 rad/s); enabling brings it back. */
    cairn_body_apply_impulse(world, ball, v3(0, 100, 0), v3(0.3f, 10, 0));
    cr_expect(cairn_body_apply_angular_impulse(world, ball, v3(50, 0, 0)));
    cr_expect(!cairn_body_is_awake(world, ball));
    cr_expect(scene_distance(cairn_body_linear_velocity(world, ball), v3(1, 2, 3)) == 0.0,
              "an impulse changed a disabled body's velocity");
    cr_expect(scene_distance(cairn_body_angular_velocity(world, ball), v3(0, 0, 0)) == 0.0,
              "an impulse turned a disabled body");
    cr_assert(cairn_body_set_enabled(world, ball, true));
    cr_expect(cairn_body_is_awake(world, ball));
    cairn_world_step(world, SCENE_DT);
    vec3s p = scene_position(world, ball);
    cr_expect(p.x > 0.0f && p.z > 0.0f, "the body did not resume its motion");
    cairn_world_destroy(world);
}

/* Disabling and enabling between two steps leaves the touch as it was (no end/begin). */
Test(body_control, disable_then_enable_before_a_step_changes_nothing)
{
    cairn_world *world = scene_default_world();
    cairn_body_id floor = scene_floor(world, 0.6f, 0.0f);
    scene_box(world, v3(0, 0.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    scene_step(world, 10);
    cr_assert(cairn_body_set_enabled(world, floor, false));
    cr_assert(cairn_body_set_enabled(world, floor, true));
    cairn_world_step(world, SCENE_DT);
    cairn_contact_events e = cairn_world_contact_events(world);
    cr_expect_eq(e.begin_count + e.end_count, 0);
    cr_expect_eq(cairn_world_step_stats(world).contacts, 1);
    cairn_world_destroy(world);
}

Test(body_control, sleep_control)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id ids[3];
    scene_stack(world, 0, 0, 3, true, ids);
    cairn_body_id lone = scene_box(world, v3(5, 0.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    scene_step(world, 10);
    cr_assert(cairn_body_is_awake(world, ids[0]));
    /* Putting the top box to sleep puts its island (the whole stack) to sleep, not the lone box. */
    cr_assert(cairn_body_set_awake(world, ids[2], false));
    for (int i = 0; i < 3; ++i)
        cr_expect(!cairn_body_is_awake(world, ids[i]), "box %d of the stack is awake", i);
    cr_expect(cairn_body_is_awake(world, lone));
    cairn_world_step(world, SCENE_DT);
    cr_expect(!cairn_body_is_awake(world, ids[0]), "the stack woke up by itself");
    cr_assert(cairn_body_set_awake(world, ids[0], true));
    for (int i = 0; i < 3; ++i)
        cr_expect(cairn_body_is_awake(world, ids[i]), "box %d of the stack is asleep", i);
    /* A body that may not sleep stays awake while its neighbour falls asleep. */
    cr_assert(cairn_body_set_allow_sleep(world, lone, false));
    cr_expect(!cairn_body_is_sleep_allowed(world, lone));
    cr_expect(cairn_body_is_sleep_allowed(world, ids[0]));
    scene_step(world, 120);
    cr_expect(cairn_body_is_awake(world, lone));
    cr_expect(!cairn_body_is_awake(world, ids[0]));
    cairn_world_destroy(world);
}

/* A box slides on a floor at v0 = 3 m/s. With friction 0.5 on both it stops after
   v0^2 / (2 mu g) = 0.917 m; with its own friction set to 0 mid-slide (the contact exists
   already) the combined friction is sqrt(0 * 0.5) = 0 and it keeps its speed. */
Test(body_control, a_material_change_acts_on_an_existing_contact)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.5f, 0.0f);
    cairn_body_id box = scene_box(world, v3(0, 0.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.5f);
    scene_step(world, 10);
    cr_assert_eq(cairn_world_step_stats(world).contacts, 1);
    cr_assert(cairn_body_set_linear_velocity(world, box, v3(3, 0, 0)));
    scene_step(world, 6); /* 0.1 s with friction: slows by mu g t = 0.49 m/s */
    double v_friction = cairn_body_linear_velocity(world, box).x;
    cr_expect(fabs(v_friction - (3.0 - 0.5 * SCENE_G * 0.1)) < 0.05, "v = %g after 0.1 s",
              v_friction);
    cr_assert(cairn_body_set_friction(world, box, 0.0f));
    cr_expect_eq(cairn_body_friction(world, box), 0.0f);
    scene_step(world, 60);
    double v_free = cairn_body_linear_velocity(world, box).x;
    cr_expect(fabs(v_free - v_friction) < 1e-3, "v went from %g to %g without friction", v_friction,
              v_free);
    cr_assert(cairn_body_set_friction(world, box, 0.5f));
    scene_step(world, 6);
    double v_again = cairn_body_linear_velocity(world, box).x;
    cr_expect(fabs(v_again - (v_free - 0.5 * SCENE_G * 0.1)) < 0.05, "v = %g", v_again);
    cairn_world_destroy(world);
}

/* Restitution set while the ball rests on the floor (the contact exists, and stays: the ball
   never leaves the fat bounds in one step): driven into the floor at 3 m/s it comes back at
   about 3 m/s with restitution 1, and stays with restitution 0. */
Test(body_control, a_restitution_change_acts_on_an_existing_contact)
{
    cairn_world *world = scene_default_world();
    cairn_body_id floor = scene_floor(world, 0.5f, 0.0f);
    cairn_body_id ball = scene_sphere(world, v3(0, 0.25f, 0), 0.25f, 1000.0f, 0.5f, 0.0f);
    scene_step(world, 10);
    cr_assert(cairn_body_set_linear_velocity(world, ball, v3(0, -3, 0)));
    cairn_world_step(world, SCENE_DT);
    double dead = cairn_body_linear_velocity(world, ball).y;
    cr_expect(fabs(dead) < 0.3, "bounced at %g m/s with restitution 0", dead);
    scene_step(world, 10);
    cr_assert(cairn_body_set_restitution(world, ball, 1.0f));
    cr_assert(cairn_body_set_restitution(world, floor, 1.0f));
    cr_expect_eq(cairn_body_restitution(world, ball), 1.0f);
    cr_assert(cairn_body_set_linear_velocity(world, ball, v3(0, -3, 0)));
    cairn_world_step(world, SCENE_DT);
    double up = cairn_body_linear_velocity(world, ball).y;
    cr_expect(fabs(up - 3.0) < 0.3, "came back at %g m/s with restitution 1", up);
    cairn_world_destroy(world);
}

Test(body_control, user_data_and_mass_getters)
{
    cairn_world *world = scene_default_world();
    float radius = 0.3f, density = 500.0f;
    cairn_body_id ball = scene_sphere(world, v3(1, 2, 3), radius, density, 0.5f, 0.0f);
    int token = 7;
    cr_expect_null(cairn_body_user_data(world, ball));
    cr_assert(cairn_body_set_user_data(world, ball, &token));
    cr_expect_eq(cairn_body_user_data(world, ball), &token);
    double m = density * 4.0 / 3.0 * SCENE_PI * radius * radius * radius;
    cr_expect(fabs(cairn_body_mass(world, ball) - m) < 1e-5 * m, "mass %g, want %g",
              cairn_body_mass(world, ball), m);
    mat3s inertia = cairn_body_inertia(world, ball);
    double i = 0.4 * m * radius * radius;
    for (int k = 0; k < 3; ++k)
        cr_expect(fabs(inertia.raw[k][k] - i) < 1e-4 * i, "I[%d][%d] = %g, want %g", k, k,
                  inertia.raw[k][k], i);
    cr_expect(scene_distance(cairn_body_center_of_mass(world, ball), v3(1, 2, 3)) < 1e-6);
    cairn_body_id wall = scene_body(world, cairn_shape_box(v3(1, 1, 1), 0.0f), CAIRN_STATIC,
                                    scene_at(v3(9, 0, 0)), 1000.0f, 0.5f, 0.0f);
    cr_expect_eq(cairn_body_mass(world, wall), 0.0f);
    cairn_world_destroy(world);
}

/* Ids are equal when they name the same slot in the same generation: a destroyed body's slot
   reused by a new body gives an id that is not equal to the old one. */
Test(body_control, ids_are_equal_only_for_the_same_slot_and_generation)
{
    cairn_world *world = scene_default_world();
    cairn_body_id a = scene_box(world, v3(0, 1, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.5f);
    cairn_body_id b = scene_box(world, v3(3, 1, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.5f);
    cairn_body_id null = {0, 0};
    cr_expect(cairn_body_id_equal(a, a));
    cr_expect(cairn_body_id_equal(null, null));
    cr_expect_not(cairn_body_id_equal(a, b));
    cr_expect_not(cairn_body_id_equal(a, null));
    cairn_body_destroy(world, a);
    cairn_body_id again = scene_box(world, v3(0, 1, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.5f);
    cr_assert_eq(again.index, a.index, "the slot is reused");
    cr_expect_not(cairn_body_id_equal(again, a), "a new generation");
    cairn_world_destroy(world);
}
