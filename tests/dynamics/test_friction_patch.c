/* Friction acts at the centre of each contact patch (two tangent rows and a twist row). These
   check what that model must still get right: no preferred sliding direction, and a spinning
   box stopped by twist friction, against the analytic answers for a uniformly loaded square. */
#include "dynamics/scene_helpers.h"

static const float mu = 0.5f;
static const float half = 0.5f; /* half extent of the sliding and spinning boxes, m */

static cairn_body_id box_on_floor(cairn_world *world, vec3s velocity, vec3s spin, float angle)
{
    cairn_body_def def = cairn_body_default_def();
    cairn_shape *shape = cairn_shape_box(v3(half, half, half), SCENE_RADIUS);
    def.shape = shape;
    def.transform.position = v3(0, half, 0);
    def.transform.rotation = glms_quatv(angle, v3(0, 1, 0));
    def.linear_velocity = velocity;
    def.angular_velocity = spin;
    def.friction = mu;
    cairn_body_id box = cairn_body_create(world, &def);
    cairn_shape_release(shape);
    cr_assert(!id_is_null(box), "%s", cairn_last_error());
    return box;
}

/* Distance a box slides along `direction` (unit, horizontal) from 5 m/s before it stops. */
static double slide_distance(vec3s direction, float box_angle)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, mu, 0.0f);
    cairn_body_id box =
        box_on_floor(world, glms_vec3_scale(direction, 5.0f), v3(0, 0, 0), box_angle);
    for (int n = 0; n < 180; ++n)
        cairn_world_step(world, SCENE_DT);
    vec3s p = cairn_body_transform(world, box).position;
    p.y = 0.0f; /* horizontal displacement only */
    double along = (double)glms_vec3_dot(p, direction);
    double across =
        (double)glms_vec3_norm(glms_vec3_sub(p, glms_vec3_scale(direction, (float)along)));
    cr_expect(across < 0.01, "box veered %.4f m off its line", across);
    cairn_world_destroy(world);
    return along;
}

Test(friction_patch, every_sliding_direction_stops_at_v0_squared_over_2_mu_g)
{
    const double expected = 5.0 * 5.0 / (2 * (double)mu * SCENE_G);
    /* Along the tangent axes, along their diagonal (where a per-axis clamp would give sqrt(2)
       mu) and in an arbitrary direction, with the box turned as well. */
    const float angles[] = {0.0f, 0.785398f, 2.1f};
    for (int i = 0; i < 3; ++i) {
        vec3s direction = v3(cosf(angles[i]), 0, sinf(angles[i]));
        double d = slide_distance(direction, 0.3f * (float)i);
        double rel = fabs(d - expected) / expected;
        cr_expect(rel <= 0.03, "direction %d: slid %.4f m, expected %.4f m (%.2f%% off)", i, d,
                  expected, 100 * rel);
    }
}

/* A box spinning about the vertical on a floor: the twist friction torque of a uniformly loaded
   square of half side a is mu m g (0.7652 a) (the mean distance of the square from its centre),
   so it stops after t = I w0 / T with I = m (2a)^2 / 6. The patch model uses an effective radius
   from the points, so this allows 15%. */
Test(friction_patch, spinning_box_stops_by_twist_friction)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, mu, 0.0f);
    const float w0 = 6.0f;
    cairn_body_id box = box_on_floor(world, v3(0, 0, 0), v3(0, w0, 0), 0.0f);
    double inertia_per_mass = (2.0 * half) * (2.0 * half) / 6.0;
    double torque_per_mass = (double)mu * SCENE_G * 0.7652 * half;
    double expected = inertia_per_mass * w0 / torque_per_mass;
    double stopped = -1.0;
    for (int n = 1; n <= 240 && stopped < 0.0; ++n) {
        cairn_world_step(world, SCENE_DT);
        if (fabsf(cairn_body_angular_velocity(world, box).y) < 0.05f)
            stopped = n * (double)SCENE_DT;
    }
    cr_assert(stopped > 0.0, "still spinning after 4 s");
    cr_expect(fabs(stopped - expected) <= 0.15 * expected,
              "stopped after %.3f s, analytic %.3f s for a uniformly loaded square", stopped,
              expected);
    vec3s p = cairn_body_transform(world, box).position;
    cr_expect(fabsf(p.x) < 0.01f && fabsf(p.z) < 0.01f, "box wandered to (%g, %g)", p.x, p.z);
    cairn_world_destroy(world);
}

Test(friction_patch, frictionless_spin_keeps_spinning)
{
    cairn_world_def def = cairn_world_default_def();
    def.angular_damping = 0.0f;
    cairn_world *world = scene_world(&def);
    scene_floor(world, 0.0f, 0.0f);
    cairn_body_def body = cairn_body_default_def();
    cairn_shape *shape = cairn_shape_box(v3(half, half, half), SCENE_RADIUS);
    body.shape = shape;
    body.transform.position = v3(0, half, 0);
    body.angular_velocity = v3(0, 6, 0);
    body.friction = 0.0f;
    cairn_body_id box = cairn_body_create(world, &body);
    cairn_shape_release(shape);
    for (int n = 0; n < 120; ++n)
        cairn_world_step(world, SCENE_DT);
    cr_expect_float_eq(cairn_body_angular_velocity(world, box).y, 6.0f, 0.01f);
    cairn_world_destroy(world);
}
