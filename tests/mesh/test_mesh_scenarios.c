/* Bodies on static triangle meshes and heightfields through the public API, against analytic
   answers: resting boxes lie flat within 1 cm, a sphere rolls down a ramp at (5/7) g sin(theta),
   a sliding box stops at v^2 / (2 mu g), a fast small sphere does not pass through the floor or a
   wall. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "dynamics/scene_helpers.h"
#include "mesh/mesh_helpers.h"

static const cairn_transform identity = {{{0, 0, 0}}, {{0, 0, 0, 1}}};

static cairn_transform at(vec3s p)
{
    return (cairn_transform){p, {{0, 0, 0, 1}}};
}

/* The largest distance of the box's eight corners' lowest four from the plane through `point`
   with unit normal n: 0 when the face lies on the plane. Also returns the smallest. */
static float face_offset(cairn_transform xf, vec3s half, vec3s point, vec3s n, float *lowest)
{
    float heights[8];
    for (int i = 0; i < 8; ++i) {
        vec3s local = {{(i & 1 ? 1.0f : -1.0f) * half.x, (i & 2 ? 1.0f : -1.0f) * half.y,
                        (i & 4 ? 1.0f : -1.0f) * half.z}};
        vec3s p = glms_vec3_add(glms_quat_rotatev(xf.rotation, local), xf.position);
        heights[i] = glms_vec3_dot(glms_vec3_sub(p, point), n);
    }
    /* the four lowest corners */
    for (int i = 0; i < 8; ++i)
        for (int j = i + 1; j < 8; ++j)
            if (heights[j] < heights[i]) {
                float t = heights[i];
                heights[i] = heights[j], heights[j] = t;
            }
    *lowest = heights[0];
    return fmaxf(fabsf(heights[0]), fabsf(heights[3]));
}

/* A box dropped with a small tilt onto the ground comes to rest with its face on the plane. */
static float rest_box_on(cairn_shape *ground, cairn_transform ground_xf, vec3s plane_point,
                         vec3s plane_normal, vec3s drop)
{
    cairn_world *world = scene_default_world();
    scene_body_ex(world, ground, CAIRN_STATIC, ground_xf, 1000, 0.8f, 0, true);
    vec3s half = {{0.4f, 0.3f, 0.35f}};
    cairn_transform xf = {drop, glms_quatv(0.2f, glms_vec3_normalize(v3(1, 0, 1)))};
    cairn_body_id box = scene_body_ex(world, cairn_shape_box(half, SCENE_RADIUS), CAIRN_DYNAMIC, xf,
                                      1000, 0.8f, 0, true);
    for (int i = 0; i < 240; ++i)
        cairn_world_step(world, SCENE_DT);
    float lowest;
    float offset =
        face_offset(cairn_body_transform(world, box), half, plane_point, plane_normal, &lowest);
    float speed = glms_vec3_norm(cairn_body_linear_velocity(world, box));
    cr_log_info("rest offset %.4f m (lowest corner %.4f m), speed %.4f m/s", (double)offset,
                (double)lowest, (double)speed);
    cr_expect_lt(speed, 0.05f, "the box is still moving at %g m/s", (double)speed);
    cairn_world_destroy(world);
    return offset;
}

Test(mesh_scenarios, a_box_rests_flat_on_a_mesh_floor_of_half_metre_triangles)
{
    float offset = rest_box_on(floor_mesh(16, 0.5f, 0.0f), identity, v3(0, 0, 0), v3(0, 1, 0),
                               v3(0.1f, 1.5f, 0.2f));
    printf("mesh floor: rest offset %.4f m\n", (double)offset);
    cr_expect_lt(offset, 0.01f, "face %g m off the floor", (double)offset);
}

