/* Convex shapes against one triangle of a mesh, through the mesh narrow phase
   (collision/mesh_collide.c), against the independent oracle of tests/collision/oracle.h in
   double: spheres by the exact point-triangle distance, boxes, hulls and compounds of boxes by
   brute-force SAT (overlapping) and the minimum over boundary triangle pairs (separated),
   capsules by the segment-triangle distance, cylinders bracketed by an inscribed and a
   circumscribed 24-sided prism. Shallow and deep, at offsets 0, 1e3 and 1e4 (the whole
   configuration translated). Each piece's query must give the oracle's signed distance, overlap
   verdict and normal (exact when separated; along it the gap reaches the distance); the body
   pair's manifolds must have no point deeper than that and the deepest within 1 cm of it. */
#include <criterion/criterion.h>

#include <float.h>

#include "collision/mesh_collide.h"
#include "collision/oracle.h"
#include "mesh/mesh_helpers.h"

enum { KIND_SPHERE, KIND_BOX, KIND_HULL, KIND_CAPSULE, KIND_CYLINDER, KIND_COMPOUND, KIND_COUNT };
static const char *const kind_names[KIND_COUNT] = {"sphere",  "box",      "hull",
                                                   "capsule", "cylinder", "compound"};
/* Cylinders are bracketed by prisms of this many sides, inscribed and circumscribed. */
enum { CYLINDER_SIDES = 24 };
static const float margin = 0.05f;

static cairn_shape *make_shape(int kind, oracle_rng *rng)
{
    switch (kind) {
    case KIND_SPHERE:
        return cairn_shape_sphere((float)oracle_uniform(rng, 0.1, 0.6));
    case KIND_BOX:
        return cairn_shape_box(
            (vec3s){{(float)oracle_uniform(rng, 0.1, 0.5), (float)oracle_uniform(rng, 0.1, 0.5),
                     (float)oracle_uniform(rng, 0.1, 0.5)}},
            0.0f);
    case KIND_HULL: {
        vec3s p[12];
        for (int i = 0; i < 12; ++i)
            p[i] = (vec3s){{(float)oracle_uniform(rng, -0.5, 0.5),
                            (float)oracle_uniform(rng, -0.5, 0.5),
                            (float)oracle_uniform(rng, -0.5, 0.5)}};
        return cairn_shape_hull(p, 12, 0.0f);
    }
    case KIND_CAPSULE:
        return cairn_shape_capsule((float)oracle_uniform(rng, 0.1, 0.5),
                                   (float)oracle_uniform(rng, 0.1, 0.4));
    case KIND_CYLINDER:
        return cairn_shape_cylinder((float)oracle_uniform(rng, 0.1, 0.5),
                                    (float)oracle_uniform(rng, 0.1, 0.4), 0.0f);
    default: {
        cairn_shape *a = cairn_shape_box((vec3s){{0.4f, 0.1f, 0.2f}}, 0.0f);
        cairn_shape *b = cairn_shape_box((vec3s){{0.1f, 0.3f, 0.2f}}, 0.0f);
        const cairn_shape *children[2] = {a, b};
        cairn_transform xf[2] = {{{{0.0f, 0.0f, 0.0f}}, {{0, 0, 0, 1}}},
                                 {{{0.3f, 0.3f, 0.0f}}, oracle_axis_angle(0, 0, 1, 0.3)}};
        cairn_shape *c = cairn_shape_compound(children, xf, 2);
        cairn_shape_release(a);
        cairn_shape_release(b);
        return c;
    }
    }
}

static void poly_of_triangle(oracle_poly *p, const double c[3][3])
{
    static const int faces[] = {0, 1, 2, -1, 0, 2, 1, -1, -2};
    oracle_poly_from_faces(p, c, 3, faces);
}

