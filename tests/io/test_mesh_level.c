/* demos/scenes/mesh_level.yaml: one triangle mesh read from an OBJ file (a floor, a ramp, stairs,
   a bowl, thin walls, a rim). After 15 s every body is at rest where the level's geometry says
   it must be (the heights of the steps, the bowl's paraboloid, the floor past the ramp, the
   rim); pellets at 40 m/s never pass the thin walls. */
#include <cairn/io.h>

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define LEVEL CAIRN_SOURCE_DIR "/demos/scenes/mesh_level.yaml"

/* The level's measures, as mesh_level.py builds them. */
#define STAIR_Z0   -12.0f
#define STAIR_RUN  0.6f
#define STAIR_RISE 0.3f
#define BOWL_X     8.0f
#define BOWL_Z     8.0f
#define BOWL_R     3.0f
#define BOWL_LOW   0.1f /* rim 1.5 minus depth 1.4 */
#define BOWL_DEPTH 1.4f
#define RIM_INNER  14.75f

typedef struct named_bodies {
    char names[16][CAIRN_IO_NAME_CAPACITY];
    cairn_body_id ids[16];
    int count;
} named_bodies;

static void remember(void *user, const cairn_scene_body *body)
{
    named_bodies *b = user;
    if (b->count < 16) {
        snprintf(b->names[b->count], CAIRN_IO_NAME_CAPACITY, "%s", body->name);
        b->ids[b->count++] = body->id;
    }
}

static named_bodies level_bodies;

static cairn_world *load_level(void)
{
    cairn_world *world = NULL;
    cairn_io_error err;
    cairn_scene_options options = cairn_scene_default_options();
    level_bodies.count = 0;
    options.on_body = remember;
    options.user = &level_bodies;
    cr_assert(cairn_scene_load_ex(LEVEL, &options, &world, &err), "%s:%d:%d: %s", err.file,
              err.line, err.column, err.message);
    return world;
}

static cairn_body_id body_named(const char *name)
{
    for (int i = 0; i < level_bodies.count; ++i)
        if (strcmp(level_bodies.names[i], name) == 0)
            return level_bodies.ids[i];
    cr_assert_fail("no body named %s", name);
    return level_bodies.ids[0];
}

static float lowest_y(cairn_world *world, cairn_body_id id)
{
    return cairn_shape_bounds(cairn_body_shape(world, id), cairn_body_transform(world, id)).min.y;
}

Test(mesh_level, every_body_rests_where_the_geometry_says)
{
    cairn_world *world = load_level();
    for (int n = 0; n < 900; ++n)
        cairn_world_step(world, 1.0f / 60.0f);
    const char *stair_bodies[] = {"stair_box_1", "stair_box_2"};
    for (int i = 0; i < 2; ++i) { /* on the step under its centre */
        cairn_body_id id = body_named(stair_bodies[i]);
        vec3s p = cairn_body_transform(world, id).position;
        int step = (int)floorf((p.z - STAIR_Z0) / STAIR_RUN);
        float top = STAIR_RISE * (float)(step + 1);
        cr_expect_float_eq(lowest_y(world, id), top, 0.01f, "%s at z %.3f: bottom %.4f, step %.2f",
                           stair_bodies[i], (double)p.z, (double)lowest_y(world, id), (double)top);
    }
    for (int i = 1; i <= 4; ++i) { /* in the bowl, on its facets: over the paraboloid */
        char name[32];
        snprintf(name, sizeof name, "bowl_ball_%d", i);
        cairn_body_id id = body_named(name);
        vec3s p = cairn_body_transform(world, id).position;
        float r = hypotf(p.x - BOWL_X, p.z - BOWL_Z);
        float surface = BOWL_LOW + BOWL_DEPTH * (r / BOWL_R) * (r / BOWL_R);
        cr_expect_lt(r, BOWL_R, "%s left the bowl (r %.3f)", name, (double)r);
        cr_expect(lowest_y(world, id) > surface - 0.01f && lowest_y(world, id) < surface + 0.1f,
                  "%s: bottom %.4f, paraboloid %.4f at r %.3f", name, (double)lowest_y(world, id),
                  (double)surface, (double)r);
    }
    cairn_body_id box = body_named("ramp_box"), ball = body_named("ramp_ball");
    cr_expect_gt(cairn_body_transform(world, box).position.x, -6.0f, "the box did not slide off");
    cr_expect_float_eq(lowest_y(world, box), 0.0f, 0.01f, "the box is not on the floor");
    cr_expect_float_eq(
        cairn_shape_bounds(cairn_body_shape(world, ball), cairn_body_transform(world, ball)).max.x,
        RIM_INNER, 0.01f, "the ball did not roll to the rim");
    cr_expect_eq(cairn_world_step_stats(world).awake_bodies, 0, "bodies still awake after 15 s");
    cairn_world_destroy(world);
}

/* Pellets of 5 cm radius at 40 m/s (more than their diameter per substep) straight at the 10 cm
   and the 2 cm wall, at several heights and places along them: none ends past its wall. */
Test(mesh_level, pellets_never_pass_the_thin_walls)
{
    const float walls[2][2] = {{-8.05f, -7.95f}, {-3.01f, -2.99f}}; /* x extents */
    cairn_shape *pellet = cairn_shape_sphere(0.05f);
    for (int w = 0; w < 2; ++w)
        for (int k = 0; k < 6; ++k) {
            cairn_world *world = load_level();
            float from = w == 0 ? walls[w][1] + 2.0f : walls[w][0] - 2.0f;
            float speed = w == 0 ? -40.0f : 40.0f;
            cairn_body_def def = cairn_body_default_def();
            def.shape = pellet;
            def.density = 7800.0f;
            def.transform.position =
                (vec3s){{from, 0.3f + 0.25f * (float)k, 2.5f + 0.9f * (float)k}};
            def.linear_velocity = (vec3s){{speed, 0, 0}};
            cairn_body_id id = cairn_body_create(world, &def);
            cr_assert(cairn_body_is_valid(world, id), "%s", cairn_last_error());
            for (int n = 0; n < 30; ++n) {
                cairn_world_step(world, 1.0f / 60.0f);
                float x = cairn_body_transform(world, id).position.x;
                bool near_side = w == 0 ? x > walls[w][1] : x < walls[w][0];
                cr_assert(near_side, "pellet %d passed the %s wall (x %.3f at step %d)", k,
                          w == 0 ? "10 cm" : "2 cm", (double)x, n);
            }
            cairn_world_destroy(world);
        }
    cairn_shape_release(pellet);
}
