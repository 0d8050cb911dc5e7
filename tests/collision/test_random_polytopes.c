/* The main proof of the narrow phase: 10,000 random pairs of random hulls (4-40 points, zero
   convex radius, random rotations; half overlapping, half separated by up to 1 unit) checked
   against the exact oracle (tests/collision/oracle.h): cairn_collide (verdict, distance, depth,
   normal, witness points, termination), cairn_collide_sat (agreement with cairn_collide and the
   oracle, same result contract) and cairn_overlap (verdict).

   Every pair is generated from its own seed (BASE_SEED, index), so a failure reported as
   "pair N" is reproduced alone with CAIRN_NP_PAIR=N, which also prints the pair's points and
   transforms. CAIRN_NP_VERBOSE=1 prints every failure instead of the first 5 of each check. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdlib.h>

#include "collision/oracle.h"

#define PAIRS          10000
#define BASE_SEED      0x6A6B2024C0FFEEull
#define TOUCH_BAND     1e-5
#define DIST_TOL       1e-4
#define DEPTH_TOL      1e-3
#define NORMAL_TOL     1e-3
#define WITNESS_TOL    1e-4
#define ITERATION_MAX  256
#define MAX_POINTS     40
#define SHOW_PER_CHECK 5

typedef struct pair_case {
    int index;
    uint64_t seed;
    int na, nb;
    vec3s pa[MAX_POINTS], pb[MAX_POINTS];
    cairn_shape *a, *b;
    cairn_transform xa, xb;
    oracle_poly A, B;
    oracle_result truth;
    bool hull_ok;
} pair_case;

static uint64_t pair_seed(int index)
{
    uint64_t x = BASE_SEED + (uint64_t)index * 0x9E3779B97F4A7C15ull;
    return oracle_splitmix64(&x);
}

static void place_b(pair_case *c, const double pos[3])
{
    c->xb.position = (vec3s){{(float)pos[0], (float)pos[1], (float)pos[2]}};
    oracle_poly_from_hull(&c->B, c->b, c->xb);
    c->truth = oracle_query(&c->A, &c->B);
}

/* Moves B along n by s (world), re-evaluating the oracle. */
static void shift_b(pair_case *c, const double n[3], double s)
{
    double pos[3];
    ov_from(pos, c->xb.position);
    ov_madd(pos, pos, s, n);
    place_b(c, pos);
}

static cairn_shape *random_hull(oracle_rng *rng, vec3s *pts, int *count)
{
    for (int attempt = 0; attempt < 100; ++attempt) {
        *count = oracle_int(rng, 4, MAX_POINTS);
        oracle_random_points(rng, pts, *count);
        cairn_shape *s = cairn_shape_hull(pts, *count, 0.0f);
        if (s)
            return s;
    }
    return NULL;
}

/* Even pairs overlap, odd pairs are separated. Of each, half are shallow (depth or distance
   10^-4.5 .. 10^-1.5); the other overlapping ones keep the depth of a random placement and the
   other separated ones get a distance uniform in (0, 1]. Returns false when the hull builder
   failed on valid random points. */