/* A sharp cylinder as a prism of CYLINDER_SIDES sides whose corners are at `corner_radius`. */
static void poly_of_cylinder(oracle_poly *p, double half_height, double corner_radius,
                             cairn_transform xf)
{
    oracle_xf x = oracle_xf_from(xf);
    oracle_poly_begin(p);
    for (int i = 0; i < 2 * CYLINDER_SIDES; ++i) {
        double angle = 2.0 * ORACLE_PI * (i % CYLINDER_SIDES) / CYLINDER_SIDES;
        double local[3] = {corner_radius * cos(angle),
                           i < CYLINDER_SIDES ? half_height : -half_height,
                           corner_radius * sin(angle)},
               world[3];
        oracle_xf_point(&x, local, world);
        oracle_poly_add_vertex(p, world);
    }
    oracle_poly_vertices_done(p);
    int cap[CYLINDER_SIDES];
    for (int i = 0; i < CYLINDER_SIDES; ++i)
        cap[i] = i;
    oracle_poly_add_face(p, cap, CYLINDER_SIDES);
    for (int i = 0; i < CYLINDER_SIDES; ++i)
        cap[i] = CYLINDER_SIDES + i;
    oracle_poly_add_face(p, cap, CYLINDER_SIDES);
    for (int i = 0; i < CYLINDER_SIDES; ++i) {
        int j = (i + 1) % CYLINDER_SIDES;
        int side[4] = {i, j, CYLINDER_SIDES + j, CYLINDER_SIDES + i};
        oracle_poly_add_face(p, side, 4);
    }
}

/* What the oracle knows of one convex piece: its signed distance within [lo, hi] (equal for
   every shape but the cylinder, bracketed by an inscribed and a circumscribed prism: the
   containing one is never farther), the normal (triangle towards the piece) when exact, and
   `along`: the gap between the triangle and the piece along the engine's normal (an upper bound
   for the cylinder: its inscribed prism's gap). */
typedef struct piece_truth {
    oracle_result r;
    double lo, hi, along;
    bool exact;
} piece_truth;

static double highest_along(const double (*points)[3], int count, const double n[3])
{
    double high = -INFINITY;
    for (int i = 0; i < count; ++i)
        high = fmax(high, ov_dot(points[i], n));
    return high;
}

/* The gap along unit n from the triangle to a polytope: its lowest vertex along n minus the
   triangle's highest corner. For convex sets the signed distance is the largest such gap over
   all directions, reached along the true normal only; an overlapping pair's gap along a wrong
   normal is a deeper overlap than the true depth. So a reported distance that the gap along
   the reported normal does not reach means a wrong normal, shallow or deep. */
static double poly_gap(const oracle_poly *body, const double c[3][3], const double n[3])
{
    double minus[3] = {-n[0], -n[1], -n[2]};
    return -highest_along((const double(*)[3])body->v, body->nv, minus) - highest_along(c, 3, n);
}

static oracle_result oracle_exact(const cairn_shape *shape, cairn_transform xf,
                                  const oracle_poly *tri, const double c[3][3], const double *n,
                                  double *along);

static piece_truth oracle_piece(const cairn_shape *shape, cairn_transform xf,
                                const oracle_poly *tri, const double c[3][3], const double *n)
{
    cairn_shape_params s = cairn_shape_get_params(shape);
    if (s.type != CAIRN_SHAPE_CYLINDER) {
        double along = INFINITY;
        oracle_result r = oracle_exact(shape, xf, tri, c, n, &along);
        return (piece_truth){r, r.distance, r.distance, along, true};
    }
    oracle_poly inner, outer;
    poly_of_cylinder(&inner, s.half_height, s.radius, xf);
    poly_of_cylinder(&outer, s.half_height, s.radius / cos(ORACLE_PI / CYLINDER_SIDES), xf);
    oracle_result in = oracle_query(tri, &inner), out = oracle_query(tri, &outer);
    double along = n ? poly_gap(&inner, c, n) : INFINITY;
    return (piece_truth){in, out.distance, in.distance, along, false};
}

