/* The closed form for a capsule against a triangle (collision/capsule_triangle.c) and the mesh
   narrow phase's use of it, against independent answers in double:
   - separated and touching cores: the exact segment-triangle distance of the oracle
     (tests/collision/oracle.h), directly and through mesh_triangle_query, at offsets 0, 1e3 and
     1e4, parallel and zero-length cores included; the one-sided verdict;
   - cores crossing the triangle: the depth against the exact brute-force one (the nearest facet
     of the Minkowski difference, every plane through 3 of its 6 points tried), no better than
     the least overlap over a Fibonacci sphere of 2000 directions, and against the GJK/EPA answer
     of query_collide (the path capsules took before); the one-sided verdict as that path gives,
     or a push out along the face normal by the plane depth when the gap faces the back with the
     capsule's centre in front (the rule for every part: mesh_collide.h); and analytic cases:
   standing through the face, lying flat above it, crossing an edge;
   - bodies: a capsule dropped on a tessellated floor rests at its radius, and one rolling across
     the floor's seams does not hop. */
#include <criterion/criterion.h>

#include <float.h>

#include "collision/capsule_triangle.h"
#include "collision/mesh_collide.h"
#include "collision/oracle.h"
#include "collision/query.h"
#include "collision/triangle_shape.h"
#include "mesh/mesh_helpers.h"

static const double offsets[3] = {0.0, 1e3, 1e4};

/* One configuration in the mesh's frame: a triangle about 1.5 m across in the XZ plane facing
   +Y, and a capsule core. */
typedef struct config {
    double c[3][3];
    double centre[3], dir[3]; /* the core: centre +- half_height * dir */
    double half_height, radius;
} config;

static void random_triangle(oracle_rng *rng, double c[3][3])
{
    for (int v = 0; v < 3; ++v) {
        /* counter-clockwise seen from +Y; corners rounded to float as a mesh stores them */
        double angle = 2.0 * ORACLE_PI * v / 3.0 + oracle_uniform(rng, -0.4, 0.4);
        double radius = oracle_uniform(rng, 0.6, 1.0);
        ov_set(c[v], (float)(radius * cos(angle)), 0.0, (float)(-radius * sin(angle)));
    }
}

/* A point of the triangle's plane from weights u, w (may lie outside the triangle). */
static void plane_point(const double c[3][3], double u, double w, double out[3])
{
    for (int k = 0; k < 3; ++k)
        out[k] = c[0][k] + u * (c[1][k] - c[0][k]) + w * (c[2][k] - c[0][k]);
}

/* A core direction: random, parallel to the plane, or parallel to an edge (the degenerate
   cases of the closest pair and of SAT). */
static void random_direction(oracle_rng *rng, const double c[3][3], double dir[3])
{
    int kind = oracle_int(rng, 0, 3);
    if (kind <= 1) {
        vec3s d = oracle_unit_vector(rng);
        ov_set(dir, d.x, kind == 0 ? d.y : 0.0, d.z);
    } else {
        int e = oracle_int(rng, 0, 2);
        ov_sub(dir, c[(e + 1) % 3], c[e]);
    }
    double l = ov_norm(dir);
    ov_set(dir, dir[0] / l, dir[1] / l, dir[2] / l);
}

/* A capsule beside or above the triangle, its core at most 0.6 m from the plane (some just
   touching), of half height 0 in one case of ten. */
static config separated_config(oracle_rng *rng)
{
    config k;
    random_triangle(rng, k.c);
    double u = oracle_uniform(rng, -0.5, 1.2), w = oracle_uniform(rng, -0.5, 1.2 - u);
    plane_point(k.c, u, w, k.centre);
    random_direction(rng, k.c, k.dir);
    k.half_height = oracle_int(rng, 0, 9) == 0 ? 0.0 : oracle_uniform(rng, 0.05, 0.6);
    k.radius = oracle_uniform(rng, 0.05, 0.4);
    /* lift the core so its lowest end is `lift` above the plane: touching included */
    static const double small[4] = {0.0, 1e-7, 1e-5, 1e-3};
    double lift =
        oracle_int(rng, 0, 3) == 0 ? small[oracle_int(rng, 0, 3)] : oracle_uniform(rng, 1e-3, 0.6);
    k.centre[1] += lift + k.half_height * fabs(k.dir[1]);
    if (oracle_int(rng, 0, 5) == 0)
        k.centre[1] = -k.centre[1]; /* below: for the one-sided verdict */
    return k;
}

static void unit_from(double u[3])
{
    double l = ov_norm(u);
    ov_set(u, u[0] / l, u[1] / l, u[2] / l);
}

