/* Scenario 10: a 20-row triangular wall of unit boxes (20 + 19 + ... + 1 = 210) stands for 20 s:
   no box moves more than 5 cm from where it was after settling (1 s). Boxes in a row are 2 cm
   apart; each row sits half a pitch over the one below, so every box rests on two. */
#include "scene_helpers.h"

#define ROWS  20
#define BOXES (ROWS * (ROWS + 1) / 2)

static void wall(bool allow_sleep)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id ids[BOXES];
    int n = scene_wall(world, ROWS, 0.02f, allow_sleep, ids);
    cr_assert_eq(n, 210);

    vec3s placed[BOXES], settled[BOXES];
    for (int i = 0; i < n; ++i)
        placed[i] = scene_position(world, ids[i]);
    scene_step(world, 60); /* settle for 1 s */
    double settle_move = 0;
    for (int i = 0; i < n; ++i) {
        settled[i] = scene_position(world, ids[i]);
        double d = scene_distance(settled[i], placed[i]);
        if (d > settle_move)
            settle_move = d;
    }

    double worst = 0;
    int worst_box = -1, worst_step = 0;
    for (int s = 61; s <= 1200; ++s) { /* to t = 20 s */
        cairn_world_step(world, SCENE_DT);
        for (int i = 0; i < n; ++i) {
            double d = scene_distance(scene_position(world, ids[i]), settled[i]);
            if (d > worst) {
                worst = d;
                worst_box = i;
                worst_step = s;
            }
        }
    }
    int awake = 0;
    for (int i = 0; i < n; ++i)
        awake += cairn_body_is_awake(world, ids[i]) ? 1 : 0;
    cr_log_info("wall of %d boxes (sleep %s): moved up to %.4g m while settling (1 s); afterwards "
                "the worst "
                "box (#%d) moved %.4g m (step %d); awake at 20 s: %d",
                n, allow_sleep ? "on" : "off", settle_move, worst_box, worst, worst_step, awake);
    cr_expect(worst < 0.05, "wall: box #%d moved %.4g m from its settled position (step %d)",
              worst_box, worst, worst_step);
    cairn_world_destroy(world);
}

Test(wall, twenty_rows_stand)
{
    wall(true);
}

/* The same with sleeping off (allow_sleep = false): the wall must stand on the solver alone. */
Test(wall, twenty_rows_stand_awake)
{
    wall(false);
}
