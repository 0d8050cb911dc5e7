/* Adversarial pairs of every shape type against double-precision references (reference.h,
   oracle.h). Each pair: sphere, box, capsule, cylinder or hull against any of them; sizes from
   1e-2 to 1e2 m, needles and plates (100:1), near-flat hulls, convex radii from 0 to 20% of the
   smallest dimension; at offsets 0, 1e3 and 1e4 m; posed at random, identical, with coincident
   centres, one inside the other, face to face at gaps 0 and +-1e-6 m, rotated by 1e-10 rad,
   deep, or near touching. Checked: finite results, unit normals, overlap == (distance <= 0),
   no distance below the separation along any axis the reference finds, a normal that achieves
   the distance, exact distances where a closed form or the polytope oracle gives one, the
   cached query equal to the uncached one, and cairn_overlap agreeing away from touching.
   The test runs STRESS_CI_PAIRS pairs; CAIRN_STRESS_PAIRS=N in the environment runs N (the long
   mode, about a minute for 10^6) and prints the failure breakdown; CAIRN_STRESS_SEED=S draws
   other pairs; CAIRN_STRESS_FIRST=I starts at pair I (to rerun one that failed). */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "collision/query.h"
#include "collision/reference.h"

enum { STRESS_CI_PAIRS = 40000, STRESS_SHOWN = 8, SHAPE_TYPES = 5 };

static const cairn_shape_type types[SHAPE_TYPES] = {CAIRN_SHAPE_SPHERE, CAIRN_SHAPE_BOX,
                                                    CAIRN_SHAPE_CAPSULE, CAIRN_SHAPE_CYLINDER,
                                                    CAIRN_SHAPE_HULL};
static const char *const type_names[SHAPE_TYPES] = {"sphere", "box", "capsule", "cylinder", "hull"};

typedef enum failure {
    FAIL_FINITE,  /* NaN or Inf, or a normal that is not unit */
    FAIL_SIGN,    /* overlap != (distance <= 0) */
    FAIL_BOUND,   /* distance below the separation along a reference axis */
    FAIL_NORMAL,  /* distance beyond what the reported normal achieves */
    FAIL_EXACT,   /* differs from an exact reference */
    FAIL_CACHE,   /* cached answer differs from the uncached one */
    FAIL_OVERLAP, /* cairn_overlap disagrees away from touching */
    FAIL_CALL,    /* a query returned false */
    FAILURE_KINDS
} failure;

static const char *const failure_names[FAILURE_KINDS] = {"finite/unit",
                                                         "sign",
                                                         "below a separating bound",
                                                         "normal does not achieve distance",
                                                         "exact reference",
                                                         "cached != uncached",
                                                         "cairn_overlap disagrees",
                                                         "call failed"};

typedef struct stress_totals {
    long pairs, failed_pairs, epa_calls, epa_cap_stops;
    long failures[FAILURE_KINDS];
    long by_type[SHAPE_TYPES][SHAPE_TYPES];
} stress_totals;

/* Three dimensions of about `scale`: equal-ish, a needle or a plate (100:1 along local Y). */
static void dimensions(oracle_rng *rng, double scale, double d[3])
{
    int form = oracle_int(rng, 0, 5);
    for (int k = 0; k < 3; ++k)
        d[k] = scale * oracle_uniform(rng, 0.3, 1.0);
    if (form == 0) {
        d[0] = d[2] = fmax(d[1] / 100.0, 2e-4);
    } else if (form == 1) {
        d[1] = fmax(fmin(d[0], d[2]) / 100.0, 2e-4);
    }
}

static float radius_for(oracle_rng *rng, double smallest)
{
    return oracle_int(rng, 0, 2) == 0 ? 0.0f : (float)(oracle_uniform(rng, 0.0, 0.2) * smallest);
}

