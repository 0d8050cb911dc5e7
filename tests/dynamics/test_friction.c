/* Scenarios 3 and 4: Coulomb friction.
   3. A box on an incline, mu = 0.5 on both bodies (combined sqrt(0.5 * 0.5) = 0.5; stick/slide
      boundary atan(0.5) = 26.57 deg): it sticks at 24 deg and slides at 30 deg with the
      acceleration g (sin - mu cos) within 3%.
   4. A box sliding on a floor at v0 = 5 m/s with mu = 0.5 stops after v0^2 / (2 mu g) within 3%. */
#include "scene_helpers.h"

typedef struct incline {
    cairn_world *world;
    cairn_body_id box;
    vec3s down; /* unit vector down the slope */
    vec3s start;
} incline;

/* A static slab tilted by `degrees` about +z (rising towards +x) with a unit box lying flat on it.
 */
static incline make_incline(double degrees)
{
    incline s;
    s.world = scene_default_world();
    double a = degrees * SCENE_PI / 180.0;
    versors q = glms_quatv((float)a, v3(0, 0, 1));
    cairn_transform slab = cairn_transform_identity();
    slab.rotation = q;
    scene_body(s.world, cairn_shape_box(v3(20, 0.5f, 5), SCENE_RADIUS), CAIRN_STATIC, slab, 1000.0f,
               0.5f, 0.0f);
    vec3s normal = glms_quat_rotatev(q, v3(0, 1, 0));
    vec3s uphill = glms_quat_rotatev(q, v3(1, 0, 0));
    s.down = glms_vec3_negate(uphill);
    /* centre one half-height above the slab's top face (touching), 5 m up the slope */
    cairn_transform xf = cairn_transform_identity();
    xf.rotation = q;
    xf.position = glms_vec3_add(glms_vec3_scale(normal, 1.0f), glms_vec3_scale(uphill, 5.0f));
    s.start = xf.position;
    s.box = scene_body(s.world, cairn_shape_box(v3(0.5f, 0.5f, 0.5f), SCENE_RADIUS), CAIRN_DYNAMIC,
                       xf, 1000.0f, 0.5f, 0.0f);
    return s;
}

static double along(vec3s v, vec3s dir)
{
    return (double)v.x * dir.x + (double)v.y * dir.y + (double)v.z * dir.z;
}

Test(friction, box_sticks_at_24_degrees)
{
    incline s = make_incline(24.0);
    scene_step(s.world, 120); /* 2 s */
    vec3s p = scene_position(s.world, s.box);
    double moved = scene_distance(p, s.start);
    double speed = scene_length(cairn_body_linear_velocity(s.world, s.box));
    cr_log_info("incline 24 deg: moved %.4g m in 2 s, speed %.4g m/s", moved, speed);
    /* a sliding box would have gone 0.5 g (sin - mu cos) t^2 metres, here it must not move:
       1 cm after 2 s (the penetration allowance of scenario 2) and no lasting speed */
    cr_expect(moved < 0.01, "box on a 24 deg incline (mu 0.5) moved %.4g m in 2 s", moved);
    cr_expect(speed < 0.005, "box on a 24 deg incline still moves at %.4g m/s after 2 s", speed);
    cairn_world_destroy(s.world);
}

Test(friction, box_slides_at_30_degrees_with_analytic_acceleration)
{
    incline s = make_incline(30.0);
    const double a = 30.0 * SCENE_PI / 180.0;
    const double expected = SCENE_G * (sin(a) - 0.5 * cos(a));
    /* the acceleration from the change of the down-slope velocity between t = 0.5 s and 1.5 s
       (skips the first contact steps) */
    scene_step(s.world, 30);
    double v1 = along(cairn_body_linear_velocity(s.world, s.box), s.down);
    double s1 = along(glms_vec3_sub(scene_position(s.world, s.box), s.start), s.down);
    scene_step(s.world, 60);
    double v2 = along(cairn_body_linear_velocity(s.world, s.box), s.down);
    double s2 = along(glms_vec3_sub(scene_position(s.world, s.box), s.start), s.down);
    double measured = (v2 - v1) / 1.0;
    /* the same from positions: s2 - s1 = v1 T + a T^2 / 2 (exact for constant a) */
    double from_pos = 2.0 * (s2 - s1 - v1 * 1.0);
    double rel = fabs(measured - expected) / expected;
    cr_log_info("incline 30 deg: a = %.5f m/s^2 from velocities, %.5f from positions, expected "
                "%.5f (error %.2f%%)",
                measured, from_pos, expected, 100 * rel);
    cr_expect(rel <= 0.03,
              "slide acceleration %.5f m/s^2, expected g(sin - mu cos) = %.5f (%.2f%% off)",
              measured, expected, 100 * rel);
    cr_expect(fabs(from_pos - expected) / expected <= 0.03,
              "slide acceleration from positions %.5f m/s^2, expected %.5f", from_pos, expected);
    /* it slides flat, it does not tumble */
    double w = scene_length(cairn_body_angular_velocity(s.world, s.box));
    cr_expect(w < 0.05, "sliding box spins at %.4g rad/s", w);
    cairn_world_destroy(s.world);
}

Test(friction, sliding_box_stops_after_v0_squared_over_2_mu_g)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.5f, 0.0f);
    cairn_body_def def = cairn_body_default_def();
    cairn_shape *shape = cairn_shape_box(v3(0.5f, 0.5f, 0.5f), SCENE_RADIUS);
    def.shape = shape;
    def.transform.position = v3(-10, 0.5f, 0);
    def.linear_velocity = v3(5, 0, 0);
    def.friction = 0.5f;
    cairn_body_id box = cairn_body_create(world, &def);
    cairn_shape_release(shape);
    cr_assert(!id_is_null(box), "%s", cairn_last_error());

    const double expected = 5.0 * 5.0 / (2 * 0.5 * SCENE_G);
    int stop_step = -1;
    for (int n = 1; n <= 180; ++n) { /* 3 s; the analytic stop time is v0 / (mu g) = 1.02 s */
        cairn_world_step(world, SCENE_DT);
        if (stop_step < 0 && fabs(cairn_body_linear_velocity(world, box).x) < 1e-3)
            stop_step = n;
    }
    vec3s p = scene_position(world, box);
    double distance = (double)p.x + 10.0;
    double rel = fabs(distance - expected) / expected;
    cr_log_info("sliding box: stopped after %.4f m at step %d, expected %.4f m (%.2f%% off); "
                "analytic stop time %.3f s; lateral drift %.3g m",
                distance, stop_step, expected, 100 * rel, 5.0 / (0.5 * SCENE_G), p.z);
    cr_expect(rel <= 0.03, "stop distance %.4f m, expected v0^2/(2 mu g) = %.4f m (%.2f%% off)",
              distance, expected, 100 * rel);
    cr_expect(stop_step > 0, "box never stopped");
    cr_expect(fabs(p.z) < 0.01, "box veered sideways by %.4g m", p.z);
    cairn_world_destroy(world);
}
