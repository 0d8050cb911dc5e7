/* Scenario 5: a sphere dropped from h = 2 m (its lowest point 2 m above the floor) onto a static
   box bounces back to e^2 h within 5% for e = 0.5 and 0.8; e = 0 does not bounce.
   The floor has restitution 0; the pair uses max(ra, rb) = e. */
#include "scene_helpers.h"

#define DROP_H 2.0
#define BALL_R 0.5f

/* Returns the height of the ball's lowest point at the apex of the first rebound (0 when it
   never rose again). */
static double bounce(float e, double *impact_speed, int *apex_step)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id ball =
        scene_sphere(world, v3(0, (float)DROP_H + BALL_R, 0), BALL_R, 1000.0f, 0.6f, e);
    bool hit = false, rising = false;
    double apex = 0, fastest = 0;
    *apex_step = -1;
    for (int n = 1; n <= 240; ++n) { /* 4 s: the e = 0.8 rebound peaks about 1.1 s after impact */
        cairn_world_step(world, SCENE_DT);
        double y = (double)scene_position(world, ball).y - BALL_R;
        double vy = cairn_body_linear_velocity(world, ball).y;
        if (!hit) {
            if (-vy > fastest)
                fastest = -vy;
            if (vy >= 0)
                hit = true;
        }
        if (hit && vy > 0)
            rising = true;
        if (hit && y > apex) {
            apex = y;
            *apex_step = n;
        }
        if (rising && vy < 0)
            break;
    }
    *impact_speed = fastest;
    cr_expect(hit, "e = %g: the ball never reached the floor", e);
    cairn_world_destroy(world);
    return apex;
}

static void expect_bounce(float e)
{
    double speed;
    int step;
    double height = bounce(e, &speed, &step);
    double expected = (double)e * e * DROP_H;
    double rel = fabs(height - expected) / expected;
    cr_log_info("restitution e = %g: rebound %.4f m (apex at step %d), expected e^2 h = %.4f m "
                "(%.2f%% off); impact speed %.4f m/s (analytic %.4f)",
                e, height, step, expected, 100 * rel, speed, sqrt(2 * SCENE_G * DROP_H));
    cr_expect(rel <= 0.05, "e = %g: rebound %.4f m, expected e^2 h = %.4f m (%.2f%% off)", e,
              height, expected, 100 * rel);
}

Test(restitution, half_bounces_to_a_quarter)
{
    expect_bounce(0.5f);
}

Test(restitution, point_eight_bounces_to_064)
{
    expect_bounce(0.8f);
}

Test(restitution, zero_does_not_bounce)
{
    double speed;
    int step;
    double height = bounce(0.0f, &speed, &step);
    cr_log_info("restitution e = 0: highest point after impact %.4g m above the floor (step %d), "
                "impact speed %.4f m/s",
                height, step, speed);
    /* "does not bounce": after the impact the ball never rises more than 1 cm (the penetration
       allowance of scenario 2) above the floor */
    cr_expect(height < 0.01, "e = 0: the ball rose to %.4g m after the impact", height);
}