static bool make_pair(int index, pair_case *c)
{
    memset(c, 0, sizeof *c);
    c->index = index;
    c->seed = pair_seed(index);
    oracle_rng rng;
    oracle_rng_seed(&rng, c->seed);
    bool want_overlap = index % 2 == 0, shallow = (index / 2) % 2 == 0;
    for (int attempt = 0; attempt < 20; ++attempt) {
        cairn_shape_release(c->a);
        cairn_shape_release(c->b);
        c->a = random_hull(&rng, c->pa, &c->na);
        c->b = random_hull(&rng, c->pb, &c->nb);
        if (!c->a || !c->b)
            return false;
        c->hull_ok = oracle_hull_matches_points(c->a, c->pa, c->na, 1e-5) &&
                     oracle_hull_matches_points(c->b, c->pb, c->nb, 1e-5);
        if (!c->hull_ok)
            return true;
        double pos[3];
        for (int k = 0; k < 3; ++k)
            pos[k] = oracle_uniform(&rng, -0.5, 0.5);
        c->xa = oracle_transform(pos[0], pos[1], pos[2], oracle_rotation(&rng));
        c->xb.rotation = oracle_rotation(&rng);
        oracle_poly_from_hull(&c->A, c->a, c->xa);
        vec3s d = oracle_unit_vector(&rng);
        double t = oracle_uniform(&rng, 0, 0.6);
        for (int k = 0; k < 3; ++k)
            pos[k] += t * d.raw[k];
        place_b(c, pos);
        if (!c->A.ok || !c->B.ok)
            continue;
        double target =
            shallow ? pow(10.0, oracle_uniform(&rng, -4.5, -1.5)) : oracle_uniform(&rng, 1e-3, 1.0);
        if (want_overlap) {
            if (!c->truth.overlap) {
                /* along the closest-point direction: touch, then push in by the target */
                double n[3];
                ov_copy(n, c->truth.normal);
                shift_b(c, n, -(c->truth.distance + target));
            }
            if (c->truth.overlap && shallow && -c->truth.distance > target) {
                double n[3];
                ov_copy(n, c->truth.normal);
                shift_b(c, n, -c->truth.distance - target);
            }
            if (c->truth.overlap && -c->truth.distance > 0)
                return true;
        } else {
            for (int step = 0; step < 3 && c->truth.overlap; ++step) {
                /* out along the minimum translation, and a bit more */
                double n[3];
                ov_copy(n, c->truth.normal);
                shift_b(c, n, -c->truth.distance + target);
            }
            if (!c->truth.overlap) {
                /* exact: moving B along the closest-point direction sets the distance */
                double n[3];
                ov_copy(n, c->truth.normal);
                shift_b(c, n, target - c->truth.distance);
            }
            if (!c->truth.overlap && c->truth.distance > 0 && c->truth.distance <= 1.0)
                return true;
        }
    }
    return true;
}

static void free_pair(pair_case *c)
{
    cairn_shape_release(c->a);
    cairn_shape_release(c->b);
    c->a = c->b = NULL;
}

/* ---- failure bookkeeping ---- */

enum {
    F_HULL,
    F_ORACLE,
    F_RETURN,
    F_VERDICT,
    F_DISTANCE,
    F_DEPTH,
    F_NORMAL_UNIT,
    F_NORMAL_DEPTH,
    F_NORMAL_FLIPPED,
    F_NORMAL_GAP,
    F_WITNESS_RELATION,
    F_WITNESS_SURFACE,
    F_ITERATIONS,
    F_SAT_RETURN,
    F_SAT_VERDICT,
    F_SAT_DEPTH,
    F_SAT_DISTANCE,
    F_SAT_ORACLE,
    F_SAT_NORMAL,
    F_SAT_WITNESS,
    F_OVERLAP,
    F_COUNT
};

static const char *check_names[F_COUNT] = {
    "hull builder disagrees with its points (oracle precondition)",
    "oracle not self-certified",
    "cairn_collide returned false",
    "cairn_collide verdict wrong (outside the 1e-5 touching band)",
    "cairn_collide distance error > 1e-4 (separated)",
    "cairn_collide depth error > 1e-3 (overlapping)",
    "cairn_collide normal not finite/unit",
    "cairn_collide normal does not achieve the depth (1e-3)",
    "cairn_collide normal flipped (B not towards +normal)",
    "cairn_collide normal does not achieve the distance (1e-3)",
    "cairn_collide point_b - point_a != distance * normal (1e-4)",
    "cairn_collide witness point off its surface (1e-4)",
    "cairn_collide iterations outside [0, 256)",
    "cairn_collide_sat returned false",
    "cairn_collide_sat verdict differs from cairn_collide",
    "cairn_collide_sat depth differs from cairn_collide (1e-3)",
    "cairn_collide_sat distance differs from cairn_collide (1e-3)",
    "cairn_collide_sat differs from the oracle (verdict, or 1e-3)",
    "cairn_collide_sat normal not unit or not achieving depth/distance (1e-3)",
    "cairn_collide_sat witness relation or surface (1e-4)",
    "cairn_overlap verdict wrong (outside the touching band)",
};

typedef struct tally {
    int count[F_COUNT];
    int overlapping, separated, banded;
    double max_dist_err, max_depth_err, max_sat_err;
    long gjk_sum, epa_sum;
    int gjk_max, epa_max;
    bool verbose;
} tally;

