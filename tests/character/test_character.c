/* The character controller against analytic answers: it walks at its speed on flat ground,
   slides along walls, walks up a 40-degree ramp but not a 50-degree one (sliding down it at
   g sin 50), climbs 0.3 m steps and not 0.5 m ones, never passes through a thin wall, pushes a
   box with no more than its push force, rides a moving platform, crouches under a slab it cannot
   stand up under, and rejects bad input. */
#include "../dynamics/scene_helpers.h"
#include "../mesh/mesh_helpers.h"
#include "../dynamics/snapshot_reseal.h"

#include <stdlib.h>
#include <string.h>

static const float half_height = 0.5f, radius = 0.3f;
#define STAND (half_height + radius) /* centre height standing on y = 0 */

static cairn_character *make_character(cairn_world *world, vec3s position)
{
    cairn_character_def def = cairn_character_default_def();
    def.position = position;
    def.half_height = half_height;
    def.radius = radius;
    cairn_character *c = cairn_character_create(world, &def);
    cr_assert_not_null(c, "%s", cairn_last_error());
    return c;
}

/* One frame of a game: the wanted horizontal velocity, gravity while in the air. */
static void frame(cairn_world *world, cairn_character *c, vec3s walk)
{
    cairn_character_ground g = cairn_character_ground_state(c);
    float vy = g.on_ground ? 0.0f : cairn_character_velocity(c).y - (float)SCENE_G * SCENE_DT;
    cr_assert(cairn_character_move(c, v3(walk.x, vy, walk.z), SCENE_DT), "%s", cairn_last_error());
    cairn_world_step(world, SCENE_DT);
}

static cairn_body_id ramp(cairn_world *world, float degrees)
{
    float a = degrees * (float)SCENE_PI / 180.0f;
    cairn_transform xf = cairn_transform_identity();
    /* a long box tilted about z, its top surface through the origin rising towards +x */
    xf.rotation = glms_quatv(a, v3(0, 0, 1));
    xf.position = glms_quat_rotatev(xf.rotation, v3(5, -0.5f, 0));
    return scene_body(world, cairn_shape_box(v3(5, 0.5f, 3), 0.0f), CAIRN_STATIC, xf, 1000.0f, 0.5f,
                      0.0f);
}

Test(character, walks_on_flat_ground)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.5f, 0.0f);
    cairn_character *c = make_character(world, v3(0, STAND, 0));
    for (int n = 0; n < 60; ++n)
        frame(world, c, v3(3, 0, 0));
    vec3s p = cairn_character_position(c);
    cr_expect(fabsf(p.x - 3.0f) < 0.03f, "walked %.4f m in 1 s at 3 m/s", p.x);
    cr_expect(fabsf(p.y - STAND) < 0.01f, "at height %.4f, expected %.4f", p.y, STAND);
    cr_expect(cairn_character_ground_state(c).on_ground);
    cairn_character_destroy(c);
    cairn_world_destroy(world);
}

/* A sharp static box (friction 0.5) of half extents `half` centred at `at`. */
static cairn_body_id static_box(cairn_world *world, vec3s half, vec3s at)
{
    return scene_body(world, cairn_shape_box(half, 0.0f), CAIRN_STATIC, scene_at(at), 1000.0f, 0.5f,
                      0.0f);
}

Test(character, slides_along_a_wall)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.5f, 0.0f);
    static_box(world, v3(0.1f, 2, 20), v3(1.5f, 2, 0));
    cairn_character *c = make_character(world, v3(0, STAND, 0));
    for (int n = 0; n < 60; ++n)
        frame(world, c, v3(3, 0, 3));
    vec3s p = cairn_character_position(c);
    cr_expect(p.x < 1.4f - radius + 0.001f && p.x > 1.4f - radius - 0.02f, "x %.4f at the wall",
              p.x);
    cr_expect(fabsf(p.z - 3.0f) < 0.1f, "slid %.4f m along it (3 m/s for 1 s)", p.z);
    cairn_character_destroy(c);
    cairn_world_destroy(world);
}

