/* cairn_shape_cast: a sphere swept onto boxes (rotated, rounded) against the exact time of impact
   from the point-box distance in doubles; every pair of shape types (and compounds) against an
   oracle that bisects cairn_overlap along the translation; start overlap at t = 0, misses, and
   bad input. */
#include <cairn/cairn.h>
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#define TOI_TOL 1e-4

static vec3s v3(float x, float y, float z)
{
    return (vec3s){{x, y, z}};
}

static cairn_transform at(vec3s p, versors q)
{
    return (cairn_transform){p, q};
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static float uniform(float lo, float hi)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (float)((rng_state >> 40) & 0xffffff) / (float)0x1000000;
}

static versors random_rotation(void)
{
    versors q = {{uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)}};
    return glms_quat_normalize(q);
}

static vec3s random_unit(void)
{
    return glms_vec3_normalize(v3(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)));
}

/* ---- the exact sphere-box time of impact, in doubles ---- */

/* Distance from point p (world) to the core box of half extents h at (c, q). */
static double box_distance(vec3s c, versors q, vec3s h, const double p[3])
{
    versors inv = glms_quat_conjugate(q);
    mat3s r = glms_quat_mat3(inv);
    double d[3] = {p[0] - c.x, p[1] - c.y, p[2] - c.z}, sum = 0.0;
    for (int i = 0; i < 3; ++i) {
        double local = r.raw[0][i] * d[0] + r.raw[1][i] * d[1] + r.raw[2][i] * d[2];
        double out = fabs(local) - h.raw[i];
        if (out > 0.0)
            sum += out * out;
    }
    return sqrt(sum);
}

/* First t in [0, 1] where the sphere centre p0 + t d comes within reach of the core box; -1 when
   never. The distance along a line is convex: ternary search for its minimum, then bisection. */
static double sphere_box_toi(vec3s p0, vec3s d, double reach, vec3s c, versors q, vec3s h)
{
#define AT(t)                                                                                      \
    (double[3])                                                                                    \
    {                                                                                              \
        p0.x + (t)*d.x, p0.y + (t)*d.y, p0.z + (t)*d.z                                             \
    }
    if (box_distance(c, q, h, AT(0.0)) <= reach)
        return 0.0;
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 200; ++i) {
        double m1 = lo + (hi - lo) / 3.0, m2 = hi - (hi - lo) / 3.0;
        if (box_distance(c, q, h, AT(m1)) <= box_distance(c, q, h, AT(m2)))
            hi = m2;
        else
            lo = m1;
    }
    double t_min = 0.5 * (lo + hi);
    if (box_distance(c, q, h, AT(t_min)) > reach)
        return -1.0;
    lo = 0.0;
    hi = t_min;
    for (int i = 0; i < 100; ++i) {
        double mid = 0.5 * (lo + hi);
        if (box_distance(c, q, h, AT(mid)) > reach)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
#undef AT
}

Test(shape_cast, sphere_falls_on_box_face)
{
    cairn_shape *box = cairn_shape_box(v3(1, 1, 1), 0.0f);
    cairn_shape *ball = cairn_shape_sphere(0.5f);
    cairn_cast_hit hit;
    cr_assert(cairn_shape_cast(box, cairn_transform_identity(), ball,
                               at(v3(0, 5, 0), glms_quat_identity()), v3(0, -10, 0), &hit),
              "%s", cairn_last_error());
    cr_expect(fabs(hit.fraction - 0.35) <= TOI_TOL, "fraction %g, expected 0.35",
              (double)hit.fraction);
    cr_expect(fabs(hit.normal.y - 1.0) <= 1e-4, "normal y %g", (double)hit.normal.y);
    cr_expect(fabs(hit.point.y - 1.0) <= 1e-4 && fabs(hit.point.x) <= 1e-4, "point (%g %g %g)",
              (double)hit.point.x, (double)hit.point.y, (double)hit.point.z);
    cairn_shape_release(box);
    cairn_shape_release(ball);
}

