/* Narrow-phase benchmark (not a test): 2,000 random hull pairs of about 14 vertices each, half
   overlapping, fixed seed. Prints ns per query (median of 5 repetitions over all pairs) and the
   accuracy of each method against the exact oracle of tests/collision/oracle.h, for
   cairn_collide (cold, and warm with one cairn_gjk_cache per pair over a coherent 100-frame
   motion), cairn_overlap, cairn_collide_sat and, when built with libccd (CAIRN_HAVE_CCD),
   ccdGJKIntersect, ccdGJKPenetration and ccdMPRPenetration on the same pairs.

   Usage: bench_narrowphase [pairs]   */
#define _POSIX_C_SOURCE 199309L

#include <stdlib.h>
#include <time.h>

#include "../tests/collision/oracle.h"
#include "bench_util.h"

#ifdef CAIRN_HAVE_CCD
#include <ccd/ccd.h>
#endif

#define DEFAULT_PAIRS 2000
#define VERTS         14
#define REPS          11
#define FRAMES        100
#define BAND          1e-5
#define DEPTH_TOL     1e-3

typedef struct bench_pair {
    cairn_shape *a, *b;
    cairn_transform xa, xb;
    int na, nb;
    double va[ORACLE_MAX_VERTS][3], vb[ORACLE_MAX_VERTS][3]; /* world vertices */
    double ca[3], cb[3];                                     /* vertex centroids */
    oracle_result truth;
    /* coherent motion of B: per frame a step and a spin */
    double step[3], axis[3];
} bench_pair;

static volatile double sink;

/* ---- pair generation ---- */

static cairn_shape *ellipsoid_hull(oracle_rng *rng)
{
    vec3s pts[VERTS];
    for (;;) {
        oracle_random_ellipsoid_points(rng, pts, VERTS);
        cairn_shape *s = cairn_shape_hull(pts, VERTS, 0.0f);
        if (s)
            return s;
    }
}

static void world_vertices(const oracle_poly *p, double (*v)[3], int *n, double c[3])
{
    *n = p->nv;
    ov_set(c, 0, 0, 0);
    for (int i = 0; i < p->nv; ++i) {
        ov_copy(v[i], p->v[i]);
        ov_add(c, c, p->v[i]);
    }
    for (int k = 0; k < 3; ++k)
        c[k] /= p->nv;
}

static void make_pair(bench_pair *bp, oracle_rng *rng, bool want_overlap)
{
    static oracle_poly A, B;
    for (;;) {
        bp->a = ellipsoid_hull(rng);
        bp->b = ellipsoid_hull(rng);
        bp->xa = oracle_transform(oracle_uniform(rng, -1, 1), oracle_uniform(rng, -1, 1),
                                  oracle_uniform(rng, -1, 1), oracle_rotation(rng));
        vec3s d = oracle_unit_vector(rng);
        double t = oracle_uniform(rng, 0, 0.8);
        bp->xb = oracle_transform(bp->xa.position.x + t * d.x, bp->xa.position.y + t * d.y,
                                  bp->xa.position.z + t * d.z, oracle_rotation(rng));
        oracle_poly_from_hull(&A, bp->a, bp->xa);
        oracle_poly_from_hull(&B, bp->b, bp->xb);
        oracle_result r = oracle_query(&A, &B);
        double target =
            want_overlap ? oracle_uniform(rng, 0.005, 0.3) : oracle_uniform(rng, 0.005, 1.0);
        /* move B along the oracle's normal: exactly to the target distance when separated;
           touching then pushed in by the target when overlapping is wanted */
        double shift = want_overlap ? (r.overlap ? 0.0 : -(r.distance + target))
                                    : (r.overlap ? -r.distance + target : target - r.distance);
        if (shift != 0.0) {
            bp->xb.position.x += (float)(shift * r.normal[0]);
            bp->xb.position.y += (float)(shift * r.normal[1]);
            bp->xb.position.z += (float)(shift * r.normal[2]);
            oracle_poly_from_hull(&B, bp->b, bp->xb);
            r = oracle_query(&A, &B);
        }
        if (r.overlap == want_overlap && fabs(r.distance) > BAND && A.ok && B.ok) {
            bp->truth = r;
            world_vertices(&A, bp->va, &bp->na, bp->ca);
            world_vertices(&B, bp->vb, &bp->nb, bp->cb);
            vec3s s = oracle_unit_vector(rng), ax = oracle_unit_vector(rng);
            for (int k = 0; k < 3; ++k) {
                bp->step[k] = 0.002 * s.raw[k];
                bp->axis[k] = ax.raw[k];
            }
            return;
        }
        cairn_shape_release(bp->a);
        cairn_shape_release(bp->b);
    }
}

