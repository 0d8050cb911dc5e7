/* Quickhull: structure, convexity and coverage checked against brute force on many clouds. */
#include "core/alloc.h"
#include "geometry/hull.h"

#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <string.h>

/* ---- deterministic test data ---- */

typedef struct rng {
    uint64_t state;
} rng;

static uint64_t rng_next(rng *r)
{
    /* xorshift64*: tiny, deterministic, good enough for test clouds */
    r->state ^= r->state >> 12;
    r->state ^= r->state << 25;
    r->state ^= r->state >> 27;
    return r->state * 2685821657736338717ull;
}

static rng rng_seed(uint64_t seed)
{
    rng r = {seed * 0x9E3779B97F4A7C15ull + 1};
    rng_next(&r);
    return r;
}

/* uniform in [-1, 1] */
static double rng_signed(rng *r)
{
    return (double)(rng_next(r) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

static vec3s rng_in_ball(rng *r)
{
    for (;;) {
        vec3s p = {{(float)rng_signed(r), (float)rng_signed(r), (float)rng_signed(r)}};
        if (glms_vec3_dot(p, p) <= 1.0f && glms_vec3_dot(p, p) > 1e-6f)
            return p;
    }
}

static vec3s rng_direction(rng *r)
{
    vec3s p = rng_in_ball(r);
    return glms_vec3_scale(p, 1.0f / glms_vec3_norm(p));
}

enum { MAX_POINTS = 6000 };

typedef struct cloud {
    vec3s p[MAX_POINTS];
    int n;
} cloud;

static void add(cloud *c, double x, double y, double z)
{
    cr_assert(c->n < MAX_POINTS);
    c->p[c->n++] = (vec3s){{(float)x, (float)y, (float)z}};
}

/* ---- brute-force checks ---- */

static double ddot(vec3s a, vec3s b)
{
    return (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z;
}

static void check_half_edges(const convex_hull *h)
{
    cr_assert_eq(h->edge_count % 2, 0);
    for (int f = 0; f < h->face_count; f++) {
        const hull_face *face = &h->faces[f];
        cr_assert_geq(face->edge_count, 3, "face %d has %d vertices", f, face->edge_count);
        int e = face->first_edge;
        for (int k = 0; k < face->edge_count; k++) {
            cr_assert_eq(h->edges[e].face, f);
            e = h->edges[e].next;
        }
        cr_assert_eq(e, face->first_edge, "face %d loop does not close", f);
    }
    for (int e = 0; e < h->edge_count; e++) {
        const hull_half_edge *edge = &h->edges[e];
        cr_assert(edge->twin >= 0 && edge->twin < h->edge_count && edge->twin != e);
        cr_assert_eq(h->edges[edge->twin].twin, e);
        cr_assert_eq(h->edges[edge->twin].origin, h->edges[edge->next].origin);
        cr_assert_neq(h->edges[edge->twin].face, edge->face, "face adjacent to itself");
        cr_assert(edge->origin >= 0 && edge->origin < h->vertex_count);
    }
    for (int v = 0; v < h->vertex_count; v++)
        cr_assert_eq(h->edges[h->vertex_edge[v]].origin, v);
}

static bool adjacent(const convex_hull *h, int u, int v)
{
    for (int k = h->adjacency_start[u]; k < h->adjacency_start[u + 1]; k++)
        if (h->adjacency[k] == v)
            return true;
    return false;
}

static void check_adjacency(const convex_hull *h)
{
    cr_assert_eq(h->adjacency_start[0], 0);
    cr_assert_eq(h->adjacency_start[h->vertex_count], h->edge_count);
    for (int v = 0; v < h->vertex_count; v++) {
        int outgoing = 0;
        for (int e = 0; e < h->edge_count; e++)
            outgoing += h->edges[e].origin == v;
        cr_assert_eq(h->adjacency_start[v + 1] - h->adjacency_start[v], outgoing);
        cr_assert_geq(outgoing, 3, "vertex %d has degree %d", v, outgoing);
        for (int k = h->adjacency_start[v]; k < h->adjacency_start[v + 1]; k++) {
            int u = h->adjacency[k];
            cr_assert_neq(u, v);
            cr_assert(adjacent(h, u, v), "adjacency not symmetric: %d -> %d", v, u);
            for (int m = k + 1; m < h->adjacency_start[v + 1]; m++)
                cr_assert_neq(h->adjacency[m], u, "duplicate neighbour");
        }
    }
    for (int e = 0; e < h->edge_count; e++)
        cr_assert(adjacent(h, h->edges[e].origin, h->edges[h->edges[e].next].origin));
}

/* Convex, planar, counter-clockwise from outside, turning exactly once. */
static void check_face_shape(const convex_hull *h, int f, double tol)
{
    const hull_face *face = &h->faces[f];
    cr_assert_float_eq(glms_vec3_norm(face->normal), 1.0f, 1e-5f);
    vec3s n = face->normal;
    double turning = 0, newell[3] = {0, 0, 0};
    int e = face->first_edge;
    for (int k = 0; k < face->edge_count; k++) {
        int e1 = h->edges[e].next;
        vec3s a = h->vertices[h->edges[e].origin], b = h->vertices[h->edges[e1].origin];
        vec3s c = h->vertices[h->edges[h->edges[e1].next].origin];
        cr_assert_leq(fabs(ddot(n, a) - face->offset), 2 * tol, "face %d not planar", f);
        vec3s u = glms_vec3_sub(b, a), w = glms_vec3_sub(c, b);
        double turn = ddot(glms_vec3_cross(u, w), n);
        cr_assert_geq(turn, -tol * (glms_vec3_norm(u) + glms_vec3_norm(w)),
                      "face %d is not convex at a corner", f);
        turning += atan2(turn, ddot(u, w));
        vec3s cr = glms_vec3_cross(a, b);
        for (int i = 0; i < 3; i++)
            newell[i] += cr.raw[i];
        e = e1;
    }
    cr_assert_float_eq(turning, 2 * GLM_PI, 1e-3, "face %d winds %g", f, turning);
    cr_assert_gt(newell[0] * n.x + newell[1] * n.y + newell[2] * n.z, 0,
                 "face %d is clockwise from outside", f);
}

/* Every property hull.h promises, against the input cloud. */
static void check_hull(const cloud *c, const convex_hull *h, uint64_t seed)
{
    /* no slack: the stored float planes must keep the promise themselves */
    double tol = h->tolerance;
    cr_assert_gt(h->vertex_count, 3);
    cr_assert_eq(h->vertex_count - h->edge_count / 2 + h->face_count, 2, "Euler V=%d E=%d F=%d",
                 h->vertex_count, h->edge_count / 2, h->face_count);
    check_half_edges(h);
    check_adjacency(h);
    for (int f = 0; f < h->face_count; f++) {
        check_face_shape(h, f, tol);
        cr_assert_lt(ddot(h->faces[f].normal, h->interior) - h->faces[f].offset, -tol,
                     "interior point not inside face %d", f);
        for (int i = 0; i < c->n; i++) {
            double d = ddot(h->faces[f].normal, c->p[i]) - h->faces[f].offset;
            cr_assert_leq(d, tol, "point %d is %g in front of face %d (tol %g)", i, d, f, tol);
        }
    }
    for (int v = 0; v < h->vertex_count; v++) {
        bool found = false;
        for (int i = 0; i < c->n && !found; i++)
            found = memcmp(&c->p[i], &h->vertices[v], sizeof(vec3s)) == 0;
        cr_assert(found, "hull vertex %d is not an input point", v);
        for (int u = 0; u < v; u++)
            cr_assert(memcmp(&h->vertices[u], &h->vertices[v], sizeof(vec3s)) != 0,
                      "duplicate hull vertex");
    }
    /* No extreme point lost: in any direction the hull reaches as far as the whole cloud. */
    rng r = rng_seed(seed ^ 0xD1Eu);
    for (int k = 0; k < 200; k++) {
        vec3s d = rng_direction(&r);
        double best = -INFINITY;
        for (int i = 0; i < c->n; i++)
            best = fmax(best, ddot(d, c->p[i]));
        double hull_best = ddot(d, h->vertices[hull_support_scan(h, d)]);
        cr_assert_leq(best - hull_best, tol, "direction %d: hull %g < cloud %g", k, hull_best,
                      best);
    }
}

/* Builds, checks, destroys, and checks that every byte came back. */
static void build_and_check(const cloud *c, uint64_t seed, convex_hull *keep)
{
    size_t before = cairn_allocated_bytes();
    convex_hull h;
    cr_assert(hull_build(c->p, c->n, &h), "hull_build failed: %s", cairn_last_error());
    check_hull(c, &h, seed);
    if (keep) {
        *keep = h;
        return;
    }
    hull_destroy(&h);
    cr_assert_eq(cairn_allocated_bytes(), before, "leaked %zu bytes",
                 cairn_allocated_bytes() - before);
}

static int count_faces_with(const convex_hull *h, int vertices)
{
    int n = 0;
    for (int f = 0; f < h->face_count; f++)
        n += h->faces[f].edge_count == vertices;
    return n;
}

static double hull_volume(const convex_hull *h)
{
    /* divergence theorem: sum of offset * area / 3 */
    double volume = 0;
    for (int f = 0; f < h->face_count; f++) {
        const hull_face *face = &h->faces[f];
        vec3s a = h->vertices[h->edges[face->first_edge].origin];
        double area = 0;
        int e = h->edges[face->first_edge].next;
        for (int k = 1; k + 1 < face->edge_count; k++) {
            int e1 = h->edges[e].next;
            vec3s b = h->vertices[h->edges[e].origin], c = h->vertices[h->edges[e1].origin];
            area +=
                0.5 * ddot(glms_vec3_cross(glms_vec3_sub(b, a), glms_vec3_sub(c, a)), face->normal);
            e = e1;
        }
        volume += face->offset * area / 3.0;
    }
    return volume;
}

/* ---- clouds ---- */

static void box_corners(cloud *c, vec3s half)
{
    for (int i = 0; i < 8; i++)
        add(c, (i & 1 ? 1 : -1) * half.x, (i & 2 ? 1 : -1) * half.y, (i & 4 ? 1 : -1) * half.z);
}

Test(hull, uniform_cube_clouds)
{
    static cloud c;
    for (uint64_t seed = 1; seed <= 5; seed++) {
        rng r = rng_seed(seed);
        c.n = 0;
        for (int i = 0; i < 800; i++)
            add(&c, rng_signed(&r), rng_signed(&r), rng_signed(&r));
        build_and_check(&c, seed, NULL);
    }
}

Test(hull, uniform_ball_clouds)
{
    static cloud c;
    for (uint64_t seed = 10; seed <= 14; seed++) {
        rng r = rng_seed(seed);
        c.n = 0;
        for (int i = 0; i < 800; i++) {
            vec3s p = rng_in_ball(&r);
            add(&c, 3 * p.x + 10, 3 * p.y - 5, 3 * p.z);
        }
        build_and_check(&c, seed, NULL);
    }
}

Test(hull, sphere_surface_every_point_is_a_vertex)
{
    static cloud c;
    for (uint64_t seed = 20; seed <= 23; seed++) {
        rng r = rng_seed(seed);
        c.n = 0;
        for (int i = 0; i < 1000; i++) {
            vec3s d = rng_direction(&r);
            add(&c, d.x, d.y, d.z);
        }
        convex_hull h;
        size_t before = cairn_allocated_bytes();
        build_and_check(&c, seed, &h);
        /* random unit vectors are well separated at this density: all are extreme */
        cr_assert_gt(h.vertex_count, 990, "only %d of 1000 sphere points on the hull",
                     h.vertex_count);
        hull_destroy(&h);
        cr_assert_eq(cairn_allocated_bytes(), before);
    }
}

Test(hull, grid_gives_a_box)
{
    static cloud c;
    for (int i = 0; i < 10; i++)
        for (int j = 0; j < 10; j++)
            for (int k = 0; k < 10; k++)
                add(&c, i * 0.1, j * 0.1 - 2, k * 0.1 + 1);
    convex_hull h;
    size_t before = cairn_allocated_bytes();
    build_and_check(&c, 30, &h);
    cr_assert_eq(h.vertex_count, 8);
    cr_assert_eq(h.face_count, 6);
    cr_assert_eq(count_faces_with(&h, 4), 6);
    cr_assert_float_eq(hull_volume(&h), 0.9 * 0.9 * 0.9, 1e-4);
    hull_destroy(&h);
    cr_assert_eq(cairn_allocated_bytes(), before);
}

Test(hull, duplicated_points)
{
    static cloud c;
    for (uint64_t seed = 40; seed <= 43; seed++) {
        rng r = rng_seed(seed);
        c.n = 0;
        for (int i = 0; i < 300; i++) {
            double x = rng_signed(&r), y = rng_signed(&r), z = rng_signed(&r);
            for (int k = 0; k < 1 + i % 4; k++)
                add(&c, x, y, z);
        }
        build_and_check(&c, seed, NULL);
    }
    /* a tetrahedron whose corners each appear 50 times */
    c.n = 0;
    for (int k = 0; k < 50; k++) {
        add(&c, 0, 0, 0);
        add(&c, 1, 0, 0);
        add(&c, 0, 1, 0);
        add(&c, 0, 0, 1);
    }
    convex_hull h;
    build_and_check(&c, 44, &h);
    cr_assert_eq(h.vertex_count, 4);
    cr_assert_eq(h.face_count, 4);
    hull_destroy(&h);
}

Test(hull, nearly_coplanar_points)
{
    static cloud c;
    for (uint64_t seed = 50; seed <= 54; seed++) {
        rng r = rng_seed(seed);
        c.n = 0;
        /* a tilted plane with 1e-7 relative jitter, then a few points well off it */
        vec3s u = rng_direction(&r), n = rng_direction(&r);
        vec3s v = glms_vec3_normalize(glms_vec3_cross(n, u));
        u = glms_vec3_cross(v, n);
        for (int i = 0; i < 1000; i++) {
            double a = rng_signed(&r), b = rng_signed(&r), j = 1e-7 * rng_signed(&r);
            add(&c, a * u.x + b * v.x + j * n.x, a * u.y + b * v.y + j * n.y,
                a * u.z + b * v.z + j * n.z);
        }
        for (int i = 0; i < 3 + (int)seed % 3; i++) {
            double s = 0.3 * rng_signed(&r);
            add(&c, s * u.x + n.x * 0.5, s * u.y + n.y * 0.5, s * u.z + n.z * 0.5);
        }
        build_and_check(&c, seed, NULL);
    }
}

Test(hull, nearly_coplanar_slab_both_sides)
{
    static cloud c;
    rng r = rng_seed(55);
    for (int i = 0; i < 2000; i++)
        add(&c, rng_signed(&r), rng_signed(&r), 1e-7 * rng_signed(&r) + (i % 200 == 0 ? 0.2 : 0));
    add(&c, 0, 0, -0.2);
    build_and_check(&c, 55, NULL);
}

Test(hull, box_with_points_on_faces)
{
    static cloud c;
    for (uint64_t seed = 60; seed <= 63; seed++) {
        rng r = rng_seed(seed);
        c.n = 0;
        vec3s half = {{1.0f, 2.0f, 0.5f}};
        box_corners(&c, half);
        for (int i = 0; i < 2000; i++) {
            int axis = i % 3;
            double p[3] = {rng_signed(&r) * half.x, rng_signed(&r) * half.y,
                           rng_signed(&r) * half.z};
            p[axis] = (i & 4 ? 1 : -1) * half.raw[axis];
            if (i % 7 == 0) /* some on the edges too */
                p[(axis + 1) % 3] = half.raw[(axis + 1) % 3];
            add(&c, p[0], p[1], p[2]);
        }
        for (int i = 0; i < 500; i++) /* and some inside */
            add(&c, 0.9 * rng_signed(&r), 1.9 * rng_signed(&r), 0.4 * rng_signed(&r));
        convex_hull h;
        size_t before = cairn_allocated_bytes();
        build_and_check(&c, seed, &h);
        cr_assert_eq(h.vertex_count, 8);
        cr_assert_eq(h.face_count, 6);
        cr_assert_eq(h.edge_count, 24);
        cr_assert_float_eq(hull_volume(&h), 8 * half.x * half.y * half.z, 1e-4);
        hull_destroy(&h);
        cr_assert_eq(cairn_allocated_bytes(), before);
    }
}

/* A rotated box: face points are only coplanar up to float rounding. */
Test(hull, rotated_box_with_face_points)
{
    static cloud c;
    for (uint64_t seed = 70; seed <= 73; seed++) {
        rng r = rng_seed(seed);
        c.n = 0;
        versors q = glms_quat_normalize(
            (versors){{(float)rng_signed(&r), (float)rng_signed(&r), (float)rng_signed(&r), 1.0f}});
        vec3s offset = {{5.0f, -3.0f, 2.0f}};
        for (int i = 0; i < 1500; i++) {
            vec3s p = {{(float)rng_signed(&r), (float)rng_signed(&r), (float)rng_signed(&r)}};
            if (i < 8)
                p = (vec3s){{i & 1 ? 1.f : -1.f, i & 2 ? 1.f : -1.f, i & 4 ? 1.f : -1.f}};
            else
                p.raw[i % 3] = i & 8 ? 1.0f : -1.0f;
            p = glms_vec3_add(glms_quat_rotatev(q, p), offset);
            add(&c, p.x, p.y, p.z);
        }
        convex_hull h;
        size_t before = cairn_allocated_bytes();
        build_and_check(&c, seed, &h);
        cr_assert_eq(h.vertex_count, 8, "seed %d: %d vertices", (int)seed, h.vertex_count);
        cr_assert_eq(h.face_count, 6, "seed %d: %d faces", (int)seed, h.face_count);
        cr_assert_float_eq(hull_volume(&h), 8.0, 1e-3);
        hull_destroy(&h);
        cr_assert_eq(cairn_allocated_bytes(), before);
    }
}

/* Points on the faces of a rotated, offset box but not its corners: many nearly coplanar
   slivers along the edges, the case that breaks naive face merging. */
Test(hull, box_faces_without_corners)
{
    static cloud c;
    for (uint64_t seed = 75; seed <= 77; seed++) {
        rng r = rng_seed(seed);
        c.n = 0;
        versors q = glms_quat_normalize((versors){{0.3f, -0.2f, 0.5f, 1.0f}});
        vec3s offset = {{seed == 75 ? 0.0f : 100.0f, 0.0f, seed == 77 ? -40.0f : 0.0f}};
        for (int i = 0; i < 3000; i++) {
            vec3s p = {{(float)rng_signed(&r), (float)rng_signed(&r), (float)rng_signed(&r)}};
            p.raw[i % 3] = i & 8 ? 1.0f : -1.0f;
            p = glms_vec3_add(glms_quat_rotatev(q, p), offset);
            add(&c, p.x, p.y, p.z);
        }
        build_and_check(&c, seed, NULL);
    }
}

/* The exact clouds that once broke the merging (a face pinched at a vertex, then adjacent to
   itself; faces left slightly non-convex), kept with the generator that found them. */
typedef struct stress_rng {
    uint64_t s;
} stress_rng;

static double stress_signed(stress_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return (double)((r->s * 2685821657736338717ull) >> 11) / 9007199254740992.0 * 2 - 1;
}

static vec3s stress_direction(stress_rng *r)
{
    for (;;) {
        double x = stress_signed(r), y = stress_signed(r), z = stress_signed(r);
        double l = sqrt(x * x + y * y + z * z);
        if (l < 1 && l > 1e-3)
            return (vec3s){{x / l, y / l, z / l}};
    }
}

/* kind 1: sphere; 2: sphere with 1e-6 radial noise; 6, 7: box faces, offset 100 or 0 */
static void stress_cloud(cloud *c, int kind, int seed, int n)
{
    stress_rng r = {(uint64_t)seed * 0x9E3779B97F4A7C15ull + 7};
    versors q = glms_quat_normalize((versors){{0.3f, -0.2f, 0.5f, 1}});
    c->n = 0;
    for (int i = 0; i < n; i++) {
        vec3s d = stress_direction(&r);
        double radius = kind == 2 ? 1 + 1e-6 * stress_signed(&r) : 1;
        if (kind >= 6) {
            d = (vec3s){{stress_signed(&r), stress_signed(&r), stress_signed(&r)}};
            d.raw[i % 3] = (i & 8) ? 1 : -1;
            d = glms_vec3_adds(glms_quat_rotatev(q, d), kind == 7 ? 0.f : 100.f);
        }
        vec3s p = glms_vec3_scale(d, (float)radius);
        add(c, p.x, p.y, p.z);
    }
}

Test(hull, clouds_that_once_broke_merging)
{
    static cloud c;
    const int cases[][2] = {{6, 1}, {6, 8}, {7, 2}, {1, 23}, {2, 18}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        stress_cloud(&c, cases[k][0], cases[k][1], 3000);
        build_and_check(&c, (uint64_t)k, NULL);
    }
}

Test(hull, box_corners_only)
{
    static cloud c;
    box_corners(&c, (vec3s){{0.5f, 1.5f, 2.0f}});
    convex_hull h;
    size_t before = cairn_allocated_bytes();
    build_and_check(&c, 80, &h);
    cr_assert_eq(h.vertex_count, 8);
    cr_assert_eq(h.face_count, 6);
    cr_assert_eq(h.edge_count, 24);
    cr_assert_eq(count_faces_with(&h, 4), 6);
    cr_assert_float_eq(hull_volume(&h), 1.0 * 3.0 * 4.0, 1e-5);
    hull_destroy(&h);
    cr_assert_eq(cairn_allocated_bytes(), before);
}

Test(hull, regular_octahedron)
{
    static cloud c;
    for (int k = 0; k < 3; k++)
        for (int s = -1; s <= 1; s += 2) {
            double p[3] = {0, 0, 0};
            p[k] = s;
            add(&c, p[0], p[1], p[2]);
        }
    add(&c, 0.1, 0.2, -0.1); /* an interior point */
    convex_hull h;
    build_and_check(&c, 81, &h);
    cr_assert_eq(h.vertex_count, 6);
    cr_assert_eq(h.face_count, 8);
    cr_assert_eq(count_faces_with(&h, 3), 8);
    cr_assert_float_eq(hull_volume(&h), 4.0 / 3.0, 1e-5);
    hull_destroy(&h);
}

Test(hull, cylinder_rings)
{
    static cloud c;
    const int sides = 32;
    for (int ring = 0; ring < 2; ring++)
        for (int i = 0; i < sides; i++) {
            double a = 2 * GLM_PI * i / sides;
            add(&c, 0.5 * cos(a), ring ? 1.0 : -1.0, 0.5 * sin(a));
        }
    convex_hull h;
    build_and_check(&c, 82, &h);
    cr_assert_eq(h.vertex_count, 2 * sides);
    cr_assert_eq(h.face_count, sides + 2);
    cr_assert_eq(count_faces_with(&h, 4), sides);
    cr_assert_eq(count_faces_with(&h, sides), 2);
    hull_destroy(&h);
}

Test(hull, climb_matches_scan_on_sphere)
{
    static cloud c;
    rng r = rng_seed(90);
    for (int i = 0; i < 2000; i++) {
        vec3s d = rng_direction(&r);
        add(&c, 2 * d.x, 2 * d.y, 2 * d.z);
    }
    convex_hull h;
    cr_assert(hull_build(c.p, c.n, &h));
    for (int k = 0; k < 1000; k++) {
        vec3s d = glms_vec3_scale(rng_direction(&r), k % 2 ? 1.0f : 7.0f);
        int start = (int)(rng_next(&r) % (uint64_t)h.vertex_count);
        int climbed = hull_support_climb(&h, d, start), scanned = hull_support_scan(&h, d);
        double dc = ddot(d, h.vertices[climbed]), ds = ddot(d, h.vertices[scanned]);
        cr_assert_float_eq(dc, ds, 1e-5 * glms_vec3_norm(d), "direction %d: climb %g scan %g", k,
                           dc, ds);
    }
    hull_destroy(&h);
}

Test(hull, climb_is_exact_on_box_plateaus)
{
    static cloud c;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
            for (int k = 0; k < 6; k++)
                add(&c, i, j, k);
    convex_hull h;
    cr_assert(hull_build(c.p, c.n, &h));
    vec3s axes[] = {{{1, 0, 0}}, {{0, -1, 0}}, {{0, 0, 1}}, {{1, 1, 0}}, {{-1, 0, -1}}};
    for (int a = 0; a < 5; a++)
        for (int s = 0; s < h.vertex_count; s++) {
            int v = hull_support_climb(&h, axes[a], s), w = hull_support_scan(&h, axes[a]);
            cr_assert_float_eq(ddot(axes[a], h.vertices[v]), ddot(axes[a], h.vertices[w]), 0);
        }
    hull_destroy(&h);
}

/* The scan answers with the first vertex of largest dot product, exactly as a plain loop does,
   whatever the vertex count (its four-wide form overlaps its last group) and with ties. */
Test(hull, scan_returns_first_maximiser)
{
    rng r = rng_seed(91);
    for (int n = 4; n <= 13; n++) {
        static cloud c;
        c.n = 0;
        add(&c, 0, 0, 0);
        add(&c, 1, 0, 0);
        add(&c, 0, 1, 0);
        add(&c, 0, 0, 1);
        while (c.n < n) {
            vec3s d = rng_direction(&r);
            add(&c, 2 + d.x, 2 + d.y, 2 + d.z);
        }
        convex_hull h;
        cr_assert(hull_build(c.p, c.n, &h));
        vec3s axes[] = {{{1, 0, 0}}, {{0, 1, 0}}, {{0, 0, -1}}, {{-1, -1, 0}}, {{0, 0, 0}}};
        for (int k = 0; k < 205; k++) {
            vec3s d = k < 5 ? axes[k] : rng_direction(&r);
            int first = 0;
            for (int v = 1; v < h.vertex_count; v++)
                if (glms_vec3_dot(h.vertices[v], d) > glms_vec3_dot(h.vertices[first], d))
                    first = v;
            cr_assert_eq(hull_support_scan(&h, d), first, "%d vertices, direction %d",
                         h.vertex_count, k);
        }
        hull_destroy(&h);
    }
}

/* ---- degenerate input ---- */

static void expect_failure(const vec3s *points, int count, const char *needle)
{
    size_t before = cairn_allocated_bytes();
    cairn_clear_error();
    convex_hull h;
    memset(&h, 0xAB, sizeof h);
    cr_assert_not(hull_build(points, count, &h), "expected failure (%s)", needle);
    cr_assert(strstr(cairn_last_error(), needle) != NULL, "message '%s' lacks '%s'",
              cairn_last_error(), needle);
    cr_assert_null(h.vertices);
    cr_assert_eq(h.vertex_count, 0);
    cr_assert_eq(cairn_allocated_bytes(), before);
    hull_destroy(&h); /* harmless on a failed build */
}

Test(hull, degenerate_inputs_fail_with_a_message)
{
    static cloud c;
    box_corners(&c, (vec3s){{1, 1, 1}});
    expect_failure(c.p, 3, "got 3");
    expect_failure(c.p, 0, "at least 4");

    c.p[7].y = NAN;
    expect_failure(c.p, 8, "point 7 is not finite");
    c.p[7].y = 1;
    c.p[2].z = -INFINITY;
    expect_failure(c.p, 8, "point 2 is not finite");

    c.n = 0;
    for (int i = 0; i < 20; i++)
        add(&c, 1.5, -2, 3);
    expect_failure(c.p, c.n, "coincide");

    c.n = 0;
    for (int i = 0; i < 20; i++)
        add(&c, 1 + 0.5 * i, 2 - 0.25 * i, 3 + i);
    expect_failure(c.p, c.n, "collinear");

    c.n = 0;
    rng r = rng_seed(100);
    for (int i = 0; i < 100; i++)
        add(&c, rng_signed(&r), rng_signed(&r), 0);
    expect_failure(c.p, c.n, "coplanar");

    /* coplanar but tilted, with rounding noise */
    c.n = 0;
    for (int i = 0; i < 100; i++) {
        double a = rng_signed(&r), b = rng_signed(&r);
        add(&c, a, b, 0.3 * a - 0.7 * b + 2);
    }
    expect_failure(c.p, c.n, "coplanar");
}

Test(hull, explicit_tolerance_is_validated_and_stored)
{
    static cloud c;
    box_corners(&c, (vec3s){{1, 1, 1}});
    convex_hull h;
    cr_assert_not(hull_build_with_tolerance(c.p, c.n, -1.0f, &h));
    cr_assert(strstr(cairn_last_error(), "tolerance") != NULL);
    cr_assert_not(hull_build_with_tolerance(c.p, c.n, NAN, &h));
    cr_assert(hull_build_with_tolerance(c.p, c.n, 0.0f, &h));
    cr_assert_eq(h.tolerance, 0.0f);
    hull_destroy(&h);
    cr_assert(hull_build(c.p, c.n, &h));
    cr_assert_eq(h.tolerance, hull_default_tolerance(c.p, c.n));
    cr_assert_gt(h.tolerance, 0.0f);
    hull_destroy(&h);
}
