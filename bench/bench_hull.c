/* Hull build times (cube and sphere clouds) and the climb-versus-scan support crossover. */
#define _POSIX_C_SOURCE 199309L
#include "core/alloc.h"
#include "bench_util.h"
#include "geometry/hull.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { RUNS = 5, QUERIES = 20000 };

static uint64_t next_random(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ull;
}

static float uniform(uint64_t *state)
{
    return (float)((double)(next_random(state) >> 11) * (2.0 / 9007199254740992.0) - 1.0);
}

static vec3s random_direction(uint64_t *state)
{
    for (;;) {
        vec3s p = {{uniform(state), uniform(state), uniform(state)}};
        float length = glms_vec3_norm(p);
        if (length > 1e-3f && length <= 1.0f)
            return glms_vec3_scale(p, 1.0f / length);
    }
}

static void make_cloud(vec3s *points, int n, bool sphere, uint64_t seed)
{
    uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
    for (int i = 0; i < n; i++)
        points[i] = sphere ? random_direction(&state)
                           : (vec3s){{uniform(&state), uniform(&state), uniform(&state)}};
}

static void bench_build(const char *name, bool sphere, int n)
{
    vec3s *points = malloc((size_t)n * sizeof(vec3s));
    double times[RUNS];
    convex_hull hull = {0};
    for (int run = 0; run < RUNS; run++) {
        make_cloud(points, n, sphere, (uint64_t)run + 1);
        hull_destroy(&hull);
        double start = bench_now_ms();
        if (!hull_build(points, n, &hull)) {
            printf("hull %s n=%d failed: %s\n", name, n, cairn_last_error());
            break;
        }
        times[run] = bench_now_ms() - start;
    }
    printf("hull %s n=%d median_ms=%.3f vertices=%d faces=%d\n", name, n,
           bench_median_upper(times, RUNS), hull.vertex_count, hull.face_count);
    hull_destroy(&hull);
    free(points);
}

/* ns per query, median of RUNS batches; `sink` keeps the results alive. */
static double time_queries(const convex_hull *hull, const vec3s *dirs, bool climb, int *sink)
{
    double times[RUNS];
    for (int run = 0; run < RUNS; run++) {
        double start = bench_now_ms();
        for (int q = 0; q < QUERIES; q++)
            *sink +=
                climb ? hull_support_climb(hull, dirs[q], 0) : hull_support_scan(hull, dirs[q]);
        times[run] = (bench_now_ms() - start) * 1e6 / QUERIES;
    }
    return bench_median_upper(times, RUNS);
}

static void bench_support(void)
{
    static const int sizes[] = {8, 16, 32, 64, 128, 256, 512, 1024, 4096};
    vec3s *dirs = malloc(QUERIES * sizeof(vec3s));
    uint64_t state = 12345;
    for (int q = 0; q < QUERIES; q++)
        dirs[q] = random_direction(&state);
    int crossover = -1, sink = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        vec3s *points = malloc((size_t)sizes[s] * sizeof(vec3s));
        make_cloud(points, sizes[s], true, 99 + s);
        convex_hull hull;
        if (!hull_build(points, sizes[s], &hull)) {
            printf("support n=%d: build failed: %s\n", sizes[s], cairn_last_error());
            free(points);
            continue;
        }
        double scan = time_queries(&hull, dirs, false, &sink);
        double climb = time_queries(&hull, dirs, true, &sink);
        printf("support vertices=%d scan_ns=%.1f climb_ns=%.1f\n", hull.vertex_count, scan, climb);
        if (crossover < 0 && climb < scan)
            crossover = hull.vertex_count;
        hull_destroy(&hull);
        free(points);
    }
    if (crossover > 0)
        printf("support crossover: climbing (cold start at vertex 0) wins from about %d vertices\n",
               crossover);
    else
        printf("support crossover: scan won at every size tried\n");
    printf("(checksum %d)\n", sink);
    free(dirs);
}

int main(void)
{
    static const int sizes[] = {1000, 10000, 100000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        bench_build("cube", false, sizes[i]);
        bench_build("sphere", true, sizes[i]);
    }
    bench_support();
    return 0;
}
