/* Per-triangle materials on meshes (cairn_shape_mesh_with_materials) against analytic answers:
   a box sliding on an ice strip and on a rubber strip of one mesh stops at v^2 / (2 mu g) with
   mu = sqrt(f_triangle * f_box); a ball dropped on a bouncy triangle rises to e^2 h and on a dead
   one stays down; ray hits report the material; bad material input is refused. The mesh body's
   own friction and restitution are set far from the triangles' so using them fails the tests. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "dynamics/scene_helpers.h"
#include "mesh/mesh_helpers.h"

static const float mesh_body_friction = 0.5f, mesh_body_restitution = 0.5f;

/* A flat floor of 0.5 m cells over x in [-6, 6], z in [-8, 8], facing +Y: triangles left of
   x = 0 get material 0, right of it material 1. */
static cairn_shape *two_strip_floor(const cairn_surface_material materials[2])
{
    enum { NX = 24, NZ = 32 };
    static vec3s v[(NX + 1) * (NZ + 1)];
    static int idx[NX * NZ * 6], mat[NX * NZ * 2];
    for (int z = 0; z <= NZ; ++z)
        for (int x = 0; x <= NX; ++x)
            v[z * (NX + 1) + x] = v3(-6.0f + 0.5f * (float)x, 0, -8.0f + 0.5f * (float)z);
    int t = 0;
    for (int z = 0; z < NZ; ++z)
        for (int x = 0; x < NX; ++x) {
            int a = z * (NX + 1) + x, b = a + 1, d = a + NX + 1, e = d + 1;
            int corners[6] = {a, d, e, a, e, b};
            for (int k = 0; k < 6; ++k)
                idx[6 * t / 2 + k] = corners[k];
            mat[t] = mat[t + 1] = x < NX / 2 ? 0 : 1;
            t += 2;
        }
    return cairn_shape_mesh_with_materials(v, (NX + 1) * (NZ + 1), idx, t, mat, materials, 2);
}

static cairn_transform identity(void)
{
    return cairn_transform_identity();
}

Test(mesh_materials, a_box_stops_at_v2_over_2_mu_g_on_ice_and_on_rubber)
{
    const cairn_surface_material materials[2] = {{0.05f, 0.0f}, {0.9f, 0.0f}};
    const float box_friction = 1.0f;
    cairn_world *world = scene_default_world();
    scene_body_ex(world, two_strip_floor(materials), CAIRN_STATIC, identity(), 1000,
                  mesh_body_friction, 0, true);
    cairn_body_id boxes[2] = {mesh_sliding_box(world, -3.0f, box_friction),
                              mesh_sliding_box(world, 3.0f, box_friction)};
    float start = -7.0f;
    for (int i = 0; i < 300; ++i)
        cairn_world_step(world, SCENE_DT);
    const char *names[2] = {"ice", "rubber"};
    for (int k = 0; k < 2; ++k) {
        double mu = sqrt((double)materials[k].friction * box_friction);
        double expected = 25.0 / (2.0 * mu * SCENE_G);
        double distance = cairn_body_transform(world, boxes[k]).position.z - start;
        double error = fabs(distance - expected) / expected;
        printf("%s (mu %.4f): slid %.4f m, expected %.4f m (error %.2f%%)\n", names[k], mu,
               distance, expected, 100.0 * error);
        cr_expect_lt(error, 0.03, "%s: slid %g m, expected %g m", names[k], distance, expected);
        cr_expect_lt(glms_vec3_norm(cairn_body_linear_velocity(world, boxes[k])), 0.01f,
                     "%s: still moving", names[k]);
    }
    cairn_world_destroy(world);
}

/* Two separate 2 m squares facing +Y, at x in [-3, -1] (material 0) and [1, 3] (material 1). */
static cairn_shape *two_pads(const cairn_surface_material materials[2])
{
    vec3s v[8];
    int idx[12], mat[4] = {0, 0, 1, 1};
    for (int p = 0; p < 2; ++p) {
        float x0 = p == 0 ? -3.0f : 1.0f;
        v[4 * p + 0] = v3(x0, 0, -1);
        v[4 * p + 1] = v3(x0 + 2, 0, -1);
        v[4 * p + 2] = v3(x0 + 2, 0, 1);
        v[4 * p + 3] = v3(x0, 0, 1);
        for (int k = 0; k < 6; ++k)
            idx[6 * p + k] = 4 * p + unit_quad_triangles[k];
    }
    return cairn_shape_mesh_with_materials(v, 8, idx, 4, mat, materials, 2);
}