static float climb(float degrees, float *slide_speed)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.5f, 0.0f);
    ramp(world, degrees);
    cairn_character *c = make_character(world, v3(-1, STAND, 0));
    for (int n = 0; n < 120; ++n)
        frame(world, c, v3(2, 0, 0));
    float height = cairn_character_position(c).y - STAND;
    *slide_speed = 0.0f;
    if (slide_speed) {
        /* let go on the slope: put it on the slope, in the air, and let gravity act */
        float a = degrees * (float)SCENE_PI / 180.0f;
        vec3s on = glms_vec3_add(v3(2.0f * cosf(a), 2.0f * sinf(a), 0),
                                 glms_vec3_scale(v3(-sinf(a), cosf(a), 0), STAND + 0.01f));
        cairn_character_set_position(c, on);
        /* in the air a game keeps the character's momentum and adds gravity; on the ground
           it stands */
        for (int n = 0; n < 30; ++n) {
            vec3s v = cairn_character_velocity(c);
            v.y -= (float)SCENE_G * SCENE_DT;
            if (n == 0 || cairn_character_ground_state(c).on_ground)
                v = v3(0, 0, 0);
            cr_assert(cairn_character_move(c, v, SCENE_DT));
        }
        *slide_speed = glms_vec3_norm(cairn_character_velocity(c));
    }
    cairn_character_destroy(c);
    cairn_world_destroy(world);
    return height;
}

Test(character, walks_up_40_degrees_not_50)
{
    float slide40, slide50;
    float up40 = climb(40.0f, &slide40), up50 = climb(50.0f, &slide50);
    cr_expect(up40 > 1.0f, "climbed %.3f m of the 40-degree ramp", up40);
    cr_expect(up50 < 0.1f, "climbed %.3f m of the 50-degree ramp", up50);
    cr_expect(slide40 < 0.01f, "stands on 40 degrees: %.4f m/s", slide40);
    /* 0.5 s of sliding from rest: g sin(50) t */
    float expect = (float)SCENE_G * sinf(50.0f * (float)SCENE_PI / 180.0f) * 0.5f;
    cr_expect(fabsf(slide50 - expect) < 0.05f * expect, "slides at %.3f m/s, expected %.3f",
              slide50, expect);
}

static float step_up(float height)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.5f, 0.0f);
    static_box(world, v3(2, height * 0.5f, 2), v3(3, height * 0.5f, 0));
    cairn_character *c = make_character(world, v3(0, STAND, 0));
    for (int n = 0; n < 90; ++n)
        frame(world, c, v3(2, 0, 0));
    float x = cairn_character_position(c).x;
    cairn_character_destroy(c);
    cairn_world_destroy(world);
    return x;
}

Test(character, climbs_steps_up_to_its_step_height)
{
    float x30 = step_up(0.3f), x50 = step_up(0.5f);
    cr_expect(x30 > 2.5f, "stopped at x %.3f before a 0.3 m step", x30);
    cr_expect(x50 < 1.0f - radius + 0.01f, "went to x %.3f over a 0.5 m step", x50);
}

Test(character, never_passes_through_a_thin_wall)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.5f, 0.0f);
    static_box(world, v3(0.025f, 2, 5), v3(5, 2, 0));
    cairn_character *c = make_character(world, v3(0, STAND, 0));
    for (int n = 0; n < 60; ++n) {
        frame(world, c, v3(20, 0, 0));
        cr_assert(cairn_character_position(c).x < 5.0f - 0.025f - radius + 0.001f,
                  "through the wall at frame %d: x %.4f", n, cairn_character_position(c).x);
    }
    cairn_character_destroy(c);
    cairn_world_destroy(world);
}

Test(character, pushes_a_box_with_at_most_its_push_force)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.0f, 0.0f);
    /* a 10 kg box on a frictionless floor */
    cairn_body_id box =
        scene_body_ex(world, cairn_shape_box(v3(0.25f, 0.25f, 0.25f), 0.0f), CAIRN_DYNAMIC,
                      scene_at(v3(1, 0.25f, 0)), 80.0f, 0.0f, 0.0f, false);
    cairn_character_def def = cairn_character_default_def();
    def.position = v3(0, STAND, 0);
    def.max_push_force = 50.0f;
    cairn_character *c = cairn_character_create(world, &def);
    float mass = cairn_body_mass(world, box);
    cr_assert(fabsf(mass - 10.0f) < 0.01f);
    /* Walking at 8 m/s, faster than F / m lets the box follow within 0.6 s: the push force,
       not the walk, limits the box's speed, in every frame (the box is taller than a step, so
       the character also tries to climb it: that trial must not push it a second time). */
    float limit = 50.0f / mass * SCENE_DT, largest = 0.0f, previous = 0.0f;
    for (int n = 0; n < 36; ++n) {
        frame(world, c, v3(8, 0, 0));
        float vx = cairn_body_linear_velocity(world, box).x;
        largest = fmaxf(largest, vx - previous);
        previous = vx;
    }
    cr_expect(largest <= limit * 1.001f, "the box gained %.4f m/s in a frame, F dt / m = %.4f",
              (double)largest, (double)limit);
    float v = cairn_body_linear_velocity(world, box).x;
    cr_expect(v > 0.5f * 50.0f / mass * 0.6f, "the box was hardly pushed: %.3f m/s", v);
    cairn_character_destroy(c);
    cairn_world_destroy(world);
}

