/* The 2.5D demo scene (demos/scenes/plane_2_5d.yaml): every dynamic body is loaded with its
   translation held along z and its rotation about x and y, and over ten seconds, as three balls
   roll down a ramp tilted along z too and push the crates along, none leaves the plane z = 0 or
   turns out of it, to the bit. */
#include "named_scene.h"

#define SCENE CAIRN_SOURCE_DIR "/demos/scenes/plane_2_5d.yaml"

static bool in_plane(cairn_transform xf)
{
    return xf.position.z == 0.0f && xf.rotation.x == 0.0f && xf.rotation.y == 0.0f;
}

Test(scene_plane, the_2_5d_scene_stays_in_its_plane)
{
    const scene *s = load_path(SCENE);
    cairn_world *world = s->world;
    vec3s start[NAMED_SCENE_MAX];
    int dynamic = 0;
    for (int i = 0; i < s->bodies; ++i) {
        start[i] = cairn_body_transform(world, s->ids[i]).position;
        if (cairn_body_get_type(world, s->ids[i]) != CAIRN_DYNAMIC)
            continue;
        dynamic++;
        cr_expect_eq(cairn_body_locked_translation(world, s->ids[i]), CAIRN_LOCK_TRANSLATION_Z,
                     "%s", s->names[i]);
        cr_expect_eq(cairn_body_locked_rotation(world, s->ids[i]),
                     CAIRN_LOCK_ROTATION_X | CAIRN_LOCK_ROTATION_Y, "%s", s->names[i]);
    }
    cr_expect_eq(dynamic, 13, "ten crates and three balls");
    for (int step = 0; step < 600; ++step) {
        cairn_world_step(world, 1.0f / 60.0f);
        for (int i = 0; i < s->bodies; ++i)
            cr_assert(in_plane(cairn_body_transform(world, s->ids[i])) ||
                          cairn_body_get_type(world, s->ids[i]) != CAIRN_DYNAMIC,
                      "step %d: %s left the plane", step, s->names[i]);
    }
    double ball_run = 0.0, crate_push = 0.0;
    for (int i = 0; i < s->bodies; ++i) {
        double moved = (double)(cairn_body_transform(world, s->ids[i]).position.x - start[i].x);
        if (strncmp(s->names[i], "ball", 4) == 0)
            ball_run = moved > ball_run ? moved : ball_run;
        if (strncmp(s->names[i], "crate", 5) == 0)
            crate_push = moved > crate_push ? moved : crate_push;
    }
    cr_expect(ball_run > 10.0, "the balls rolled %g m along x", ball_run);
    cr_expect(crate_push > 0.2, "the balls pushed the crates %g m", crate_push);
    cairn_world_destroy(world);
}