Test(mesh_materials, a_ball_rises_to_e2_h_on_a_bouncy_triangle_and_not_on_a_dead_one)
{
    const cairn_surface_material materials[2] = {{0.5f, 0.9f}, {0.5f, 0.0f}};
    const float radius = 0.5f, drop = 2.0f; /* as tests/dynamics/test_restitution.c */
    cairn_world *world = scene_default_world();
    scene_body_ex(world, two_pads(materials), CAIRN_STATIC, identity(), 1000, mesh_body_friction,
                  mesh_body_restitution, true);
    cairn_body_id balls[2] = {
        scene_sphere(world, v3(-2.0f, radius + drop, 0), radius, 1000, 0.5f, 0.0f),
        scene_sphere(world, v3(2.0f, radius + drop, 0), radius, 1000, 0.5f, 0.0f)};
    float peak[2] = {0, 0};
    bool bounced[2] = {false, false}, fell_again[2] = {false, false};
    for (int i = 0; i < 150; ++i) { /* the first rebound's apex, about 1.2 s after the drop */
        cairn_world_step(world, SCENE_DT);
        for (int k = 0; k < 2; ++k) {
            float y = cairn_body_transform(world, balls[k]).position.y - radius;
            float vy = cairn_body_linear_velocity(world, balls[k]).y;
            fell_again[k] = fell_again[k] || (bounced[k] && vy < 0.0f);
            bounced[k] = bounced[k] || vy > 0.0f;
            if (bounced[k] && !fell_again[k])
                peak[k] = fmaxf(peak[k], y);
        }
    }
    double expected = (double)materials[0].restitution * materials[0].restitution * drop;
    double error = fabs(peak[0] - expected) / expected;
    printf("bouncy (e %.2f): rose to %.4f m, expected %.4f m (error %.2f%%); dead: %.4f m\n",
           (double)materials[0].restitution, (double)peak[0], expected, 100.0 * error,
           (double)peak[1]);
    cr_expect(bounced[0], "the ball on the bouncy triangle never went up");
    cr_expect_lt(error, 0.05, "bouncy: rose to %g m, expected %g m", (double)peak[0], expected);
    cr_expect_lt(peak[1], 0.05f * drop, "dead: rose to %g m", (double)peak[1]);
    cairn_world_destroy(world);
}

Test(mesh_materials, ray_hits_report_the_triangle_material)
{
    const cairn_surface_material materials[2] = {{0.05f, 0.0f}, {0.9f, 0.0f}};
    cairn_world *world = scene_default_world();
    scene_body_ex(world, two_strip_floor(materials), CAIRN_STATIC, identity(), 1000, 0.5f, 0, true);
    scene_body_ex(world, floor_mesh(4, 0.5f, 0.0f), CAIRN_STATIC, scene_at(v3(20, 0, 0)), 1000,
                  0.5f, 0, true);
    scene_body_ex(world, cairn_shape_box(v3(0.5f, 0.5f, 0.5f), SCENE_RADIUS), CAIRN_STATIC,
                  scene_at(v3(-20, 0, 0)), 1000, 0.5f, 0, true);
    const struct {
        float x;
        int material;
    } rays[4] = {{-3.0f, 0}, {3.0f, 1}, {20.0f, -1}, {-20.0f, -1}};
    for (int i = 0; i < 4; ++i) {
        cairn_ray_hit hit;
        cr_assert(cairn_world_raycast(world, v3(rays[i].x, 5, 0.3f), v3(0, -10, 0), &hit),
                  "ray %d missed", i);
        cr_expect_eq(hit.material, rays[i].material, "ray at x %g: material %d, expected %d",
                     (double)rays[i].x, hit.material, rays[i].material);
        cairn_ray_hit all[4];
        cr_assert_eq(cairn_world_raycast_all(world, v3(rays[i].x, 5, 0.3f), v3(0, -10, 0),
                                             CAIRN_QUERY_ALL, all, 4),
                     1);
        cr_expect_eq(all[0].material, rays[i].material, "raycast_all at x %g", (double)rays[i].x);
    }
    cairn_world_destroy(world);
}