Test(mesh_scenarios, a_box_rests_flat_on_flat_and_tilted_heightfields)
{
    enum { N = 17 };
    float flat[N * N], tilted[N * N];
    float slope = tanf(0.25f); /* about 14 degrees, below the friction angle */
    for (int z = 0; z < N; ++z)
        for (int x = 0; x < N; ++x) {
            flat[z * N + x] = 0.0f;
            tilted[z * N + x] = (float)x * 0.5f * slope;
        }
    vec3s scale = {{0.5f, 1.0f, 0.5f}};
    /* centred on the origin by the body transform */
    cairn_transform xf = at(v3(-4, 0, -4));
    float offset = rest_box_on(cairn_shape_heightfield(flat, N, N, scale), xf, v3(0, 0, 0),
                               v3(0, 1, 0), v3(0.1f, 1.5f, 0.2f));
    printf("flat heightfield: rest offset %.4f m\n", (double)offset);
    cr_expect_lt(offset, 0.01f, "flat: face %g m off the ground", (double)offset);
    vec3s n = glms_vec3_normalize(v3(-slope, 1, 0));
    vec3s point = v3(-4, 0, 0); /* the plane's height is 0 at local x = 0 */
    offset = rest_box_on(cairn_shape_heightfield(tilted, N, N, scale), xf, point, n,
                         v3(0.1f, 4 * slope + 1.2f, 0.2f));
    printf("tilted heightfield: rest offset %.4f m\n", (double)offset);
    cr_expect_lt(offset, 0.01f, "tilted: face %g m off the ground", (double)offset);
}

Test(mesh_scenarios, a_sphere_rolls_down_a_mesh_ramp_at_five_sevenths_g_sin_theta)
{
    float theta = 0.35f; /* about 20 degrees */
    cairn_world *world = scene_default_world();
    /* The ramp descends towards +x: tilted by -theta about +Z. */
    scene_body_ex(world, floor_mesh(24, 0.5f, -theta), CAIRN_STATIC, identity, 1000, 1.0f, 0, true);
    float r = 0.3f;
    vec3s n = v3(sinf(theta), cosf(theta), 0);
    vec3s down = v3(cosf(theta), -sinf(theta), 0); /* along the slope, downhill */
    vec3s start = glms_vec3_add(glms_vec3_scale(down, -4.0f), glms_vec3_scale(n, r));
    cairn_body_id ball =
        scene_body_ex(world, cairn_shape_sphere(r), CAIRN_DYNAMIC, at(start), 1000, 1.0f, 0, false);
    float v1 = 0, v2 = 0, t1 = 0.25f, t2 = 1.25f, max_off = 0;
    for (int i = 1; i <= 75; ++i) {
        cairn_world_step(world, SCENE_DT);
        float t = (float)i * SCENE_DT;
        float along = glms_vec3_dot(cairn_body_linear_velocity(world, ball), down);
        if (fabsf(t - t1) < 1e-4f)
            v1 = along;
        if (fabsf(t - t2) < 1e-4f)
            v2 = along;
        vec3s p = cairn_body_transform(world, ball).position;
        max_off = fmaxf(max_off, fabsf(glms_vec3_dot(p, n) - r));
    }
    double measured = (v2 - v1) / (t2 - t1);
    double expected = 5.0 / 7.0 * SCENE_G * sin(theta);
    double error = fabs(measured - expected) / expected;
    printf("ramp: rolling acceleration %.4f vs %.4f m/s^2 (error %.2f%%), max distance from "
           "the surface %.4f m\n",
           measured, expected, 100.0 * error, (double)max_off);
    cr_expect_lt(error, 0.03, "acceleration %g, expected %g", measured, expected);
    cr_expect_lt(max_off, 0.01f, "the ball left the ramp by %g m", (double)max_off);
    cairn_world_destroy(world);
}

/* A box sliding at 5 m/s across a tessellated ground along direction (dx, 0, dz): the distance
   to rest against v^2 / (2 mu g), and the largest |vy| and |w| on the way (ghost bumps). */