static cairn_shape *random_hull(oracle_rng *rng, const double d[3], double smallest)
{
    vec3s points[20];
    int count = oracle_int(rng, 4, 20);
    bool flat = oracle_int(rng, 0, 5) == 0;
    /* Near-flat: 1e-3 of the largest dimension thick, a hundred times the hull tolerance
       (thinner clouds are the hull builder's business: tests/geometry/test_hull_near_flat.c). */
    double thin = 1e-3 * fmax(d[0], fmax(d[1], d[2]));
    for (int attempt = 0; attempt < 8; ++attempt) {
        for (int i = 0; i < count; ++i)
            for (int k = 0; k < 3; ++k) {
                double h = flat && k == 1 ? thin : d[k];
                points[i].raw[k] = (float)oracle_uniform(rng, -h, h);
            }
        cairn_shape *shape = cairn_shape_hull(points, count, radius_for(rng, smallest));
        if (shape != NULL)
            return shape;
        flat = false;
    }
    return NULL;
}

static cairn_shape *random_shape(oracle_rng *rng, cairn_shape_type type, double scale)
{
    double d[3];
    dimensions(rng, scale, d);
    double smallest = fmin(d[0], fmin(d[1], d[2]));
    switch (type) {
    case CAIRN_SHAPE_SPHERE:
        return cairn_shape_sphere((float)d[0]);
    case CAIRN_SHAPE_BOX:
        return cairn_shape_box((vec3s){{(float)d[0], (float)d[1], (float)d[2]}},
                               radius_for(rng, smallest));
    case CAIRN_SHAPE_CAPSULE:
        return cairn_shape_capsule((float)d[1], (float)d[0]);
    case CAIRN_SHAPE_CYLINDER:
        return cairn_shape_cylinder((float)d[1], (float)d[0], radius_for(rng, fmin(d[0], d[1])));
    default:
        return random_hull(rng, d, smallest);
    }
}

static double diagonal(const cairn_shape *s)
{
    cairn_aabb box = cairn_shape_bounds(s, (cairn_transform){{{0, 0, 0}}, {{0, 0, 0, 1}}});
    return glms_vec3_norm(glms_vec3_sub(box.max, box.min));
}

static versors tiny_turn(oracle_rng *rng, versors q)
{
    vec3s axis = oracle_unit_vector(rng);
    versors turn = oracle_axis_angle(axis.x, axis.y, axis.z, 1e-10);
    return glms_quat_normalize(glms_quat_mul(q, turn));
}

/* B's centre along unit world n from A's so that their projections on n are `gap` apart. */
static vec3s along_gap(const cairn_shape *a, cairn_transform xa, const cairn_shape *b, versors qb,
                       const double n[3], double gap)
{
    ref_shape ra = ref_shape_make(a, xa);
    ref_shape rb = ref_shape_make(b, (cairn_transform){{{0, 0, 0}}, qb});
    double m[3] = {-n[0], -n[1], -n[2]};
    double reach = ref_support_value(&ra, n) - ov_dot(n, ra.xf.p) + ref_support_value(&rb, m) + gap;
    return (vec3s){{(float)(xa.position.x + n[0] * reach), (float)(xa.position.y + n[1] * reach),
                    (float)(xa.position.z + n[2] * reach)}};
}

typedef struct stress_pair {
    cairn_shape *a, *b;
    cairn_transform xa, xb, xb_before; /* xb_before: where the cached call saw B */
    int ta, tb, scenario;
    double offset;
} stress_pair;

static const double offsets[] = {0.0, 1e3, 1e4};