static void describe(const pair_case *c, int check, const char *detail, const cairn_query_result *r,
                     const cairn_query_result *sat)
{
    fprintf(stderr,
            "[random_polytopes] %s\n  pair %d (seed 0x%016llx; rerun alone with "
            "CAIRN_NP_PAIR=%d): points %d/%d, hull vertices %d/%d: %s\n"
            "  oracle: overlap=%d distance=%.9g normal=(%.7f %.7f %.7f)\n",
            check_names[check], c->index, (unsigned long long)c->seed, c->index, c->na, c->nb,
            cairn_hull_vertex_count(c->a), cairn_hull_vertex_count(c->b), detail, c->truth.overlap,
            c->truth.distance, c->truth.normal[0], c->truth.normal[1], c->truth.normal[2]);
    if (r)
        oracle_print_result(stderr, "collide", r);
    if (sat)
        oracle_print_result(stderr, "sat    ", sat);
}

static void fail(tally *t, const pair_case *c, int check, const cairn_query_result *r,
                 const cairn_query_result *sat, const char *fmt, ...)
{
    if (t->count[check]++ < SHOW_PER_CHECK || t->verbose) {
        char detail[256];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(detail, sizeof detail, fmt, ap);
        va_end(ap);
        describe(c, check, detail, r, sat);
    }
}

static void dump_pair(const pair_case *c)
{
    fprintf(stderr, "pair %d: vec3s a_points[%d] = {", c->index, c->na);
    for (int i = 0; i < c->na; ++i)
        fprintf(stderr, "%s{{%.9gf, %.9gf, %.9gf}}", i ? ", " : "", (double)c->pa[i].x,
                (double)c->pa[i].y, (double)c->pa[i].z);
    fprintf(stderr, "};\nvec3s b_points[%d] = {", c->nb);
    for (int i = 0; i < c->nb; ++i)
        fprintf(stderr, "%s{{%.9gf, %.9gf, %.9gf}}", i ? ", " : "", (double)c->pb[i].x,
                (double)c->pb[i].y, (double)c->pb[i].z);
    const cairn_transform *x[2] = {&c->xa, &c->xb};
    for (int k = 0; k < 2; ++k)
        fprintf(stderr,
                "};\ncairn_transform x%c = {{{%.9gf, %.9gf, %.9gf}}, {{%.9gf, %.9gf, %.9gf, "
                "%.9gf}}}",
                'a' + k, (double)x[k]->position.x, (double)x[k]->position.y,
                (double)x[k]->position.z, (double)x[k]->rotation.x, (double)x[k]->rotation.y,
                (double)x[k]->rotation.z, (double)x[k]->rotation.w);
    fprintf(stderr, ";\n");
}

static double unit_normal(double n[3], vec3s v)
{
    ov_from(n, v);
    double l = ov_norm(n);
    if (l > 0)
        for (int k = 0; k < 3; ++k)
            n[k] /= l;
    return l;
}

/* The result contract of one query result against the oracle: returns a failure mask over the
   normal/witness checks (the verdict and values are checked by the callers). */
static bool normal_ok(const pair_case *c, const cairn_query_result *r, bool *flipped)
{
    double n[3];
    double l = unit_normal(n, r->normal);
    *flipped = false;
    if (!(fabs(l - 1.0) <= 1e-4) || !oracle_finite_vec(r->normal))
        return false;
    if (fabs(c->truth.distance) < TOUCH_BAND)
        return true;
    double directed = oracle_directed_overlap(&c->A, &c->B, n);
    if (c->truth.overlap) {
        double depth = -c->truth.distance;
        if (fabs(directed - depth) <= NORMAL_TOL)
            return true;
        double m[3] = {-n[0], -n[1], -n[2]};
        *flipped = fabs(oracle_directed_overlap(&c->A, &c->B, m) - depth) <= NORMAL_TOL;
        return false;
    }
    return fabs(-directed - c->truth.distance) <= NORMAL_TOL;
}

static bool witness_relation_ok(const cairn_query_result *r)
{
    double pa[3], pb[3], n[3], d[3];
    ov_from(pa, r->point_a);
    ov_from(pb, r->point_b);
    ov_from(n, r->normal);
    ov_sub(d, pb, pa);
    ov_madd(d, d, -(double)r->distance, n);
    return ov_norm(d) <= WITNESS_TOL;
}

