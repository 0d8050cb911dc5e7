/* The cost of changing a body's type between steps: the step after two changes of the top body
   (kinematic, then dynamic again) against a plain step, alternating, medians of 41, in Jolt's
   1,240-box pyramid and the 10,000-shape falling pile (bench_scenes.h, sleeping off). A change
   decides the body's own pairs again (a scan of the broadphase's pairs). No peer: Cairn against
   itself. Usage: bench_body_change. */
#define _POSIX_C_SOURCE 199309L
#include "bench_util.h"

#include "bench_scenes.h"

enum { SAMPLES = 41, SETTLE = 120 };

static double timed_step(cairn_world *world)
{
    double start = bench_now_ms();
    cairn_world_step(world, 1.0f / 60.0f);
    return bench_now_ms() - start;
}

static void run_scene(const scene_spec *scene, cairn_shape *const *shapes)
{
    cairn_world_def def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&def);
    scene->build(world, shapes);
    for (int i = 0; i < SETTLE; ++i)
        cairn_world_step(world, 1.0f / 60.0f);
    int count = cairn_world_bodies(world, NULL, 0);
    cairn_body_id *ids = malloc(sizeof *ids * (size_t)count);
    cairn_world_bodies(world, ids, count);
    cairn_body_id top = ids[count - 1];
    double plain[SAMPLES], changed[SAMPLES];
    for (int k = 0; k < SAMPLES; ++k) {
        plain[k] = timed_step(world);
        if (!cairn_body_set_type(world, top, CAIRN_KINEMATIC) ||
            !cairn_body_set_type(world, top, CAIRN_DYNAMIC)) {
            fprintf(stderr, "bench_body_change: %s\n", cairn_last_error());
            exit(1);
        }
        changed[k] = timed_step(world);
    }
    double p = bench_median(plain, SAMPLES), c = bench_median(changed, SAMPLES);
    printf("%-30s bodies %6d  step %7.2f ms plain, %7.2f ms after two type changes (+%.2f ms, "
           "x%.3f)\n",
           scene->name, count, p, c, c - p, c / p);
    free(ids);
    cairn_world_destroy(world);
}

int main(void)
{
    cairn_shape *shapes[BENCH_SCENE_SHAPES];
    bench_scene_shapes(shapes);
    run_scene(&scenes[0], shapes);
    run_scene(&scenes[2], shapes);
    for (int i = 0; i < BENCH_SCENE_SHAPES; ++i)
        cairn_shape_release(shapes[i]);
    return 0;
}