/* A capsule whose core crosses the triangle at a point inside it (some close to an edge). */
static config crossing_config(oracle_rng *rng)
{
    config k;
    random_triangle(rng, k.c);
    double u = oracle_uniform(rng, 0.0, 1.0), w = oracle_uniform(rng, 0.0, 1.0 - u), x[3];
    plane_point(k.c, u, w, x);
    vec3s d = oracle_unit_vector(rng);
    ov_set(k.dir, d.x, d.y, d.z);
    if (oracle_int(rng, 0, 3) == 0) { /* nearly in the plane */
        k.dir[1] = oracle_uniform(rng, 0.001, 0.1) * (d.y < 0.0f ? -1.0 : 1.0);
        unit_from(k.dir);
    }
    double below = oracle_uniform(rng, 0.01, 0.6), above = oracle_uniform(rng, 0.01, 0.6);
    k.half_height = 0.5 * (below + above);
    for (int i = 0; i < 3; ++i)
        k.centre[i] = x[i] + 0.5 * (above - below) * k.dir[i];
    k.radius = oracle_uniform(rng, 0.05, 0.4);
    return k;
}

/* The rotation taking +Y to unit d (d and -d give the same core). */
static versors rotation_to(const double d_in[3])
{
    double d[3];
    double s = d_in[1] < 0.0 ? -1.0 : 1.0;
    ov_set(d, s * d_in[0], s * d_in[1], s * d_in[2]);
    double q[4] = {d[2], 0.0, -d[0], 1.0 + d[1]}; /* (y x d, 1 + y.d) */
    double l = sqrt(q[0] * q[0] + q[2] * q[2] + q[3] * q[3]);
    return glms_quat_normalize(
        (versors){{(float)(q[0] / l), 0.0f, (float)(q[2] / l), (float)(q[3] / l)}});
}

/* The configuration placed in the world: the mesh at the offset (turned, or not so that the
   parallel cases stay exactly parallel), the capsule's float transform, and in double what
   those floats mean: the core's ends, the corners and the face normal. */
typedef struct placed {
    cairn_transform mesh_xf, capsule_xf;
    double ends[2][3], c[3][3], face[3];
    dvec3 d_ends[2], d_c[3], d_face;
} placed;

static placed place(const config *k, double offset, oracle_rng *rng)
{
    placed p;
    bool turn = oracle_int(rng, 0, 3) != 0;
    p.mesh_xf = oracle_transform(offset, offset, -offset,
                                 turn ? oracle_rotation(rng) : oracle_quat_identity());
    oracle_xf mx = oracle_xf_from(p.mesh_xf);
    double centre[3], dir[3], up[3] = {0, 1, 0};
    oracle_xf_point(&mx, k->centre, centre);
    oracle_xf_dir(&mx, k->dir, dir);
    oracle_xf_dir(&mx, up, p.face);
    p.capsule_xf = oracle_transform(centre[0], centre[1], centre[2], rotation_to(dir));
    oracle_xf cx = oracle_xf_from(p.capsule_xf);
    double top[3] = {0, k->half_height, 0}, bottom[3] = {0, -k->half_height, 0};
    oracle_xf_point(&cx, top, p.ends[0]);
    oracle_xf_point(&cx, bottom, p.ends[1]);
    for (int v = 0; v < 3; ++v) {
        oracle_xf_point(&mx, k->c[v], p.c[v]);
        p.d_c[v] = dvec3_make(p.c[v][0], p.c[v][1], p.c[v][2]);
    }
    for (int e = 0; e < 2; ++e)
        p.d_ends[e] = dvec3_make(p.ends[e][0], p.ends[e][1], p.ends[e][2]);
    p.d_face = dvec3_make(p.face[0], p.face[1], p.face[2]);
    return p;
}

static double dv_distance(dvec3 a, dvec3 b)
{
    return sqrt(dvec3_length_sq(dvec3_sub(a, b)));
}

/* The oracle's segment-triangle distance (a segment as a flat triangle) and unit gap direction
   from the triangle towards the core (undefined when the distance is 0). */
static double oracle_gap(const placed *p, double normal[3])
{
    const double *t[3] = {p->c[0], p->c[1], p->c[2]};
    const double *seg[3] = {p->ends[0], p->ends[1], p->ends[1]};
    double on_t[3], on_s[3];
    double d = oracle_triangle_triangle(t, seg, on_t, on_s);
    ov_sub(normal, on_s, on_t);
    double l = ov_norm(normal);
    if (l > 0.0)
        ov_set(normal, normal[0] / l, normal[1] / l, normal[2] / l);
    return d;
}

typedef struct tally {
    int cases, wrong, normals, verdicts, pushed;
    double worst_direct, worst_mesh;
} tally;

/* A capsule through the back of the triangle whose centre is still in front is pushed out along
   the face normal (no last step in a single query, so only the centre counts): the answer must
   be the face normal and the plane depth, in double, of the core's lower end less the radius
   (within the offset's rounding), and the centre must lie in front. */