/* Triangle 1 is degenerate and dropped: triangle 2 must keep material 2, not shift to 1. */
Test(mesh_materials, dropped_triangles_do_not_shift_materials)
{
    const vec3s v[5] = {{{0, 0, 0}}, {{0, 0, 1}}, {{1, 0, 0}}, {{2, 0, 0}}, {{2, 0, 1}}};
    const int idx[9] = {0, 1, 2, 0, 0, 1, 2, 4, 3}, mat[3] = {0, 1, 2};
    const cairn_surface_material materials[3] = {{0.1f, 0}, {0.2f, 0}, {0.3f, 0}};
    cairn_shape *mesh = cairn_shape_mesh_with_materials(v, 5, idx, 3, mat, materials, 3);
    cr_assert_not_null(mesh, "%s", cairn_last_error());
    cr_expect_eq(cairn_mesh_dropped_count(mesh), 1);
    for (int t = 0; t < 3; ++t)
        cr_expect_eq(cairn_shape_triangle_material(mesh, t), mat[t]);
    cr_expect_eq(cairn_shape_triangle_material(mesh, 3), -1);
    cr_expect_eq(cairn_shape_triangle_material(mesh, -1), -1);
    cairn_surface_material m;
    cr_expect(cairn_shape_mesh_material(mesh, 2, &m) && m.friction == materials[2].friction);
    cr_expect(!cairn_shape_mesh_material(mesh, 3, &m));
    cairn_triangle_hit hit;
    cr_assert(cairn_shape_raycast_triangle(mesh, cairn_transform_identity(), v3(1.8f, 1, 0.2f),
                                           v3(0, -2, 0), &hit));
    cr_expect_eq(cairn_shape_triangle_material(mesh, hit.triangle), 2);
    cairn_shape_release(mesh);

    cairn_shape *plain = cairn_shape_mesh(unit_quad, 4, unit_quad_triangles, 2);
    cr_expect_eq(cairn_shape_triangle_material(plain, 0), -1);
    cairn_shape_release(plain);
    cairn_shape *box = cairn_shape_box(v3(1, 1, 1), 0.05f);
    cr_expect_eq(cairn_shape_triangle_material(box, 0), -1);
    cairn_shape_release(box);
}

Test(mesh_materials, bad_material_input_is_refused_with_its_message)
{
    const vec3s *v = unit_quad;
    const int *t = unit_quad_triangles;
    const int good[2] = {0, 1}, high[2] = {0, 2}, negative[2] = {-1, 0};
    const cairn_surface_material ok[2] = {{0.5f, 0.5f}, {1.0f, 0.0f}};
    const cairn_surface_material neg_friction[2] = {{0.5f, 0.5f}, {-0.1f, 0.0f}};
    const cairn_surface_material nan_friction[2] = {{NAN, 0.5f}, {1.0f, 0.0f}};
    const cairn_surface_material inf_friction[2] = {{INFINITY, 0.5f}, {1.0f, 0.0f}};
    const cairn_surface_material high_rest[2] = {{0.5f, 1.5f}, {1.0f, 0.0f}};
    const cairn_surface_material neg_rest[2] = {{0.5f, -0.1f}, {1.0f, 0.0f}};
    const cairn_surface_material nan_rest[2] = {{0.5f, NAN}, {1.0f, 0.0f}};
    const cairn_surface_material rolling[3][2] = {{{0.5f, 0.5f, 0.1f}, {1.0f, 0.0f, -0.1f}},
                                                  {{0.5f, 0.5f, 1.5f}, {1.0f, 0.0f, 0.0f}},
                                                  {{0.5f, 0.5f, 0.0f}, {1.0f, 0.0f, NAN}}};
    const char *rolling_message[3] = {"material 1 rolling_resistance -0.1 is outside [0, 1]",
                                      "material 0 rolling_resistance 1.5 is outside [0, 1]",
                                      "material 1 rolling_resistance nan is outside [0, 1]"};
    for (int k = 0; k < 3; ++k)
        REJECT(cairn_shape_mesh_with_materials(v, 4, t, 2, good, rolling[k], 2),
               rolling_message[k]);
    REJECT(cairn_shape_mesh_with_materials(v, 4, t, 2, high, ok, 2),
           "material index of triangle 1 = 2 is outside [0, 2)");
    REJECT(cairn_shape_mesh_with_materials(v, 4, t, 2, negative, ok, 2),
           "material index of triangle 0 = -1 is outside [0, 2)");
    REJECT(cairn_shape_mesh_with_materials(v, 4, t, 2, good, neg_friction, 2),
           "material 1 friction -0.1 is not finite and >= 0");
    REJECT(cairn_shape_mesh_with_materials(v, 4, t, 2, good, nan_friction, 2),
           "material 0 friction nan is not finite");
    REJECT(cairn_shape_mesh_with_materials(v, 4, t, 2, good, inf_friction, 2),
           "material 0 friction inf is not finite");
    REJECT(cairn_shape_mesh_with_materials(v, 4, t, 2, good, high_rest, 2),
           "material 0 restitution 1.5 is outside [0, 1]");
    REJECT(cairn_shape_mesh_with_materials(v, 4, t, 2, good, neg_rest, 2),
           "material 0 restitution -0.1 is outside [0, 1]");
    REJECT(cairn_shape_mesh_with_materials(v, 4, t, 2, good, nan_rest, 2),
           "material 0 restitution nan is outside [0, 1]");
    REJECT(cairn_shape_mesh_with_materials(v, 4, t, 2, good, ok, 0),
           "material_count = 0 with materials given, at least 1 material needed");
    REJECT(cairn_shape_mesh_with_materials(v, 4, t, 2, good, NULL, 2),
           "material_count = 2 with materials NULL");
    REJECT(cairn_shape_mesh_with_materials(v, 4, t, 2, NULL, ok, 2), "material_indices is NULL");
    /* the mesh checks still come first */
    REJECT(cairn_shape_mesh_with_materials(v, 4, t, 0, good, ok, 2), "triangle_count = 0");
    cairn_shape *fine = cairn_shape_mesh_with_materials(v, 4, t, 2, good, ok, 2);
    cr_expect_not_null(fine, "%s", cairn_last_error());
    cairn_shape_release(fine);
}