static void slide_box(cairn_shape *ground, cairn_transform ground_xf, float dx, float dz,
                      const char *label)
{
    cairn_world *world = scene_default_world();
    float mu = 0.5f;
    scene_body_ex(world, ground, CAIRN_STATIC, ground_xf, 1000, mu, 0, true);
    vec3s half = {{0.4f, 0.25f, 0.4f}};
    vec3s dir = glms_vec3_normalize(v3(dx, 0, dz));
    vec3s start = glms_vec3_add(glms_vec3_scale(dir, -3.2f), v3(0.1f * dz, half.y, 0.1f));
    cairn_body_def def = cairn_body_default_def();
    def.shape = cairn_shape_box(half, SCENE_RADIUS);
    def.transform = at(start);
    def.linear_velocity = glms_vec3_scale(dir, 5.0f);
    def.friction = mu;
    def.allow_sleep = false;
    cairn_body_id box = cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);
    float max_vy = 0, max_w = 0;
    for (int i = 0; i < 150; ++i) {
        cairn_world_step(world, SCENE_DT);
        max_vy = fmaxf(max_vy, fabsf(cairn_body_linear_velocity(world, box).y));
        max_w = fmaxf(max_w, glms_vec3_norm(cairn_body_angular_velocity(world, box)));
    }
    vec3s moved = glms_vec3_sub(cairn_body_transform(world, box).position, start);
    float distance = glms_vec3_dot(moved, dir);
    double expected = 25.0 / (2.0 * mu * SCENE_G);
    double error = fabs(distance - expected) / expected;
    printf("%s: %.4f m vs %.4f m (error %.2f%%), max |vy| %.4f m/s, max |w| %.4f rad/s\n", label,
           (double)distance, expected, 100.0 * error, (double)max_vy, (double)max_w);
    cr_expect_lt(error, 0.03, "%s: slid %g m, expected %g m", label, (double)distance, expected);
    cr_expect_lt(max_vy, 0.05f, "%s: |vy| reached %g m/s", label, (double)max_vy);
    cr_expect_lt(max_w, 0.1f, "%s: |w| reached %g rad/s", label, (double)max_w);
    cr_expect_lt(glms_vec3_norm(cairn_body_linear_velocity(world, box)), 0.01f);
    cairn_world_destroy(world);
}

Test(mesh_scenarios, a_box_sliding_along_mesh_edges_stops_at_v2_over_2_mu_g)
{
    slide_box(floor_mesh(24, 0.5f, 0.0f), identity, 1, 0, "slide along edges");
}

Test(mesh_scenarios, a_box_sliding_diagonally_across_mesh_edges_stops_at_v2_over_2_mu_g)
{
    slide_box(floor_mesh(24, 0.5f, 0.0f), identity, 1, 1, "slide diagonally");
}

Test(mesh_scenarios, a_box_sliding_on_a_flat_heightfield_stops_at_v2_over_2_mu_g)
{
    enum { N = 25 };
    static float flat[N * N];
    slide_box(cairn_shape_heightfield(flat, N, N, v3(0.5f, 1, 0.5f)), at(v3(-6, 0, -6)), 1, 1,
              "heightfield slide diagonally");
}

/* A sphere rolling diagonally at 5 m/s across the seams keeps to its line and does not hop:
   along the triangles' diagonals through their vertices (z_offset 0) and beside them. */
static void roll_diagonally(float z_offset)
{
    cairn_world *world = scene_default_world();
    scene_body_ex(world, floor_mesh(24, 0.5f, 0.0f), CAIRN_STATIC, identity, 1000, 0.5f, 0, true);
    float r = 0.25f;
    vec3s dir = glms_vec3_normalize(v3(1, 0, 1));
    vec3s start = v3(-4.2f, r, -4.2f + z_offset);
    cairn_body_def def = cairn_body_default_def();
    def.shape = cairn_shape_sphere(r);
    def.transform = at(start);
    def.linear_velocity = glms_vec3_scale(dir, 5.0f);
    /* rolling from the start: w = v / r about the axis across the motion */
    def.angular_velocity = glms_vec3_scale(glms_vec3_cross(v3(0, 1, 0), dir), 5.0f / r);
    def.allow_sleep = false;
    cairn_body_id ball = cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);
    float deviation = 0, travelled = 0, max_vy = 0;
    while (travelled < 8.0f) {
        cairn_world_step(world, SCENE_DT);
        vec3s moved = glms_vec3_sub(cairn_body_transform(world, ball).position, start);
        travelled = glms_vec3_dot(moved, dir);
        vec3s off = glms_vec3_sub(moved, glms_vec3_scale(dir, travelled));
        deviation = fmaxf(deviation, sqrtf(off.x * off.x + off.z * off.z));
        max_vy = fmaxf(max_vy, fabsf(cairn_body_linear_velocity(world, ball).y));
    }
    printf("roll diagonally (offset %.1f): deviation %.4f m over 8 m, max |vy| %.4f m/s\n",
           (double)z_offset, (double)deviation, (double)max_vy);
    cr_expect_lt(deviation, 0.01f, "left its line by %g m", (double)deviation);
    cr_expect_lt(max_vy, 0.05f, "hopped at %g m/s", (double)max_vy);
    cairn_world_destroy(world);
}

