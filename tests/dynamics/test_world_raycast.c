/* cairn_world_raycast through the public API: the closest of several bodies is reported (even
   when a farther body's bounds are entered first), with the right id, point, normal and
   fraction; static and dynamic bodies, moved and destroyed bodies, rays starting inside a body,
   misses, and bad input (false plus an error naming the function). */
#include <string.h>

#include "scene_helpers.h"

#define TOL 1e-4

static void expect_vec(const char *what, vec3s got, double x, double y, double z)
{
    cr_expect(fabs(got.x - x) <= TOL && fabs(got.y - y) <= TOL && fabs(got.z - z) <= TOL,
              "%s: (%g %g %g), expected (%g %g %g)", what, (double)got.x, (double)got.y,
              (double)got.z, x, y, z);
}

static bool same_id(cairn_body_id a, cairn_body_id b)
{
    return a.index == b.index && a.generation == b.generation;
}

typedef struct scene {
    cairn_world *world;
    cairn_body_id ground, ball, crate, pillar;
} scene;

/* Ground: static box, top at y = 0 (no convex radius). Ball: dynamic sphere r = 0.5 at
   (0, 3, 0). Crate: dynamic box half 0.5 at (3, 0.5, 0). Pillar: static capsule along y at
   (-3, 2, 0), half height 1, radius 0.25. Gravity off, so nothing moves unless pushed. */
static scene make_scene(void)
{
    scene s;
    cairn_world_def def = cairn_world_default_def();
    def.gravity = v3(0, 0, 0);
    s.world = scene_world(&def);
    s.ground = scene_body(s.world, cairn_shape_box(v3(20, 1, 20), 0.0f), CAIRN_STATIC,
                          scene_at(v3(0, -1, 0)), 1000.0f, 0.6f, 0.0f);
    s.ball = scene_sphere(s.world, v3(0, 3, 0), 0.5f, 1000.0f, 0.6f, 0.0f);
    s.crate = scene_body(s.world, cairn_shape_box(v3(0.5f, 0.5f, 0.5f), 0.0f), CAIRN_DYNAMIC,
                         scene_at(v3(3, 0.5f, 0)), 1000.0f, 0.6f, 0.0f);
    s.pillar = scene_body(s.world, cairn_shape_capsule(1.0f, 0.25f), CAIRN_STATIC,
                          scene_at(v3(-3, 2, 0)), 1000.0f, 0.6f, 0.0f);
    return s;
}

Test(world_raycast, closest_of_several)
{
    scene s = make_scene();
    cairn_ray_hit hit;
    /* Straight down through the ball: the ball (top at y = 3.5), not the ground. */
    cr_assert(cairn_world_raycast(s.world, v3(0, 10, 0), v3(0, -20, 0), &hit));
    cr_expect(same_id(hit.body, s.ball), "hit body {%u, %u}", hit.body.index, hit.body.generation);
    cr_expect_float_eq(hit.fraction, 6.5f / 20.0f, TOL);
    expect_vec("ball point", hit.point, 0, 3.5, 0);
    expect_vec("ball normal", hit.normal, 0, 1, 0);
    /* Beside the ball: the ground (static). */
    cr_assert(cairn_world_raycast(s.world, v3(1, 10, 0), v3(0, -20, 0), &hit));
    cr_expect(same_id(hit.body, s.ground));
    cr_expect_float_eq(hit.fraction, 0.5f, TOL);
    expect_vec("ground point", hit.point, 1, 0, 0);
    expect_vec("ground normal", hit.normal, 0, 1, 0);
    /* Horizontal at y = 0.5 from the left: pillar is above (y in [0.75, 3.25]), so the crate's
       face x = 2.5. */
    cr_assert(cairn_world_raycast(s.world, v3(-10, 0.5f, 0), v3(20, 0, 0), &hit));
    cr_expect(same_id(hit.body, s.crate));
    expect_vec("crate point", hit.point, 2.5, 0.5, 0);
    expect_vec("crate normal", hit.normal, -1, 0, 0);
    /* Horizontal at y = 2 from the left: the pillar's side at x = -3.25, before the ball. */
    cr_assert(cairn_world_raycast(s.world, v3(-10, 2, 0), v3(20, 0, 0), &hit));
    cr_expect(same_id(hit.body, s.pillar));
    expect_vec("pillar point", hit.point, -3.25, 2, 0);
    expect_vec("pillar normal", hit.normal, -1, 0, 0);
    /* The same from the right at y = 3: ball (x = 0.5) before the pillar's top ball. */
    cr_assert(cairn_world_raycast(s.world, v3(10, 3, 0), v3(-20, 0, 0), &hit));
    cr_expect(same_id(hit.body, s.ball));
    expect_vec("ball side point", hit.point, 0.5, 3, 0);
    expect_vec("ball side normal", hit.normal, 1, 0, 0);
    cairn_world_destroy(s.world);
}

