/* The kinematic push: a kinematic platform driven at 1 m/s by kinematic targets carries a
   box resting on it by friction (the box's velocity approaches 1 m/s and it stays on the
   platform) and pushes a box standing in its path (which moves ahead of it at 1 m/s without
   being overrun). */
#include "scene_helpers.h"

Test(kinematic_push, a_moving_platform_carries_one_box_and_pushes_another)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    /* The platform: 4 x 0.5 x 2 m, its bottom on the floor (kinematic-static pairs never touch). */
    cairn_transform pose = scene_at(v3(0, 0.25f, 0));
    cairn_body_id platform = scene_body(world, cairn_shape_box(v3(2, 0.25f, 1), SCENE_RADIUS),
                                        CAIRN_KINEMATIC, pose, 1000.0f, 0.6f, 0.0f);
    cairn_body_id rider = scene_box(world, v3(0, 1.0f, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    /* In the path: the platform's front (x = 2) reaches this box's back (x = 3.5) after 1.5 s. */
    cairn_body_id blocker = scene_box(world, v3(4, 0.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.3f);
    double worst_gap = 1e9, rider_offset = 0.0;
    for (int n = 1; n <= 240; ++n) { /* 4 s */
        pose.position.x += SCENE_DT; /* 1 m/s */
        cr_assert(cairn_body_set_kinematic_target(world, platform, pose, SCENE_DT), "%s",
                  cairn_last_error());
        cairn_world_step(world, SCENE_DT);
        double px = scene_position(world, platform).x;
        worst_gap = fmin(worst_gap, scene_position(world, blocker).x - 0.5 - (px + 2.0));
        rider_offset = scene_position(world, rider).x - px;
    }
    double t = 240.0 * (double)SCENE_DT;
    cr_expect(fabs(scene_position(world, platform).x - t) < 1e-3, "the platform is at x = %g",
              scene_position(world, platform).x);
    vec3s v_rider = cairn_body_linear_velocity(world, rider);
    cr_expect(fabs(v_rider.x - 1.0) < 0.02, "the rider moves at %g m/s", v_rider.x);
    /* It slid only while friction (mu g = 5.9 m/s^2) brought it up to speed: ~0.085 m. */
    cr_expect(fabs(rider_offset) < 0.15, "the rider slid %g m on the platform", rider_offset);
    cr_expect(fabs(scene_position(world, rider).y - 1.0) < 0.02, "the rider fell off");
    vec3s v_blocker = cairn_body_linear_velocity(world, blocker);
    cr_expect(fabs(v_blocker.x - 1.0) < 0.05, "the pushed box moves at %g m/s", v_blocker.x);
    double pushed = scene_position(world, blocker).x - 4.0;
    cr_expect(fabs(pushed - (t - 1.5)) < 0.1, "the box was pushed %g m, want %g", pushed, t - 1.5);
    cr_log_info("rider %.4f m/s (slid %.4f m), pushed box %.4f m/s, closest gap %.4f m", v_rider.x,
                rider_offset, v_blocker.x, worst_gap);
    cr_expect(worst_gap > -0.05, "the platform overran the box by %g m", -worst_gap);
    cairn_world_destroy(world);
}
