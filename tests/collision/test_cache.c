/* Frame-to-frame coherence through cairn_gjk_cache: over slowly moving poses, cached and uncached
   queries give the same answers (and the oracle's, for sharp hulls), and the cached path takes
   fewer GJK iterations (counted from cairn_query_result.gjk_iterations, never timed). A stale
   cache (a pair that jumped) must still give the right answer. */
#include <criterion/criterion.h>

#include "collision/oracle.h"

#define FRAMES    100
#define DIST_TOL  1e-4
#define DEPTH_TOL 1e-3

typedef struct motion {
    double p0[3], v[3]; /* B's path: p0 + v * frame */
    double axis[3], w;  /* B's spin: angle w * frame about axis */
    versors q0;
} motion;

static cairn_transform pose(const motion *m, int frame)
{
    versors spin = oracle_axis_angle(m->axis[0], m->axis[1], m->axis[2], m->w * frame);
    versors q = glms_quat_normalize(glms_quat_mul(spin, m->q0));
    return oracle_transform(m->p0[0] + m->v[0] * frame, m->p0[1] + m->v[1] * frame,
                            m->p0[2] + m->v[2] * frame, q);
}

static void random_motion(oracle_rng *rng, motion *m, const double start[3], double step,
                          double spin)
{
    vec3s d = oracle_unit_vector(rng), ax = oracle_unit_vector(rng);
    for (int k = 0; k < 3; ++k) {
        m->p0[k] = start[k];
        m->v[k] = step * d.raw[k];
        m->axis[k] = ax.raw[k];
    }
    m->w = spin;
    m->q0 = oracle_rotation(rng);
}

typedef struct totals {
    long cached, uncached;
    int queries, mismatches, oracle_errors, shown;
} totals;

/* Same answer: verdict (outside the touching band), distance, and a normal that achieves the
   same distance (normals may legitimately differ when the minimum is not unique). */
static void compare(totals *t, const char *what, int pair, int frame, const cairn_shape *a,
                    cairn_transform xa, const cairn_shape *b, cairn_transform xb,
                    const cairn_query_result *plain, const cairn_query_result *cached,
                    const oracle_result *truth)
{
    t->queries++;
    double band = 1e-5;
    bool same = true;
    double tol = (plain->overlap || cached->overlap) ? DEPTH_TOL : DIST_TOL;
    if (fabs((double)plain->distance) > band && plain->overlap != cached->overlap)
        same = false;
    if (!(fabs((double)plain->distance - (double)cached->distance) <= tol))
        same = false;
    double n[3];
    ov_from(n, cached->normal);
    double l = ov_norm(n);
    if (!(fabs(l - 1) <= 1e-4))
        same = false;
    else {
        for (int k = 0; k < 3; ++k)
            n[k] /= l;
        double directed = oracle_shape_directed_overlap(a, xa, b, xb, n);
        if (!(fabs(directed + (double)plain->distance) <= 1e-3))
            same = false;
    }
    double pa[3], pb[3], d[3];
    ov_from(pa, cached->point_a);
    ov_from(pb, cached->point_b);
    ov_sub(d, pb, pa);
    ov_madd(d, d, -(double)cached->distance, n);
    if (!(ov_norm(d) <= 1e-4))
        same = false;
    bool wrong = false;
    if (truth) {
        double tt = truth->overlap ? DEPTH_TOL : DIST_TOL;
        if (!(fabs((double)cached->distance - truth->distance) <= tt) ||
            !(fabs((double)plain->distance - truth->distance) <= tt))
            wrong = true;
        if (fabs(truth->distance) > band &&
            (cached->overlap != truth->overlap || plain->overlap != truth->overlap))
            wrong = true;
    }
    if (!same)
        t->mismatches++;
    if (wrong)
        t->oracle_errors++;
    if ((!same || wrong) && t->shown++ < 8) {
        fprintf(stderr, "[cache] %s pair %d frame %d:%s%s%s\n", what, pair, frame,
                same ? "" : " cached != uncached", wrong ? " differs from the oracle" : "",
                truth ? "" : "");
        if (truth)
            fprintf(stderr, "  oracle: overlap=%d distance=%.9g\n", truth->overlap,
                    truth->distance);
        oracle_print_result(stderr, "uncached", plain);
        oracle_print_result(stderr, "cached  ", cached);
    }
}

static cairn_shape *random_hull(oracle_rng *rng, int count)
{
    vec3s pts[40];
    for (;;) {
        oracle_random_points(rng, pts, count);
        cairn_shape *s = cairn_shape_hull(pts, count, 0.0f);
        if (s)
            return s;
    }
}