/* A big sphere whose bounds the ray enters first but whose surface lies beyond a small box. */
Test(world_raycast, bounds_order_is_not_hit_order)
{
    cairn_world_def def = cairn_world_default_def();
    def.gravity = v3(0, 0, 0);
    cairn_world *world = scene_world(&def);
    cairn_body_id big = scene_body(world, cairn_shape_sphere(5.0f), CAIRN_STATIC,
                                   scene_at(v3(0, 0, 0)), 1000.0f, 0.6f, 0.0f);
    cairn_body_id small = scene_body(world, cairn_shape_box(v3(0.25f, 0.25f, 0.25f), 0.0f),
                                     CAIRN_DYNAMIC, scene_at(v3(-3, 4.6f, 0)), 1000.0f, 0.6f, 0.0f);
    cairn_ray_hit hit;
    /* At y = 4.6 the sphere's surface is at x = -sqrt(25 - 21.16) = -1.96; the box at -3.25. */
    cr_assert(cairn_world_raycast(world, v3(-10, 4.6f, 0), v3(20, 0, 0), &hit));
    cr_expect(same_id(hit.body, small));
    expect_vec("small box point", hit.point, -3.25, 4.6, 0);
    /* From the other side the sphere comes first (x = +1.96). */
    cr_assert(cairn_world_raycast(world, v3(10, 4.6f, 0), v3(-20, 0, 0), &hit));
    cr_expect(same_id(hit.body, big));
    cr_expect(fabs(hit.point.x - sqrt(25.0 - 4.6 * 4.6)) <= 1e-3, "x = %g", (double)hit.point.x);
    cr_expect(fabs(glms_vec3_norm(glms_vec3_sub(glms_vec3_scale(hit.point, 0.2f), hit.normal))) <=
              1e-4);
    cairn_world_destroy(world);
}

Test(world_raycast, misses)
{
    scene s = make_scene();
    cairn_ray_hit hit;
    memset(&hit, 0x5a, sizeof hit);
    cairn_ray_hit before = hit;
    cairn_clear_error();
    /* Upwards from above everything. */
    cr_expect(!cairn_world_raycast(s.world, v3(0, 5, 0), v3(0, 10, 0), &hit));
    /* Too short to reach the ball. */
    cr_expect(!cairn_world_raycast(s.world, v3(0, 10, 0), v3(0, -6.4f, 0), &hit));
    /* Beside the ball, within its fat bounds (margin 0.1) but outside the sphere. */
    cr_expect(!cairn_world_raycast(s.world, v3(-1, 3.55f, 0), v3(2, 0, 0), &hit));
    /* Zero translation: an empty segment, even inside a body; not an error. */
    cr_expect(!cairn_world_raycast(s.world, v3(0, 3, 0), v3(0, 0, 0), &hit));
    cr_expect(memcmp(&hit, &before, sizeof hit) == 0, "hit written on a miss");
    cr_expect_str_empty(cairn_last_error());
    cairn_world_destroy(s.world);
}

Test(world_raycast, starting_inside)
{
    scene s = make_scene();
    cairn_ray_hit hit;
    cr_assert(cairn_world_raycast(s.world, v3(0.1f, 3, 0), v3(3, 4, 0), &hit));
    cr_expect(same_id(hit.body, s.ball));
    cr_expect_eq(hit.fraction, 0.0f);
    expect_vec("inside point", hit.point, 0.1, 3, 0);
    expect_vec("inside normal", hit.normal, -0.6, -0.8, 0);
    cairn_world_destroy(s.world);
}

