/* Scenario 11: a box dropped at 30 m/s onto a 0.1 m thick static plate does not pass through.
   At 60 Hz the box travels 0.5 m per step: the unit box cannot cross the plate in one step
   unless the contact is lost, the 0.2 m box can (0.5 m > 0.2 m + 0.1 m) unless speculative
   contacts or continuous collision stop it. */
#include "scene_helpers.h"

static void drop(float half_size, float start_gap)
{
    cairn_world *world = scene_default_world();
    /* plate: 0.1 m thick, top face at y = 0.05 */
    scene_body(world, cairn_shape_box(v3(5, 0.05f, 5), 0.01f), CAIRN_STATIC, scene_at(v3(0, 0, 0)),
               1000.0f, 0.6f, 0.0f);
    const vec3s half = v3(half_size, half_size, half_size);
    cairn_body_def bd = cairn_body_default_def();
    cairn_shape *box = cairn_shape_box(half, 0.2f * half_size);
    bd.shape = box;
    bd.transform.position = v3(0.3f, 0.05f + half_size + start_gap, -0.2f);
    bd.linear_velocity = v3(0, -30, 0);
    cairn_body_id id = cairn_body_create(world, &bd);
    cairn_shape_release(box);
    cr_assert(!id_is_null(id), "%s", cairn_last_error());

    double lowest = 1e9, lowest_centre = 1e9;
    int lowest_step = 0;
    for (int n = 1; n <= 120; ++n) { /* 2 s */
        cairn_world_step(world, SCENE_DT);
        cairn_transform xf = cairn_body_transform(world, id);
        double y = scene_box_min_y(xf, half);
        if (y < lowest) {
            lowest = y;
            lowest_step = n;
        }
        if (xf.position.y < lowest_centre)
            lowest_centre = xf.position.y;
    }
    vec3s p = scene_position(world, id);
    cr_log_info("box of side %g at 30 m/s from %g m above the plate: lowest centre y %.4f, lowest "
                "bottom y %.4f (plate top 0.05, mid 0, bottom -0.05; penetration %.4f m) at step "
                "%d; final centre y %.4f",
                2 * half_size, start_gap, lowest_centre, lowest, 0.05 - lowest, lowest_step, p.y);
    /* passing through = its centre gets past the plate's mid-plane (from there on the contact
       pushes it out below); it must also end resting on top of the plate */
    cr_expect(lowest_centre > 0.0,
              "side %g box: its centre reached y = %.4f, past the plate's mid-plane (0)",
              2 * half_size, lowest_centre);
    cr_expect(p.y > 0.05f + half_size - 0.02f, "side %g box ended at y = %.4f, not on the plate",
              2 * half_size, p.y);
    cairn_world_destroy(world);
}

Test(tunnelling, unit_box_at_30_m_per_s)
{
    drop(0.5f, 1.37f);
}

Test(tunnelling, small_box_at_30_m_per_s)
{
    drop(0.1f, 1.37f);
}

Test(tunnelling, small_box_at_30_m_per_s_other_phase)
{
    /* a different distance so the plate is crossed at a different point within a step */
    drop(0.1f, 1.12f);
}

/* A small fast ball against a thin static wall, fired from many distances so that the wall
   falls at every phase of a step's travel: the pair must exist (the fat AABB covers the coming
   step's sweep) before the step in which the ball would cross. Zero gravity, straight at the
   wall. */
static int balls_through_wall(float speed)
{
    int through = 0;
    for (int trial = 0; trial < 8; ++trial) {
        cairn_world_def def = cairn_world_default_def();
        def.gravity = v3(0, 0, 0);
        cairn_world *world = scene_world(&def);
        /* wall: 1 cm thick, its faces at x = +-0.005 */
        scene_body(world, cairn_shape_box(v3(0.005f, 2, 2), 0.0f), CAIRN_STATIC,
                   scene_at(v3(0, 0, 0)), 1000.0f, 0.6f, 0.0f);
        cairn_body_def bd = cairn_body_default_def();
        cairn_shape *ball = cairn_shape_sphere(0.05f);
        bd.shape = ball;
        bd.transform.position = v3(-3.0f - 0.37f * (float)trial, 0, 0);
        bd.linear_velocity = v3(speed, 0, 0);
        cairn_body_id id = cairn_body_create(world, &bd);
        cairn_shape_release(ball);
        for (int n = 0; n < 60; ++n)
            cairn_world_step(world, SCENE_DT);
        through += scene_position(world, id).x > 0.0f;
        cairn_world_destroy(world);
    }
    return through;
}

Test(tunnelling, fast_small_ball_never_passes_a_thin_wall)
{
    const float speeds[] = {10, 20, 40, 80, 160};
    for (int i = 0; i < 5; ++i) {
        int through = balls_through_wall(speeds[i]);
        cr_expect_eq(through, 0, "%d of 8 balls at %g m/s passed the 1 cm wall", through,
                     speeds[i]);
    }
}
