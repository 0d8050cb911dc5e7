/* Sleeping bodies cost nothing per step: once an island sleeps, its bodies leave the awake set
   and its contacts are parked, so a step walks none of them (observed through the step
   statistics, which count what the step walked). Waking brings them back intact. */
#include "dynamics/scene_helpers.h"

static cairn_body_id add_box(cairn_world *world, vec3s position)
{
    return scene_body(world, cairn_shape_box(v3(0.5f, 0.5f, 0.5f), SCENE_RADIUS), CAIRN_DYNAMIC,
                      scene_at(position), 1000.0f, 0.6f, 0.0f);
}

static void step_until_asleep(cairn_world *world, int max_steps)
{
    for (int n = 0; n < max_steps; ++n) {
        cairn_world_step(world, SCENE_DT);
        if (cairn_world_step_stats(world).awake_bodies == 0)
            return;
    }
    cr_assert_fail("still %d bodies awake after %d steps",
                   cairn_world_step_stats(world).awake_bodies, max_steps);
}

Test(sleeping, a_sleeping_grid_walks_no_body_and_no_contact)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id boxes[100];
    for (int i = 0; i < 100; ++i)
        boxes[i] = add_box(world, v3(2.0f * (float)(i % 10), 0.5f, 2.0f * (float)(i / 10)));
    step_until_asleep(world, 300);
    uint64_t hash = cairn_world_state_hash(world);
    for (int n = 0; n < 10; ++n) {
        cairn_world_step(world, SCENE_DT);
        cairn_step_stats st = cairn_world_step_stats(world);
        cr_assert_eq(st.bodies, 101);
        cr_assert_eq(st.awake_bodies, 0);
        cr_assert_eq(st.contacts, 0, "a sleeping world walked %d contacts", st.contacts);
        cr_assert_eq(st.points, 0);
        cr_assert_eq(st.manifolds_reused + st.cache_hits + st.epa_calls, 0);
    }
    cr_assert_eq(cairn_world_state_hash(world), hash, "sleeping bodies moved");

    /* Waking one box brings back its contact (with the floor) and nothing else. */
    cairn_body_apply_impulse(world, boxes[55], v3(0, 2000, 0), scene_position(world, boxes[55]));
    cairn_world_step(world, SCENE_DT);
    cairn_step_stats st = cairn_world_step_stats(world);
    cr_expect_eq(st.awake_bodies, 1);
    cr_expect_leq(st.contacts, 1);
    cr_expect(cairn_body_is_awake(world, boxes[55]));
    cr_expect_not(cairn_body_is_awake(world, boxes[54]));
    step_until_asleep(world, 600);
    cr_expect_float_eq(scene_position(world, boxes[55]).y, 0.5f, 0.01f);
    cairn_world_destroy(world);
}

/* A box dropped on a sleeping stack wakes the whole island through the parked contacts, and the
   stack still holds it: the revived manifolds are right. */
Test(sleeping, a_box_dropped_on_a_sleeping_stack_wakes_it_and_rests_on_top)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id stack[5];
    for (int i = 0; i < 5; ++i)
        stack[i] = add_box(world, v3(0, 0.5f + (float)i, 0));
    step_until_asleep(world, 300);
    float bottom_y = scene_position(world, stack[0]).y;
    cairn_body_id dropped = add_box(world, v3(0, 6.5f, 0));
    bool bottom_woke = false;
    for (int n = 0; n < 60; ++n) {
        cairn_world_step(world, SCENE_DT);
        bottom_woke = bottom_woke || cairn_body_is_awake(world, stack[0]);
    }
    cr_expect(bottom_woke, "the touch did not spread to the bottom of the stack");
    step_until_asleep(world, 600);
    cr_expect_float_eq(scene_position(world, dropped).y, 5.5f, 0.03f);
    cr_expect_float_eq(scene_position(world, stack[0]).y, bottom_y, 0.01f);
    for (int i = 0; i < 5; ++i) {
        vec3s p = scene_position(world, stack[i]);
        cr_expect(fabsf(p.x) < 0.01f && fabsf(p.z) < 0.01f, "box %d slid to (%g, %g)", i, p.x, p.z);
    }
    cairn_world_destroy(world);
}