/* Rolling resistance per triangle: balls rolling at 4 m/s along the two strips, one of
   resistance 0.1 and one of none, with nothing else slowing them (no damping). The mesh body's
   own value plays no part: run with 0.5 (which would slow both balls), and with 0 and no pre-solve
   callback (where only the triangles tell the solver that rolling rows are needed). After 1 s
   the ball on the resisting strip rolls at 4 - 5/7 C g; the other keeps 4 m/s. The pre-solve
   callback is shown the triangle's value. */
static void record_rolling(cairn_contact_modify *contact, void *context)
{
    float *seen = context;
    seen[contact->points[0].x > 0.0f] = contact->rolling_resistance;
}

static void expect_rolling_per_triangle(float mesh_body_rolling, bool presolve)
{
    const cairn_surface_material materials[2] = {{0.9f, 0.0f, 0.1f}, {0.9f, 0.0f, 0.0f}};
    cairn_world_def def = cairn_world_default_def();
    def.linear_damping = def.angular_damping = 0.0f;
    cairn_world *world = scene_world(&def);
    cairn_body_id floor = scene_body_ex(world, two_strip_floor(materials), CAIRN_STATIC, identity(),
                                        1000, mesh_body_friction, 0, true);
    cr_assert(cairn_body_set_rolling_resistance(world, floor, mesh_body_rolling));
    const float radius = 0.5f, x[2] = {-3.0f, 3.0f};
    cairn_body_id balls[2];
    for (int k = 0; k < 2; ++k)
        balls[k] = scene_body_ex(world, cairn_shape_sphere(radius), CAIRN_DYNAMIC,
                                 scene_at(v3(x[k], radius, -6.0f)), 1000, 1.0f, 0.0f, false);
    float seen[2] = {-1.0f, -1.0f};
    if (presolve)
        cr_assert(cairn_world_set_presolve(world, record_rolling, seen));
    scene_step(world, 30); /* settle */
    for (int k = 0; k < 2; ++k) {
        cr_assert(cairn_body_set_linear_velocity(world, balls[k], v3(0, 0, 4.0f)));
        cr_assert(cairn_body_set_angular_velocity(world, balls[k], v3(4.0f / radius, 0, 0)));
    }
    scene_step(world, 60);
    double expected = 4.0 - 5.0 / 7.0 * 0.1 * SCENE_G;
    double v[2] = {cairn_body_linear_velocity(world, balls[0]).z,
                   cairn_body_linear_velocity(world, balls[1]).z};
    printf("rolling per triangle (mesh body %.1f): %.4f m/s on C = 0.1 (expected %.4f), %.4f m/s "
           "on C = 0\n",
           (double)mesh_body_rolling, v[0], expected, v[1]);
    cr_expect(fabs(v[0] - expected) < 0.01 * (4.0 - expected),
              "resisting strip: v %.5f, expected %.5f", v[0], expected);
    cr_expect(fabs(v[1] - 4.0) < 1e-3, "free strip: v %.5f, expected 4", v[1]);
    if (presolve) {
        cr_expect_float_eq(seen[0], 0.1f, 1e-7f, "the callback saw %g on the resisting strip",
                           (double)seen[0]);
        cr_expect_float_eq(seen[1], 0.0f, 1e-7f, "the callback saw %g on the free strip",
                           (double)seen[1]);
    }
    cairn_world_destroy(world);
}