static cairn_transform frame_pose(const bench_pair *bp, int frame)
{
    versors spin = oracle_axis_angle(bp->axis[0], bp->axis[1], bp->axis[2], 0.01 * frame);
    versors q = glms_quat_normalize(glms_quat_mul(spin, bp->xb.rotation));
    return oracle_transform(bp->xb.position.x + bp->step[0] * frame,
                            bp->xb.position.y + bp->step[1] * frame,
                            bp->xb.position.z + bp->step[2] * frame, q);
}

/* ---- accuracy ---- */

typedef struct accuracy {
    int wrong;        /* verdict differs from the oracle (outside the touching band) */
    int depth_errors; /* overlapping, |depth - oracle| > 1e-3 */
    double max_depth_error;
    int bad_normals; /* overlapping: the normal does not achieve the depth (1e-3) */
    int flipped;     /* ... while its reverse does */
    int evaluated;
} accuracy;

/* One answer: verdict, and for overlapping pairs the depth and the normal (B pushed along n). */
static void score(accuracy *acc, const bench_pair *bp, bool overlap, bool has_depth, double depth,
                  const double normal[3])
{
    static oracle_poly A, B;
    acc->evaluated++;
    const oracle_result *o = &bp->truth;
    if (overlap != o->overlap) {
        acc->wrong++;
        return;
    }
    if (!o->overlap || !has_depth)
        return;
    double err = fabs(depth - (-o->distance));
    if (!(err <= acc->max_depth_error))
        acc->max_depth_error = isfinite(err) ? fmax(acc->max_depth_error, err) : INFINITY;
    if (!(err <= DEPTH_TOL))
        acc->depth_errors++;
    if (normal) {
        oracle_poly_from_hull(&A, bp->a, bp->xa);
        oracle_poly_from_hull(&B, bp->b, bp->xb);
        double n[3];
        ov_copy(n, normal);
        double l = ov_norm(n);
        if (!(l > 0)) {
            acc->bad_normals++;
            return;
        }
        for (int k = 0; k < 3; ++k)
            n[k] /= l;
        double along = oracle_directed_overlap(&A, &B, n);
        if (!(fabs(along + o->distance) <= DEPTH_TOL)) {
            acc->bad_normals++;
            double m[3] = {-n[0], -n[1], -n[2]};
            if (fabs(oracle_directed_overlap(&A, &B, m) + o->distance) <= DEPTH_TOL)
                acc->flipped++;
        }
    }
}

/* ---- the methods ---- */

typedef enum method {
    M_COLLIDE,
    M_OVERLAP,
    M_SAT,
#ifdef CAIRN_HAVE_CCD
    M_CCD_GJK_INTERSECT,
    M_CCD_GJK_PENETRATION,
    M_CCD_MPR_PENETRATION,
#endif
    M_COUNT
} method;

static const char *method_names[] = {
    "cairn_collide (cold)", "cairn_overlap",     "cairn_collide_sat",
#ifdef CAIRN_HAVE_CCD
    "ccdGJKIntersect",      "ccdGJKPenetration", "ccdMPRPenetration",
#endif
};