Test(character, rides_a_moving_platform)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.5f, 0.0f);
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_KINEMATIC;
    def.shape = cairn_shape_box(v3(2, 0.1f, 2), 0.0f);
    def.transform.position = v3(0, 1, 0);
    def.linear_velocity = v3(1.5f, 0, 0.5f);
    cairn_body_id platform = cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);
    cairn_character *c = make_character(world, v3(0, 1.1f + STAND, 0));
    for (int n = 0; n < 60; ++n)
        frame(world, c, v3(0, 0, 0));
    vec3s v = cairn_character_velocity(c), expect = cairn_body_linear_velocity(world, platform);
    cr_expect(glms_vec3_distance(v, expect) < 0.01f, "moves at (%.3f %.3f %.3f)", v.x, v.y, v.z);
    cr_expect(cairn_character_ground_state(c).on_ground);
    cr_expect(cairn_character_ground_state(c).body.index == platform.index);
    cairn_character_destroy(c);
    cairn_world_destroy(world);
}

Test(character, bad_input)
{
    cairn_world *world = scene_default_world();
    cairn_character_def def = cairn_character_default_def();
    cr_expect_null(cairn_character_create(NULL, &def));
    def.max_slope = 2.0f;
    cr_expect_null(cairn_character_create(world, &def));
    cr_expect(strstr(cairn_last_error(), "max_slope") != NULL, "%s", cairn_last_error());
    def = cairn_character_default_def();
    def.step_height = -0.1f;
    cr_expect_null(cairn_character_create(world, &def));
    cr_expect(strstr(cairn_last_error(), "step_height") != NULL, "%s", cairn_last_error());
    def = cairn_character_default_def();
    def.radius = NAN;
    cr_expect_null(cairn_character_create(world, &def));
    def = cairn_character_default_def();
    cairn_character *c = cairn_character_create(world, &def);
    cr_expect(!cairn_character_move(c, v3(NAN, 0, 0), SCENE_DT));
    cr_expect(!cairn_character_move(c, v3(1, 0, 0), 0.0f));
    cr_expect(!cairn_character_move(c, v3(1, 0, 0), INFINITY));
    cr_expect(!cairn_character_move(NULL, v3(1, 0, 0), SCENE_DT));
    cr_expect(glms_vec3_norm(cairn_character_position(c)) == 0.0f, "nothing moved");
    cairn_character_destroy(c);
    cairn_world_destroy(world);
}

/* Walking down 0.25 m stairs the ground probe keeps it on the steps: on_ground every frame. */
Test(character, walks_down_stairs_on_the_ground)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.5f, 0.0f);
    for (int i = 0; i < 6; ++i) { /* steps 0.5 m deep, each 0.25 m lower, from 1.5 m */
        float top = 1.5f - 0.25f * (float)i;
        scene_body(world, cairn_shape_box(v3(0.25f, top * 0.5f, 2), 0.0f), CAIRN_STATIC,
                   scene_at(v3(0.5f * (float)i, top * 0.5f, 0)), 1000.0f, 0.5f, 0.0f);
    }
    cairn_character *c = make_character(world, v3(0, 1.5f + STAND, 0));
    frame(world, c, v3(0, 0, 0));
    cr_assert(cairn_character_ground_state(c).on_ground);
    int airborne = 0;
    for (int n = 0; n < 60; ++n) {
        frame(world, c, v3(1.5f, 0, 0)); /* 1.5 m/s down the stairs */
        airborne += !cairn_character_ground_state(c).on_ground;
    }
    cr_expect(cairn_character_position(c).x > 1.3f, "walked to x %.3f",
              cairn_character_position(c).x);
    cr_expect(cairn_character_position(c).y < 1.5f + STAND - 0.5f, "went down: y %.3f",
              cairn_character_position(c).y);
    cr_expect_eq(airborne, 0, "in the air for %d of 60 frames", airborne);
    cairn_character_destroy(c);
    cairn_world_destroy(world);
}

