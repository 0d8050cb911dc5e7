/* Scenario 2: a box resting on a floor. Penetration never exceeds 1 cm (slop + margin), its
   velocity falls below 1 mm/s and it sleeps within 2 s. */
#include "scene_helpers.h"

static void resting(vec3s half, vec3s position)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id box = scene_box(world, position, half, 1000.0f, 0.6f);

    double worst_pen = 0;
    int worst_step = 0, slept_step = -1;
    for (int n = 1; n <= 180; ++n) { /* 3 s: 2 s to settle and sleep, 1 s more asleep */
        cairn_world_step(world, SCENE_DT);
        double pen = -scene_box_min_y(cairn_body_transform(world, box), half);
        if (pen > worst_pen) {
            worst_pen = pen;
            worst_step = n;
        }
        if (slept_step < 0 && !cairn_body_is_awake(world, box))
            slept_step = n;
        if (n == 120) {
            double v = scene_length(cairn_body_linear_velocity(world, box));
            /* angular speed times the farthest corner distance: speed of the fastest point */
            double w = scene_length(cairn_body_angular_velocity(world, box)) * scene_length(half);
            cr_log_info("resting box %gx%gx%g at t = 2 s: |v| = %.3g m/s, |w| r = %.3g m/s, "
                        "awake = %d, slept at step %d",
                        2 * half.x, 2 * half.y, 2 * half.z, v, w,
                        (int)cairn_body_is_awake(world, box), slept_step);
            cr_expect(v < 1e-3, "linear speed %.3g m/s at t = 2 s (needs < 1 mm/s)", v);
            cr_expect(w < 1e-3, "corner speed from rotation %.3g m/s at t = 2 s (needs < 1 mm/s)",
                      w);
            cr_expect(!cairn_body_is_awake(world, box), "box still awake at t = 2 s");
        }
    }
    vec3s p = scene_position(world, box);
    cr_log_info("resting box: worst penetration %.4g m at step %d, final y %.5f, slept at step %d",
                worst_pen, worst_step, p.y, slept_step);
    cr_expect(worst_pen <= 0.01, "penetration reached %.4g m at step %d (limit 1 cm)", worst_pen,
              worst_step);
    cr_expect(!cairn_body_is_awake(world, box), "box woke up again by t = 3 s");
    cr_expect(scene_horizontal_distance(p, position) < 0.01, "resting box slid %.4g m",
              scene_horizontal_distance(p, position));
    cairn_world_destroy(world);
}

Test(resting, unit_box_placed_on_floor)
{
    resting(v3(0.5f, 0.5f, 0.5f), v3(0, 0.5f, 0));
}

Test(resting, flat_plank_placed_on_floor)
{
    resting(v3(1.0f, 0.1f, 0.5f), v3(3, 0.1f, 2));
}
