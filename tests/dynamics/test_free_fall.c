/* Scenario 1: free fall for 1 s at 60 Hz matches the semi-implicit Euler closed form
   y_n = y0 + sum_{k=1..n} (v0 + k g h) h = y0 + n v0 h + g h^2 n (n + 1) / 2 to 1e-4 m, where h
   is the integrator's step: dt / substeps (the solver integrates every substep). */
#include "scene_helpers.h"

/* Closed form of semi-implicit Euler with step h after n steps. */
static double euler_y(double y0, double v0, double g, double h, int n)
{
    return y0 + n * v0 * h + g * h * h * n * (n + 1) / 2.0;
}

static void free_fall(cairn_world_def def, float y0, float vy0, float vx0)
{
    cairn_world *world = scene_world(&def);
    /* no floor, nothing to hit; linear damping defaults to 0 */
    cr_assert_float_eq(def.linear_damping, 0.0f, 0.0f, "free fall assumes no linear damping");
    cairn_body_def bd = cairn_body_default_def();
    cairn_shape *ball = cairn_shape_sphere(0.25f);
    bd.shape = ball;
    bd.transform.position = v3(1.0f, y0, -2.0f);
    bd.linear_velocity = v3(vx0, vy0, 0);
    cairn_body_id id = cairn_body_create(world, &bd);
    cairn_shape_release(ball);
    cr_assert(!id_is_null(id), "create failed: %s", cairn_last_error());

    const int substeps = def.solver.substeps;
    const double g = def.gravity.y, h = (double)SCENE_DT / substeps;
    double worst = 0;
    int worst_step = 0;
    for (int n = 1; n <= 60; ++n) {
        cairn_world_step(world, SCENE_DT);
        vec3s p = scene_position(world, id);
        double expect = euler_y(y0, vy0, g, h, n * substeps);
        double err = fabs((double)p.y - expect);
        if (err > worst) {
            worst = err;
            worst_step = n;
        }
    }
    vec3s p = scene_position(world, id);
    vec3s v = cairn_body_linear_velocity(world, id);
    double expect_y = euler_y(y0, vy0, g, h, 60 * substeps);
    /* for diagnosis only: the closed form at one integration step per world step */
    double substep_y = euler_y(y0, vy0, g, (double)SCENE_DT, 60);
    cr_log_info("free fall y0=%g vy0=%g: y(1 s) = %.7f, closed form %.7f (substep form %.7f), "
                "worst error %.3g m at step %d, vy = %.6f (expect %.6f)",
                y0, vy0, p.y, expect_y, substep_y, worst, worst_step, v.y,
                vy0 + 60 * substeps * g * h);
    cr_expect(worst <= 1e-4,
              "free fall (y0=%g, vy0=%g) leaves the semi-implicit Euler closed form: worst error "
              "%.3g m at step %d; y(1 s) = %.7f, expected %.7f (closed form with dt/%d substeps "
              "would be %.7f)",
              y0, vy0, worst, worst_step, p.y, expect_y, substeps, substep_y);
    cr_expect(fabs((double)v.y - (vy0 + 60 * substeps * g * h)) <= 1e-4,
              "vy(1 s) = %.6f, expected %.6f", v.y, vy0 + 60 * substeps * g * h);
    cr_expect(fabs((double)p.x - (1.0 + vx0 * 60 * substeps * h)) <= 1e-4,
              "x(1 s) = %.6f, expected %.6f", p.x, 1.0 + vx0 * 60 * h);
    cr_expect(fabs((double)p.z + 2.0) <= 1e-6, "z moved to %.6f", p.z);
    cairn_world_destroy(world);
}

/* The scenario: default world def, one cairn_world_step(1/60) per 1/60 s. */
Test(free_fall, from_rest)
{
    free_fall(cairn_world_default_def(), 5.0f, 0.0f, 0.0f);
}

Test(free_fall, thrown_up_and_sideways)
{
    free_fall(cairn_world_default_def(), 2.0f, 4.0f, 1.5f);
}

/* The integrator alone: with a single substep the default-def scenario above reduces to this. */
Test(free_fall, one_substep_per_step)
{
    cairn_world_def def = cairn_world_default_def();
    def.solver.substeps = 1;
    free_fall(def, 5.0f, 0.0f, 0.0f);
}