/* Pushing into a V of two walls 60 degrees apart, it stays put (no jitter in the corner). */
Test(character, does_not_jitter_in_a_corner)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.5f, 0.0f);
    for (int side = -1; side <= 1; side += 2) {
        cairn_transform xf = cairn_transform_identity();
        float a = (float)side * 30.0f * (float)SCENE_PI / 180.0f;
        xf.rotation = glms_quatv(a, v3(0, 1, 0));
        /* walls meeting at the origin, opening towards -x */
        xf.position = glms_quat_rotatev(xf.rotation, v3(-2.0f, 1.0f, (float)side * 0.05f));
        scene_body(world, cairn_shape_box(v3(2, 1, 0.05f), 0.0f), CAIRN_STATIC, xf, 1000.0f, 0.5f,
                   0.0f);
    }
    cairn_character *c = make_character(world, v3(-3, STAND, 0));
    for (int n = 0; n < 120; ++n)
        frame(world, c, v3(3, 0, 0.2f));
    vec3s low = cairn_character_position(c), high = low;
    for (int n = 0; n < 60; ++n) {
        frame(world, c, v3(3, 0, 0.2f));
        low = glms_vec3_minv(low, cairn_character_position(c));
        high = glms_vec3_maxv(high, cairn_character_position(c));
    }
    float spread = glms_vec3_distance(low, high);
    cr_expect(spread < 0.001f, "moved %.5f m while pushing into the corner", spread);
    cr_expect(low.x < -0.3f, "it went into the walls: x %.3f", low.x);
    cairn_character_destroy(c);
    cairn_world_destroy(world);
}

/* Two characters walking into each other stop at the touch (capsules, not a pass-through). */
Test(character, characters_block_each_other)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.5f, 0.0f);
    cairn_character *left = make_character(world, v3(-2, STAND, 0));
    cairn_character *right = make_character(world, v3(2, STAND, 0));
    for (int n = 0; n < 90; ++n) {
        cairn_character_ground g = cairn_character_ground_state(left);
        cr_assert(cairn_character_move(left, v3(2, g.on_ground ? 0.0f : -1.0f, 0), SCENE_DT));
        g = cairn_character_ground_state(right);
        cr_assert(cairn_character_move(right, v3(-2, g.on_ground ? 0.0f : -1.0f, 0), SCENE_DT));
        cairn_world_step(world, SCENE_DT);
    }
    float gap = cairn_character_position(right).x - cairn_character_position(left).x;
    cr_expect(gap > 2.0f * radius - 0.001f && gap < 2.0f * radius + 0.05f,
              "centres %.4f m apart, radii sum %.2f", gap, 2.0f * radius);
    cairn_character_destroy(left);
    cairn_character_destroy(right);
    cairn_world_destroy(world);
}

/* On a turning platform it moves with the platform's surface under it: at r from the axis,
   omega r. */
Test(character, rides_a_turning_platform)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.5f, 0.0f);
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_KINEMATIC;
    def.shape = cairn_shape_box(v3(4, 0.1f, 4), 0.0f);
    def.transform.position = v3(0, 1, 0);
    def.angular_velocity = v3(0, 0.5f, 0);
    cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);
    cairn_character *c = make_character(world, v3(2, 1.1f + STAND, 0));
    for (int n = 0; n < 30; ++n)
        frame(world, c, v3(0, 0, 0));
    vec3s p = cairn_character_position(c);
    float r = hypotf(p.x, p.z), speed = glms_vec3_norm(cairn_character_velocity(c));
    cr_expect(fabsf(speed - 0.5f * r) < 0.01f, "moves at %.4f m/s, the surface at %.4f", speed,
              0.5f * r);
    cr_expect(fabsf(r - 2.0f) < 0.05f, "drifted to radius %.3f", r);
    cairn_character_destroy(c);
    cairn_world_destroy(world);
}

/* Layers: a wall on a layer the character's mask leaves out is walked through. */
Test(character, walks_through_layers_it_does_not_see)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.5f, 0.0f);
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_STATIC;
    def.shape = cairn_shape_box(v3(0.1f, 2, 5), 0.0f);
    def.transform.position = v3(1.5f, 2, 0);
    def.layer = 4u;
    cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);
    cairn_character_def cd = cairn_character_default_def();
    cd.position = v3(0, STAND, 0);
    cd.mask = ~4u;
    cairn_character *ghost = cairn_character_create(world, &cd);
    cairn_character *solid = make_character(world, v3(0, STAND, 3));
    for (int n = 0; n < 60; ++n) {
        frame(world, ghost, v3(3, 0, 0));
        frame(world, solid, v3(3, 0, 0));
    }
    cr_expect(cairn_character_position(ghost).x > 2.5f, "the ghost stopped at %.3f",
              cairn_character_position(ghost).x);
    cr_expect(cairn_character_position(solid).x < 1.4f - radius + 0.001f, "the other passed");
    cairn_character_destroy(ghost);
    cairn_character_destroy(solid);
    cairn_world_destroy(world);
}

