/* The mesh BVH and the heightfield grid against brute force over every triangle: the same set of
   triangles under random boxes and the same closest hit for random rays, on random meshes of 10
   to 100,000 triangles with degenerate and duplicate triangles mixed in. The brute force uses its
   own ray-triangle test (plane, then barycentric coordinates), not the engine's. */
#include <criterion/criterion.h>
#include <string.h>

#include "geometry/triangles.h"
#include "mesh/mesh_helpers.h"

/* A soup of random triangles in a 20 m cube: sizes from 1 cm to 4 m, every 10th a duplicate of
   an earlier one, every 17th degenerate (a repeated index or three exactly collinear points). */
static cairn_shape *random_mesh(test_rng *r, int triangles, int *degenerate)
{
    bool *bad = calloc((size_t)triangles, sizeof *bad);
    int vertex_count = 3 * triangles;
    vec3s *v = malloc((size_t)vertex_count * sizeof *v);
    int *idx = malloc((size_t)vertex_count * sizeof *idx);
    for (int t = 0; t < triangles; ++t) {
        vec3s c = {{rng_range(r, -10, 10), rng_range(r, -10, 10), rng_range(r, -10, 10)}};
        float size = powf(10.0f, rng_range(r, -2.0f, 0.6f));
        for (int k = 0; k < 3; ++k) {
            v[3 * t + k] =
                (vec3s){{c.x + size * rng_range(r, -1, 1), c.y + size * rng_range(r, -1, 1),
                         c.z + size * rng_range(r, -1, 1)}};
            idx[3 * t + k] = 3 * t + k;
        }
        bool duplicate = t % 10 == 9;
        if (duplicate) {
            memcpy(&idx[3 * t], &idx[3 * (t / 2)], 3 * sizeof(int));
            bad[t] = bad[t / 2];
        }
        if (t % 17 == 5) {
            idx[3 * t + 2] = idx[3 * t];
            bad[t] = true;
        }
        if (t % 17 == 11 && !duplicate) {
            /* exactly collinear in float: all three on a line parallel to X */
            vec3s a = v[3 * t];
            v[3 * t + 1] = (vec3s){{v[3 * t + 1].x, a.y, a.z}};
            v[3 * t + 2] = (vec3s){{a.x + 2.0f * (v[3 * t + 1].x - a.x), a.y, a.z}};
            bad[t] = true;
        }
    }
    *degenerate = 0;
    for (int t = 0; t < triangles; ++t)
        *degenerate += bad[t];
    free(bad);
    cairn_shape *shape = cairn_shape_mesh(v, vertex_count, idx, triangles);
    free(v);
    free(idx);
    return shape;
}

/* Ray against a triangle in double: the plane crossing, then its barycentric coordinates.
   *margin: the smallest coordinate (near 0: the ray passes near an edge, where the engine's
   test and this one may round differently). */
static bool brute_ray(const vec3s c[3], vec3s o, vec3s d, double max_t, double *t, double *margin)
{
    double a[3], e1[3], e2[3], n[3];
    for (int k = 0; k < 3; ++k) {
        a[k] = c[0].raw[k];
        e1[k] = (double)c[1].raw[k] - a[k];
        e2[k] = (double)c[2].raw[k] - a[k];
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    double nd = n[0] * d.x + n[1] * d.y + n[2] * d.z;
    if (nd == 0.0)
        return false;
    double s = (n[0] * (a[0] - o.x) + n[1] * (a[1] - o.y) + n[2] * (a[2] - o.z)) / nd;
    if (s < 0.0 || s > max_t)
        return false;
    double p[3] = {o.x + s * d.x - a[0], o.y + s * d.y - a[1], o.z + s * d.z - a[2]};
    /* p = u e1 + v e2: solve the 2x2 normal equations */
    double d11 = e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2];
    double d12 = e1[0] * e2[0] + e1[1] * e2[1] + e1[2] * e2[2];
    double d22 = e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2];
    double p1 = p[0] * e1[0] + p[1] * e1[1] + p[2] * e1[2];
    double p2 = p[0] * e2[0] + p[1] * e2[1] + p[2] * e2[2];
    double det = d11 * d22 - d12 * d12;
    double u = (d22 * p1 - d12 * p2) / det, v = (d11 * p2 - d12 * p1) / det;
    *margin = fmin(fmin(u, v), 1.0 - u - v);
    *t = s;
    return *margin >= 0.0;
}