static bool pushed_out_agrees(const placed *p, double radius, const cairn_query_result *q,
                              double slop)
{
    double low = INFINITY, centre = 0.0;
    for (int e = 0; e < 2; ++e) {
        double gap[3];
        ov_sub(gap, p->ends[e], p->c[0]);
        low = fmin(low, ov_dot(gap, p->face));
        centre += 0.5 * ov_dot(gap, p->face);
    }
    double qn[3] = {q->normal.x, q->normal.y, q->normal.z};
    bool ok = fabs((double)q->distance - (low - radius)) <= 1e-5 + slop &&
              ov_dist(qn, p->face) <= 1e-5 && centre > -slop;
    if (!ok)
        cr_log_error("pushed out: distance %.7g, plane depth %.7g, normal off the face by %g, "
                     "centre %.3g over the plane",
                     (double)q->distance, low - radius, ov_dist(qn, p->face), centre);
    return ok;
}

/* Whether the mesh answered by pushing the capsule out along the face: the normal is the face's
   while the closed form's gap faces the back. */
static bool answered_by_push(const placed *p, const cairn_query_result *q, dvec3 closed_normal)
{
    double qn[3] = {q->normal.x, q->normal.y, q->normal.z};
    return dvec3_dot(closed_normal, p->d_face) < 0.0 && ov_dist(qn, p->face) <= 1e-4;
}

/* The closed form itself, in double: the distance to 1e-5 relative, the normal to 1e-3 when the
   gap exceeds 0.1 mm, and witnesses on the core and the triangle that are the gap apart. */
static bool direct_agrees(const placed *p, double radius, double truth, const double n[3], tally *t)
{
    capsule_triangle_result r;
    capsule_triangle(p->d_ends[0], p->d_ends[1], radius, p->d_c, p->d_face, &r);
    double error = fabs(r.core_distance - truth);
    t->worst_direct = fmax(t->worst_direct, error);
    bool ok = error <= 1e-5 * truth + 1e-9 && fabs(r.distance - (r.core_distance - radius)) < 1e-12;
    if (truth > 1e-4) {
        double dn = ov_dist((double[3]){r.normal.x, r.normal.y, r.normal.z}, n);
        ok = ok && dn <= 1e-3;
        t->normals++;
    }
    /* the witnesses: on the segment, on the triangle, the distance apart */
    dvec3 on_seg, unused;
    segment_closest(p->d_ends[0], p->d_ends[1], r.on_core, r.on_core, &on_seg, &unused);
    double on_tri[3] = {r.on_triangle.x, r.on_triangle.y, r.on_triangle.z}, nearest[3];
    double off_tri = oracle_point_triangle(on_tri, p->c[0], p->c[1], p->c[2], nearest);
    double apart = dv_distance(r.on_core, r.on_triangle);
    ok = ok && dv_distance(on_seg, r.on_core) <= 1e-9 && off_tri <= 1e-9 &&
         fabs(apart - fabs(r.core_distance)) <= 1e-9;
    if (!ok)
        cr_log_error("direct: core distance %.9g, oracle %.9g; witnesses off the segment %g, "
                     "off the triangle %g, apart %.9g",
                     r.core_distance, truth, dv_distance(on_seg, r.on_core), off_tri, apart);
    return ok;
}

/* Through the narrow phase's adapter (float transforms): the same distance within rounding of
   the offset's float spacing, the normal within 1e-3 plus that rounding over the gap, and the
   one-sided verdict (answered when the gap's direction faces the front). */
static bool mesh_agrees(const placed *p, const cairn_shape *mesh, const cairn_shape *capsule,
                        double truth, const double n[3], double offset, tally *t)
{
    cairn_query_result q;
    bool answered = mesh_triangle_query(mesh, p->mesh_xf, 0, capsule, p->capsule_xf, NULL, &q);
    double facing = truth > 0.0 ? ov_dot(n, p->face) : 1.0;
    double slop = 4.0 * FLT_EPSILON * offset + 1e-6;
    double radius = cairn_shape_convex_radius(capsule);
    capsule_triangle_result r;
    capsule_triangle(p->d_ends[0], p->d_ends[1], radius, p->d_c, p->d_face, &r);
    if (answered && answered_by_push(p, &q, r.normal)) {
        t->pushed++;
        return pushed_out_agrees(p, radius, &q, slop);
    }
    /* edge-on, or touching within rounding: either verdict stands */
    bool either = fabs(facing) < 1e-3 || truth < slop;
    if (answered != (facing > 0.0) && !either) {
        t->verdicts++;
        cr_log_error("mesh at %g: answered %d, the gap's facing %g", offset, answered, facing);
        return false;
    }
    if (!answered)
        return true;
    double error = fabs((double)q.distance - (truth - radius));
    t->worst_mesh = fmax(t->worst_mesh, error);
    bool ok = error <= 1e-5 * truth + slop && q.gjk_iterations == 0 && q.epa_iterations == 0;
    if (truth > 1e-4) {
        double qn[3] = {q.normal.x, q.normal.y, q.normal.z};
        ok = ok && ov_dist(qn, n) <= 1e-3 + 2.0 * slop / truth;
    }
    if (!ok)
        cr_log_error("mesh at %g: distance %.7g, oracle %.7g", offset, (double)q.distance,
                     truth - radius);
    return ok;
}