/* The poses of scenario `scenario`; B's shape may be replaced (containment: smaller). */
static void place(oracle_rng *rng, stress_pair *p, double scale)
{
    double size = diagonal(p->a) + diagonal(p->b);
    vec3s u = oracle_unit_vector(rng);
    double n[3] = {u.x, u.y, u.z};
    p->xa = (cairn_transform){{{0, 0, 0}}, oracle_rotation(rng)};
    p->xb = (cairn_transform){{{0, 0, 0}}, oracle_rotation(rng)};
    switch (p->scenario) {
    case 0: /* anywhere nearby */
        p->xb.position = glms_vec3_scale(u, (float)(size * oracle_uniform(rng, 0.0, 0.6)));
        break;
    case 1: /* identical poses, the same shape half the time */
        if (p->ta == p->tb && oracle_int(rng, 0, 1) == 0) {
            cairn_shape_release(p->b);
            p->b = p->a;
            cairn_shape_retain(p->a);
        }
        p->xb = p->xa;
        break;
    case 2: /* coincident centres */
        break;
    case 3: /* containment: a small B inside A */
        cairn_shape_release(p->b);
        p->b = random_shape(rng, types[p->tb], scale * oracle_uniform(rng, 0.02, 0.2));
        p->xb.position =
            glms_vec3_scale(u, (float)(0.05 * diagonal(p->a) * oracle_uniform(rng, 0, 1)));
        break;
    case 4: { /* face to face along A's local Y, B turned about it, gaps 0 and +-1e-6 m */
        static const double gaps[] = {0.0, 1e-6, -1e-6};
        vec3s y = glms_quat_rotatev(p->xa.rotation, (vec3s){{0, 1, 0}});
        double axis[3] = {y.x, y.y, y.z};
        p->xb.rotation = glms_quat_normalize(glms_quat_mul(
            p->xa.rotation, oracle_axis_angle(0, 1, 0, oracle_uniform(rng, 0, 2 * ORACLE_PI))));
        p->xb.position =
            along_gap(p->a, p->xa, p->b, p->xb.rotation, axis, gaps[oracle_int(rng, 0, 2)]);
        break;
    }
    case 5: /* B turned by 1e-10 rad from A's rotation */
        p->xb.rotation = tiny_turn(rng, p->xa.rotation);
        p->xb.position = glms_vec3_scale(u, (float)(size * oracle_uniform(rng, 0.0, 0.3)));
        break;
    case 6: /* deep */
        p->xb.position = glms_vec3_scale(u, (float)(size * oracle_uniform(rng, 0.0, 0.1)));
        break;
    default: { /* near touching along a random direction */
        double gap = oracle_int(rng, 0, 1) == 0 ? 0.0 : oracle_uniform(rng, -1e-3, 1e-3) * size;
        p->xb.position = along_gap(p->a, p->xa, p->b, p->xb.rotation, n, gap);
        break;
    }
    }
    vec3s shift = {{(float)p->offset, (float)p->offset, (float)p->offset}};
    p->xa.position = glms_vec3_add(p->xa.position, shift);
    p->xb.position = glms_vec3_add(p->xb.position, shift);
    /* The cached call saw B where it is, moved a little, or anywhere. */
    p->xb_before = p->xb;
    int motion = oracle_int(rng, 0, 2);
    if (motion == 1) {
        p->xb_before.position = glms_vec3_add(
            p->xb.position, glms_vec3_scale(oracle_unit_vector(rng), (float)(0.01 * size)));
        p->xb_before.rotation = glms_quat_normalize(glms_quat_mul(
            p->xb.rotation, oracle_axis_angle(u.y, u.z, u.x, oracle_uniform(rng, -0.05, 0.05))));
    } else if (motion == 2) {
        p->xb_before.position = glms_vec3_add(
            p->xa.position,
            glms_vec3_scale(oracle_unit_vector(rng), (float)(size * oracle_uniform(rng, 0, 0.8))));
        p->xb_before.rotation = oracle_rotation(rng);
    }
}

static bool make_pair(uint64_t seed, long index, stress_pair *p)
{
    oracle_rng rng;
    oracle_rng_seed(&rng, seed ^ (uint64_t)index * 0x9E3779B97F4A7C15ull);
    memset(p, 0, sizeof *p);
    p->ta = (int)(index % SHAPE_TYPES);
    p->tb = (int)(index / SHAPE_TYPES % SHAPE_TYPES);
    p->scenario = (int)(index / (SHAPE_TYPES * SHAPE_TYPES) % 8);
    p->offset = offsets[index / (SHAPE_TYPES * SHAPE_TYPES * 8) % 3];
    double scale = exp(oracle_uniform(&rng, log(1e-2), log(1e2)));
    p->a = random_shape(&rng, types[p->ta], scale);
    p->b = random_shape(&rng, types[p->tb], scale * exp(oracle_uniform(&rng, -0.7, 0.7)));
    if (p->a == NULL || p->b == NULL)
        return false;
    place(&rng, p, scale);
    return p->b != NULL;
}

