#include <cairn/cairn.h>
#include <stdio.h>

static void report(const cairn_world *world, const char *when)
{
    cairn_step_stats stats = cairn_world_step_stats(world);
    printf("%s: awake %d, contacts %d, points %d, manifolds reused %d\n", when, stats.awake_bodies,
           stats.contacts, stats.points, stats.manifolds_reused);
}

int main(void)
{
    cairn_world_def world_def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&world_def);
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_STATIC;
    def.shape = cairn_shape_box((vec3s){{10, 1, 10}}, 0.0f);
    def.transform.position = (vec3s){{0, -1, 0}};
    cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);
    /* a stack of three 1 m boxes, placed resting */
    def.type = CAIRN_DYNAMIC;
    def.shape = cairn_shape_box((vec3s){{0.5f, 0.5f, 0.5f}}, 0.05f);
    cairn_body_id top = {0, 0};
    for (int i = 0; i < 3; ++i) {
        def.transform.position = (vec3s){{0, 0.5f + i, 0}};
        top = cairn_body_create(world, &def);
    }
    cairn_shape_release((cairn_shape *)def.shape);

    for (int step = 0; step < 20; ++step)
        cairn_world_step(world, 1.0f / 60.0f);
    report(world, "resting");

    cairn_world_def changed = cairn_world_get_def(world); /* the pair cache off */
    changed.solver.pair_cache_distance = 0.0f;
    cairn_world_set_def(world, &changed);
    cairn_world_step(world, 1.0f / 60.0f);
    report(world, "no cache");

    for (int step = 0; step < 60; ++step)
        cairn_world_step(world, 1.0f / 60.0f);
    report(world, "asleep");
    cairn_body_set_awake(world, top, true); /* wakes the whole island */
    cairn_world_step(world, 1.0f / 60.0f);
    report(world, "woken");
    cairn_world_destroy(world);
}