Test(capsule_triangle, separated_and_touching_cores_give_the_exact_distance)
{
    for (int o = 0; o < 3; ++o) {
        oracle_rng rng;
        oracle_rng_seed(&rng, 1400 + (uint64_t)o);
        tally t = {0};
        for (int i = 0; i < 3000; ++i) {
            config k = separated_config(&rng);
            placed p = place(&k, offsets[o], &rng);
            double n[3];
            double truth = oracle_gap(&p, n);
            /* the core meets the triangle (a core laid in the plane, tilted by the float
               transform, crosses it): the deep tests' */
            if (truth <= 1e-10)
                continue;
            t.cases++;
            bool ok = direct_agrees(&p, k.radius, truth, n, &t);
            cairn_shape *mesh = one_triangle_mesh(k.c);
            cairn_shape *capsule = cairn_shape_capsule((float)k.half_height, (float)k.radius);
            ok = mesh_agrees(&p, mesh, capsule, truth, n, offsets[o], &t) && ok;
            t.wrong += !ok;
            cairn_shape_release(capsule);
            cairn_shape_release(mesh);
        }
        cr_log_info("offset %g: %d cases (%d normals), worst distance error %.2e direct, %.2e "
                    "through the mesh; %d wrong (%d verdicts)",
                    offsets[o], t.cases, t.normals, t.worst_direct, t.worst_mesh, t.wrong,
                    t.verdicts);
        cr_expect_gt(t.cases, 2500);
        cr_expect_gt(t.normals, 2000);
        cr_expect_eq(t.wrong, 0, "offset %g: %d wrong of %d", offsets[o], t.wrong, t.cases);
    }
}

/* A capsule of half height 0 answers as the sphere of its radius does (sphere_triangle). */
Test(capsule_triangle, a_core_of_length_zero_answers_as_a_sphere)
{
    oracle_rng rng;
    oracle_rng_seed(&rng, 1410);
    int compared = 0;
    for (int i = 0; i < 1000; ++i) {
        config k = separated_config(&rng);
        k.half_height = 0.0;
        placed p = place(&k, offsets[i % 3], &rng);
        cairn_shape *mesh = one_triangle_mesh(k.c);
        cairn_shape *capsule = cairn_shape_capsule(0.0f, (float)k.radius);
        cairn_shape *sphere = cairn_shape_sphere((float)k.radius);
        cairn_query_result a, b;
        bool has_a = mesh_triangle_query(mesh, p.mesh_xf, 0, capsule, p.capsule_xf, NULL, &a);
        bool has_b = mesh_triangle_query(mesh, p.mesh_xf, 0, sphere, p.capsule_xf, NULL, &b);
        cr_expect_eq(has_a, has_b, "case %d: capsule %d, sphere %d", i, has_a, has_b);
        if (has_a && has_b) {
            compared++;
            cr_expect_leq(fabsf(a.distance - b.distance), 1e-6f + 4.0f * FLT_EPSILON * 1e4f);
            cr_expect_leq(glms_vec3_distance(a.normal, b.normal), 1e-3f);
        }
        cairn_shape_release(sphere);
        cairn_shape_release(capsule);
        cairn_shape_release(mesh);
    }
    cr_expect_gt(compared, 500);
}

/* ---- cores crossing the triangle ---- */

/* How far the core must move along unit u to clear the triangle. */
static double overlap_along(const double u[3], const double ends[2][3], const double c[3][3])
{
    double high = fmax(ov_dot(u, c[0]), fmax(ov_dot(u, c[1]), ov_dot(u, c[2])));
    return high - fmin(ov_dot(u, ends[0]), ov_dot(u, ends[1]));
}

/* The least overlap over 2000 well-spread directions (a Fibonacci sphere): an upper bound of the
   depth that no answer may beat. */
static double sampled_depth(const double ends[2][3], const double c[3][3])
{
    enum { N = 2000 };
    double best = INFINITY;
    for (int i = 0; i < N; ++i) {
        double z = 1.0 - (2.0 * i + 1.0) / N, r = sqrt(1.0 - z * z);
        double phi = i * ORACLE_PI * (3.0 - sqrt(5.0)), u[3] = {r * cos(phi), z, r * sin(phi)};
        best = fmin(best, overlap_along(u, ends, c));
    }
    return best;
}

/* The depth by brute force, exactly: the overlap along u is the support function of the
   Minkowski difference of the triangle and the core (the 6 points corner - end), whose least
   value over directions is the origin's distance to its nearest facet. Every plane through 3 of
   the 6 points with all 6 on one side is a facet. */