static bool not_the_door(cairn_body_id body, void *context)
{
    ++((int *)context)[1];
    return body.index != (uint32_t)((int *)context)[0];
}

/* With a filter that rejects one wall (a door it may open), it walks through that wall and is
   still stopped by another on the same layer; the filter is asked about the bodies it meets. */
Test(character, walks_through_the_bodies_its_filter_rejects)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.5f, 0.0f);
    cairn_body_id door = static_box(world, v3(0.1f, 2, 1), v3(1.5f, 2, 0));
    static_box(world, v3(0.1f, 2, 1), v3(1.5f, 2, 4));
    int context[2] = {(int)door.index, 0};
    cairn_character_def cd = cairn_character_default_def();
    cd.half_height = half_height;
    cd.radius = radius;
    cd.position = v3(0, STAND, 0);
    cd.filter = not_the_door;
    cd.filter_context = context;
    cairn_character *through = cairn_character_create(world, &cd);
    cr_assert_not_null(through, "%s", cairn_last_error());
    cd.position = v3(0, STAND, 4);
    cairn_character *blocked = cairn_character_create(world, &cd);
    for (int n = 0; n < 60; ++n) {
        frame(world, through, v3(3, 0, 0));
        frame(world, blocked, v3(3, 0, 0));
    }
    cr_expect(cairn_character_position(through).x > 2.5f, "it stopped at the door, x %.3f",
              cairn_character_position(through).x);
    cr_expect(cairn_character_position(blocked).x < 1.4f - radius + 0.001f,
              "it passed the other wall, x %.3f", cairn_character_position(blocked).x);
    cr_expect(cairn_character_ground_state(through).on_ground, "it lost the floor");
    cr_expect_gt(context[1], 0, "the filter was never asked");
    cairn_character_destroy(through);
    cairn_character_destroy(blocked);
    cairn_world_destroy(world);
}

/* Its world destroyed, a character refuses to move (and can still be destroyed). */
Test(character, a_destroyed_world)
{
    cairn_world *world = scene_default_world();
    cairn_character *c = make_character(world, v3(0, 1, 0));
    cairn_world_destroy(world);
    cr_expect(!cairn_character_move(c, v3(1, 0, 0), SCENE_DT));
    cr_expect(strstr(cairn_last_error(), "world was destroyed") != NULL, "%s", cairn_last_error());
    cairn_character_destroy(c);
}

/* A full snapshot of the world, malloc'd: *size bytes. */
static unsigned char *snapshot_of(const cairn_world *world, size_t *size)
{
    *size = cairn_world_snapshot_size(world);
    unsigned char *buffer = malloc(*size);
    cr_assert(cairn_world_snapshot(world, buffer, *size), "%s", cairn_last_error());
    return buffer;
}

/* Characters are part of a snapshot: restored, a walking character goes on exactly as before. */
Test(character, snapshots_hold_characters)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.5f, 0.0f);
    cairn_character *c = make_character(world, v3(0, STAND + 0.5f, 0));
    for (int n = 0; n < 20; ++n)
        frame(world, c, v3(2, 0, 1));
    size_t size;
    unsigned char *buffer = snapshot_of(world, &size);
    for (int n = 0; n < 30; ++n)
        frame(world, c, v3(2, 0, 1));
    vec3s expect = cairn_character_position(c);
    cr_assert(cairn_world_restore(world, buffer, size), "%s", cairn_last_error());
    for (int n = 0; n < 30; ++n)
        frame(world, c, v3(2, 0, 1));
    vec3s p = cairn_character_position(c);
    cr_expect(p.x == expect.x && p.y == expect.y && p.z == expect.z,
              "at (%.6f %.6f %.6f), expected (%.6f %.6f %.6f)", p.x, p.y, p.z, expect.x, expect.y,
              expect.z);
    /* a world with another number of characters is not the world saved */
    cairn_character *other = make_character(world, v3(5, STAND, 5));
    cr_expect(!cairn_world_restore(world, buffer, size));
    cr_expect(strstr(cairn_last_error(), "characters") != NULL, "%s", cairn_last_error());
    cairn_character_destroy(other);
    free(buffer);
    cairn_character_destroy(c);
    cairn_world_destroy(world);
}

/* Created exactly touching a raised box's top (no skin between them), it still walks: the
   de-penetration also pushes out of exact contact, which a cast from contact cannot leave. */