#ifdef CAIRN_HAVE_CCD
typedef struct ccd_obj {
    int n;
    const double (*v)[3];
    const double *c;
} ccd_obj;

static void ccd_support(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *out)
{
    const ccd_obj *o = obj;
    double best = -INFINITY;
    int idx = 0;
    for (int i = 0; i < o->n; ++i) {
        double d = o->v[i][0] * dir->v[0] + o->v[i][1] * dir->v[1] + o->v[i][2] * dir->v[2];
        if (d > best) {
            best = d;
            idx = i;
        }
    }
    ccdVec3Set(out, o->v[idx][0], o->v[idx][1], o->v[idx][2]);
}

static void ccd_center(const void *obj, ccd_vec3_t *out)
{
    const ccd_obj *o = obj;
    ccdVec3Set(out, o->c[0], o->c[1], o->c[2]);
}

static ccd_t ccd_settings(void)
{
    ccd_t ccd;
    CCD_INIT(&ccd);
    ccd.support1 = ccd_support;
    ccd.support2 = ccd_support;
    ccd.center1 = ccd_center;
    ccd.center2 = ccd_center;
    ccd.max_iterations = 1000;
    return ccd;
}
#endif

/* Runs one method on one pair; when acc is given, scores the answer. */
static double run_one(method m, const bench_pair *bp, accuracy *acc)
{
    double n[3];
    switch (m) {
    case M_COLLIDE:
    case M_SAT: {
        cairn_query_result r;
        bool ok = m == M_COLLIDE ? cairn_collide(bp->a, bp->xa, bp->b, bp->xb, NULL, &r)
                                 : cairn_collide_sat(bp->a, bp->xa, bp->b, bp->xb, &r);
        if (!ok)
            return 0;
        if (acc) {
            ov_from(n, r.normal);
            score(acc, bp, r.overlap, true, -(double)r.distance, n);
        }
        return r.distance;
    }
    case M_OVERLAP: {
        bool ov = cairn_overlap(bp->a, bp->xa, bp->b, bp->xb);
        if (acc)
            score(acc, bp, ov, false, 0, NULL);
        return ov;
    }
#ifdef CAIRN_HAVE_CCD
    case M_CCD_GJK_INTERSECT:
    case M_CCD_GJK_PENETRATION:
    case M_CCD_MPR_PENETRATION: {
        ccd_t ccd = ccd_settings();
        ccd_obj oa = {bp->na, (const double(*)[3])bp->va, bp->ca};
        ccd_obj ob = {bp->nb, (const double(*)[3])bp->vb, bp->cb};
        if (m == M_CCD_GJK_INTERSECT) {
            int hit = ccdGJKIntersect(&oa, &ob, &ccd);
            if (acc)
                score(acc, bp, hit != 0, false, 0, NULL);
            return hit;
        }
        ccd_real_t depth = 0;
        ccd_vec3_t dir, pos;
        ccdVec3Set(&dir, 0, 0, 0);
        int res = m == M_CCD_GJK_PENETRATION
                      ? ccdGJKPenetration(&oa, &ob, &ccd, &depth, &dir, &pos)
                      : ccdMPRPenetration(&oa, &ob, &ccd, &depth, &dir, &pos);
        if (acc) {
            ov_set(n, dir.v[0], dir.v[1], dir.v[2]);
            score(acc, bp, res == 0, true, depth, n);
        }
        return depth;
    }
#endif
    default:
        return 0;
    }
}

/* One pass of method m over every pair, in ns of thread CPU time per query. */
static double time_pass(method m, const bench_pair *pairs, int count)
{
    double checksum = 0;
    double t0 = bench_thread_cpu_ns();
    for (int i = 0; i < count; ++i)
        checksum += run_one(m, &pairs[i], NULL);
    sink = checksum;
    return (bench_thread_cpu_ns() - t0) / count;
}

/* REPS rounds, each timing every method once in turn, so a slow spell of a shared machine falls
   on all of them alike: the median per method, and the median over the rounds of the ratio
   cairn_collide / ccdGJKPenetration (both timed within the same round). */
