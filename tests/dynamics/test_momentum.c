/* Scenario 6: two spheres colliding head-on in zero gravity. Linear momentum is conserved to
   1e-5 (relative), kinetic energy never increases, and e = 1 with equal masses exchanges the
   velocities within 2%. */
#include "scene_helpers.h"

#define R 0.5f

typedef struct collision_run {
    double p0[3], max_p_err, ke0, max_ke_rise, ke_end;
    vec3s va, vb;
} collision_run;

static double sphere_mass(float density)
{
    return density * 4.0 / 3.0 * SCENE_PI * R * R * R;
}

/* Sphere A at x = -2 moving +va, sphere B at x = +2 moving -vb, both restitution e. */
static collision_run collide(float density_a, float density_b, float va, float vb, float e)
{
    cairn_world_def def = cairn_world_default_def();
    def.gravity = v3(0, 0, 0);
    cairn_world *world = scene_world(&def);
    cairn_body_def bd = cairn_body_default_def();
    cairn_shape *ball = cairn_shape_sphere(R);
    bd.shape = ball;
    bd.restitution = e;
    bd.density = density_a;
    bd.transform.position = v3(-2, 1, 3);
    bd.linear_velocity = v3(va, 0, 0);
    cairn_body_id a = cairn_body_create(world, &bd);
    bd.density = density_b;
    bd.transform.position = v3(2, 1, 3);
    bd.linear_velocity = v3(-vb, 0, 0);
    cairn_body_id b = cairn_body_create(world, &bd);
    cairn_shape_release(ball);
    cr_assert(!id_is_null(a) && !id_is_null(b), "%s", cairn_last_error());

    const double ma = sphere_mass(density_a), mb = sphere_mass(density_b);
    collision_run run = {0};
    run.p0[0] = ma * va - mb * vb;
    /* the scale for "relative": |p0| when it is not zero, else the momentum each body carries */
    double scale = fabs(run.p0[0]) > 0 ? fabs(run.p0[0]) : ma * fabs(va) + mb * fabs(vb);
    run.ke0 = 0.5 * ma * va * va + 0.5 * mb * vb * vb;
    double ke_prev = run.ke0;
    for (int n = 1; n <= 90; ++n) { /* 1.5 s: contact at about 0.5 s */
        cairn_world_step(world, SCENE_DT);
        vec3s ua = cairn_body_linear_velocity(world, a), ub = cairn_body_linear_velocity(world, b);
        double p[3] = {ma * ua.x + mb * ub.x, ma * ua.y + mb * ub.y, ma * ua.z + mb * ub.z};
        double err =
            sqrt((p[0] - run.p0[0]) * (p[0] - run.p0[0]) + p[1] * p[1] + p[2] * p[2]) / scale;
        if (err > run.max_p_err)
            run.max_p_err = err;
        /* rotational energy counts too (none is expected for a head-on hit): I = 2/5 m r^2 */
        vec3s wa = cairn_body_angular_velocity(world, a),
              wb = cairn_body_angular_velocity(world, b);
        double ke = 0.5 * ma * glms_vec3_norm2(ua) + 0.5 * mb * glms_vec3_norm2(ub) +
                    0.5 * 0.4 * ma * R * R * glms_vec3_norm2(wa) +
                    0.5 * 0.4 * mb * R * R * glms_vec3_norm2(wb);
        /* never increases: from one step to the next, and over the run (float round-off only) */
        double rise = (ke - ke_prev) / run.ke0;
        if (rise > run.max_ke_rise)
            run.max_ke_rise = rise;
        ke_prev = ke;
        run.ke_end = ke;
    }
    run.va = cairn_body_linear_velocity(world, a);
    run.vb = cairn_body_linear_velocity(world, b);
    cairn_world_destroy(world);
    return run;
}

static void expect_conservation(const char *what, collision_run r)
{
    cr_log_info("%s: max momentum error %.3g (relative), max kinetic energy rise per step %.3g "
                "(relative), KE %.6g -> %.6g, final va = (%.5f %.5f %.5f), vb = (%.5f %.5f %.5f)",
                what, r.max_p_err, r.max_ke_rise, r.ke0, r.ke_end, r.va.x, r.va.y, r.va.z, r.vb.x,
                r.vb.y, r.vb.z);
    cr_expect(r.max_p_err <= 1e-5, "%s: momentum changed by %.3g relative (limit 1e-5)", what,
              r.max_p_err);
    /* 1e-6 of the energy is float round-off, not a gain */
    cr_expect(r.max_ke_rise <= 1e-6,
              "%s: kinetic energy rose by %.3g of its initial value in a step", what,
              r.max_ke_rise);
    cr_expect(r.ke_end <= r.ke0 * (1 + 1e-6), "%s: kinetic energy went from %.6g to %.6g", what,
              r.ke0, r.ke_end);
}

Test(momentum, elastic_equal_masses_exchange_velocities)
{
    collision_run r = collide(1000, 1000, 3, 3, 1.0f);
    expect_conservation("e = 1, equal masses", r);
    /* A had +3, B had -3: after the hit A has -3 and B +3, within 2% */
    cr_expect(fabs(r.va.x + 3.0) <= 0.02 * 3.0, "e = 1: A leaves at %.5f m/s, expected -3", r.va.x);
    cr_expect(fabs(r.vb.x - 3.0) <= 0.02 * 3.0, "e = 1: B leaves at %.5f m/s, expected +3", r.vb.x);
}

Test(momentum, elastic_one_moving_one_at_rest)
{
    collision_run r = collide(1000, 1000, 4, 0, 1.0f);
    expect_conservation("e = 1, B at rest", r);
    cr_expect(fabs(r.va.x) <= 0.02 * 4.0, "e = 1: A keeps %.5f m/s, expected 0", r.va.x);
    cr_expect(fabs(r.vb.x - 4.0) <= 0.02 * 4.0, "e = 1: B leaves at %.5f m/s, expected +4", r.vb.x);
}

Test(momentum, unequal_masses_partly_elastic)
{
    /* A three times heavier; e = 0.5 */
    collision_run r = collide(3000, 1000, 2, 4, 0.5f);
    expect_conservation("e = 0.5, mass 3:1", r);
    /* for the log: the analytic outcome of a 1D collision with restitution e */
    double ma = 3, mb = 1, ua = 2, ub = -4, e = 0.5;
    double fa = (ma * ua + mb * ub + mb * e * (ub - ua)) / (ma + mb);
    double fb = (ma * ua + mb * ub + ma * e * (ua - ub)) / (ma + mb);
    cr_log_info("e = 0.5, mass 3:1: analytic va' = %.4f, vb' = %.4f; measured %.4f, %.4f", fa, fb,
                r.va.x, r.vb.x);
}

Test(momentum, perfectly_inelastic_does_not_gain_energy)
{
    collision_run r = collide(1000, 2000, 3, 1, 0.0f);
    expect_conservation("e = 0, mass 1:2", r);
}