Test(character, walks_away_from_exact_contact)
{
    cairn_world *world = scene_default_world();
    static_box(world, v3(3, 0.5f, 3), v3(0, 3.5f, 0));
    cairn_character *c = make_character(world, v3(0, 4.0f + STAND, 0));
    for (int n = 0; n < 30; ++n)
        frame(world, c, v3(2, 0, 0));
    vec3s p = cairn_character_position(c);
    cr_expect(fabsf(p.x - 1.0f) < 0.02f, "walked to x %.4f in 0.5 s at 2 m/s", (double)p.x);
    cr_expect(p.y > 4.0f + STAND && p.y < 4.0f + STAND + 0.01f, "standing at y %.4f", (double)p.y);
    cr_expect(cairn_character_ground_state(c).on_ground);
    cairn_character_destroy(c);
    cairn_world_destroy(world);
}

/* ---- on meshes and heightfields ---- */

/* A flat square of n x n cells of `cell` m centred on the origin at y = 0, facing up. */
static cairn_body_id mesh_floor(cairn_world *world, int n, float cell)
{
    cairn_shape *mesh = floor_mesh(n, cell, 0.0f);
    cr_assert_not_null(mesh, "%s", cairn_last_error());
    return scene_body(world, mesh, CAIRN_STATIC, cairn_transform_identity(), 1000.0f, 0.5f, 0.0f);
}

Test(character, walks_on_a_mesh_floor)
{
    cairn_world *world = scene_default_world();
    mesh_floor(world, 40, 0.5f);
    cairn_character *c = make_character(world, v3(-4, STAND + 0.02f, 0.1f));
    for (int n = 0; n < 10; ++n) /* settle onto the floor */
        frame(world, c, v3(0, 0, 0));
    cr_assert(cairn_character_ground_state(c).on_ground, "not on the mesh floor");
    vec3s start = cairn_character_position(c);
    float lowest = INFINITY, highest = -INFINITY;
    for (int n = 0; n < 60; ++n) { /* 1 s diagonally across the seams at 4 m/s */
        frame(world, c, v3(2.828f, 0, 2.828f));
        cr_assert(cairn_character_ground_state(c).on_ground, "left the ground at frame %d", n);
        lowest = fminf(lowest, cairn_character_position(c).y);
        highest = fmaxf(highest, cairn_character_position(c).y);
    }
    float walked = glms_vec3_distance(cairn_character_position(c), start);
    cr_expect(fabsf(walked - 4.0f) < 0.04f, "walked %.4f m in 1 s at 4 m/s", (double)walked);
    cr_expect(lowest > STAND - 0.001f && highest < STAND + 0.01f, "height %.4f to %.4f, %.4f",
              (double)lowest, (double)highest, (double)STAND);
    cairn_character_destroy(c);
    cairn_world_destroy(world);
}

/* Falling at 20 m/s onto a mesh floor and running at 20 m/s into a mesh wall (one quad): it
   stops on them in every frame, never past. */
Test(character, never_passes_through_a_mesh_floor_or_wall)
{
    cairn_world *world = scene_default_world();
    mesh_floor(world, 20, 0.5f);
    vec3s wall[4] = {v3(5, 0, -5), v3(5, 0, 5), v3(5, 4, -5), v3(5, 4, 5)};
    int faces[6] = {0, 2, 1, 1, 2, 3}; /* facing -x, towards the character */
    cairn_shape *quad = cairn_shape_mesh(wall, 4, faces, 2);
    cr_assert_not_null(quad, "%s", cairn_last_error());
    scene_body(world, quad, CAIRN_STATIC, cairn_transform_identity(), 1000.0f, 0.5f, 0.0f);
    cairn_character *c = make_character(world, v3(0, 6, 0));
    for (int n = 0; n < 30; ++n) {
        cr_assert(cairn_character_move(c, v3(0, -20, 0), SCENE_DT), "%s", cairn_last_error());
        cr_assert_geq(cairn_character_position(c).y, STAND - 0.001f, "through the floor: %.4f",
                      (double)cairn_character_position(c).y);
    }
    for (int n = 0; n < 30; ++n) {
        frame(world, c, v3(20, 0, 0));
        cr_assert_leq(cairn_character_position(c).x, 5.0f - radius + 0.001f,
                      "through the wall at frame %d: x %.4f", n,
                      (double)cairn_character_position(c).x);
    }
    cr_expect_gt(cairn_character_position(c).x, 5.0f - radius - 0.02f, "stopped short of it");
    cairn_character_destroy(c);
    cairn_world_destroy(world);
}