/* Random directions, rotated boxes, rounded and sharp: the cast against the exact answer. */
Test(shape_cast, sphere_onto_rotated_boxes_matches_exact_toi)
{
    int hits = 0, misses = 0;
    for (int trial = 0; trial < 400; ++trial) {
        vec3s half = v3(uniform(0.2f, 1.5f), uniform(0.2f, 1.5f), uniform(0.2f, 1.5f));
        float rounding = trial % 2 ? 0.0f : 0.5f * fminf(half.x, fminf(half.y, half.z));
        float radius = uniform(0.1f, 0.8f);
        cairn_shape *box = cairn_shape_box(half, rounding);
        cairn_shape *ball = cairn_shape_sphere(radius);
        versors q = random_rotation();
        vec3s centre = v3(uniform(-2, 2), uniform(-2, 2), uniform(-2, 2));
        vec3s start = glms_vec3_add(centre, glms_vec3_scale(random_unit(), uniform(3, 6)));
        /* Aim near the box, sometimes past it. */
        vec3s aim = glms_vec3_add(centre, glms_vec3_scale(random_unit(), uniform(0, 2.5f)));
        vec3s translation = glms_vec3_scale(glms_vec3_sub(aim, start), uniform(0.5f, 2.0f));
        vec3s core = glms_vec3_subs(half, rounding);
        double exact = sphere_box_toi(start, translation, radius + rounding, centre, q, core);
        cairn_cast_hit hit;
        bool got = cairn_shape_cast(box, at(centre, q), ball, at(start, glms_quat_identity()),
                                    translation, &hit);
        /* Skip grazing cases within the tolerance band of touching: either answer is right. */
        if (exact < 0.0) {
            cr_expect(!got || hit.fraction >= 0.999f, "trial %d: hit at %g, exact: miss", trial,
                      (double)hit.fraction);
            misses++;
        } else {
            cr_expect(got, "trial %d: miss, exact toi %g", trial, exact);
            if (got)
                cr_expect(fabs(hit.fraction - exact) <= TOI_TOL, "trial %d: toi %.7f exact %.7f",
                          trial, (double)hit.fraction, exact);
            hits++;
        }
        cairn_shape_release(box);
        cairn_shape_release(ball);
    }
    cr_expect(hits > 100 && misses > 20, "hits %d misses %d: the trials should cover both", hits,
              misses);
}

/* ---- every pair of shape types against bisection on cairn_overlap ---- */

enum { SHAPE_KINDS = 6 };

static cairn_shape *make_kind(int kind)
{
    switch (kind) {
    case 0:
        return cairn_shape_sphere(uniform(0.2f, 0.7f));
    case 1:
        return cairn_shape_box(v3(uniform(0.2f, 0.8f), uniform(0.2f, 0.8f), uniform(0.2f, 0.8f)),
                               uniform(0.0f, 0.1f));
    case 2:
        return cairn_shape_capsule(uniform(0.1f, 0.6f), uniform(0.1f, 0.4f));
    case 3:
        return cairn_shape_cylinder(uniform(0.2f, 0.6f), uniform(0.2f, 0.6f), uniform(0.0f, 0.1f));
    case 4: {
        vec3s points[12];
        for (int i = 0; i < 12; ++i)
            points[i] = glms_vec3_scale(random_unit(), uniform(0.3f, 0.7f));
        return cairn_shape_hull(points, 12, 0.02f);
    }
    default: { /* a compound: a box and a sphere beside it */
        cairn_shape *box = cairn_shape_box(v3(0.3f, 0.2f, 0.25f), 0.02f);
        cairn_shape *ball = cairn_shape_sphere(0.25f);
        const cairn_shape *children[2] = {box, ball};
        cairn_transform xfs[2] = {at(v3(-0.3f, 0, 0), random_rotation()),
                                  at(v3(0.4f, 0.1f, 0), glms_quat_identity())};
        cairn_shape *compound = cairn_shape_compound(children, xfs, 2);
        cairn_shape_release(box);
        cairn_shape_release(ball);
        return compound;
    }
    }
}

/* First t where the shapes overlap: 2000 samples, then bisection; -1 when none overlaps. */
static double overlap_toi(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                          cairn_transform xb, vec3s translation)
{
    enum { SAMPLES = 2000 };
    double previous = 0.0;
    for (int k = 0; k <= SAMPLES; ++k) {
        double t = (double)k / SAMPLES;
        cairn_transform moved = xb;
        moved.position = glms_vec3_add(xb.position, glms_vec3_scale(translation, (float)t));
        if (!cairn_overlap(a, xa, b, moved)) {
            previous = t;
            continue;
        }
        if (k == 0)
            return 0.0;
        double lo = previous, hi = t;
        for (int i = 0; i < 40; ++i) {
            double mid = 0.5 * (lo + hi);
            moved.position = glms_vec3_add(xb.position, glms_vec3_scale(translation, (float)mid));
            if (cairn_overlap(a, xa, b, moved))
                hi = mid;
            else
                lo = mid;
        }
        return hi;
    }
    return -1.0;
}

Test(shape_cast, all_pairs_match_overlap_bisection)
{
    int checked = 0;
    for (int ka = 0; ka < SHAPE_KINDS; ++ka)
        for (int kb = 0; kb < SHAPE_KINDS; ++kb)
            for (int trial = 0; trial < 12; ++trial) {
                cairn_shape *a = make_kind(ka), *b = make_kind(kb);
                cr_assert(a && b, "%s", cairn_last_error());
                cairn_transform xa =
                    at(v3(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)), random_rotation());
                vec3s start = glms_vec3_add(xa.position, glms_vec3_scale(random_unit(), 3.0f));
                vec3s aim = glms_vec3_add(xa.position, glms_vec3_scale(random_unit(), 0.4f));
                vec3s translation = glms_vec3_scale(glms_vec3_sub(aim, start), 1.5f);
                cairn_transform xb = at(start, random_rotation());
                double oracle = overlap_toi(a, xa, b, xb, translation);
                cairn_cast_hit hit;
                bool got = cairn_shape_cast(a, xa, b, xb, translation, &hit);
                if (oracle < 0.0) {
                    cr_expect(!got, "kinds %d-%d trial %d: hit at %g, oracle: miss", ka, kb, trial,
                              (double)hit.fraction);
                } else {
                    cr_expect(got, "kinds %d-%d trial %d: miss, oracle %g", ka, kb, trial, oracle);
                    if (got)
                        cr_expect(fabs(hit.fraction - oracle) <= TOI_TOL,
                                  "kinds %d-%d trial %d: toi %.7f oracle %.7f", ka, kb, trial,
                                  (double)hit.fraction, oracle);
                    checked++;
                }
                cairn_shape_release(a);
                cairn_shape_release(b);
            }
    cr_expect(checked > 300, "only %d hits checked", checked);
}

