/* Scenario 9: a 10:1 mass ratio stack (a heavy unit box on a light unit box on the floor)
   stands for 10 s with penetration under 2 cm, at both contacts, at every step. */
#include "scene_helpers.h"

Test(mass_ratio, heavy_on_light_stands)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    const vec3s half = v3(0.5f, 0.5f, 0.5f);
    cairn_body_id light = scene_box(world, v3(0, 0.5f, 0), half, 1000.0f, 0.6f);
    cairn_body_id heavy = scene_box(world, v3(0, 1.5f, 0), half, 10000.0f, 0.6f);
    vec3s start = scene_position(world, heavy);

    double floor_pen = 0, box_pen = 0, drift = 0;
    int floor_step = 0, box_step = 0;
    for (int n = 1; n <= 600; ++n) { /* 10 s */
        cairn_world_step(world, SCENE_DT);
        cairn_transform xl = cairn_body_transform(world, light);
        cairn_transform xh = cairn_body_transform(world, heavy);
        double pf = -scene_box_min_y(xl, half);
        double pb = scene_box_max_y(xl, half) - scene_box_min_y(xh, half);
        if (pf > floor_pen) {
            floor_pen = pf;
            floor_step = n;
        }
        if (pb > box_pen) {
            box_pen = pb;
            box_step = n;
        }
        double d = scene_horizontal_distance(xh.position, start);
        if (d > drift)
            drift = d;
    }
    vec3s end = scene_position(world, heavy);
    cr_log_info("mass ratio 10:1: worst penetration floor/light %.4g m (step %d), light/heavy "
                "%.4g m (step %d); heavy box y %.4f -> %.4f, horizontal drift %.4g m",
                floor_pen, floor_step, box_pen, box_step, start.y, end.y, drift);
    cr_expect(floor_pen < 0.02, "light box sank %.4g m into the floor (step %d)", floor_pen,
              floor_step);
    cr_expect(box_pen < 0.02, "heavy box sank %.4g m into the light box (step %d)", box_pen,
              box_step);
    /* stands: the heavy box is still on top of the light one, not beside it */
    cr_expect(drift < 0.05, "heavy box drifted %.4g m sideways", drift);
    cr_expect(end.y > 1.5f - 0.04f, "heavy box ended at y = %.4f (started 1.5)", end.y);
    cairn_world_destroy(world);
}