typedef struct brute_hit {
    bool found;
    double t, margin;
    int triangle;
} brute_hit;

static brute_hit brute_closest(const cairn_shape *shape, vec3s o, vec3s d, double max_t)
{
    brute_hit best = {false, max_t, 0.0, -1};
    for (int i = 0; i < cairn_shape_triangle_count(shape); ++i) {
        vec3s c[3];
        double t, margin;
        if (cairn_shape_triangle(shape, i, c) && brute_ray(c, o, d, best.t, &t, &margin) &&
            (!best.found || t < best.t))
            best = (brute_hit){true, t, margin, i};
    }
    return best;
}

/* Compares the engine's closest hit with brute force; rays grazing an edge (within 1e-6 in
   barycentric terms) or ties within 1e-6 may pick another triangle. Returns 1 on a mismatch. */
static int compare_ray(const cairn_shape *shape, vec3s o, vec3s d, float max_t)
{
    triangle_hit hit;
    bool found = triangles_raycast(shape, o, d, max_t, &hit);
    brute_hit b = brute_closest(shape, o, d, max_t);
    if (found != b.found) {
        if (b.found && b.margin < 1e-6)
            return 0;
        if (found) {
            /* the engine hit something brute force did not: must be an edge graze */
            vec3s c[3];
            cairn_shape_triangle(shape, hit.triangle, c);
            double t, margin;
            brute_ray(c, o, d, 2.0 * max_t, &t, &margin);
            if (fabs(margin) < 1e-6)
                return 0;
        }
        cr_log_error("hit disagrees: engine %d, brute %d (t %g, margin %g)", found, b.found, b.t,
                     b.margin);
        return 1;
    }
    if (!found)
        return 0;
    if (fabs(hit.fraction - b.t) > 1e-5 * fmax(1.0, b.t)) {
        if (b.margin < 1e-6)
            return 0;
        cr_log_error("closest fraction %g (triangle %d) vs brute %g (triangle %d)",
                     (double)hit.fraction, hit.triangle, b.t, b.triangle);
        return 1;
    }
    /* normal: unit, facing against the ray, perpendicular to the hit triangle */
    vec3s c[3];
    cairn_shape_triangle(shape, hit.triangle, c);
    vec3s n =
        glms_vec3_normalize(glms_vec3_cross(glms_vec3_sub(c[1], c[0]), glms_vec3_sub(c[2], c[0])));
    if (fabsf(fabsf(glms_vec3_dot(n, hit.normal)) - 1.0f) > 1e-4f ||
        glms_vec3_dot(hit.normal, d) > 0.0f) {
        cr_log_error("bad normal");
        return 1;
    }
    return 0;
}

static vec3s random_point(test_rng *r, float extent)
{
    return (vec3s){{rng_range(r, -extent, extent), rng_range(r, -extent, extent),
                    rng_range(r, -extent, extent)}};
}

static int check_rays(const cairn_shape *shape, test_rng *r, int rays, float extent, int *hits)
{
    int mismatches = 0;
    for (int i = 0; i < rays; ++i) {
        vec3s o = random_point(r, extent), to = random_point(r, extent);
        vec3s c[3];
        int aim = (int)(rng_unit(r) * cairn_shape_triangle_count(shape));
        if (i % 2 && cairn_shape_triangle(shape, aim, c)) {
            /* aimed through a random point of a random triangle, a little beyond it */
            float u = rng_range(r, 0, 1), v = rng_range(r, 0, 1 - u);
            vec3s p =
                glms_vec3_add(c[0], glms_vec3_add(glms_vec3_scale(glms_vec3_sub(c[1], c[0]), u),
                                                  glms_vec3_scale(glms_vec3_sub(c[2], c[0]), v)));
            to = glms_vec3_add(p, glms_vec3_scale(glms_vec3_sub(p, o), 0.1f));
        }
        float max_t = rng_range(r, 0.2f, 1.5f);
        triangle_hit h;
        *hits += triangles_raycast(shape, o, glms_vec3_sub(to, o), max_t, &h);
        mismatches += compare_ray(shape, o, glms_vec3_sub(to, o), max_t);
    }
    return mismatches;
}