/* The exact oracle for spheres, capsules, boxes and hulls. */
static oracle_result oracle_exact(const cairn_shape *shape, cairn_transform xf,
                                  const oracle_poly *tri, const double c[3][3], const double *n,
                                  double *along)
{
    oracle_result r;
    memset(&r, 0, sizeof r);
    cairn_shape_params s = cairn_shape_get_params(shape);
    oracle_xf x = oracle_xf_from(xf);
    if (s.type == CAIRN_SHAPE_SPHERE || s.type == CAIRN_SHAPE_CAPSULE) {
        double top[3] = {0, s.half_height, 0}, bottom[3] = {0, -s.half_height, 0}, p[3], q[3];
        oracle_xf_point(&x, top, p);
        oracle_xf_point(&x, bottom, q);
        const double *t[3] = {c[0], c[1], c[2]};
        const double *seg[3] = {p, q, q};
        double on_t[3], on_s[3];
        double d = oracle_triangle_triangle(t, seg, on_t, on_s); /* a segment as a flat triangle */
        r.distance = d - s.radius;
        r.overlap = r.distance < 0;
        double g[3];
        ov_sub(g, on_s, on_t);
        double l = ov_norm(g);
        ov_set(r.normal, g[0] / l, g[1] / l, g[2] / l);
        if (!(l > 1e-9))
            r.distance = NAN; /* the core touches the triangle: no oracle for the depth */
        if (n) {
            const double ends[2][3] = {{p[0], p[1], p[2]}, {q[0], q[1], q[2]}};
            double minus[3] = {-n[0], -n[1], -n[2]};
            *along = -highest_along(ends, 2, minus) - s.radius - highest_along(c, 3, n);
        }
        return r;
    }
    oracle_poly body;
    if (s.type == CAIRN_SHAPE_BOX)
        oracle_poly_from_box(&body, s.half_extents.x, s.half_extents.y, s.half_extents.z, xf);
    else
        oracle_poly_from_hull(&body, shape, xf);
    if (n)
        *along = poly_gap(&body, c, n);
    return oracle_query(tri, &body);
}

/* The piece's query against the oracle: the signed distance within [lo, hi] (with tolerance),
   the overlap verdict wherever the oracle is farther than the tolerance from touching, and the
   normal: the gap along it must reach the reported distance (deep and shallow), and when the
   oracle's normal is unique (an exact, separated pair) it must agree within about 8 degrees. */
static bool query_agrees(const piece_truth *t, const cairn_query_result *q, double tolerance)
{
    double d = q->distance;
    double n[3] = {q->normal.x, q->normal.y, q->normal.z};
    bool distance_ok = d >= t->lo - tolerance && d <= t->hi + tolerance;
    bool verdict_ok = (t->hi < -tolerance && q->overlap) || (t->lo > tolerance && !q->overlap) ||
                      (t->hi >= -tolerance && t->lo <= tolerance);
    bool normal_ok =
        d <= t->along + tolerance && (!t->exact || t->r.overlap || ov_dot(n, t->r.normal) >= 0.99);
    return distance_ok && verdict_ok && normal_ok;
}

typedef struct outcome {
    int checked, skipped, wrong, queries;
    double worst, worst_query;
} outcome;