static void time_methods(const bench_pair *pairs, int count, double ns[M_COUNT], double *ratio)
{
    double samples[M_COUNT][REPS], ratios[REPS];
    for (int m = 0; m < M_COUNT; ++m) /* warm-up */
        time_pass((method)m, pairs, count);
    for (int rep = 0; rep < REPS; ++rep) {
        for (int m = 0; m < M_COUNT; ++m)
            samples[m][rep] = time_pass((method)m, pairs, count);
#ifdef CAIRN_HAVE_CCD
        ratios[rep] = samples[M_COLLIDE][rep] / samples[M_CCD_GJK_PENETRATION][rep];
#else
        ratios[rep] = 0.0;
#endif
    }
    for (int m = 0; m < M_COUNT; ++m)
        ns[m] = bench_median(samples[m], REPS);
    *ratio = bench_median(ratios, REPS);
}

/* The coherent sequence: every frame moves every pair's B by its step; frame-major order as in a
   world step. With caches, one zeroed cairn_gjk_cache per pair. */
static double time_sequence(const bench_pair *pairs, int count, cairn_transform *poses,
                            cairn_gjk_cache *caches, long *iterations)
{
    double samples[REPS], checksum = 0;
    for (int rep = 0; rep < REPS; ++rep) {
        if (caches)
            memset(caches, 0, sizeof *caches * (size_t)count);
        long iters = 0;
        double t0 = bench_thread_cpu_ns();
        for (int f = 0; f < FRAMES; ++f) {
            const cairn_transform *frame = poses + (size_t)f * (size_t)count;
            for (int i = 0; i < count; ++i) {
                cairn_query_result r;
                cairn_collide(pairs[i].a, pairs[i].xa, pairs[i].b, frame[i],
                              caches ? &caches[i] : NULL, &r);
                checksum += r.distance;
                iters += r.gjk_iterations;
            }
        }
        samples[rep] = (bench_thread_cpu_ns() - t0) / ((double)count * FRAMES);
        *iterations = iters;
    }
    sink = checksum;
    return bench_median(samples, REPS);
}