static bool collect(void *context, int triangle, const vec3s corners[3])
{
    (void)corners;
    ((unsigned char *)context)[triangle]++;
    return true;
}

/* Triangles whose bounds overlap the box, by brute force, against the query's set (each exactly
   once). Returns the number of triangles that differ. */
static int check_box(const cairn_shape *shape, cairn_aabb box, unsigned char *seen, int *found)
{
    int n = cairn_shape_triangle_count(shape), wrong = 0;
    memset(seen, 0, (size_t)n);
    triangles_query_box(shape, box, collect, seen);
    for (int i = 0; i < n; ++i) {
        vec3s c[3];
        bool expected = false;
        if (cairn_shape_triangle(shape, i, c)) {
            vec3s lo = glms_vec3_minv(c[0], glms_vec3_minv(c[1], c[2]));
            vec3s hi = glms_vec3_maxv(c[0], glms_vec3_maxv(c[1], c[2]));
            expected = lo.x <= box.max.x && box.min.x <= hi.x && lo.y <= box.max.y &&
                       box.min.y <= hi.y && lo.z <= box.max.z && box.min.z <= hi.z;
        }
        *found += expected;
        wrong += seen[i] != (expected ? 1 : 0);
    }
    return wrong;
}

static cairn_aabb random_box(test_rng *r, float extent, float size)
{
    vec3s c = random_point(r, extent);
    vec3s h = {{rng_range(r, 0, size), rng_range(r, 0, size), rng_range(r, 0, size)}};
    return (cairn_aabb){glms_vec3_sub(c, h), glms_vec3_add(c, h)};
}

static void run_mesh(int triangles, int rays, int boxes, uint64_t seed)
{
    test_rng r = {seed};
    int degenerate;
    cairn_shape *mesh = random_mesh(&r, triangles, &degenerate);
    cr_assert_not_null(mesh, "%s", cairn_last_error());
    cr_expect_eq(cairn_mesh_dropped_count(mesh), degenerate, "dropped %d of %d degenerate",
                 cairn_mesh_dropped_count(mesh), degenerate);
    int hits = 0, found = 0;
    cr_expect_eq(check_rays(mesh, &r, rays, 12.0f, &hits), 0, "%d triangles: ray mismatches",
                 triangles);
    unsigned char *seen = malloc((size_t)triangles);
    int wrong = 0;
    for (int i = 0; i < boxes; ++i)
        wrong += check_box(mesh, random_box(&r, 11.0f, 2.0f), seen, &found);
    cr_expect_eq(wrong, 0, "%d triangles: %d box-query differences", triangles, wrong);
    cr_log_info("%d triangles: %d of %d rays hit, %d triangles under %d boxes", triangles, hits,
                rays, found, boxes);
    cr_expect_gt(hits, 0, "no ray hit: the test would not see a wrong hit");
    cr_expect_gt(found, 0, "no box found a triangle");
    free(seen);
    cairn_shape_release(mesh);
}

Test(mesh_bvh, ten_triangles)
{
    run_mesh(10, 2000, 500, 1);
}

Test(mesh_bvh, a_thousand_triangles)
{
    run_mesh(1000, 1000, 300, 2);
}

Test(mesh_bvh, a_hundred_thousand_triangles)
{
    run_mesh(100000, 100, 30, 3);
}