Test(mesh_materials, a_ball_rolls_as_the_triangle_rolling_resistance_says)
{
    expect_rolling_per_triangle(0.5f, true);
    expect_rolling_per_triangle(0.0f, false);
}

/* A world restored mid-roll on the resisting strip (mesh body and ball without resistance of
   their own) goes on as the saved one did: the same state hash 60 steps later. */
Test(mesh_materials, a_snapshot_restored_mid_roll_keeps_the_triangle_rolling_resistance)
{
    const cairn_surface_material materials[2] = {{0.9f, 0.0f, 0.1f}, {0.9f, 0.0f, 0.0f}};
    cairn_world *world = scene_default_world();
    scene_body_ex(world, two_strip_floor(materials), CAIRN_STATIC, identity(), 1000,
                  mesh_body_friction, 0, true);
    cairn_body_id ball = scene_body_ex(world, cairn_shape_sphere(0.5f), CAIRN_DYNAMIC,
                                       scene_at(v3(-3.0f, 0.5f, -6.0f)), 1000, 1.0f, 0.0f, false);
    scene_step(world, 30);
    cr_assert(cairn_body_set_linear_velocity(world, ball, v3(0, 0, 4.0f)));
    cr_assert(cairn_body_set_angular_velocity(world, ball, v3(8.0f, 0, 0)));
    scene_step(world, 10);
    size_t size = cairn_world_snapshot_size(world);
    void *saved = malloc(size);
    cr_assert(cairn_world_snapshot(world, saved, size), "%s", cairn_last_error());
    scene_step(world, 60);
    uint64_t expected = cairn_world_state_hash(world);
    float v = cairn_body_linear_velocity(world, ball).z;
    cr_expect_lt(v, 3.5f, "the strip did not slow the ball (%g m/s)", (double)v);
    cr_assert(cairn_world_restore(world, saved, size), "%s", cairn_last_error());
    scene_step(world, 60);
    cr_expect_eq(cairn_world_state_hash(world), expected, "restored: %g m/s against %g m/s",
                 (double)cairn_body_linear_velocity(world, ball).z, (double)v);
    free(saved);
    cairn_world_destroy(world);
}

/* The callback sees the triangle's combined friction; leaving it alone keeps the material, and
   changing it wins over the material (a presolve override must still work on meshes). */
typedef struct presolve_probe {
    float seen; /* the friction the callback was shown, last call */
    float set;  /* < 0: leave it */
} presolve_probe;

static void probe_friction(cairn_contact_modify *contact, void *context)
{
    presolve_probe *p = context;
    p->seen = contact->friction;
    if (p->set >= 0.0f)
        contact->friction = p->set;
}

static double slide_on_ice(presolve_probe *probe)
{
    const cairn_surface_material materials[2] = {{0.05f, 0.0f}, {0.9f, 0.0f}};
    cairn_world *world = scene_default_world();
    scene_body_ex(world, two_strip_floor(materials), CAIRN_STATIC, identity(), 1000,
                  mesh_body_friction, 0, true);
    cairn_body_id box = mesh_sliding_box(world, -3.0f, 1.0f);
    cairn_world_set_presolve(world, probe_friction, probe);
    for (int i = 0; i < 300; ++i)
        cairn_world_step(world, SCENE_DT);
    double distance = cairn_body_transform(world, box).position.z + 7.0f;
    cairn_world_destroy(world);
    return distance;
}

Test(mesh_materials, a_presolve_callback_sees_and_overrides_the_triangle_material)
{
    presolve_probe keep = {0, -1.0f};
    double kept = slide_on_ice(&keep);
    cr_expect_float_eq(keep.seen, sqrtf(0.05f), 1e-6f, "the callback saw friction %g",
                       (double)keep.seen);
    double expected = 25.0 / (2.0 * sqrt(0.05) * SCENE_G);
    cr_expect_lt(fabs(kept - expected) / expected, 0.03, "kept: slid %g m, expected %g m", kept,
                 expected);
    presolve_probe grip = {0, 0.8f};
    double gripped = slide_on_ice(&grip);
    double expected_grip = 25.0 / (2.0 * 0.8 * SCENE_G);
    printf("presolve: kept %.4f m (expected %.4f), override 0.8: %.4f m (expected %.4f)\n", kept,
           expected, gripped, expected_grip);
    cr_expect_lt(fabs(gripped - expected_grip) / expected_grip, 0.03,
                 "override: slid %g m, expected %g m", gripped, expected_grip);
}