static cairn_shape *random_shape(oracle_rng *rng, int kind)
{
    switch (kind) {
    case 0:
        return random_hull(rng, oracle_int(rng, 8, 30));
    case 1:
        return cairn_shape_box(
            (vec3s){{(float)oracle_uniform(rng, 0.2, 0.6), (float)oracle_uniform(rng, 0.2, 0.6),
                     (float)oracle_uniform(rng, 0.2, 0.6)}},
            oracle_int(rng, 0, 1) ? 0.05f : 0.0f);
    case 2:
        return cairn_shape_capsule((float)oracle_uniform(rng, 0.1, 0.5),
                                   (float)oracle_uniform(rng, 0.1, 0.3));
    case 3:
        return cairn_shape_cylinder((float)oracle_uniform(rng, 0.2, 0.5),
                                    (float)oracle_uniform(rng, 0.2, 0.5),
                                    oracle_int(rng, 0, 1) ? 0.05f : 0.0f);
    default:
        return cairn_shape_sphere((float)oracle_uniform(rng, 0.2, 0.5));
    }
}

/* Runs `pairs` coherent sequences. mode 0: separated all along (B starts 0.3..0.6 away and
   drifts slowly); mode 1: overlapping all along; mode 2: B crosses from separated to
   overlapping and out again. hulls_only: sharp hulls checked against the oracle each frame. */
static void run_sequences(totals *t, const char *what, uint64_t seed, int pairs, int mode,
                          bool hulls_only)
{
    oracle_rng rng;
    oracle_rng_seed(&rng, seed);
    static oracle_poly pa, pb;
    for (int i = 0; i < pairs; ++i) {
        cairn_shape *a = hulls_only ? random_hull(&rng, oracle_int(&rng, 8, 30))
                                    : random_shape(&rng, oracle_int(&rng, 0, 4));
        cairn_shape *b = hulls_only ? random_hull(&rng, oracle_int(&rng, 8, 30))
                                    : random_shape(&rng, oracle_int(&rng, 0, 4));
        cr_assert(a && b, "%s", cairn_last_error());
        cairn_transform xa = oracle_transform(0, 0, 0, oracle_rotation(&rng));
        /* place B along a random direction at a separation found by stepping out */
        vec3s dir = oracle_unit_vector(&rng);
        double s = 0;
        cairn_query_result probe;
        motion m;
        double start[3];
        for (s = 0.0; s < 4.0; s += 0.01) {
            cairn_transform xb = oracle_transform(s * dir.x, s * dir.y, s * dir.z, xa.rotation);
            cr_assert(cairn_collide(a, xa, b, xb, NULL, &probe));
            if (!probe.overlap)
                break;
        }
        double extra = mode == 0 ? oracle_uniform(&rng, 0.3, 0.6)
                                 : (mode == 1 ? -oracle_uniform(&rng, 0.08, 0.15) : 0.25);
        for (int k = 0; k < 3; ++k)
            start[k] = (s + extra) * dir.raw[k];
        /* steps of 2 mm and 0.01 rad per frame (mode 2: towards A and through) */
        random_motion(&rng, &m, start, 0.002, 0.01);
        if (mode == 2)
            for (int k = 0; k < 3; ++k)
                m.v[k] = -0.005 * dir.raw[k];
        cairn_gjk_cache cache;
        memset(&cache, 0, sizeof cache);
        for (int f = 0; f < FRAMES; ++f) {
            cairn_transform xb = pose(&m, f);
            cairn_query_result plain, cached;
            memset(&plain, 0, sizeof plain);
            memset(&cached, 0, sizeof cached);
            cr_assert(cairn_collide(a, xa, b, xb, NULL, &plain), "%s", cairn_last_error());
            cr_assert(cairn_collide(a, xa, b, xb, &cache, &cached), "%s", cairn_last_error());
            t->uncached += plain.gjk_iterations;
            t->cached += cached.gjk_iterations;
            oracle_result truth, *tp = NULL;
            if (hulls_only) {
                oracle_poly_from_hull(&pa, a, xa);
                oracle_poly_from_hull(&pb, b, xb);
                truth = oracle_query(&pa, &pb);
                tp = &truth;
            }
            compare(t, what, i, f, a, xa, b, xb, &plain, &cached, tp);
        }
        cairn_shape_release(a);
        cairn_shape_release(b);
    }
}

static void report(const char *what, const totals *t)
{
    fprintf(stderr,
            "[cache] %s: %d queries, GJK iterations uncached %ld, cached %ld (ratio %.2f); "
            "%d mismatches, %d oracle errors\n",
            what, t->queries, t->uncached, t->cached,
            t->cached ? (double)t->uncached / (double)t->cached : 0.0, t->mismatches,
            t->oracle_errors);
}