static double facet_depth(const double ends[2][3], const double c[3][3])
{
    double m[6][3];
    for (int i = 0; i < 6; ++i)
        ov_sub(m[i], c[i / 2], ends[i % 2]);
    double best = INFINITY;
    for (int a = 0; a < 6; ++a)
        for (int b = a + 1; b < 6; ++b)
            for (int d = b + 1; d < 6; ++d) {
                double ab[3], ad[3], n[3];
                ov_sub(ab, m[b], m[a]);
                ov_sub(ad, m[d], m[a]);
                ov_cross(n, ab, ad);
                if (ov_norm(n) <= 1e-12 * (ov_norm(ab) * ov_norm(ad) + 1e-30))
                    continue;
                unit_from(n);
                double offset = ov_dot(n, m[a]), lo = INFINITY, hi = -INFINITY;
                for (int i = 0; i < 6; ++i) {
                    lo = fmin(lo, ov_dot(n, m[i]) - offset);
                    hi = fmax(hi, ov_dot(n, m[i]) - offset);
                }
                if (hi <= 1e-12) /* all below: n points out */
                    best = fmin(best, offset);
                if (lo >= -1e-12) /* all above: -n points out */
                    best = fmin(best, -offset);
            }
    return best;
}

/* The pre-existing GJK/EPA path on the same pair: the triangle as a flat hull (A) against the
   capsule (B). */
static cairn_query_result epa_answer(const config *k, const placed *p, const cairn_shape *capsule)
{
    vec3s corners[3];
    for (int v = 0; v < 3; ++v)
        corners[v] = (vec3s){{(float)k->c[v][0], (float)k->c[v][1], (float)k->c[v][2]}};
    triangle_shape t;
    triangle_shape_make(&t, corners);
    cairn_query_result q;
    bool capped;
    cr_assert(query_collide(&t.shape, p->mesh_xf, capsule, p->capsule_xf, NULL, &q, &capped), "%s",
              cairn_last_error());
    return q;
}

/* The core's signed distance in the mesh's frame, by the oracle: the gap when the float
   transforms left the core clear of the triangle (at 1e4, rounding moves it by a millimetre),
   else minus the facet depth. */
static double crossing_truth(const double ends[2][3], const double c[3][3])
{
    const double *t[3] = {c[0], c[1], c[2]}, *seg[3] = {ends[0], ends[1], ends[1]};
    double on_t[3], on_s[3];
    double gap = oracle_triangle_triangle(t, seg, on_t, on_s);
    return gap > 1e-10 ? gap : -facet_depth(ends, c); /* ~1e-16 when crossing */
}

Test(capsule_triangle, crossing_cores_give_the_least_overlap)
{
    for (int o = 0; o < 3; ++o) {
        oracle_rng rng;
        oracle_rng_seed(&rng, 1420 + (uint64_t)o);
        double worst_exact = 0.0, worst_epa = 0.0;
        int wrong = 0, verdicts_checked = 0, pushes = 0;
        for (int i = 0; i < 400; ++i) {
            config k = crossing_config(&rng);
            placed p = place(&k, offsets[o], &rng);
            capsule_triangle_result r;
            capsule_triangle(p.d_ends[0], p.d_ends[1], k.radius, p.d_c, p.d_face, &r);
            /* the oracles in the mesh's frame (depth does not depend on where the pair is) */
            oracle_xf mx = oracle_xf_from(p.mesh_xf);
            double local_ends[2][3], local_n[3], rn[3] = {r.normal.x, r.normal.y, r.normal.z};
            for (int e = 0; e < 2; ++e)
                oracle_xf_inv_point(&mx, p.ends[e], local_ends[e]);
            oracle_xf_inv_dir(&mx, rn, local_n);
            const double(*ends)[3] = (const double(*)[3])local_ends,
                  (*c)[3] = (const double(*)[3])k.c;
            double truth = crossing_truth(ends, c);
            double along = overlap_along(local_n, ends, c), sampled = sampled_depth(ends, c);
            /* the size of the pair: about 1.5 m of triangle, the core up to 1.2 m */
            double slop = 4.0 * FLT_EPSILON * offsets[o];
            double tolerance = 1e-3 * 1.5 + slop;
            cairn_shape *capsule = cairn_shape_capsule((float)k.half_height, (float)k.radius);
            cairn_query_result epa = epa_answer(&k, &p, capsule);
            double e_exact = fabs(r.core_distance - truth);
            double e_epa = fabs(r.distance - (double)epa.distance);
            worst_exact = fmax(worst_exact, e_exact);
            worst_epa = fmax(worst_epa, e_epa);
            bool ok = e_exact <= 1e-8 && e_epa <= tolerance &&
                      fabs(r.distance - (r.core_distance - k.radius)) < 1e-12;
            /* crossing: the normal carries the depth, and no sampled direction does better */
            if (truth < 0.0)
                ok = ok && fabs(along + r.core_distance) <= 1e-9 &&
                     sampled >= -r.core_distance - 1e-9;
            /* one-sided as the GJK path is: answered when EPA's normal faces the front (unless
               rounding of the float transforms could move the core to the other side); through
               the back, pushed out along the face when the centre is in front, else not */
            cairn_shape *mesh = one_triangle_mesh(k.c);
            cairn_query_result q;
            bool answered =
                mesh_triangle_query(mesh, p.mesh_xf, 0, capsule, p.capsule_xf, NULL, &q);
            double facing = ov_dot((double[3]){epa.normal.x, epa.normal.y, epa.normal.z}, p.face);
            bool pushed = answered && answered_by_push(&p, &q, r.normal);
            if (fabs(facing) > 0.05 && fabs(truth) > 2.0 * slop) {
                verdicts_checked++;
                ok = ok && (facing > 0.0 ? answered && !pushed : !answered || pushed);
            }
            if (pushed) {
                pushes++;
                ok = ok && pushed_out_agrees(&p, k.radius, &q, slop);
            } else if (answered) {
                ok = ok && fabs((double)q.distance - r.distance) <= tolerance;
            }
            if (!ok) {
                wrong++;
                cr_log_error("offset %g case %d: core distance %.9g, oracle %.9g, along the "
                             "normal %.9g, sampled %.9g; distance %.7g, EPA %.7g, mesh %.7g; "
                             "answered %d, EPA facing %.3f",
                             offsets[o], i, r.core_distance, truth, -along, -sampled, r.distance,
                             (double)epa.distance, answered ? (double)q.distance : NAN, answered,
                             facing);
            }
            cairn_shape_release(mesh);
            cairn_shape_release(capsule);
        }
        cr_log_info("offset %g: worst core distance error %.2e against the exact depth, %.2e "
                    "against EPA; %d verdicts checked, %d pushed out along the face",
                    offsets[o], worst_exact, worst_epa, verdicts_checked, pushes);
        cr_expect_eq(wrong, 0, "offset %g: %d wrong of 400", offsets[o], wrong);
        cr_expect_gt(verdicts_checked, 200);
        cr_expect_gt(pushes, 20, "offset %g: the push out was met %d times", offsets[o], pushes);
    }
}

