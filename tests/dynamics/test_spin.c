/* Scenario 7: a torque-free spinning box keeps its angular momentum within 1% over 5 s.
   Zero gravity, no contacts, and angular_damping = 0 in the world def (the default 0.05 1/s
   would drain 22% of L in 5 s by itself; the analytic answer assumes none).
   L = R I_body R^T w, with the closed-form inertia of a solid box of half extents (a, b, c):
   I = m/3 diag(b^2 + c^2, a^2 + c^2, a^2 + b^2). The box has convex radius 0 so it is exactly
   that box. */
#include "scene_helpers.h"

static void world_L(versors q, vec3s w, const double ibody[3], double L[3])
{
    mat3s r = glms_quat_mat3(q); /* r.col[j] = local axis j in world */
    double local[3];
    for (int j = 0; j < 3; ++j) /* R^T w, then I_body */
        local[j] = ibody[j] *
                   ((double)r.col[j].x * w.x + (double)r.col[j].y * w.y + (double)r.col[j].z * w.z);
    for (int i = 0; i < 3; ++i)
        L[i] = 0;
    for (int j = 0; j < 3; ++j) {
        L[0] += r.col[j].x * local[j];
        L[1] += r.col[j].y * local[j];
        L[2] += r.col[j].z * local[j];
    }
}

static void spin(vec3s w0, versors q0, const char *what)
{
    cairn_world_def def = cairn_world_default_def();
    def.gravity = v3(0, 0, 0);
    def.angular_damping = 0.0f; /* torque-free: no damping */
    cairn_world *world = scene_world(&def);

    const vec3s half = v3(1.0f, 0.5f, 0.25f);
    const double density = 500, m = density * 8.0 * half.x * half.y * half.z;
    const double a2 = half.x * half.x, b2 = half.y * half.y, c2 = half.z * half.z;
    const double ibody[3] = {m / 3 * (b2 + c2), m / 3 * (a2 + c2), m / 3 * (a2 + b2)};

    cairn_body_def bd = cairn_body_default_def();
    cairn_shape *box = cairn_shape_box(half, 0.0f);
    /* the engine's own mass properties agree with the closed form (else L below is not its L) */
    cairn_mass_properties mp;
    cr_assert(cairn_shape_mass_properties(box, (float)density, &mp), "%s", cairn_last_error());
    const double ieng[3] = {mp.inertia.col[0].x, mp.inertia.col[1].y, mp.inertia.col[2].z};
    for (int j = 0; j < 3; ++j)
        cr_expect(fabs(ieng[j] - ibody[j]) <= 1e-4 * ibody[j],
                  "engine inertia I[%d] = %g, closed form %g", j, ieng[j], ibody[j]);
    cr_expect(fabs(mp.mass - m) <= 1e-4 * m, "engine mass %g, closed form %g", mp.mass, m);
    bd.shape = box;
    bd.density = (float)density;
    bd.transform.position = v3(0, 5, 0);
    bd.transform.rotation = q0;
    bd.angular_velocity = w0;
    cairn_body_id id = cairn_body_create(world, &bd);
    cairn_shape_release(box);
    cr_assert(!id_is_null(id), "%s", cairn_last_error());

    double L0[3];
    world_L(q0, w0, ibody, L0);
    double norm0 = sqrt(L0[0] * L0[0] + L0[1] * L0[1] + L0[2] * L0[2]);
    double worst = 0;
    int worst_step = 0;
    for (int n = 1; n <= 300; ++n) { /* 5 s */
        cairn_world_step(world, SCENE_DT);
        double L[3];
        world_L(cairn_body_transform(world, id).rotation, cairn_body_angular_velocity(world, id),
                ibody, L);
        double d = sqrt((L[0] - L0[0]) * (L[0] - L0[0]) + (L[1] - L0[1]) * (L[1] - L0[1]) +
                        (L[2] - L0[2]) * (L[2] - L0[2])) /
                   norm0;
        if (d > worst) {
            worst = d;
            worst_step = n;
        }
    }
    double L[3];
    vec3s w = cairn_body_angular_velocity(world, id);
    world_L(cairn_body_transform(world, id).rotation, w, ibody, L);
    vec3s p = scene_position(world, id);
    cr_log_info("%s: L0 = (%.5f %.5f %.5f), L(5 s) = (%.5f %.5f %.5f), worst |L - L0|/|L0| = %.4g "
                "at step %d; w(5 s) = (%.4f %.4f %.4f)",
                what, L0[0], L0[1], L0[2], L[0], L[1], L[2], worst, worst_step, w.x, w.y, w.z);
    cr_expect(worst <= 0.01, "%s: angular momentum drifted by %.3g%% (step %d; limit 1%%)", what,
              100 * worst, worst_step);
    cr_expect(scene_distance(p, v3(0, 5, 0)) < 1e-4, "%s: the centre moved to (%g %g %g)", what,
              p.x, p.y, p.z);
    cairn_world_destroy(world);
}

Test(spin, about_the_major_axis_with_a_wobble)
{
    /* mostly about local z (largest inertia, stable) with a wobble, from a tilted start */
    versors q = glms_quatv(0.7f, glms_vec3_normalize(v3(1, 2, 3)));
    vec3s w_local = v3(0.6f, 0.5f, 4.0f);
    spin(glms_quat_rotatev(q, w_local), q, "major-axis spin with wobble");
}

Test(spin, about_the_minor_axis_with_a_wobble)
{
    versors q = glms_quatv(-1.1f, glms_vec3_normalize(v3(-2, 1, 0.5f)));
    vec3s w_local = v3(5.0f, 0.3f, -0.4f);
    spin(glms_quat_rotatev(q, w_local), q, "minor-axis spin with wobble");
}

Test(spin, about_a_principal_axis)
{
    versors q = glms_quat_identity();
    spin(v3(0, 0, 3.0f), q, "pure spin about local z");
}
