#include <cairn/cairn.h>
#include <cairn/thread_pool.h>
#include <stdio.h>

static uint64_t run_pile(cairn_thread_pool *pool, cairn_step_stats *stats)
{
    cairn_world_def world_def = cairn_world_default_def();
    cairn_thread_pool_bind(pool, &world_def); /* a pool of one leaves the callbacks empty */
    cairn_world *world = cairn_world_create(&world_def);
    cairn_shape *floor = cairn_shape_box((vec3s){{20, 1, 20}}, 0.0f);
    cairn_shape *box = cairn_shape_box((vec3s){{0.4f, 0.4f, 0.4f}}, 0.04f);
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_STATIC;
    def.shape = floor;
    def.transform.position = (vec3s){{0, -1, 0}};
    cairn_body_create(world, &def);
    def.type = CAIRN_DYNAMIC;
    def.shape = box;
    for (int i = 0; i < 300; ++i) { /* a loose heap of 300 boxes dropped in layers */
        def.transform.position = (vec3s){{(float)(i % 10) - 4.5f + 0.1f * (float)(i / 100),
                                          0.5f + 0.9f * (float)(i / 10), (float)(i % 7) * 0.3f}};
        cairn_body_create(world, &def);
    }
    for (int step = 0; step < 120; ++step)
        cairn_world_step(world, 1.0f / 60.0f);
    *stats = cairn_world_step_stats(world);
    uint64_t hash = cairn_world_state_hash(world);
    cairn_world_destroy(world);
    cairn_shape_release(box);
    cairn_shape_release(floor);
    return hash;
}

int main(void)
{
    cairn_thread_pool *one = cairn_thread_pool_create(1), *four = cairn_thread_pool_create(4);
    cairn_step_stats stats_one, stats_four;
    uint64_t a = run_pile(one, &stats_one), b = run_pile(four, &stats_four);
    printf("same on 1 and 4 workers: %s\n", a == b ? "yes" : "no");
    printf("workers: %d and %d\n", stats_one.workers, stats_four.workers);
    printf("solver colours: %d, overflow: %d\n", stats_four.colors, stats_four.overflow_contacts);
    cairn_thread_pool_destroy(four);
    cairn_thread_pool_destroy(one);
    printf("no pool of 0: %s\n",
           cairn_thread_pool_create(0) ? "made" : cairn_thread_pool_last_error());
}