int main(int argc, char **argv)
{
    int count = argc > 1 ? atoi(argv[1]) : DEFAULT_PAIRS;
    if (count < 2)
        count = DEFAULT_PAIRS;
    bench_pair *pairs = calloc((size_t)count, sizeof *pairs);
    if (!pairs)
        return 1;
    oracle_rng rng;
    oracle_rng_seed(&rng, 0xBE4C4);
    double verts = 0;
    for (int i = 0; i < count; ++i) {
        make_pair(&pairs[i], &rng, i % 2 == 0);
        verts += pairs[i].na + pairs[i].nb;
    }
    printf("narrow phase: %d random hull pairs, %.1f vertices per hull on average, %d "
           "overlapping; thread CPU time, median of %d interleaved rounds\n",
           count, verts / (2.0 * count), (count + 1) / 2, REPS);

    /* accuracy first (untimed), then timings */
    accuracy acc[M_COUNT];
    memset(acc, 0, sizeof acc);
    double ns[M_COUNT], ccd_ratio;
    for (int m = 0; m < M_COUNT; ++m)
        for (int i = 0; i < count; ++i)
            run_one((method)m, &pairs[i], &acc[m]);
    time_methods(pairs, count, ns, &ccd_ratio);

    /* coherent motion, cold and warm */
    cairn_transform *poses = malloc(sizeof *poses * (size_t)count * FRAMES);
    cairn_gjk_cache *caches = aligned_alloc(16, sizeof *caches * (size_t)count);
    if (!poses || !caches)
        return 1;
    for (int f = 0; f < FRAMES; ++f)
        for (int i = 0; i < count; ++i)
            poses[(size_t)f * (size_t)count + (size_t)i] = frame_pose(&pairs[i], f);
    long cold_iters = 0, warm_iters = 0;
    double seq_cold = time_sequence(pairs, count, poses, NULL, &cold_iters);
    double seq_warm = time_sequence(pairs, count, poses, caches, &warm_iters);
    double queries = (double)count * FRAMES;

    /* cached answers must equal the uncached ones on the sequence */
    int cache_mismatch = 0;
    memset(caches, 0, sizeof *caches * (size_t)count);
    for (int f = 0; f < FRAMES; ++f)
        for (int i = 0; i < count; ++i) {
            const cairn_transform xb = poses[(size_t)f * (size_t)count + (size_t)i];
            cairn_query_result c, u;
            cairn_collide(pairs[i].a, pairs[i].xa, pairs[i].b, xb, &caches[i], &c);
            cairn_collide(pairs[i].a, pairs[i].xa, pairs[i].b, xb, NULL, &u);
            double tol = (u.overlap || c.overlap) ? DEPTH_TOL : 1e-4;
            if (!(fabs((double)c.distance - (double)u.distance) <= tol) ||
                (fabs((double)u.distance) > BAND && c.overlap != u.overlap))
                cache_mismatch++;
        }

    printf("\n%-28s %12s %8s %12s %16s %12s %8s\n", "method", "ns/query", "wrong", "depth>1e-3",
           "max depth err", "bad normal", "flipped");
    for (int m = 0; m < M_COUNT; ++m) {
        bool depths = m != M_OVERLAP
#ifdef CAIRN_HAVE_CCD
                      && m != M_CCD_GJK_INTERSECT
#endif
            ;
        if (depths)
            printf("%-28s %12.0f %8d %12d %16.3g %12d %8d\n", method_names[m], ns[m], acc[m].wrong,
                   acc[m].depth_errors, acc[m].max_depth_error, acc[m].bad_normals, acc[m].flipped);
        else
            printf("%-28s %12.0f %8d %12s %16s %12s %8s\n", method_names[m], ns[m], acc[m].wrong,
                   "-", "-", "-", "-");
    }
    printf("%-28s %12.0f %8s   (%d frames, mean GJK iterations %.2f)\n",
           "cairn_collide, motion, cold", seq_cold, "", FRAMES, (double)cold_iters / queries);
    printf("%-28s %12.0f %8s   (cache, mean GJK iterations %.2f; %d answers differ from "
           "uncached)\n",
           "cairn_collide, motion, warm", seq_warm, "", (double)warm_iters / queries,
           cache_mismatch);

    printf("\ngoals (issues 3 and 16):\n");
#ifdef CAIRN_HAVE_CCD
    printf("  cairn_collide / ccdGJKPenetration time, median of the rounds' ratios: %.3f "
           "(medians %.0f vs %.0f ns)\n",
           ccd_ratio, ns[M_COLLIDE], ns[M_CCD_GJK_PENETRATION]);
    printf("  issue 3, ratio <= 0.5: %s\n", ccd_ratio <= 0.5 ? "met" : "NOT met");
    printf("  issue 16, ratio <= 0.4: %s\n", ccd_ratio <= 0.4 ? "met" : "NOT met");
#else
    printf("  (built without libccd: no side-by-side time)\n");
#endif
    bool exact = acc[M_COLLIDE].wrong == 0 && acc[M_COLLIDE].depth_errors == 0 &&
                 acc[M_COLLIDE].bad_normals == 0;
    printf("  cairn_collide no wrong answers: %s\n", exact ? "met" : "NOT met");
    printf("  cache >= 2x fewer GJK iterations: %.2fx -> %s\n",
           warm_iters ? (double)cold_iters / (double)warm_iters : 0.0,
           2 * warm_iters <= cold_iters ? "met" : "NOT met");

    for (int i = 0; i < count; ++i) {
        cairn_shape_release(pairs[i].a);
        cairn_shape_release(pairs[i].b);
    }
    free(poses);
    free(caches);
    free(pairs);
    return 0;
}