static bool sharp_polytope(const cairn_shape *s, cairn_transform xf, oracle_poly *poly)
{
    cairn_shape_params params = cairn_shape_get_params(s);
    if (params.convex_radius != 0.0f)
        return false;
    if (params.type == CAIRN_SHAPE_BOX) {
        oracle_poly_from_box(poly, params.half_extents.x, params.half_extents.y,
                             params.half_extents.z, xf);
        return true;
    }
    if (params.type == CAIRN_SHAPE_HULL) {
        oracle_poly_from_hull(poly, s, xf);
        return poly->ok;
    }
    return false;
}

/* The exact signed distance when one is known: closed forms, or the oracle for sharp polytopes. */
static bool exact_distance(const stress_pair *p, const ref_shape *ra, const ref_shape *rb,
                           double *distance)
{
    if (ref_exact_distance(ra, rb, distance))
        return true;
    static _Thread_local oracle_poly pa, pb;
    if (!sharp_polytope(p->a, p->xa, &pa) || !sharp_polytope(p->b, p->xb, &pb))
        return false;
    *distance = oracle_query(&pa, &pb).distance;
    return true;
}

/* Bitmask of the failures of one pair. */
static unsigned check_pair(const stress_pair *p, int samples, stress_totals *totals, char *detail,
                           size_t detail_size)
{
    unsigned bad = 0;
    cairn_query_result r, warm, scratch;
    bool capped = false;
    cairn_gjk_cache cache;
    memset(&cache, 0, sizeof cache);
    if (!query_collide(p->a, p->xa, p->b, p->xb, NULL, &r, &capped) ||
        !cairn_collide(p->a, p->xa, p->b, p->xb_before, &cache, &scratch) ||
        !cairn_collide(p->a, p->xa, p->b, p->xb, &cache, &warm))
        return 1u << FAIL_CALL;
    totals->epa_calls += r.epa_iterations > 0;
    totals->epa_cap_stops += capped;
    double size = diagonal(p->a) + diagonal(p->b);
    double tol = 1e-3 * size, exact_tol = 1e-4 * size;
    if (!isfinite(r.distance) || !oracle_finite_vec(r.normal) || !oracle_finite_vec(r.point_a) ||
        !oracle_finite_vec(r.point_b) || fabsf(glms_vec3_norm(r.normal) - 1.0f) > 1e-4f)
        return 1u << FAIL_FINITE;
    if (r.overlap != (r.distance <= 0.0f))
        bad |= 1u << FAIL_SIGN;
    ref_shape ra = ref_shape_make(p->a, p->xa), rb = ref_shape_make(p->b, p->xb);
    ref_axis best = ref_best_axis(&ra, &rb, samples);
    if (r.distance < best.separation - tol)
        bad |= 1u << FAIL_BOUND;
    double n[3];
    ov_from(n, r.normal);
    double along = ref_separation(&ra, &rb, n);
    if (r.distance > along + tol)
        bad |= 1u << FAIL_NORMAL;
    double exact = NAN;
    if (exact_distance(p, &ra, &rb, &exact) && fabs(r.distance - exact) > exact_tol)
        bad |= 1u << FAIL_EXACT;
    if (fabs(warm.distance - r.distance) > 1e-4 * size)
        bad |= 1u << FAIL_CACHE;
    if (fabs(r.distance) > exact_tol && cairn_overlap(p->a, p->xa, p->b, p->xb) != r.overlap)
        bad |= 1u << FAIL_OVERLAP;
    if (bad)
        snprintf(detail, detail_size,
                 "distance %.9g (cached %.9g) best axis %.9g own normal %.9g exact %.9g size "
                 "%.4g epa %d%s",
                 (double)r.distance, (double)warm.distance, best.separation, along, exact, size,
                 r.epa_iterations, capped ? " (stopped on a bound)" : "");
    return bad;
}

