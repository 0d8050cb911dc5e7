/* A pile from the demo catalogue comes to rest: after 20 s every body of the hull junkyard (513
   random hulls) sleeps. A manifold that adds a wandering witness point (see
   collision/manifold.c) kept 431 of them awake. */
#include <cairn/io.h>

#include <criterion/criterion.h>

#define SCENES CAIRN_SOURCE_DIR "/demos/scenes/"

static int awake_after(const char *name, int steps)
{
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert(cairn_scene_load(name, &world, &err), "%s:%d:%d: %s", err.file, err.line, err.column,
              err.message);
    for (int i = 0; i < steps; ++i)
        cairn_world_step(world, 1.0f / 60.0f);
    int awake = cairn_world_step_stats(world).awake_bodies;
    cairn_world_destroy(world);
    return awake;
}

Test(scene_settles, hull_junkyard_sleeps_within_20_s)
{
    int awake = awake_after(SCENES "hull_junkyard.yaml", 1200);
    cr_expect_eq(awake, 0, "%d bodies still awake", awake);
}