Test(mesh_scenarios, a_sphere_rolling_diagonally_keeps_its_line)
{
    roll_diagonally(0.0f);
    roll_diagonally(0.1f);
}

Test(mesh_scenarios, a_fast_small_sphere_does_not_pass_through_a_mesh_floor)
{
    for (int k = 0; k < 8; ++k) {
        cairn_world *world = scene_default_world();
        /* 12 m wide: the ball rolls about 2.5 m in the second it is watched */
        scene_body_ex(world, floor_mesh(24, 0.5f, 0.0f), CAIRN_STATIC, identity, 1000, 0.5f, 0,
                      true);
        cairn_body_def def = cairn_body_default_def();
        float r = 0.05f;
        def.shape = cairn_shape_sphere(r);
        /* from varying heights so the last step before the floor ends at varying gaps */
        def.transform = at(v3(0.13f * (float)k - 0.5f, 2.0f + 0.077f * (float)k, 0.21f));
        def.linear_velocity = v3(3.0f, -40.0f, 0.0f);
        cairn_body_id ball = cairn_body_create(world, &def);
        cairn_shape_release((cairn_shape *)def.shape);
        float lowest = INFINITY;
        for (int i = 0; i < 60; ++i) {
            cairn_world_step(world, SCENE_DT);
            lowest = fminf(lowest, cairn_body_transform(world, ball).position.y);
        }
        cr_expect_gt(lowest, 0.0f, "drop %d: the centre reached y = %g", k, (double)lowest);
        cr_expect_gt(cairn_body_transform(world, ball).position.y, 0.0f);
        if (k == 0)
            printf("fast sphere: lowest centre %.4f m (radius %.2f)\n", (double)lowest, (double)r);
        cairn_world_destroy(world);
    }
}

/* The same pellet at 40 m/s straight into a vertical mesh wall (the floor mesh stood up, facing
   -x, at x = 0) from varying distances: it must stay on the near side, x < 0, at every step. */
Test(mesh_scenarios, a_fast_small_sphere_does_not_pass_through_a_mesh_wall)
{
    for (int k = 0; k < 8; ++k) {
        cairn_world *world = scene_default_world();
        /* +90 degrees about +Z turns the floor's +Y face towards -X */
        cairn_transform wall = {{{0, 0, 0}}, glms_quatv(0.5f * (float)SCENE_PI, v3(0, 0, 1))};
        scene_body_ex(world, floor_mesh(24, 0.5f, 0.0f), CAIRN_STATIC, wall, 1000, 0.5f, 0, true);
        cairn_body_def def = cairn_body_default_def();
        float r = 0.05f;
        def.shape = cairn_shape_sphere(r);
        /* from varying distances so the last step before the wall ends at varying gaps, aimed
           at varying points of the triangles (the wall spans y and z in [-6, 6]) */
        def.transform = at(v3(-2.0f - 0.077f * (float)k, 0.13f * (float)k - 0.5f, 0.21f));
        def.linear_velocity = v3(40.0f, 0.0f, 0.0f);
        cairn_body_id ball = cairn_body_create(world, &def);
        cairn_shape_release((cairn_shape *)def.shape);
        float farthest = -INFINITY;
        for (int i = 0; i < 60; ++i) {
            cairn_world_step(world, SCENE_DT);
            farthest = fmaxf(farthest, cairn_body_transform(world, ball).position.x);
        }
        cr_expect_lt(farthest, 0.0f, "shot %d: the centre reached x = %g", k, (double)farthest);
        if (k == 0)
            printf("fast sphere into a wall: farthest centre %.4f m (radius %.2f)\n",
                   (double)farthest, (double)r);
        cairn_world_destroy(world);
    }
}