Test(shape_cast, overlapping_at_start_hits_at_zero)
{
    cairn_shape *a = cairn_shape_box(v3(1, 1, 1), 0.05f), *b = cairn_shape_capsule(0.5f, 0.3f);
    cairn_cast_hit hit;
    cairn_transform xb = at(v3(0.5f, 1.1f, 0), glms_quat_identity());
    cr_assert(cairn_shape_cast(a, cairn_transform_identity(), b, xb, v3(0, 5, 0), &hit));
    cr_expect_eq(hit.fraction, 0.0f);
    cr_expect(fabs(glms_vec3_norm(hit.normal) - 1.0f) < 1e-4f);
    /* A zero translation tests the start only. */
    cr_assert(cairn_shape_cast(a, cairn_transform_identity(), b, xb, v3(0, 0, 0), &hit));
    cr_expect_eq(hit.fraction, 0.0f);
    cairn_shape_release(a);
    cairn_shape_release(b);
}

Test(shape_cast, misses_report_no_hit_and_no_error)
{
    cairn_shape *a = cairn_shape_box(v3(1, 1, 1), 0.0f), *b = cairn_shape_sphere(0.5f);
    cairn_cast_hit hit;
    cairn_transform xb = at(v3(0, 5, 0), glms_quat_identity());
    cairn_clear_error();
    /* Moving away, passing beside, stopping short, and standing still apart. */
    cr_expect(!cairn_shape_cast(a, cairn_transform_identity(), b, xb, v3(0, 5, 0), &hit));
    cr_expect(!cairn_shape_cast(a, cairn_transform_identity(), b, xb, v3(5, -10, 0), &hit));
    cr_expect(!cairn_shape_cast(a, cairn_transform_identity(), b, xb, v3(0, -3.4f, 0), &hit));
    cr_expect(!cairn_shape_cast(a, cairn_transform_identity(), b, xb, v3(0, 0, 0), &hit));
    cr_expect_str_empty(cairn_last_error());
    /* Just long enough: a hit at the very end. */
    cr_expect(cairn_shape_cast(a, cairn_transform_identity(), b, xb, v3(0, -3.5f, 0), &hit));
    cr_expect(fabs(hit.fraction - 1.0) <= TOI_TOL);
    cairn_shape_release(a);
    cairn_shape_release(b);
}

Test(shape_cast, bad_input_fails_with_an_error)
{
    cairn_shape *a = cairn_shape_box(v3(1, 1, 1), 0.0f), *b = cairn_shape_sphere(0.5f);
    cairn_transform id = cairn_transform_identity(), xb = at(v3(0, 5, 0), glms_quat_identity());
    cairn_cast_hit hit;
    memset(&hit, 0x5a, sizeof hit);
    cairn_cast_hit untouched = hit;
    cr_expect(!cairn_shape_cast(NULL, id, b, xb, v3(0, -10, 0), &hit));
    cr_expect(strstr(cairn_last_error(), "cairn_shape_cast") != NULL);
    cr_expect(!cairn_shape_cast(a, id, NULL, xb, v3(0, -10, 0), &hit));
    cr_expect(!cairn_shape_cast(a, id, b, xb, v3(0, -10, 0), NULL));
    cr_expect(!cairn_shape_cast(a, id, b, xb, v3(NAN, -10, 0), &hit));
    cr_expect(strstr(cairn_last_error(), "translation") != NULL);
    cr_expect(!cairn_shape_cast(a, id, b, xb, v3(0, -INFINITY, 0), &hit));
    cr_expect(!cairn_shape_cast(a, id, b, xb, v3(0, -3e6f, 0), &hit));
    cairn_transform bad = xb;
    bad.position.x = NAN;
    cr_expect(!cairn_shape_cast(a, id, b, bad, v3(0, -10, 0), &hit));
    bad = xb;
    bad.rotation = (versors){{0, 0, 0, 2}};
    cr_expect(!cairn_shape_cast(a, bad, b, xb, v3(0, -10, 0), &hit));
    cr_expect(memcmp(&hit, &untouched, sizeof hit) == 0, "a failed call wrote the hit");
    cairn_shape_release(a);
    cairn_shape_release(b);
}