/* A heightfield hill (a 10-degree slope up to a plateau): it walks up and over on the ground. */
Test(character, walks_over_a_heightfield_hill)
{
    cairn_world *world = scene_default_world();
    enum { NX = 41, NZ = 9 };
    float heights[NX * NZ];
    float slope = tanf(10.0f * (float)SCENE_PI / 180.0f);
    for (int z = 0; z < NZ; ++z)
        for (int x = 0; x < NX; ++x) /* 0.5 m cells: flat, up 10 degrees to 1 m, flat */
            heights[z * NX + x] = fminf(fmaxf(0.5f * (float)(x - 8) * slope, 0.0f), 1.0f);
    cairn_shape *field = cairn_shape_heightfield(heights, NX, NZ, v3(0.5f, 1, 0.5f));
    cr_assert_not_null(field, "%s", cairn_last_error());
    scene_body(world, field, CAIRN_STATIC, scene_at(v3(0, 0, -2)), 1000.0f, 0.5f, 0.0f);
    cairn_character *c = make_character(world, v3(1, STAND + 0.02f, 0));
    for (int n = 0; n < 10; ++n)
        frame(world, c, v3(0, 0, 0));
    for (int n = 0; n < 400 && cairn_character_position(c).x < 17.0f; ++n) {
        frame(world, c, v3(3, 0, 0));
        cr_assert(cairn_character_ground_state(c).on_ground, "left the ground at x %.3f",
                  (double)cairn_character_position(c).x);
    }
    vec3s p = cairn_character_position(c);
    cr_expect_geq(p.x, 17.0f, "stuck at x %.3f", (double)p.x);
    cr_expect(fabsf(p.y - (1.0f + STAND)) < 0.01f, "on the plateau at y %.4f", (double)p.y);
    cairn_character_destroy(c);
    cairn_world_destroy(world);
}

/* ---- size: crouching and standing up ---- */

/* Where the capsule's lowest point is (its centre less half_height + radius). */
static float feet(const cairn_character *c)
{
    float h, r;
    cairn_character_size(c, &h, &r);
    return cairn_character_position(c).y - h - r;
}

/* A slab whose underside is 1.2 m up over x in [2, 6]: 1.6 m standing does not fit under it,
   1.0 m crouched does. Walking in standing, the slab's side stops it; crouched it walks under;
   there standing up is refused (no room) and changes nothing; past the slab it stands up. Each
   change keeps its feet where they were. */
Test(character, crouches_under_a_low_ceiling_and_stands_up_past_it)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.5f, 0.0f);
    static_box(world, v3(2, 0.5f, 3), v3(4, 1.7f, 0));
    cairn_character *c = make_character(world, v3(0, STAND, 0));
    for (int n = 0; n < 60; ++n)
        frame(world, c, v3(3, 0, 0));
    float stopped = cairn_character_position(c).x;
    cr_expect(stopped < 2.0f - radius + 0.01f, "standing, it walked to x = %.3f under the slab",
              stopped);
    float before = feet(c);
    cr_assert(cairn_character_set_size(c, 0.2f, radius), "%s", cairn_last_error());
    cr_expect(fabsf(feet(c) - before) < 1e-5f, "feet moved from %.5f to %.5f", before, feet(c));
    for (int n = 0; n < 60; ++n)
        frame(world, c, v3(3, 0, 0));
    vec3s under = cairn_character_position(c);
    cr_expect(under.x > 4.0f, "crouched, it got to x = %.3f only", under.x);
    cr_expect(cairn_character_ground_state(c).on_ground);
    cairn_clear_error();
    cr_expect(!cairn_character_set_size(c, half_height, radius), "it stood up under the slab");
    cr_expect(strstr(cairn_last_error(), "no room") != NULL, "%s", cairn_last_error());
    float h, r;
    cairn_character_size(c, &h, &r);
    vec3s still = cairn_character_position(c);
    cr_expect(h == 0.2f && r == radius && still.x == under.x && still.y == under.y,
              "a refused change changed it: size %g %g at (%g, %g)", h, r, still.x, still.y);
    for (int n = 0; n < 60; ++n)
        frame(world, c, v3(3, 0, 0));
    cr_assert_gt(cairn_character_position(c).x, 6.0f + radius);
    before = feet(c);
    cr_expect(cairn_character_set_size(c, half_height, radius), "%s", cairn_last_error());
    cr_expect(fabsf(feet(c) - before) < 1e-5f, "feet moved from %.5f to %.5f", before, feet(c));
    cr_expect(fabsf(cairn_character_position(c).y - STAND) < 0.01f, "standing at %.4f",
              cairn_character_position(c).y);
    cairn_character_destroy(c);
    cairn_world_destroy(world);
}