static bool witness_surface_ok(const pair_case *c, const cairn_query_result *r, double *sa,
                               double *sb)
{
    double pa[3], pb[3];
    ov_from(pa, r->point_a);
    ov_from(pb, r->point_b);
    *sa = oracle_poly_plane_distance(&c->A, pa);
    *sb = oracle_poly_plane_distance(&c->B, pb);
    return fabs(*sa) <= WITNESS_TOL && fabs(*sb) <= WITNESS_TOL;
}

static void check_pair(tally *t, const pair_case *c)
{
    const oracle_result *o = &c->truth;
    bool band = fabs(o->distance) < TOUCH_BAND;
    if (band)
        t->banded++;
    else if (o->overlap)
        t->overlapping++;
    else
        t->separated++;

    /* the oracle certifies itself: the depth (distance) is achieved along its normal */
    double directed = oracle_directed_overlap(&c->A, &c->B, o->normal);
    if (fabs(directed + o->distance) > 1e-9)
        fail(t, c, F_ORACLE, NULL, NULL, "directed overlap along its normal %.12g", directed);

    /* ---- cairn_collide ---- */
    cairn_query_result r;
    memset(&r, 0, sizeof r);
    bool ok = cairn_collide(c->a, c->xa, c->b, c->xb, NULL, &r);
    if (!ok) {
        fail(t, c, F_RETURN, NULL, NULL, "error: %s", cairn_last_error());
    } else {
        t->gjk_sum += r.gjk_iterations;
        t->epa_sum += r.epa_iterations;
        t->gjk_max = r.gjk_iterations > t->gjk_max ? r.gjk_iterations : t->gjk_max;
        t->epa_max = r.epa_iterations > t->epa_max ? r.epa_iterations : t->epa_max;
        double err = fabs((double)r.distance - o->distance);
        if (!band && r.overlap != o->overlap)
            fail(t, c, F_VERDICT, &r, NULL, "verdict %d, oracle %d", r.overlap, o->overlap);
        if (o->overlap) {
            t->max_depth_err = fmax(t->max_depth_err, err);
            if (!(err <= DEPTH_TOL))
                fail(t, c, F_DEPTH, &r, NULL, "depth error %.3g", err);
        } else {
            t->max_dist_err = fmax(t->max_dist_err, err);
            if (!(err <= DIST_TOL))
                fail(t, c, F_DISTANCE, &r, NULL, "distance error %.3g", err);
        }
        double n[3];
        double l = unit_normal(n, r.normal);
        if (!oracle_finite_vec(r.normal) || !(fabs(l - 1.0) <= 1e-4) || !isfinite(r.distance))
            fail(t, c, F_NORMAL_UNIT, &r, NULL, "|n| = %.9g", l);
        else {
            bool flipped;
            if (!normal_ok(c, &r, &flipped)) {
                double dir = oracle_directed_overlap(&c->A, &c->B, n);
                if (o->overlap) {
                    fail(t, c, F_NORMAL_DEPTH, &r, NULL,
                         "overlap along the normal (max_A - min_B) %.9g, depth %.9g", dir,
                         -o->distance);
                    if (flipped)
                        fail(t, c, F_NORMAL_FLIPPED, &r, NULL, "reverse normal gives the depth");
                } else {
                    fail(t, c, F_NORMAL_GAP, &r, NULL, "gap along the normal %.9g, distance %.9g",
                         -dir, o->distance);
                }
            }
        }
        if (!witness_relation_ok(&r))
            fail(t, c, F_WITNESS_RELATION, &r, NULL, "relation off");
        double sa, sb;
        if (!witness_surface_ok(c, &r, &sa, &sb))
            fail(t, c, F_WITNESS_SURFACE, &r, NULL, "signed distance of a to A %.3g, b to B %.3g",
                 sa, sb);
        if (r.gjk_iterations < 0 || r.gjk_iterations >= ITERATION_MAX || r.epa_iterations < 0 ||
            r.epa_iterations >= ITERATION_MAX)
            fail(t, c, F_ITERATIONS, &r, NULL, "gjk %d epa %d", r.gjk_iterations, r.epa_iterations);
    }

    /* ---- cairn_collide_sat: same contract, agrees with cairn_collide ---- */
    cairn_query_result s;
    memset(&s, 0, sizeof s);
    bool sok = cairn_collide_sat(c->a, c->xa, c->b, c->xb, &s);
    if (!sok) {
        fail(t, c, F_SAT_RETURN, NULL, NULL, "error: %s", cairn_last_error());
    } else {
        double err = fabs((double)s.distance - o->distance);
        t->max_sat_err = fmax(t->max_sat_err, err);
        if (ok) {
            if (!band && s.overlap != r.overlap)
                fail(t, c, F_SAT_VERDICT, &r, &s, "sat %d collide %d", s.overlap, r.overlap);
            double diff = fabs((double)s.distance - (double)r.distance);
            if (o->overlap && !(diff <= DEPTH_TOL))
                fail(t, c, F_SAT_DEPTH, &r, &s, "difference %.3g", diff);
            if (!o->overlap && !(diff <= DEPTH_TOL))
                fail(t, c, F_SAT_DISTANCE, &r, &s, "difference %.3g", diff);
        }
        if ((!band && s.overlap != o->overlap) || !(err <= DEPTH_TOL))
            fail(t, c, F_SAT_ORACLE, ok ? &r : NULL, &s, "sat error %.3g", err);
        bool flipped;
        if (!normal_ok(c, &s, &flipped)) {
            double n[3];
            unit_normal(n, s.normal);
            fail(t, c, F_SAT_NORMAL, ok ? &r : NULL, &s,
                 "directed overlap along the sat normal %.9g, oracle distance %.9g%s",
                 oracle_directed_overlap(&c->A, &c->B, n), o->distance,
                 flipped ? " (flipped)" : "");
        }
        double sa, sb;
        if (!witness_relation_ok(&s) || !witness_surface_ok(c, &s, &sa, &sb))
            fail(t, c, F_SAT_WITNESS, ok ? &r : NULL, &s, "surface a %.3g b %.3g", sa, sb);
    }

    /* ---- cairn_overlap ---- */
    bool ov = cairn_overlap(c->a, c->xa, c->b, c->xb);
    if (!band && ov != o->overlap)
        fail(t, c, F_OVERLAP, ok ? &r : NULL, NULL, "cairn_overlap %d oracle %d", ov, o->overlap);
}

