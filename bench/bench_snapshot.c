/* Snapshot and restore cost: the 1,240-box pyramid (15 x 15 layers up to 1 x 1), at rest and
   asleep, and a 10,000-body pile in motion. Prints the snapshot size, and the median time to
   take it and to restore it (over repeats), and checks that a restore continues bit for bit. */
#define _POSIX_C_SOURCE 199309L
#include "bench_util.h"

#include <cairn/cairn.h>
#include <stdio.h>
#include <stdlib.h>

enum { REPEATS = 21 };

static cairn_world *pyramid(void)
{
    cairn_world_def def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&def);
    cairn_body_def body = cairn_body_default_def();
    body.type = CAIRN_STATIC;
    body.shape = cairn_shape_box((vec3s){{100, 1, 100}}, 0.0f);
    body.transform.position = (vec3s){{0, -1, 0}};
    cairn_body_create(world, &body);
    cairn_shape_release((cairn_shape *)body.shape);
    body.type = CAIRN_DYNAMIC;
    body.shape = cairn_shape_box((vec3s){{0.5f, 0.5f, 0.5f}}, 0.05f);
    for (int layer = 0; layer < 15; ++layer) {
        int n = 15 - layer;
        for (int i = 0; i < n; ++i)
            for (int k = 0; k < n; ++k) {
                body.transform.position =
                    (vec3s){{(float)i - 0.5f * (float)(n - 1), 0.5f + (float)layer,
                             (float)k - 0.5f * (float)(n - 1)}};
                cairn_body_create(world, &body);
            }
    }
    cairn_shape_release((cairn_shape *)body.shape);
    return world;
}

static cairn_world *pile(void)
{
    cairn_world_def def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&def);
    cairn_body_def body = cairn_body_default_def();
    body.type = CAIRN_STATIC;
    body.shape = cairn_shape_box((vec3s){{100, 1, 100}}, 0.0f);
    body.transform.position = (vec3s){{0, -1, 0}};
    cairn_body_create(world, &body);
    cairn_shape_release((cairn_shape *)body.shape);
    body.type = CAIRN_DYNAMIC;
    cairn_shape *shapes[3] = {cairn_shape_sphere(0.3f),
                              cairn_shape_box((vec3s){{0.3f, 0.25f, 0.3f}}, 0.02f),
                              cairn_shape_capsule(0.2f, 0.2f)};
    for (int i = 0; i < 10000; ++i) {
        body.shape = shapes[i % 3];
        body.transform.position =
            (vec3s){{(float)(i % 25) * 0.8f - 10.0f, 1.0f + (float)(i / 625) * 0.8f,
                     (float)((i / 25) % 25) * 0.8f - 10.0f}};
        cairn_body_create(world, &body);
    }
    for (int s = 0; s < 3; ++s)
        cairn_shape_release(shapes[s]);
    return world;
}

typedef size_t size_fn(const cairn_world *);
typedef bool write_fn(const cairn_world *, void *, size_t);

/* One kind of snapshot of the world as it is: its size, save and restore medians, and whether a
   restore continues bit for bit (30 steps from the snapshot, twice). The world ends restored. */
static void measure_kind(const char *name, const char *kind, cairn_world *world, size_fn *size_of,
                         write_fn *write)
{
    size_t size = size_of(world);
    void *buffer = malloc(size);
    double save_ms[REPEATS], restore_ms[REPEATS];
    for (int r = 0; r < REPEATS; ++r) {
        double t = bench_now_ms();
        write(world, buffer, size);
        save_ms[r] = bench_now_ms() - t;
        t = bench_now_ms();
        if (!cairn_world_restore(world, buffer, size)) {
            fprintf(stderr, "%s: restore failed: %s\n", name, cairn_last_error());
            exit(1);
        }
        restore_ms[r] = bench_now_ms() - t;
    }
    for (int n = 0; n < 30; ++n)
        cairn_world_step(world, 1.0f / 60.0f);
    uint64_t first = cairn_world_state_hash(world);
    bool restored = cairn_world_restore(world, buffer, size);
    for (int n = 0; restored && n < 30; ++n)
        cairn_world_step(world, 1.0f / 60.0f);
    bool same = restored && first == cairn_world_state_hash(world);
    cairn_world_restore(world, buffer, size);
    int bodies = cairn_world_body_count(world);
    printf("%-10s %-6s bodies %6d  snapshot %9zu bytes (%5.0f per body)  save %.3f ms  "
           "restore %.3f ms (medians of %d)  continues bit for bit: %s\n",
           name, kind, bodies, size, (double)size / bodies, bench_median(save_ms, REPEATS),
           bench_median(restore_ms, REPEATS), REPEATS,
           same       ? "yes"
           : restored ? "NO"
                      : "refused (a sleeper woke in the 30 steps)");
    free(buffer);
}

static void measure(const char *name, cairn_world *world, int settle_steps)
{
    for (int n = 0; n < settle_steps; ++n)
        cairn_world_step(world, 1.0f / 60.0f);
    printf("%-10s awake %d of %d bodies, contacts %d\n", name,
           cairn_world_step_stats(world).awake_bodies, cairn_world_body_count(world),
           cairn_world_step_stats(world).contacts);
    measure_kind(name, "full", world, cairn_world_snapshot_size, cairn_world_snapshot);
    measure_kind(name, "awake", world, cairn_world_snapshot_awake_size, cairn_world_snapshot_awake);
    cairn_world_destroy(world);
}

int main(void)
{
    measure("pyramid", pyramid(), 240);
    measure("pile 10k", pile(), 120);
    return 0;
}