Test(world_raycast, moved_and_destroyed_bodies)
{
    scene s = make_scene();
    cairn_ray_hit hit;
    /* Push the ball along +x and step: the ray follows it. */
    cairn_body_apply_impulse(s.world, s.ball, v3(1000.0f * 0.5236f * 2.0f, 0, 0),
                             scene_position(s.world, s.ball));
    scene_step(s.world, 30); /* 0.5 s at ~2 m/s: about 1 m */
    vec3s p = scene_position(s.world, s.ball);
    cr_assert(p.x > 0.5f, "ball did not move: x = %g", (double)p.x);
    cr_assert(cairn_world_raycast(s.world, v3(p.x, 10, p.z), v3(0, -20, 0), &hit));
    cr_expect(same_id(hit.body, s.ball));
    expect_vec("moved ball point", hit.point, p.x, p.y + 0.5, p.z);
    /* Its old place now shows the ground. */
    cr_assert(cairn_world_raycast(s.world, v3(0, 10, 0), v3(0, -20, 0), &hit));
    cr_expect(same_id(hit.body, s.ground));
    /* Destroyed: the ray passes to the ground, and the stale id is never reported. */
    cairn_body_destroy(s.world, s.ball);
    cr_assert(cairn_world_raycast(s.world, v3(p.x, 10, p.z), v3(0, -20, 0), &hit));
    cr_expect(same_id(hit.body, s.ground));
    cairn_world_destroy(s.world);
}

Test(world_raycast, rotated_body)
{
    cairn_world_def def = cairn_world_default_def();
    def.gravity = v3(0, 0, 0);
    cairn_world *world = scene_world(&def);
    double angle = 0.5;
    cairn_transform xf = cairn_transform_identity();
    xf.position = v3(1, 2, 3);
    xf.rotation = glms_quatv((float)angle, v3(0, 0, 1));
    cairn_body_id box = scene_body(world, cairn_shape_box(v3(1, 0.5f, 0.5f), 0.0f), CAIRN_DYNAMIC,
                                   xf, 1000.0f, 0.6f, 0.0f);
    /* Along the box's -x face normal, through its centre: hits at distance 1 from the centre. */
    vec3s n = v3(-cos(angle), -sin(angle), 0);
    vec3s origin = glms_vec3_add(xf.position, glms_vec3_scale(n, 5.0f));
    cairn_ray_hit hit;
    cr_assert(cairn_world_raycast(world, origin, glms_vec3_scale(n, -10.0f), &hit));
    cr_expect(same_id(hit.body, box));
    cr_expect_float_eq(hit.fraction, 0.4f, TOL);
    expect_vec("rotated normal", hit.normal, n.x, n.y, n.z);
    vec3s expected = glms_vec3_add(xf.position, n);
    expect_vec("rotated point", hit.point, expected.x, expected.y, expected.z);
    cairn_world_destroy(world);
}

Test(world_raycast, bad_input)
{
    scene s = make_scene();
    cairn_ray_hit hit;
    memset(&hit, 0, sizeof hit);
    const float nan = nanf(""), inf = INFINITY;
    struct {
        const cairn_world *world;
        vec3s origin, translation;
        cairn_ray_hit *hit;
        const char *word;
    } cases[] = {
        {NULL, v3(0, 10, 0), v3(0, -20, 0), &hit, "world"},
        {s.world, v3(0, 10, 0), v3(0, -20, 0), NULL, "hit"},
        {s.world, v3(nan, 10, 0), v3(0, -20, 0), &hit, "origin"},
        {s.world, v3(0, inf, 0), v3(0, -20, 0), &hit, "origin"},
        {s.world, v3(0, 10, 0), v3(0, nan, 0), &hit, "translation"},
        {s.world, v3(0, 10, 0), v3(0, 0, -inf), &hit, "translation"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        cairn_clear_error();
        cr_expect(!cairn_world_raycast(cases[i].world, cases[i].origin, cases[i].translation,
                                       cases[i].hit),
                  "case %zu: hit", i);
        const char *msg = cairn_last_error();
        cr_expect(strstr(msg, "cairn_world_raycast") != NULL && strstr(msg, cases[i].word),
                  "case %zu: error \"%s\"", i, msg);
    }
    /* The world still answers normally afterwards. */
    cr_expect(cairn_world_raycast(s.world, v3(0, 10, 0), v3(0, -20, 0), &hit));
    cairn_world_destroy(s.world);
}