Test(random_polytopes, ten_thousand_hull_pairs_against_the_oracle, .timeout = 600)
{
    static pair_case c; /* large: keep off the stack */
    static tally t;
    memset(&t, 0, sizeof t);
    int first = 0, last = PAIRS;
    const char *all = getenv("CAIRN_NP_VERBOSE"); /* print every failure, not the first 5 */
    t.verbose = all && *all;
    const char *only = getenv("CAIRN_NP_PAIR");
    if (only && *only) {
        first = atoi(only);
        last = first + 1;
        t.verbose = true;
    }
    for (int i = first; i < last; ++i) {
        if (!make_pair(i, &c)) {
            fail(&t, &c, F_HULL, NULL, NULL, "cairn_shape_hull returned NULL on random points: %s",
                 cairn_last_error());
            free_pair(&c);
            continue;
        }
        if (!c.hull_ok || !c.A.ok || !c.B.ok) {
            fail(&t, &c, F_HULL, NULL, NULL, "hull topology does not match its points");
            free_pair(&c);
            continue;
        }
        if (t.verbose)
            dump_pair(&c);
        check_pair(&t, &c);
        free_pair(&c);
    }
    int checked = t.overlapping + t.separated + t.banded;
    fprintf(stderr,
            "[random_polytopes] %d pairs: %d overlapping, %d separated, %d within 1e-5 of "
            "touching; max distance error %.3g, max depth error %.3g, max sat error %.3g; "
            "gjk iterations mean %.2f max %d, epa iterations mean %.2f max %d\n",
            checked, t.overlapping, t.separated, t.banded, t.max_dist_err, t.max_depth_err,
            t.max_sat_err, checked ? (double)t.gjk_sum / checked : 0.0, t.gjk_max,
            checked ? (double)t.epa_sum / checked : 0.0, t.epa_max);
    for (int k = 0; k < F_COUNT; ++k)
        if (t.count[k])
            fprintf(stderr, "[random_polytopes] %6d x %s\n", t.count[k], check_names[k]);
    if (last - first == PAIRS) {
        cr_expect(t.overlapping >= PAIRS / 2 - 100 && t.separated >= PAIRS / 2 - 100,
                  "unbalanced mix: %d overlapping, %d separated", t.overlapping, t.separated);
    }
    for (int k = 0; k < F_COUNT; ++k)
        cr_expect_eq(t.count[k], 0, "%d pairs failed: %s", t.count[k], check_names[k]);
}
