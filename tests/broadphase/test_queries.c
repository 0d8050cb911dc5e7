/* Broadphase queries against brute force: AABB overlap and ray entry order, with pending moves,
   pending creates, destroyed and wide proxies; ray clipping and stopping. */
#include "broadphase/oracle.h"

#include <math.h>

enum { N = 600 };

typedef struct scene {
    broadphase bp;
    int proxy[N];
    uint32_t body[N];
    bool alive[N];
} scene;

static cairn_aabb random_box(uint64_t *rng, float extent, float size)
{
    vec3s c = {{oracle_uniform(rng, 0, extent), oracle_uniform(rng, 0, extent),
                oracle_uniform(rng, 0, extent)}};
    vec3s h = {
        {oracle_uniform(rng, 0, size), oracle_uniform(rng, 0, size), oracle_uniform(rng, 0, size)}};
    return (cairn_aabb){glms_vec3_sub(c, h), glms_vec3_add(c, h)};
}

/* A scene in every state the queries must see through: sorted, wide, moved, created, dead. */
static void build(scene *s, uint64_t *rng, bool flat)
{
    cr_assert(broadphase_init(&s->bp, N));
    for (int i = 0; i < N; i++) {
        cairn_aabb b = random_box(rng, 40, 1.5f);
        if (flat)
            b.min.y = 0, b.max.y = 1;
        if (i % 97 == 0)
            b = (cairn_aabb){{{-100, 0, -100}}, {{100, 1, 100}}}; /* wide */
        s->body[i] = (uint32_t)(3 * i + 1);
        s->proxy[i] = broadphase_create_proxy(&s->bp, b, s->body[i], 1, ~0u, i % 5 == 0);
        s->alive[i] = true;
    }
    cr_assert(broadphase_update_pairs(&s->bp));
    for (int i = 0; i < N; i += 7)
        broadphase_move_proxy(&s->bp, s->proxy[i], random_box(rng, 40, 1.5f), (vec3s){{1, 0, -1}});
    for (int i = 3; i < N; i += 11) {
        broadphase_destroy_proxy(&s->bp, s->proxy[i]);
        s->alive[i] = false;
    }
}

static int brute_aabb(const scene *s, cairn_aabb q, uint32_t *out)
{
    int n = 0;
    for (int i = 0; i < N; i++)
        if (s->alive[i] && oracle_overlap(broadphase_fat_aabb(&s->bp, s->proxy[i]), q))
            out[n++] = s->body[i];
    return n;
}

static int compare_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

static void check_aabb_queries(scene *s, uint64_t *rng)
{
    uint32_t got[N], want[N];
    for (int k = 0; k < 300; k++) {
        cairn_aabb q = random_box(rng, 40, k % 10 == 0 ? 20.0f : 3.0f);
        int n = broadphase_query_aabb(&s->bp, q, got, N);
        int m = brute_aabb(s, q, want);
        cr_assert_eq(n, m, "query found %d, brute force %d", n, m);
        qsort(got, (size_t)n, sizeof *got, compare_u32);
        qsort(want, (size_t)m, sizeof *want, compare_u32);
        for (int i = 0; i < n; i++)
            cr_assert_eq(got[i], want[i]);
        if (n > 2) /* capacity: total still reported */
            cr_assert_eq(broadphase_query_aabb(&s->bp, q, got, 2), n);
    }
}

Test(broadphase_queries, aabb_matches_brute_force)
{
    uint64_t rng = 0x1111u;
    for (int flat = 0; flat < 2; flat++) {
        scene s;
        build(&s, &rng, flat);
        check_aabb_queries(&s, &rng); /* pending moves, creates and destroys */
        cr_assert(broadphase_update_pairs(&s.bp));
        check_aabb_queries(&s, &rng); /* all sorted in */
        broadphase_destroy(&s.bp);
    }
}

typedef struct ray_log {
    uint32_t body[N];
    float t[N];
    int count;
    float clip_at;  /* clip the ray to this t at the first hit (0: never) */
    int stop_after; /* return 0 after this many hits (0: never) */
} ray_log;

static float record_hit(void *context, uint32_t body, float t_enter)
{
    ray_log *log = context;
    log->body[log->count] = body;
    log->t[log->count] = t_enter;
    log->count++;
    if (log->stop_after && log->count == log->stop_after)
        return 0.0f;
    if (log->clip_at > 0)
        return log->clip_at;
    return -1.0f;
}

/* Entry parameter of the segment into a box in [0, 1], computed independently (per-axis
   intervals), or -1 when it misses. */
static float brute_enter(vec3s o, vec3s d, cairn_aabb b)
{
    double t0 = 0, t1 = 1;
    for (int a = 0; a < 3; a++) {
        double oa = o.raw[a], da = d.raw[a], lo = b.min.raw[a], hi = b.max.raw[a];
        if (da == 0) {
            if (oa < lo || oa > hi)
                return -1;
            continue;
        }
        double ta = (lo - oa) / da, tb = (hi - oa) / da;
        t0 = fmax(t0, fmin(ta, tb));
        t1 = fmin(t1, fmax(ta, tb));
    }
    return t0 <= t1 ? (float)t0 : -1;
}

Test(broadphase_queries, ray_matches_brute_force_in_entry_order)
{
    uint64_t rng = 0x2222u;
    scene s;
    build(&s, &rng, false);
    for (int k = 0; k < 300; k++) {
        vec3s o = {{oracle_uniform(&rng, -5, 45), oracle_uniform(&rng, -5, 45),
                    oracle_uniform(&rng, -5, 45)}};
        vec3s d = {{oracle_uniform(&rng, -40, 40), oracle_uniform(&rng, -40, 40),
                    oracle_uniform(&rng, -40, 40)}};
        if (k % 10 == 0)
            d.y = 0; /* axis-parallel components */
        static ray_log log;
        log.count = 0, log.clip_at = 0, log.stop_after = 0;
        int calls = broadphase_query_ray(&s.bp, o, d, record_hit, &log);
        cr_assert_eq(calls, log.count);
        int expected = 0;
        for (int i = 0; i < N; i++)
            if (s.alive[i] && brute_enter(o, d, broadphase_fat_aabb(&s.bp, s.proxy[i])) >= 0)
                expected++;
        cr_assert_eq(log.count, expected, "ray hit %d, brute force %d", log.count, expected);
        for (int i = 1; i < log.count; i++)
            cr_assert(log.t[i - 1] <= log.t[i], "not in entry order");
        for (int i = 0; i < log.count; i++) {
            int j = 0;
            while (s.body[j] != log.body[i])
                j++;
            float t = brute_enter(o, d, broadphase_fat_aabb(&s.bp, s.proxy[j]));
            cr_assert(fabsf(t - log.t[i]) < 1e-4f, "t %g vs %g", (double)log.t[i], (double)t);
        }
        if (log.count >= 3) {
            /* clipping at the first hit's t keeps only hits entering at or before it */
            float first = log.t[0];
            int ties = 0;
            while (ties < log.count && log.t[ties] <= first)
                ties++;
            log.count = 0, log.clip_at = fmaxf(first, 1e-6f);
            broadphase_query_ray(&s.bp, o, d, record_hit, &log);
            for (int i = 0; i < log.count; i++)
                cr_assert(log.t[i] <= fmaxf(first, 1e-6f));
            cr_assert_geq(log.count, ties);
            log.count = 0, log.clip_at = 0, log.stop_after = 2;
            cr_assert_eq(broadphase_query_ray(&s.bp, o, d, record_hit, &log), 2);
        }
    }
    broadphase_destroy(&s.bp);
}