Test(cache, separated_hulls_same_answers_fewer_iterations, .timeout = 300)
{
    totals t = {0};
    run_sequences(&t, "separated hulls", 0xCAC4E01, 60, 0, true);
    report("separated hulls", &t);
    cr_expect_eq(t.mismatches, 0, "%d cached answers differ from uncached", t.mismatches);
    cr_expect_eq(t.oracle_errors, 0, "%d answers differ from the oracle", t.oracle_errors);
    cr_expect(t.cached < t.uncached, "cached %ld iterations, uncached %ld", t.cached, t.uncached);
}

Test(cache, overlapping_hulls_same_answers_fewer_iterations, .timeout = 300)
{
    totals t = {0};
    run_sequences(&t, "overlapping hulls", 0xCAC4E02, 60, 1, true);
    report("overlapping hulls", &t);
    cr_expect_eq(t.mismatches, 0, "%d cached answers differ from uncached", t.mismatches);
    cr_expect_eq(t.oracle_errors, 0, "%d answers differ from the oracle", t.oracle_errors);
    cr_expect(t.cached < t.uncached, "cached %ld iterations, uncached %ld", t.cached, t.uncached);
}

Test(cache, crossing_into_contact_and_out, .timeout = 300)
{
    totals t = {0};
    run_sequences(&t, "crossing hulls", 0xCAC4E03, 40, 2, true);
    report("crossing hulls", &t);
    cr_expect_eq(t.mismatches, 0, "%d cached answers differ from uncached", t.mismatches);
    cr_expect_eq(t.oracle_errors, 0, "%d answers differ from the oracle", t.oracle_errors);
    cr_expect(t.cached < t.uncached, "cached %ld iterations, uncached %ld", t.cached, t.uncached);
}

Test(cache, mixed_shape_types, .timeout = 300)
{
    totals t = {0};
    for (int mode = 0; mode < 3; ++mode)
        run_sequences(&t, "mixed shapes", 0xCAC4E10 + (uint64_t)mode, 40, mode, false);
    report("mixed shapes", &t);
    cr_expect_eq(t.mismatches, 0, "%d cached answers differ from uncached", t.mismatches);
    cr_expect(t.cached < t.uncached, "cached %ld iterations, uncached %ld", t.cached, t.uncached);
}

/* The goal: at least 2x fewer GJK iterations with the cache on coherent motion
   (separated pairs, where a still-valid separating axis costs one support call per shape). */
Test(cache, at_least_halves_iterations_on_coherent_separated_motion, .timeout = 300)
{
    totals t = {0};
    run_sequences(&t, "separated hulls (goal)", 0xCAC4E20, 60, 0, true);
    report("separated hulls (goal)", &t);
    cr_expect(2 * t.cached <= t.uncached, "cached %ld iterations, uncached %ld (ratio %.2f)",
              t.cached, t.uncached, t.cached ? (double)t.uncached / (double)t.cached : 0.0);
}

/* A cache left over from another pose (the pair jumped, or the cache belonged to other
   shapes' last query of this pair) must never change the answer. */
Test(cache, stale_cache_still_gives_the_right_answer)
{
    oracle_rng rng;
    oracle_rng_seed(&rng, 0x57A1E);
    static oracle_poly pa, pb;
    int wrong = 0, total = 0;
    for (int i = 0; i < 100; ++i) {
        cairn_shape *a = random_hull(&rng, oracle_int(&rng, 6, 30));
        cairn_shape *b = random_hull(&rng, oracle_int(&rng, 6, 30));
        cairn_gjk_cache cache;
        memset(&cache, 0, sizeof cache);
        for (int j = 0; j < 20; ++j) {
            cairn_transform xa = oracle_transform(0, 0, 0, oracle_rotation(&rng));
            vec3s d = oracle_unit_vector(&rng);
            double s = oracle_uniform(&rng, 0, 1.8);
            cairn_transform xb = oracle_transform(s * d.x, s * d.y, s * d.z, oracle_rotation(&rng));
            cairn_query_result r;
            memset(&r, 0, sizeof r);
            cr_assert(cairn_collide(a, xa, b, xb, &cache, &r));
            oracle_poly_from_hull(&pa, a, xa);
            oracle_poly_from_hull(&pb, b, xb);
            oracle_result o = oracle_query(&pa, &pb);
            double tol = o.overlap ? DEPTH_TOL : DIST_TOL;
            total++;
            bool bad = !(fabs((double)r.distance - o.distance) <= tol) ||
                       (fabs(o.distance) > 1e-5 && r.overlap != o.overlap);
            if (bad && wrong++ < 5) {
                fprintf(stderr, "[cache] stale cache, pair %d jump %d: oracle %.9g\n", i, j,
                        o.distance);
                oracle_print_result(stderr, "cached", &r);
            }
        }
        cairn_shape_release(a);
        cairn_shape_release(b);
    }
    cr_expect_eq(wrong, 0, "%d of %d answers with a stale cache are wrong", wrong, total);
}