static void run_pairs(uint64_t seed, long first, long count, int samples, stress_totals *totals,
                      bool verbose)
{
    int shown = 0;
    for (long i = first; i < first + count; ++i) {
        stress_pair p;
        bool made = make_pair(seed, i, &p);
        if (made) {
            char detail[320] = "";
            unsigned bad = check_pair(&p, samples, totals, detail, sizeof detail);
            totals->pairs++;
            if (bad) {
                totals->failed_pairs++;
                totals->by_type[p.ta][p.tb]++;
                for (int k = 0; k < FAILURE_KINDS; ++k)
                    totals->failures[k] += (bad >> k) & 1u;
                if (verbose || shown < STRESS_SHOWN) {
                    ++shown;
                    fprintf(stderr, "pair %ld: %s vs %s, scenario %d, offset %g: %s\n", i,
                            type_names[p.ta], type_names[p.tb], p.scenario, p.offset, detail);
                }
            }
        }
        if (p.a)
            cairn_shape_release(p.a);
        if (p.b)
            cairn_shape_release(p.b);
    }
}

static void print_totals(const stress_totals *t)
{
    fprintf(stderr, "stress pairs: %ld, failed %ld; EPA ran %ld times, stopped on a bound %ld\n",
            t->pairs, t->failed_pairs, t->epa_calls, t->epa_cap_stops);
    for (int k = 0; k < FAILURE_KINDS; ++k)
        if (t->failures[k])
            fprintf(stderr, "  %-34s %ld\n", failure_names[k], t->failures[k]);
    for (int a = 0; a < SHAPE_TYPES; ++a)
        for (int b = 0; b < SHAPE_TYPES; ++b)
            if (t->by_type[a][b])
                fprintf(stderr, "  %s vs %s: %ld\n", type_names[a], type_names[b],
                        t->by_type[a][b]);
}

Test(stress_pairs, every_pairing_against_references)
{
    const char *env = getenv("CAIRN_STRESS_PAIRS"), *seed = getenv("CAIRN_STRESS_SEED"),
               *first = getenv("CAIRN_STRESS_FIRST");
    long count = env ? atol(env) : STRESS_CI_PAIRS;
    stress_totals totals;
    memset(&totals, 0, sizeof totals);
    run_pairs(seed ? strtoull(seed, NULL, 0) : 0x16CA1124ull, first ? atol(first) : 0, count, 96,
              &totals, false);
    print_totals(&totals);
    cr_expect_gt(totals.pairs, count * 9 / 10, "only %ld of %ld pairs could be built", totals.pairs,
                 count);
    cr_expect_eq(totals.failed_pairs, 0);
}

/* Pairs that failed once, rerun by seed and index. Seed 0x2611, pairs 299868 and 468663:
   coincident cylinders (cylinder and capsule), where EPA stops on its cap and the bound's
   refinement stalled on the crease of a cylinder's support (directions across its axis): the
   cached call found another local minimum than the uncached one, 1.4e-4 and 1.2e-5 apart.
   Seed 0xBEEF7, pairs 166249 and 588043: the same hull (cylinder) twice at one pose, warm-started
   from a simplex whose cached vertices have a_local == b_local, so two of them re-evaluate to the
   same point: the segment's weights were 0 / 0, and the cached answer a depth of 0 (or a fifth
   of the true one) where the shapes overlap through and through. */
Test(stress_pairs, pairs_that_failed_once)
{
    static const struct {
        uint64_t seed;
        long index;
    } once[] = {{0x2611, 299868}, {0x2611, 468663}, {0xBEEF7, 166249}, {0xBEEF7, 588043}};
    stress_totals totals;
    memset(&totals, 0, sizeof totals);
    for (size_t i = 0; i < sizeof once / sizeof *once; ++i)
        run_pairs(once[i].seed, once[i].index, 1, 96, &totals, true);
    cr_expect_eq(totals.pairs, (long)(sizeof once / sizeof *once));
    cr_expect_eq(totals.failed_pairs, 0);
}