/* ---- analytic cases, the mesh at the origin ---- */

static const double big[3][3] = {{-10, 0, -10}, {0, 0, 10}, {10, 0, -10}}; /* faces +Y */

static cairn_transform capsule_at(double x, double y, double z, versors q)
{
    return oracle_transform(x, y, z, q);
}

Test(capsule_triangle, a_capsule_standing_through_the_face_is_pushed_out_along_the_face_normal)
{
    cairn_shape *mesh = one_triangle_mesh(big);
    cairn_shape *capsule = cairn_shape_capsule(0.5f, 0.25f);
    cairn_query_result q;
    /* lower end 0.3 under the plane, upper end 0.7 over it */
    cairn_transform xf = capsule_at(0.3, 0.2, -1.0, oracle_quat_identity());
    cr_assert(mesh_triangle_query(mesh, cairn_transform_identity(), 0, capsule, xf, NULL, &q));
    cr_expect_float_eq(q.distance, -0.55f, 1e-6f);
    cr_expect_float_eq(q.normal.y, 1.0f, 1e-6f);
    cr_expect(q.overlap);
    cr_expect_eq(q.gjk_iterations + q.epa_iterations, 0);
    /* the witness on the capsule is its lowest point, straight under the core */
    cr_expect_float_eq(q.point_b.y, -0.55f, 1e-6f);
    cr_expect_float_eq(q.point_b.x, 0.3f, 1e-6f);
    cr_expect_float_eq(q.point_b.z, -1.0f, 1e-6f);
    /* mostly under the plane: the way out is through the back, which a mesh does not push */
    xf = capsule_at(0.3, -0.2, -1.0, oracle_quat_identity());
    cr_expect_not(mesh_triangle_query(mesh, cairn_transform_identity(), 0, capsule, xf, NULL, &q));
    cairn_shape_release(capsule);
    cairn_shape_release(mesh);
}