/* Another character overhead leaves no room to stand up until it goes. */
Test(character, stands_up_only_when_another_character_makes_room)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.5f, 0.0f);
    cairn_character *c = make_character(world, v3(0, STAND, 0));
    frame(world, c, v3(0, 0, 0));
    cr_assert(cairn_character_set_size(c, 0.1f, radius), "%s", cairn_last_error());
    cairn_character *above = make_character(world, v3(0, 0.8f + STAND, 0));
    cr_expect(!cairn_character_set_size(c, half_height, radius), "it stood up into another");
    cr_assert(cairn_character_set_position(above, v3(3, STAND, 0)));
    cr_expect(cairn_character_set_size(c, half_height, radius), "%s", cairn_last_error());
    cairn_character_destroy(above);
    cairn_character_destroy(c);
    cairn_world_destroy(world);
}

Test(character, bad_sizes_are_refused)
{
    cairn_world *world = scene_default_world();
    cairn_character *c = make_character(world, v3(0, STAND, 0));
    const float bad[4][2] = {{-0.1f, 0.3f}, {NAN, 0.3f}, {0.5f, 0.0f}, {0.5f, INFINITY}};
    const char *names[4] = {"half_height", "half_height", "radius", "radius"};
    for (int k = 0; k < 4; ++k) {
        cr_expect(!cairn_character_set_size(c, bad[k][0], bad[k][1]));
        cr_expect(strstr(cairn_last_error(), names[k]) != NULL, "%s", cairn_last_error());
    }
    float h, r;
    cairn_character_size(c, &h, &r);
    cr_expect(h == half_height && r == radius, "size %g %g after refusals", h, r);
    cr_expect(!cairn_character_set_size(NULL, 0.5f, 0.3f));
    cairn_world_destroy(world);
    cr_expect(!cairn_character_set_size(c, 0.2f, 0.3f));
    cr_expect(strstr(cairn_last_error(), "world was destroyed") != NULL, "%s", cairn_last_error());
    cairn_character_destroy(c);
}

/* A snapshot keeps the size: saved standing and restored crouched, the character stands again,
   where it was, and goes on as the saved world did. */
Test(character, snapshots_keep_the_size)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.5f, 0.0f);
    cairn_character *c = make_character(world, v3(0, STAND, 0));
    for (int n = 0; n < 10; ++n)
        frame(world, c, v3(2, 0, 0));
    size_t size;
    unsigned char *buffer = snapshot_of(world, &size);
    for (int n = 0; n < 20; ++n)
        frame(world, c, v3(2, 0, 0));
    vec3s expect = cairn_character_position(c);
    cr_assert(cairn_character_set_size(c, 0.2f, 0.25f), "%s", cairn_last_error());
    cr_assert(cairn_world_restore(world, buffer, size), "%s", cairn_last_error());
    float h, r;
    cairn_character_size(c, &h, &r);
    cr_expect(h == half_height && r == radius, "restored size %g %g", h, r);
    for (int n = 0; n < 20; ++n)
        frame(world, c, v3(2, 0, 0));
    vec3s p = cairn_character_position(c);
    cr_expect(p.x == expect.x && p.y == expect.y && p.z == expect.z,
              "at (%.6f %.6f %.6f), expected (%.6f %.6f %.6f)", p.x, p.y, p.z, expect.x, expect.y,
              expect.z);
    free(buffer);
    cairn_character_destroy(c);
    cairn_world_destroy(world);
}

/* A snapshot whose character record holds a radius of 0 (checksum fixed) is refused with an
   error naming it, and the character keeps its size. The record is found by its size. */
Test(character, a_snapshot_with_a_bad_size_is_refused)
{
    cairn_world *world = scene_default_world();
    cairn_character_def def = cairn_character_default_def();
    def.half_height = 0.4567f;
    def.radius = 0.2345f;
    cairn_character *c = cairn_character_create(world, &def);
    cr_assert_not_null(c, "%s", cairn_last_error());
    size_t size;
    unsigned char *buffer = snapshot_of(world, &size);
    const float pair[2] = {def.half_height, def.radius}, zero = 0.0f;
    unsigned char *at = snapshot_find(buffer, size, pair, sizeof pair);
    cr_assert_not_null(at, "the size is not in the snapshot");
    at += sizeof(float);
    memcpy(at, &zero, sizeof zero);
    snapshot_reseal(buffer, size);
    cr_expect(!cairn_world_restore(world, buffer, size), "a radius of 0 was taken");
    cr_expect(strstr(cairn_last_error(), "radius") != NULL, "%s", cairn_last_error());
    float h, r;
    cairn_character_size(c, &h, &r);
    cr_expect(h == def.half_height && r == def.radius, "size %g %g", h, r);
    free(buffer);
    cairn_character_destroy(c);
    cairn_world_destroy(world);
}