/* Destroying a body under a sleeping one: the sleeper wakes and falls to the floor. */
Test(sleeping, destroying_the_support_wakes_and_drops_the_sleeper)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id lower = add_box(world, v3(0, 0.5f, 0));
    cairn_body_id upper = add_box(world, v3(0, 1.5f, 0));
    step_until_asleep(world, 300);
    cairn_body_destroy(world, lower);
    cr_expect(cairn_body_is_awake(world, upper));
    for (int n = 0; n < 120; ++n)
        cairn_world_step(world, SCENE_DT);
    cr_expect_float_eq(scene_position(world, upper).y, 0.5f, 0.02f);
    cairn_world_destroy(world);
}

static int count_ends(const cairn_world *world)
{
    return cairn_world_contact_events(world).end_count;
}

/* Disabling a sleeping body ends its parked contacts (one end event), and enabling it again
   makes exactly one contact with the floor, not a second copy. */
Test(sleeping, disabling_a_sleeping_body_ends_its_parked_contacts)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id box = add_box(world, v3(0, 0.5f, 0));
    step_until_asleep(world, 300);
    cr_assert(cairn_body_set_enabled(world, box, false));
    int ends = 0, begins = 0;
    for (int n = 0; n < 3; ++n) {
        cairn_world_step(world, SCENE_DT);
        ends += count_ends(world);
    }
    cr_expect_eq(ends, 1, "disabling a sleeping body gave %d end events", ends);
    cr_assert(cairn_body_set_enabled(world, box, true));
    for (int n = 0; n < 30; ++n) {
        cairn_world_step(world, SCENE_DT);
        begins += cairn_world_contact_events(world).begin_count;
        ends += count_ends(world);
    }
    cr_expect_eq(begins, 1);
    cr_expect_eq(ends, 1);
    cr_expect_eq(cairn_world_step_stats(world).contacts, 1);
    cr_expect_eq(cairn_world_step_stats(world).points, 4);
    cairn_world_destroy(world);
}

/* A disabled body ignores forces: nothing is left over to push it when it comes back. */
Test(sleeping, forces_on_a_disabled_body_are_ignored)
{
    cairn_world_def def = cairn_world_default_def();
    def.gravity = v3(0, 0, 0);
    cairn_world *world = scene_world(&def);
    cairn_body_id box = add_box(world, v3(0, 5, 0));
    cr_assert(cairn_body_set_enabled(world, box, false));
    cr_assert(cairn_body_apply_force(world, box, v3(1000, 0, 0), v3(0, 5, 0)));
    cr_assert(cairn_body_apply_torque(world, box, v3(0, 1000, 0)));
    cairn_world_step(world, SCENE_DT);
    cr_assert(cairn_body_set_enabled(world, box, true));
    cairn_world_step(world, SCENE_DT);
    cr_expect_float_eq(cairn_body_linear_velocity(world, box).x, 0.0f, 1e-7f);
    cr_expect_float_eq(cairn_body_angular_velocity(world, box).y, 0.0f, 1e-7f);
    cairn_world_destroy(world);
}