Test(capsule_triangle, a_capsule_lying_flat_gets_the_face_normal_and_two_points)
{
    cairn_shape *mesh = one_triangle_mesh(big);
    cairn_shape *capsule = cairn_shape_capsule(0.4f, 0.25f);
    versors lying = oracle_axis_angle(0, 0, 1, 0.5 * ORACLE_PI); /* core along X */
    static const double heights[] = {0.3, 0.25, 0.2};            /* above, touching, in */
    for (int i = 0; i < 3; ++i) {
        double h = heights[i];
        cairn_transform xf = capsule_at(1.0, h, -2.0, lying);
        cairn_query_result q;
        cr_assert(mesh_triangle_query(mesh, cairn_transform_identity(), 0, capsule, xf, NULL, &q));
        cr_expect_float_eq(q.distance, (float)(h - 0.25), 1e-6f, "at %g", h);
        cr_expect_float_eq(q.normal.y, 1.0f, 1e-6f, "at %g", h);
        /* mesh as B this time: the normal runs from the capsule to the mesh */
        manifold m[CONTACT_MAX_MANIFOLDS];
        compound_stats stats = {0};
        int count = mesh_manifolds(capsule, xf, mesh, cairn_transform_identity(), 0.1f, NULL, NULL,
                                   m, &stats);
        cr_assert_eq(count, 1, "at %g", h);
        cr_assert_eq(m[0].point_count, 2, "at %g: %d points", h, m[0].point_count);
        cr_expect_float_eq(m[0].normal.y, -1.0f, 1e-5f);
        cr_expect_eq(stats.gjk_iterations + stats.epa_calls, 0);
        float ends[2];
        for (int p = 0; p < 2; ++p) {
            cr_expect_float_eq(m[0].points[p].separation, (float)(h - 0.25), 1e-5f, "at %g", h);
            ends[p] = m[0].points[p].local_a.y; /* along the core, in the capsule's frame */
        }
        cr_expect_float_eq(fabsf(ends[0]), 0.4f, 1e-5f, "at %g", h);
        cr_expect_float_eq(ends[0], -ends[1], 1e-5f, "at %g", h);
    }
    cairn_shape_release(capsule);
    cairn_shape_release(mesh);
}

Test(capsule_triangle, a_capsule_crossing_an_edge_is_pushed_out_across_it)
{
    /* edge 0-1 along X at z = 0, the triangle on the side z < 0, facing +Y */
    static const double tri[3][3] = {{-5, 0, 0}, {5, 0, 0}, {0, 0, -10}};
    cairn_shape *mesh = one_triangle_mesh(tri);
    cairn_shape *capsule = cairn_shape_capsule(0.4f, 0.1f);
    /* the core crosses the plane 0.05 inside the edge, along (0, 1, -1) / sqrt 2: the least
       overlap is across the edge, 0.05 sin 45 degrees along (0, 1, 1) / sqrt 2 */
    versors tilt = oracle_axis_angle(1, 0, 0, -0.25 * ORACLE_PI);
    cairn_transform xf = capsule_at(0.0, 0.0, -0.05, tilt);
    cairn_query_result q;
    cr_assert(mesh_triangle_query(mesh, cairn_transform_identity(), 0, capsule, xf, NULL, &q));
    double depth = 0.05 * sqrt(0.5);
    cr_expect_float_eq(q.distance, (float)(-depth - 0.1), 1e-6f);
    cr_expect_float_eq(q.normal.y, (float)sqrt(0.5), 1e-5f);
    cr_expect_float_eq(q.normal.z, (float)sqrt(0.5), 1e-5f);
    /* the witness on the mesh is on the edge */
    cr_expect_float_eq(q.point_a.x, 0.0f, 1e-5f);
    cr_expect_float_eq(q.point_a.y, q.point_a.z, 1e-5f);
    /* GJK/EPA agrees */
    config k;
    memcpy(k.c, tri, sizeof tri);
    placed p = {.mesh_xf = cairn_transform_identity(), .capsule_xf = xf};
    cairn_query_result epa = epa_answer(&k, &p, capsule);
    cr_expect_float_eq(epa.distance, q.distance, 1e-4f);
    cr_expect_leq(glms_vec3_distance(epa.normal, q.normal), 1e-3f);
    /* tilted the other way the least overlap points through the back: no contact */
    xf.rotation = oracle_axis_angle(1, 0, 0, 0.25 * ORACLE_PI);
    cr_expect_not(mesh_triangle_query(mesh, cairn_transform_identity(), 0, capsule, xf, NULL, &q));
    cairn_shape_release(capsule);
    cairn_shape_release(mesh);
}

/* ---- bodies on a tessellated floor ---- */

/* A capsule of radius r lying along axis `along` (unit, horizontal) at `position`, moving at v
   and rolling without slipping on a floor facing +Y. */
static cairn_body_id lying_capsule(cairn_world *world, vec3s position, vec3s along, vec3s v,
                                   float r)
{
    cairn_body_def def = cairn_body_default_def();
    def.shape = cairn_shape_capsule(0.4f, r);
    /* +Y onto `along`: a quarter turn about along x Y */
    vec3s axis = glms_vec3_normalize(glms_vec3_cross((vec3s){{0, 1, 0}}, along));
    def.transform = (cairn_transform){position, glms_quatv(0.5f * (float)ORACLE_PI, axis)};
    def.linear_velocity = v;
    def.angular_velocity = glms_vec3_scale(glms_vec3_cross(v3(0, 1, 0), v), 1.0f / r);
    def.allow_sleep = false;
    cairn_body_id id = cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);
    cr_assert(!id_is_null(id), "%s", cairn_last_error());
    /* the core does lie along `along` */
    vec3s core = glms_quat_rotatev(def.transform.rotation, v3(0, 1, 0));
    cr_assert_float_eq(fabsf(glms_vec3_dot(core, along)), 1.0f, 1e-5f);
    return id;
}