static void check_case(int kind, double offset, double target, oracle_rng *rng, outcome *out)
{
    /* a random triangle about 1.5 m across, around the offset */
    double c[3][3];
    for (int v = 0; v < 3; ++v) {
        double angle = 2.0 * ORACLE_PI * v / 3.0 + oracle_uniform(rng, -0.4, 0.4);
        double radius = oracle_uniform(rng, 0.6, 1.0);
        double local[3] = {radius * cos(angle), 0.0, -radius * sin(angle)};
        ov_copy(c[v], local);
    }
    versors tilt = oracle_rotation(rng);
    cairn_transform mesh_xf = oracle_transform(offset, offset, -offset, tilt);
    cairn_shape *mesh = one_triangle_mesh(c);
    double world_c[3][3];
    oracle_xf mx = oracle_xf_from(mesh_xf);
    for (int v = 0; v < 3; ++v)
        oracle_xf_point(&mx, c[v], world_c[v]);
    oracle_poly tri;
    poly_of_triangle(&tri, world_c);
    /* the face normal in the world (the triangle is counter-clockwise seen from +Y) */
    double up_local[3] = {0, 1, 0}, up[3];
    oracle_xf_dir(&mx, up_local, up);

    cairn_shape *shape = make_shape(kind, rng);
    cr_assert_not_null(shape, "%s", cairn_last_error());
    versors q = oracle_rotation(rng);
    /* over a random point of the triangle, its lowest point `target` above the plane */
    double u = oracle_uniform(rng, 0, 0.8), w = oracle_uniform(rng, 0, 0.8 - u), at[3];
    for (int k = 0; k < 3; ++k)
        at[k] = world_c[0][k] + u * (world_c[1][k] - world_c[0][k]) +
                w * (world_c[2][k] - world_c[0][k]);
    vec3s down_local = glms_quat_rotatev(glms_quat_conjugate(q),
                                         (vec3s){{(float)-up[0], (float)-up[1], (float)-up[2]}});
    vec3s low = glms_quat_rotatev(q, cairn_shape_support(shape, down_local));
    double reach = -(low.x * up[0] + low.y * up[1] + low.z * up[2]);
    cairn_transform xf =
        oracle_transform(at[0] + up[0] * (target + reach), at[1] + up[1] * (target + reach),
                         at[2] + up[2] * (target + reach), q);

    /* the oracle: the closest (deepest) piece; each piece's query against its own answer */
    piece_truth truth = {.r = {.distance = INFINITY}, .lo = INFINITY, .hi = INFINITY};
    bool one_sided = false; /* a piece overlaps with its way out through the triangle's back */
    /* 1 mm for pieces of 0.2 to 1 m (a thousandth of their size: the engine's GJK/EPA stop
       within that), plus 4 float ulps of the offset (FLT_EPSILON * offset bounds one): world
       points (witnesses, manifold points) pass through a few float transforms, each rounding
       to the offset's ulp. So 1 mm at 0, 1.5 mm at 1e3, 5.8 mm at 1e4. */
    double tolerance = 1e-3 + 4.0 * FLT_EPSILON * offset;
    int pieces = kind == KIND_COMPOUND ? cairn_compound_child_count(shape) : 1;
    for (int i = 0; i < pieces; ++i) {
        cairn_transform child_xf = xf;
        const cairn_shape *piece = shape;
        if (kind == KIND_COMPOUND) {
            cairn_transform local;
            piece = cairn_compound_child(shape, i, &local);
            child_xf.position =
                glms_vec3_add(xf.position, glms_quat_rotatev(xf.rotation, local.position));
            child_xf.rotation = glms_quat_mul(xf.rotation, local.rotation);
        }
        cairn_query_result query;
        bool answered = mesh_triangle_query(mesh, mesh_xf, 0, piece, child_xf, NULL, &query);
        double n[3] = {query.normal.x, query.normal.y, query.normal.z};
        piece_truth t = oracle_piece(piece, child_xf, &tri, world_c, answered ? n : NULL);
        oracle_result r = t.r;
        if (isnan(r.distance) || r.distance < truth.r.distance)
            truth = t;
        one_sided |= !isnan(r.distance) && r.overlap && ov_dot(r.normal, up) < 0.05;
        if (isnan(r.distance) || ov_dot(r.normal, up) < 0.05 || !answered)
            continue;
        out->queries++;
        if (!query_agrees(&t, &query, tolerance)) {
            out->wrong++;
            cr_log_error("%s at %g: query %g (overlap %d), oracle [%g, %g] (overlap %d), gap "
                         "along the query's normal %g, normal dot %g",
                         kind_names[kind], offset, (double)query.distance, query.overlap, t.lo,
                         t.hi, r.overlap, t.along, ov_dot(n, r.normal));
        }
        double d = query.distance;
        out->worst_query = fmax(out->worst_query, d < t.lo ? t.lo - d : d > t.hi ? d - t.hi : 0.0);
    }
    manifold m[CONTACT_MAX_MANIFOLDS];
    compound_stats stats = {0};
    int count = mesh_manifolds(mesh, mesh_xf, shape, xf, margin, NULL, NULL, m, &stats);
    /* no oracle (a capsule core through the triangle), a normal facing the triangle's back or
       edge-on, or a distance at the margin: not decided here. Nor a piece that overlaps with
       its shortest way out through the back: the mesh is one-sided, and such a piece whose
       centre is in front is pushed out along the face normal (mesh_collide.c), deeper than the
       two-sided oracle's depth (tests/mesh/test_deep_landing.c checks it). */
    double facing = ov_dot(truth.r.normal, up);
    if (isnan(truth.r.distance) || facing < 0.05 || one_sided ||
        (truth.lo < margin + tolerance && truth.hi > margin - tolerance)) {
        out->skipped++;
    } else if (truth.lo > margin) {
        out->wrong += count != 0;
        out->checked++;
    } else if (count == 0) {
        out->wrong++, out->checked++;
        cr_log_error("%s: no contact, oracle distance %g", kind_names[kind], truth.r.distance);
    } else {
        double deepest = INFINITY;
        vec3s normal = m[0].normal;
        for (int i = 0; i < count; ++i)
            for (int p = 0; p < m[i].point_count; ++p)
                if (m[i].points[p].separation < deepest) {
                    deepest = m[i].points[p].separation;
                    normal = m[i].normal;
                }
        /* Clipping keeps the supporting faces' points, so the deepest manifold point can be
           shallower than the closest pair (a corner just past the triangle's edge is clipped
           away; the closest pair joins the manifold when 5 mm deeper): no point deeper than the
           truth, and the deepest within 5 mm of it. */
        double below = truth.lo - deepest, above = deepest - truth.hi;
        double n[3] = {normal.x, normal.y, normal.z};
        /* overlapping polytopes may tie between axes: then only the depth is checked */
        bool normal_ok = !truth.exact || truth.r.overlap || ov_dot(n, truth.r.normal) > 0.99;
        out->checked++;
        out->worst = fmax(out->worst, fmax(fmax(below, above), 0.0));
        if (below > tolerance || above > 0.005 + tolerance || !normal_ok) {
            out->wrong++;
            cr_log_error("%s at %g: deepest %g, oracle [%g, %g] (normal dot %g)", kind_names[kind],
                         offset, deepest, truth.lo, truth.hi, ov_dot(n, truth.r.normal));
        }
    }
    cairn_shape_release(shape);
    cairn_shape_release(mesh);
}

