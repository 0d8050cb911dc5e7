/* Soak: 10,000 mixed bodies (spheres, boxes, capsules, cylinders, hulls) fall into a bin and a
   kinematic paddle stirs them, for 100,000 steps (BENCH_STEPS to change). Every 5,000 steps
   (BENCH_WINDOW) it
   prints the median step time of that window, the mean time of each stage, the resident and peak
   memory (VmRSS, VmHWM), awake bodies, contacts, and counts of non-finite states and of bodies that
   left the world: memory and step time must stay flat, the counts 0. BENCH_THREADS=T steps on T
   workers of the thread pool (default 1). Not a CI test: run it by hand. */
#define _POSIX_C_SOURCE 199309L
#include "bench_util.h"

#include <cairn/cairn.h>
#include <cairn/thread_pool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BODIES = 10000 };

static double status_mb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1.0;
    char line[256];
    double mb = -1.0;
    size_t n = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0) {
            mb = atof(line + n) / 1024.0;
            break;
        }
    fclose(f);
    return mb;
}

static void add_static(cairn_world *world, vec3s half, vec3s at)
{
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_STATIC;
    def.shape = cairn_shape_box(half, 0.0f);
    def.transform.position = at;
    cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);
}

static cairn_shape *mixed_shape(int i)
{
    switch (i % 5) {
    case 0:
        return cairn_shape_sphere(0.25f);
    case 1:
        return cairn_shape_box((vec3s){{0.25f, 0.2f, 0.3f}}, 0.02f);
    case 2:
        return cairn_shape_capsule(0.2f, 0.15f);
    case 3:
        return cairn_shape_cylinder(0.2f, 0.25f, 0.02f);
    default: {
        vec3s points[8];
        for (int k = 0; k < 8; ++k) /* a skewed octahedron-ish cloud, different per body kind */
            points[k] = (vec3s){{0.3f * cosf((float)k * 0.9f), 0.25f * sinf((float)k * 1.7f),
                                 0.3f * sinf((float)k * 0.9f) * ((k & 1) ? 1.0f : -0.6f)}};
        return cairn_shape_hull(points, 8, 0.01f);
    }
    }
}

static cairn_world *build(cairn_body_id *paddle, cairn_thread_pool *pool)
{
    cairn_world_def def = cairn_world_default_def();
    cairn_thread_pool_bind(pool, &def);
    cairn_world *world = cairn_world_create(&def);
    add_static(world, (vec3s){{20, 1, 20}}, (vec3s){{0, -1, 0}});
    for (int side = -1; side <= 1; side += 2) { /* the bin's walls */
        add_static(world, (vec3s){{0.5f, 6, 20}}, (vec3s){{20.5f * (float)side, 6, 0}});
        add_static(world, (vec3s){{20, 6, 0.5f}}, (vec3s){{0, 6, 20.5f * (float)side}});
    }
    cairn_shape *shapes[5];
    for (int k = 0; k < 5; ++k)
        shapes[k] = mixed_shape(k);
    cairn_body_def body = cairn_body_default_def();
    for (int i = 0; i < BODIES; ++i) {
        body.shape = shapes[i % 5];
        body.transform.position =
            (vec3s){{(float)(i % 40) * 0.9f - 17.5f, 2.0f + (float)(i / 1600) * 0.9f,
                     (float)((i / 40) % 40) * 0.9f - 17.5f}};
        cairn_body_create(world, &body);
    }
    for (int k = 0; k < 5; ++k)
        cairn_shape_release(shapes[k]);
    cairn_body_def blade = cairn_body_default_def();
    blade.type = CAIRN_KINEMATIC;
    blade.shape = cairn_shape_box((vec3s){{15, 1.0f, 0.4f}}, 0.0f);
    blade.transform.position = (vec3s){{0, 1.2f, 0}};
    blade.angular_velocity = (vec3s){{0, 0.5f, 0}}; /* a turn every 12.6 s */
    *paddle = cairn_body_create(world, &blade);
    cairn_shape_release((cairn_shape *)blade.shape);
    return world;
}

/* The checkpoint file: the number of steps taken, then the world's snapshot. Written to a
   temporary file and renamed, so an interrupted save leaves the previous checkpoint. */
static bool checkpoint_save(const cairn_world *world, long step, const char *path)
{
    size_t size = cairn_world_snapshot_size(world);
    void *buffer = malloc(size);
    char temporary[4096];
    snprintf(temporary, sizeof temporary, "%s.tmp", path);
    FILE *f = buffer ? fopen(temporary, "wb") : NULL;
    bool ok = f && cairn_world_snapshot(world, buffer, size) &&
              fwrite(&step, sizeof step, 1, f) == 1 && fwrite(buffer, 1, size, f) == size;
    ok = f && fclose(f) == 0 && ok && rename(temporary, path) == 0;
    free(buffer);
    if (!ok)
        fprintf(stderr, "bench_soak: cannot save the checkpoint %s\n", path);
    return ok;
}

/* Restores the checkpoint at path into the freshly built world; the steps it had taken, 0 when
   there is no file, -1 when it cannot be read or restored. */