/* A big static heightfield and a big kinematic mesh floor under many bodies: the broadphase
   pairs each body with the one large box (static tree, and the cells for the kinematic one). */
static void drop_many_on(cairn_shape *ground, cairn_body_type type, cairn_transform xf)
{
    cairn_world *world = scene_default_world();
    scene_body_ex(world, ground, type, xf, 1000, 0.5f, 0, true);
    cairn_body_id balls[64];
    test_rng r = {21};
    for (int i = 0; i < 64; ++i)
        balls[i] = scene_body_ex(
            world, cairn_shape_sphere(0.3f), CAIRN_DYNAMIC,
            at(v3(rng_range(&r, -18, 18), rng_range(&r, 1, 3), rng_range(&r, -18, 18))), 1000, 0.5f,
            0, true);
    for (int i = 0; i < 120; ++i)
        cairn_world_step(world, SCENE_DT);
    int below = 0;
    for (int i = 0; i < 64; ++i)
        below += cairn_body_transform(world, balls[i]).position.y < 0.29f;
    cr_expect_eq(below, 0, "%d of 64 balls sank below a %s floor", below,
                 type == CAIRN_STATIC ? "static" : "kinematic");
    cairn_world_destroy(world);
}

Test(mesh_scenarios, many_bodies_rest_on_one_large_static_or_kinematic_floor)
{
    enum { N = 81 };
    static float flat[N * N];
    drop_many_on(cairn_shape_heightfield(flat, N, N, v3(0.5f, 1, 0.5f)), CAIRN_STATIC,
                 at(v3(-20, 0, -20)));
    drop_many_on(floor_mesh(80, 0.5f, 0.0f), CAIRN_KINEMATIC, identity);
}

/* A kinematic mesh platform moving sideways at 1 m/s carries a box resting on it (friction):
   the box slips until it has the platform's speed, then rides along. */
Test(mesh_scenarios, a_kinematic_mesh_platform_carries_a_box)
{
    cairn_world *world = scene_default_world();
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_KINEMATIC;
    def.shape = floor_mesh(8, 0.5f, 0.0f);
    def.linear_velocity = v3(1, 0, 0);
    def.friction = 0.8f;
    cairn_body_id platform = cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);
    cr_assert(cairn_body_is_valid(world, platform), "%s", cairn_last_error());
    vec3s half = {{0.3f, 0.2f, 0.3f}};
    cairn_body_id box = scene_body_ex(world, cairn_shape_box(half, SCENE_RADIUS), CAIRN_DYNAMIC,
                                      at(v3(0.1f, half.y, 0.1f)), 1000, 0.8f, 0, false);
    for (int i = 0; i < 120; ++i)
        cairn_world_step(world, SCENE_DT);
    vec3s p = cairn_body_transform(world, box).position;
    vec3s v = cairn_body_linear_velocity(world, box);
    vec3s q = cairn_body_transform(world, platform).position;
    printf("kinematic platform: moved %.3f m, box %.3f m (vx %.3f m/s), box height %.4f m\n",
           (double)q.x, (double)(p.x - 0.1f), (double)v.x, (double)p.y);
    cr_expect_float_eq(q.x, 2.0f, 1e-3f, "the platform moved %g m", (double)q.x);
    cr_expect_float_eq(v.x, 1.0f, 0.02f, "the box moves at %g m/s", (double)v.x);
    /* it slips until friction has brought it to the platform's speed: v^2 / (2 mu g) behind */
    double slip = 1.0 / (2.0 * 0.8 * SCENE_G);
    cr_expect_float_eq(p.x - 0.1f, q.x - slip, 0.01, "the box moved %g m, expected %g m",
                       (double)(p.x - 0.1f), q.x - slip);
    cr_expect_float_eq(p.y, half.y, 0.01f);
    cairn_world_destroy(world);
}