static void run_kind(int kind)
{
    oracle_rng rng;
    oracle_rng_seed(&rng, 100 + (uint64_t)kind);
    static const double offsets[] = {0.0, 1e3, 1e4};
    for (int o = 0; o < 3; ++o) {
        double offset = offsets[o];
        outcome shallow = {0}, deep = {0};
        for (int i = 0; i < 150; ++i) {
            check_case(kind, offset, oracle_uniform(&rng, -0.03, 0.08), &rng, &shallow);
            check_case(kind, offset, oracle_uniform(&rng, -0.3, -0.05), &rng, &deep);
        }
        cr_log_info("%s at offset %g: shallow %d queries (worst %.2e), %d manifolds (%d "
                    "skipped, worst %.2e); deep %d queries (worst %.2e), %d manifolds (%d "
                    "skipped, worst %.2e)",
                    kind_names[kind], offset, shallow.queries, shallow.worst_query, shallow.checked,
                    shallow.skipped, shallow.worst, deep.queries, deep.worst_query, deep.checked,
                    deep.skipped, deep.worst);
        cr_expect_eq(shallow.wrong, 0, "%s at %g: %d wrong of %d shallow queries and %d manifolds",
                     kind_names[kind], offset, shallow.wrong, shallow.queries, shallow.checked);
        cr_expect_eq(deep.wrong, 0, "%s at %g: %d wrong of %d deep queries and %d manifolds",
                     kind_names[kind], offset, deep.wrong, deep.queries, deep.checked);
        cr_expect_gt(shallow.checked, 75);
        cr_expect_gt(deep.checked, 50);
    }
}

Test(triangle_contacts, spheres)
{
    run_kind(KIND_SPHERE);
}

Test(triangle_contacts, boxes)
{
    run_kind(KIND_BOX);
}

Test(triangle_contacts, hulls)
{
    run_kind(KIND_HULL);
}

Test(triangle_contacts, capsules)
{
    run_kind(KIND_CAPSULE);
}

Test(triangle_contacts, cylinders)
{
    run_kind(KIND_CYLINDER);
}

Test(triangle_contacts, compounds_of_boxes)
{
    run_kind(KIND_COMPOUND);
}