/* Two capsules dropped lying on a floor: across the diagonals over a vertex, and along a line of
   edges (where triangles meet under the core's middle). */
static void drop_capsules(cairn_world *world, float r, cairn_body_id ids[2])
{
    ids[0] = lying_capsule(world, v3(0.1f, 1.0f, 0.3f), glms_vec3_normalize(v3(1, 0, 0.4f)),
                           v3(0, 0, 0), r);
    ids[1] = lying_capsule(world, v3(-2.0f, 0.6f, -2.0f), v3(0, 0, 1), v3(0, 0, 0), r);
    scene_step(world, 240);
}

/* They come to rest at their radius above a tessellated mesh floor, within 1 mm, without
   vertical motion; the one along the edges stops. The one turned off the axes (its contact line
   crossing seams) keeps rolling sideways at a few cm/s, as it did through GJK/EPA before (4 cm/s
   there), where on a box floor it stops: logged, and bounded by 0.1 m/s here. */
Test(capsule_triangle, a_capsule_dropped_on_a_tessellated_floor_rests_at_its_radius)
{
    float r = 0.2f;
    cairn_world *mesh_world = scene_default_world(), *box_world = scene_default_world();
    scene_body_ex(mesh_world, floor_mesh(16, 0.5f, 0.0f), CAIRN_STATIC, cairn_transform_identity(),
                  1000, 0.5f, 0, true);
    scene_floor(box_world, 0.5f, 0.0f);
    cairn_body_id on_mesh[2], on_box[2];
    drop_capsules(mesh_world, r, on_mesh);
    drop_capsules(box_world, r, on_box);
    for (int i = 0; i < 2; ++i) {
        float y = scene_position(mesh_world, on_mesh[i]).y;
        vec3s v = cairn_body_linear_velocity(mesh_world, on_mesh[i]);
        vec3s v_box = cairn_body_linear_velocity(box_world, on_box[i]);
        cr_log_info("capsule %d: height %.5f, speed %.4f m/s (%.4f on the box floor)", i, (double)y,
                    (double)glms_vec3_norm(v), (double)glms_vec3_norm(v_box));
        cr_expect(y >= r - 1e-3f && y <= r + 1e-3f, "capsule %d rests at %g, radius %g", i,
                  (double)y, (double)r);
        cr_expect_lt(fabsf(v.y), 1e-3f, "capsule %d: vertical speed %g", i, (double)v.y);
        cr_expect_lt(glms_vec3_norm(v), i == 1 ? 0.01f : 0.1f, "capsule %d moves at %g m/s", i,
                     (double)glms_vec3_norm(v));
    }
    cairn_world_destroy(box_world);
    cairn_world_destroy(mesh_world);
}

/* Rolling at 5 m/s diagonally across the floor's seams (through its vertices and beside them):
   it keeps to the floor, never leaving it upwards faster than a resting contact's jitter. */
static void roll_across_seams(float offset)
{
    cairn_world *world = scene_default_world();
    scene_body_ex(world, floor_mesh(24, 0.5f, 0.0f), CAIRN_STATIC, cairn_transform_identity(), 1000,
                  0.5f, 0, true);
    float r = 0.25f;
    vec3s dir = glms_vec3_normalize(v3(1, 0, 1)), start = v3(-4.2f, r, -4.2f + offset);
    cairn_body_id id = lying_capsule(world, start, glms_vec3_normalize(v3(1, 0, -1)),
                                     glms_vec3_scale(dir, 5.0f), r);
    float travelled = 0.0f, max_vy = 0.0f, lowest = INFINITY, highest = -INFINITY;
    for (int step = 0; travelled < 8.0f && step < 600; ++step) {
        cairn_world_step(world, SCENE_DT);
        vec3s at = scene_position(world, id);
        travelled = glms_vec3_dot(glms_vec3_sub(at, start), dir);
        max_vy = fmaxf(max_vy, fabsf(cairn_body_linear_velocity(world, id).y));
        lowest = fminf(lowest, at.y);
        highest = fmaxf(highest, at.y);
    }
    cr_log_info("capsule rolling (offset %.2f): max |vy| %.4f m/s, height %.4f to %.4f",
                (double)offset, (double)max_vy, (double)lowest, (double)highest);
    cr_expect_geq(travelled, 8.0f, "rolled only %g m", (double)travelled);
    cr_expect_lt(max_vy, 0.05f, "hopped at %g m/s", (double)max_vy);
    cr_expect(lowest > r - 0.01f && highest < r + 0.01f, "height %g to %g, radius %g",
              (double)lowest, (double)highest, (double)r);
    cairn_world_destroy(world);
}

Test(capsule_triangle, a_capsule_rolling_across_seams_does_not_hop)
{
    roll_across_seams(0.0f);
    roll_across_seams(0.1f);
}