static long checkpoint_load(cairn_world *world, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    long step = -1;
    void *buffer = NULL;
    if (fread(&step, sizeof step, 1, f) == 1 && fseek(f, 0, SEEK_END) == 0) {
        long end = ftell(f);
        size_t size = end > (long)sizeof step ? (size_t)end - sizeof step : 0;
        buffer = size ? malloc(size) : NULL;
        if (!buffer || fseek(f, (long)sizeof step, SEEK_SET) != 0 ||
            fread(buffer, 1, size, f) != size || !cairn_world_restore(world, buffer, size)) {
            fprintf(stderr, "bench_soak: checkpoint %s: %s\n", path, cairn_last_error());
            step = -1;
        }
    }
    free(buffer);
    fclose(f);
    return step;
}

/* Bodies whose state is not finite, and bodies outside the bin's box (they escaped). */
static void audit(const cairn_world *world, cairn_body_id *ids, int *bad, int *escaped)
{
    int count = cairn_world_bodies(world, ids, BODIES + 16);
    *bad = *escaped = 0;
    for (int i = 0; i < count; ++i) {
        cairn_transform xf = cairn_body_transform(world, ids[i]);
        vec3s v = cairn_body_linear_velocity(world, ids[i]);
        if (!isfinite(xf.position.x + xf.position.y + xf.position.z + v.x + v.y + v.z))
            ++*bad;
        if (fabsf(xf.position.x) > 25.0f || fabsf(xf.position.z) > 25.0f || xf.position.y < -2.0f ||
            !cairn_body_is_enabled(world, ids[i]))
            ++*escaped;
    }
}

int main(void)
{
    const char *env = getenv("BENCH_STEPS");
    long steps = env ? atol(env) : 100000;
    const char *window_env = getenv("BENCH_WINDOW");
    int window_size = window_env ? atoi(window_env) : 5000;
    const char *threads_env = getenv("BENCH_THREADS");
    int threads = threads_env ? atoi(threads_env) : 1;
    if (steps < 1 || window_size < 1) {
        fprintf(stderr, "bench_soak: BENCH_STEPS and BENCH_WINDOW must be positive\n");
        return 2;
    }
    cairn_thread_pool *pool = cairn_thread_pool_create(threads);
    if (!pool) {
        fprintf(stderr, "bench_soak: BENCH_THREADS: %s\n", cairn_thread_pool_last_error());
        return 2;
    }
    cairn_body_id paddle;
    cairn_world *world = build(&paddle, pool);
    const char *checkpoint = getenv("BENCH_CHECKPOINT");
    long first = checkpoint ? checkpoint_load(world, checkpoint) : 0;
    if (first < 0)
        return 2;
    cairn_body_id *ids = malloc(sizeof *ids * (BODIES + 16));
    double *times = malloc(sizeof *times * (size_t)window_size);
    printf("soak: %d mixed bodies in a 40 m bin, a kinematic paddle at 0.5 rad/s, %ld steps of "
           "1/60 s, default settings, %d worker(s)\n",
           BODIES, steps, threads);
    if (first > 0)
        printf("resumed from %s after step %ld\n", checkpoint, first);
    printf("%8s %10s %10s %6s %6s %6s %6s %9s %9s %7s %8s %6s %8s %16s\n", "step", "median_ms",
           "max_ms", "bp_ms", "np_ms", "sol_ms", "isl_ms", "rss_MB", "hwm_MB", "awake", "contacts",
           "nan", "escaped", "state_hash");
    int window = 0;
    double stage_sums[4] = {0}; /* broadphase, narrow phase, solver, islands over the window */
    for (long step = first + 1; step <= steps; ++step) {
        double t = bench_now_ms();
        cairn_world_step(world, 1.0f / 60.0f);
        times[window++] = bench_now_ms() - t;
        cairn_step_stats last = cairn_world_step_stats(world);
        stage_sums[0] += last.broadphase_ms;
        stage_sums[1] += last.narrowphase_ms;
        stage_sums[2] += last.solver_ms;
        stage_sums[3] += last.islands_ms;
        if (window == window_size || step == steps) {
            double max = 0.0;
            for (int i = 0; i < window; ++i)
                max = times[i] > max ? times[i] : max;
            int bad, escaped;
            audit(world, ids, &bad, &escaped);
            cairn_step_stats st = cairn_world_step_stats(world);
            printf(
                "%8ld %10.3f %10.3f %6.1f %6.1f %6.1f %6.1f %9.1f %9.1f %7d %8d %6d %8d %016llx\n",
                step, bench_median(times, window), max, stage_sums[0] / window,
                stage_sums[1] / window, stage_sums[2] / window, stage_sums[3] / window,
                status_mb("VmRSS:"), status_mb("VmHWM:"), st.awake_bodies, st.contacts, bad,
                escaped, (unsigned long long)cairn_world_state_hash(world));
            fflush(stdout);
            if (checkpoint)
                checkpoint_save(world, step, checkpoint);
            window = 0;
            memset(stage_sums, 0, sizeof stage_sums);
        }
    }
    free(times);
    free(ids);
    cairn_world_destroy(world);
    cairn_thread_pool_destroy(pool);
    return 0;
}