Test(sleeping, waking_one_box_wakes_its_whole_island_and_no_other)
{
    /* two sleeping stacks of 30: waking the bottom box of one wakes all 30 of it (the island,
       found breadth first over the parked contacts), and none of the other */
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    enum { N = 30 };
    cairn_body_id left[N], right[N];
    scene_stack(world, -3, 0, N, true, left);
    scene_stack(world, 3, 0, N, true, right);
    step_until_asleep(world, 600);
    cr_assert(cairn_body_set_awake(world, left[0], true));
    for (int i = 0; i < N; ++i) {
        cr_expect(cairn_body_is_awake(world, left[i]), "box %d of the woken stack sleeps", i);
        cr_expect(!cairn_body_is_awake(world, right[i]), "box %d of the other stack woke", i);
    }
    /* and putting the top box to sleep puts the whole island back */
    cr_assert(cairn_body_set_awake(world, left[N - 1], false));
    for (int i = 0; i < N; ++i)
        cr_expect(!cairn_body_is_awake(world, left[i]), "box %d stayed awake", i);
    cairn_world_destroy(world);
}

Test(sleeping, a_moving_kinematic_body_wakes_the_sleeper_it_touches_in_the_same_step)
{
    /* A box put to sleep on a kinematic platform that keeps rising: the platform is not part of
       the box's island, so only the narrow phase's touch wakes the box, in the step that finds
       the touch, before the solver (the box then rises with the platform). */
    cairn_world *world = scene_default_world();
    cairn_body_id platform =
        scene_body(world, cairn_shape_box(v3(2, 0.25f, 2), SCENE_RADIUS), CAIRN_KINEMATIC,
                   scene_at(v3(0, 1, 0)), 1000.0f, 0.6f, 0.0f);
    cairn_body_id box = add_box(world, v3(0, 1.75f, 0));
    for (int n = 0; n < 30; ++n)
        cairn_world_step(world, SCENE_DT);
    cr_assert(cairn_body_set_linear_velocity(world, platform, v3(0, 0.5f, 0)));
    cr_assert(cairn_body_set_awake(world, box, false));
    cr_assert(!cairn_body_is_awake(world, box));
    float before = cairn_body_transform(world, box).position.y;
    cairn_world_step(world, SCENE_DT);
    cr_expect(cairn_body_is_awake(world, box), "the touched box still sleeps");
    cr_expect_gt(cairn_body_transform(world, box).position.y, before + 0.001f,
                 "the box did not move with the platform in the step that woke it");
    cairn_world_destroy(world);
}

Test(sleeping, a_box_set_down_beside_a_stack_put_to_sleep_wakes_all_of_it_in_that_step)
{
    /* A stack put to sleep through the API keeps its contacts in the step's array until the next
       island pass parks them, so the narrow phase skips them (both bodies asleep). A box created
       touching the bottom box wakes the stack in the narrow phase's serial pass, which then
       collides the stack's later contacts itself: the solver must find them all, and room for
       their manifolds (Sanitize builds check its count against a walk over the contacts). */
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id stack[4];
    for (int i = 0; i < 4; ++i)
        stack[i] = add_box(world, v3(0, 0.5f + (float)i, 0));
    for (int n = 0; n < 10; ++n) /* settled, not yet asleep by itself */
        cairn_world_step(world, SCENE_DT);
    cr_assert_eq(cairn_world_step_stats(world).awake_bodies, 4);
    float top_y = scene_position(world, stack[3]).y;
    for (int i = 0; i < 4; ++i)
        cr_assert(cairn_body_set_awake(world, stack[i], false));
    cairn_body_id beside = add_box(world, v3(1.0f, 0.5f, 0));
    cairn_world_step(world, SCENE_DT);
    for (int i = 0; i < 4; ++i)
        cr_expect(cairn_body_is_awake(world, stack[i]), "box %d of the stack still sleeps", i);
    cr_expect_eq(cairn_world_step_stats(world).contacts, 6, "%d touching contacts, not 6",
                 cairn_world_step_stats(world).contacts);
    for (int n = 0; n < 60; ++n)
        cairn_world_step(world, SCENE_DT);
    cr_expect_float_eq(scene_position(world, stack[3]).y, top_y, 0.01f);
    cr_expect_float_eq(scene_position(world, beside).y, 0.5f, 0.01f);
    cairn_world_destroy(world);
}
