/* What a sleeping world costs per step: an n x n grid of unit boxes resting on a floor, stepped
   until every box sleeps, then timed for a number of steps. Bullet (btDiscreteDynamicsWorld with
   deactivation) builds the same grid in the same run when libbullet-dev is installed. */
#define _POSIX_C_SOURCE 200809L
#include <cairn/cairn.h>
#include "bench_util.h"

#ifdef CAIRN_HAVE_BULLET
#include "bench_pyramid_bullet.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { TIMED_STEPS = 300, SETTLE_STEPS_MAX = 1200 };
static const float DT = 1.0f / 60.0f;
static const float SPACING = 2.0f; /* m between box centres: the boxes do not touch each other */

static float *grid_positions(int n)
{
    float *p = malloc(sizeof(float) * 3 * (size_t)(n * n));
    for (int i = 0; i < n * n; ++i) {
        p[3 * i + 0] = SPACING * (float)(i % n);
        p[3 * i + 1] = 0.5f;
        p[3 * i + 2] = SPACING * (float)(i / n);
    }
    return p;
}

/* Median ms per step once asleep, or -1 when the grid never fell asleep. */
static double cairn_sleeping_ms(int n, const float *positions)
{
    cairn_world_def wd = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&wd);
    float half = SPACING * (float)n;
    cairn_body_def def = cairn_body_default_def();
    cairn_shape *floor = cairn_shape_box((vec3s){{half, 1, half}}, 0.0f);
    def.type = CAIRN_STATIC;
    def.shape = floor;
    def.transform.position = (vec3s){{0.5f * half, -1, 0.5f * half}};
    cairn_body_create(world, &def);
    cairn_shape *box = cairn_shape_box((vec3s){{0.5f, 0.5f, 0.5f}}, 0.05f);
    def.type = CAIRN_DYNAMIC;
    def.shape = box;
    for (int i = 0; i < n * n; ++i) {
        def.transform.position =
            (vec3s){{positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]}};
        cairn_body_create(world, &def);
    }
    int settle = 0;
    for (cairn_world_step(world, DT); cairn_world_step_stats(world).awake_bodies > 0; ++settle) {
        if (settle == SETTLE_STEPS_MAX) {
            cairn_world_destroy(world);
            cairn_shape_release(floor);
            cairn_shape_release(box);
            return -1.0;
        }
        cairn_world_step(world, DT);
    }
    double ms[TIMED_STEPS];
    for (int s = 0; s < TIMED_STEPS; ++s) {
        double start = bench_now_ms();
        cairn_world_step(world, DT);
        ms[s] = bench_now_ms() - start;
    }
    cairn_world_destroy(world);
    cairn_shape_release(floor);
    cairn_shape_release(box);
    return bench_median_upper(ms, TIMED_STEPS);
}

#ifdef CAIRN_HAVE_BULLET
static double bullet_sleeping_ms(int n, const float *positions)
{
    float half = SPACING * (float)n;
    const float floor_half[3] = {half, 1, half}, floor_pos[3] = {0.5f * half, -1, 0.5f * half};
    pyr_bullet *b =
        pyr_bullet_create(floor_half, floor_pos, 0.5f, 1000.0f, positions, n * n, -9.81f, 10);
    pyr_bullet_allow_sleep(b);
    int settle = 0;
    for (pyr_bullet_step(b, DT); pyr_bullet_active_count(b) > 0; ++settle) {
        if (settle == SETTLE_STEPS_MAX) {
            pyr_bullet_destroy(b);
            return -1.0;
        }
        pyr_bullet_step(b, DT);
    }
    double ms[TIMED_STEPS];
    for (int s = 0; s < TIMED_STEPS; ++s) {
        double start = bench_now_ms();
        pyr_bullet_step(b, DT);
        ms[s] = bench_now_ms() - start;
    }
    pyr_bullet_destroy(b);
    return bench_median_upper(ms, TIMED_STEPS);
}
#endif

int main(void)
{
    const int sides[] = {32, 100, 200};
    printf("bench_sleeping: n x n unit boxes %.0f m apart on a static floor, stepped until all "
           "sleep, then the median ms of %d steps of 1/60 s\n",
           (double)SPACING, TIMED_STEPS);
    printf("%8s %14s %14s %9s\n", "boxes", "cairn ms", "bullet ms", "ratio");
    for (int k = 0; k < 3; ++k) {
        int n = sides[k];
        float *positions = grid_positions(n);
        double c = cairn_sleeping_ms(n, positions);
#ifdef CAIRN_HAVE_BULLET
        double b = bullet_sleeping_ms(n, positions);
        printf("%8d %14.4f %14.4f %8.0fx\n", n * n, c, b, c > 0 ? b / c : 0.0);
#else
        printf("%8d %14.4f %14s\n", n * n, c, "not built");
#endif
        free(positions);
    }
    return 0;
}