Test(mesh_bvh, rays_along_and_onto_a_tessellated_floor)
{
    /* Axis-aligned rays and rays through shared edges and vertices of a regular grid. */
    cairn_shape *floor = floor_mesh(16, 0.5f, 0.0f);
    test_rng r = {4};
    int mismatches = 0;
    for (int i = 0; i < 500; ++i) {
        vec3s o = {{0.25f * (float)(int)rng_range(&r, -20, 20), 3.0f,
                    0.25f * (float)(int)rng_range(&r, -20, 20)}};
        vec3s d = i % 2 ? (vec3s){{0, -5, 0}} : (vec3s){{rng_range(&r, -1, 1), -5, 0}};
        mismatches += compare_ray(floor, o, d, 1.0f);
        triangle_hit h;
        bool hit = triangles_raycast(floor, o, d, 1.0f, &h);
        bool inside = fabsf(o.x + d.x * 0.6f) <= 4.0f && fabsf(o.z) <= 4.0f;
        if (i % 2 && inside != hit)
            mismatches++,
                cr_log_error("vertical ray at (%g, %g): hit %d", (double)o.x, (double)o.z, hit);
        if (hit && i % 2 && fabsf(h.fraction - 0.6f) > 1e-6f)
            mismatches++;
    }
    cr_expect_eq(mismatches, 0);
    cairn_shape_release(floor);
}

static cairn_shape *random_heightfield(test_rng *r, int nx, int nz, vec3s scale)
{
    float *h = malloc((size_t)(nx * nz) * sizeof *h);
    for (int i = 0; i < nx * nz; ++i)
        h[i] = (i / nx) % 11 < 3 ? 1.0f : rng_range(r, -1.0f, 2.0f); /* flat strips too */
    cairn_shape *shape = cairn_shape_heightfield(h, nx, nz, scale);
    free(h);
    return shape;
}

Test(mesh_bvh, heightfield_boxes_and_rays_match_brute_force)
{
    test_rng r = {5};
    vec3s scale = {{0.7f, 1.5f, 0.4f}};
    cairn_shape *field = random_heightfield(&r, 37, 29, scale);
    cr_assert_not_null(field, "%s", cairn_last_error());
    cr_expect_eq(cairn_shape_triangle_count(field), 2 * 36 * 28);
    vec3s c[3];
    cr_assert(cairn_shape_triangle(field, 2 * (5 * 36 + 7), c));
    cr_expect_float_eq(c[0].x, 7 * 0.7f, 1e-5f);
    cr_expect_float_eq(c[0].z, 5 * 0.4f, 1e-5f);
    unsigned char *seen = malloc((size_t)cairn_shape_triangle_count(field));
    int hits = 0, found = 0, mismatches = 0;
    for (int i = 0; i < 400; ++i) {
        /* boxes inside, across the edges and outside the grid */
        vec3s centre = {{rng_range(&r, -3, 28), rng_range(&r, -3, 4), rng_range(&r, -3, 13)}};
        vec3s half = {{rng_range(&r, 0, 2), rng_range(&r, 0, 1), rng_range(&r, 0, 2)}};
        cairn_aabb box = {glms_vec3_sub(centre, half), glms_vec3_add(centre, half)};
        /* the grid may report a few extra triangles (by cell, not by triangle bounds): compare
           only that none is missing and none reported twice */
        int n = cairn_shape_triangle_count(field);
        memset(seen, 0, (size_t)n);
        triangles_query_box(field, box, collect, seen);
        for (int t = 0; t < n; ++t) {
            cairn_shape_triangle(field, t, c);
            vec3s lo = glms_vec3_minv(c[0], glms_vec3_minv(c[1], c[2]));
            vec3s hi = glms_vec3_maxv(c[0], glms_vec3_maxv(c[1], c[2]));
            bool expected = lo.x <= box.max.x && box.min.x <= hi.x && lo.y <= box.max.y &&
                            box.min.y <= hi.y && lo.z <= box.max.z && box.min.z <= hi.z;
            found += expected;
            mismatches += (expected && seen[t] != 1) || seen[t] > 1;
        }
        vec3s o = {{rng_range(&r, -5, 30), rng_range(&r, -2, 6), rng_range(&r, -5, 16)}};
        vec3s d = {{rng_range(&r, -30, 30), rng_range(&r, -8, 3), rng_range(&r, -15, 15)}};
        if (i % 5 == 0)
            d.x = d.z = 0.0f; /* straight down */
        triangle_hit h;
        hits += triangles_raycast(field, o, d, 1.0f, &h);
        mismatches += compare_ray(field, o, d, 1.0f);
    }
    cr_expect_eq(mismatches, 0);
    cr_expect_gt(hits, 50, "%d hits", hits);
    cr_expect_gt(found, 100);
    free(seen);
    cairn_shape_release(field);
}
