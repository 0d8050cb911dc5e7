/* The largest time step and the valid range of positions: a step above CAIRN_MAX_TIME_STEP is
   refused and changes nothing; a body carried past 1e6 m is disabled and reported, and comes
   back when teleported in and enabled. */
#include "scene_helpers.h"

#include <string.h>

Test(world_bounds, a_step_too_large_is_refused)
{
    cairn_world *world = scene_default_world();
    cairn_body_id ball = scene_body(world, cairn_shape_sphere(0.5f), CAIRN_DYNAMIC,
                                    scene_at(v3(0, 10, 0)), 1000.0f, 0.5f, 0.0f);
    uint64_t hash = cairn_world_state_hash(world);
    cairn_world_step(world, 1e6f);
    cr_expect(strstr(cairn_last_error(), "outside [0, 0.25]") != NULL, "%s", cairn_last_error());
    cr_expect_eq(cairn_world_state_hash(world), hash, "nothing moved");
    cairn_world_step(world, 0.2500001f);
    cr_expect_eq(cairn_world_state_hash(world), hash);
    cairn_world_step(world, CAIRN_MAX_TIME_STEP);
    cr_expect(cairn_body_transform(world, ball).position.y < 10.0f, "the largest step steps");
    cairn_world_destroy(world);
}

Test(world_bounds, a_body_leaving_the_range_is_disabled_and_reported)
{
    cairn_world_def def = cairn_world_default_def();
    def.max_linear_speed = 1e4f;
    def.gravity = v3(0, 0, 0);
    cairn_world *world = scene_world(&def);
    cairn_body_def bd = cairn_body_default_def();
    bd.shape = cairn_shape_sphere(0.5f);
    bd.transform.position = v3(999000.0f, 0, 0);
    bd.linear_velocity = v3(9000.0f, 0, 0); /* 150 m a step: out in 7 steps */
    cairn_body_id runner = cairn_body_create(world, &bd);
    bd.transform.position = v3(0, 0, 0);
    bd.linear_velocity = v3(1, 0, 0);
    cairn_body_id stayer = cairn_body_create(world, &bd);
    cairn_shape_release((cairn_shape *)bd.shape);
    int left_at = -1;
    for (int n = 0; n < 20 && left_at < 0; ++n) {
        cairn_world_step(world, SCENE_DT);
        cairn_body_exit_events events = cairn_world_exit_events(world);
        if (events.exit_count > 0) {
            left_at = n;
            cr_expect_eq(events.exit_count, 1);
            cr_expect(events.exits[0].body.index == runner.index);
            cr_expect_gt(events.exits[0].position.x, 1e6f);
        }
    }
    cr_assert_eq(left_at, 6, "left at step %d", left_at);
    cr_expect(!cairn_body_is_enabled(world, runner), "disabled");
    cr_expect(cairn_body_is_enabled(world, stayer), "the other one stays");
    cr_expect_eq(glms_vec3_norm(cairn_body_linear_velocity(world, runner)), 0.0f);
    cairn_world_step(world, SCENE_DT);
    cr_expect_eq(cairn_world_exit_events(world).exit_count, 0, "reported once");
    /* teleported back and enabled, it moves again */
    cr_assert(cairn_body_set_transform(world, runner, scene_at(v3(10, 0, 0))));
    cr_assert(cairn_body_set_enabled(world, runner, true));
    cr_assert(cairn_body_set_linear_velocity(world, runner, v3(0, 3, 0)));
    cairn_world_step(world, SCENE_DT);
    cr_expect_gt(cairn_body_transform(world, runner).position.y, 0.0f);
    cr_expect_eq(cairn_world_exit_events(NULL).exit_count, 0);
    cairn_world_destroy(world);
}
