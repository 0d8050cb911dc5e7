/* The per-triangle simplex cache of mesh and heightfield pairs (collision/triangle_cache.c):
   over a convex of every type (sphere, box, capsule, cylinder, hull, compound children) sliding
   and turning over a wavy tessellated mesh and a heightfield, the cached queries give the
   uncached answers, per triangle and per manifold, while taking fewer GJK iterations; a world
   counts the warm starts; a snapshot carries the caches (restore and step: the same hash). */
#include <criterion/criterion.h>

#include "collision/mesh_collide.h"
#include "core/xform.h"
#include "dynamics/scene_helpers.h"
#include "dynamics/world_state.h"
#include "geometry/triangles.h"

#include <stdlib.h>

enum { KIND_SPHERE, KIND_BOX, KIND_CAPSULE, KIND_CYLINDER, KIND_HULL, KIND_COMPOUND, KIND_COUNT };
static const char *const kind_names[KIND_COUNT] = {"sphere",   "box",  "capsule",
                                                   "cylinder", "hull", "compound"};
enum { CELLS = 24, STEPS = 300, MAX_PARTS = 2 };
static const float cell = 0.5f, margin = 0.05f;

/* The surface over the grid: bumps about a cell wide, so a body meets folds of every angle. */
static float wavy(float x, float z)
{
    return 0.25f * sinf(1.3f * x) * cosf(0.9f * z) + 0.1f * sinf(0.7f * z + 0.4f * x);
}

/* CELLS x CELLS cells of `cell` with corner (0, 0) at the origin, as a mesh or a heightfield. */
static cairn_shape *make_surface(bool heightfield)
{
    enum { N = CELLS + 1 };
    float heights[N * N];
    vec3s vertices[N * N];
    for (int z = 0; z < N; ++z)
        for (int x = 0; x < N; ++x) {
            float px = (float)x * cell, pz = (float)z * cell;
            heights[z * N + x] = wavy(px, pz);
            vertices[z * N + x] = (vec3s){{px, heights[z * N + x], pz}};
        }
    if (heightfield)
        return cairn_shape_heightfield(heights, N, N, (vec3s){{cell, 1.0f, cell}});
    static int indices[CELLS * CELLS * 6];
    int k = 0;
    for (int z = 0; z < CELLS; ++z)
        for (int x = 0; x < CELLS; ++x) {
            int a = z * N + x, b = a + 1, d = a + N, e = d + 1;
            int t[6] = {a, d, e, a, e, b}; /* counter-clockwise seen from +Y */
            for (int i = 0; i < 6; ++i)
                indices[k++] = t[i];
        }
    return cairn_shape_mesh(vertices, N * N, indices, CELLS * CELLS * 2);
}

static cairn_shape *make_shape(int kind)
{
    switch (kind) {
    case KIND_SPHERE:
        return cairn_shape_sphere(0.35f);
    case KIND_BOX:
        return cairn_shape_box((vec3s){{0.4f, 0.25f, 0.3f}}, 0.04f);
    case KIND_CAPSULE:
        return cairn_shape_capsule(0.3f, 0.2f);
    case KIND_CYLINDER:
        return cairn_shape_cylinder(0.3f, 0.35f, 0.04f);
    case KIND_HULL: {
        static const vec3s p[8] = {{{0.4f, 0.1f, 0.0f}},    {{-0.3f, 0.2f, 0.2f}},
                                   {{0.0f, -0.3f, 0.3f}},   {{0.1f, 0.3f, -0.35f}},
                                   {{-0.2f, -0.2f, -0.3f}}, {{0.3f, -0.25f, -0.1f}},
                                   {{-0.4f, 0.0f, -0.05f}}, {{0.05f, 0.35f, 0.25f}}};
        return cairn_shape_hull(p, 8, 0.03f);
    }
    default: {
        cairn_shape *a = cairn_shape_box((vec3s){{0.35f, 0.1f, 0.2f}}, 0.02f);
        cairn_shape *b = cairn_shape_capsule(0.2f, 0.12f);
        const cairn_shape *children[2] = {a, b};
        cairn_transform xf[2] = {
            {{{0.0f, 0.0f, 0.0f}}, {{0, 0, 0, 1}}},
            {{{0.3f, 0.2f, 0.0f}}, glms_quatv(0.4f, (vec3s){{0.0f, 0.0f, 1.0f}})}};
        cairn_shape *c = cairn_shape_compound(children, xf, 2);
        cairn_shape_release(a);
        cairn_shape_release(b);
        return c;
    }
    }
}

/* The largest dimension of the shape's bounds: the tolerances scale with it. */
static float shape_size(const cairn_shape *shape)
{
    cairn_aabb box = cairn_shape_local_bounds(shape);
    vec3s d = glms_vec3_sub(box.max, box.min);
    return fmaxf(d.x, fmaxf(d.y, d.z));
}

static cairn_transform surface_frame(void)
{
    return (cairn_transform){{{-4.0f, -0.5f, -5.0f}}, glms_quatv(0.3f, (vec3s){{0, 1, 0}})};
}

/* Step s of the path, in the world: diagonally across the surface, turning about a tilted axis
   and rocking, the lowest point swinging from 12 cm into the surface to 8 cm above it. */
static cairn_transform path_at(const cairn_shape *shape, int s)
{
    float t = (float)s / 60.0f;
    float x = 1.5f + 1.7f * t, z = 2.0f + 1.3f * t;
    versors q = glms_quat_mul(glms_quatv(1.7f * t, glms_vec3_normalize((vec3s){{0.3f, 1, 0.2f}})),
                              glms_quatv(0.6f * sinf(t), (vec3s){{1, 0, 0}}));
    vec3s down = glms_quat_rotatev(glms_quat_conjugate(q), (vec3s){{0, -1, 0}});
    float reach = -glms_quat_rotatev(q, cairn_shape_support(shape, down)).y;
    float gap = -0.12f + 0.2f * (0.5f + 0.5f * sinf(3.0f * t));
    cairn_transform local = {{{x, wavy(x, z) + reach + gap, z}}, q};
    cairn_transform frame = surface_frame();
    return (cairn_transform){xform_point(frame, local.position),
                             glms_quat_normalize(glms_quat_mul(frame.rotation, q))};
}

/* Worst differences between cached and uncached answers, and the work each took. */
typedef struct comparison {
    double distance, gap;  /* per triangle query: |d_c - d_u|; the normals' gaps (gap_along) */
    double normal;         /* per triangle query: |n_c - n_u| (logged) */
    double depth, turn;    /* per step: the deepest manifold points, their manifolds' normals */
    int queries, verdicts; /* triangle queries; those answered differently */
    int count_mismatches;  /* steps whose manifold or point counts differ (logged) */
    long iterations_cached, iterations_cold;
    int cache_hits;
} comparison;

typedef struct triangle_walk {
    const cairn_shape *surface;
    cairn_transform frame;
    shape_part part;
    triangle_cache *cache;
    comparison *out;
} triangle_walk;

/* The gap between the triangle and the part along unit n (from the triangle to the part): the
   part's lowest point along n minus the triangle's highest corner. For convex shapes it is the
   signed distance along the true normal and less along any other, so a normal is judged by how
   close its gap comes to the distance, in metres: on a curved core (a cylinder's rim) GJK's
   stopping rule leaves the distance far better determined than the normal's direction. */
static double gap_along(const vec3s corners[3], cairn_transform frame, shape_part part, vec3s n)
{
    vec3s down = glms_quat_rotatev(glms_quat_conjugate(part.xf.rotation), glms_vec3_negate(n));
    vec3s low = xform_point(part.xf, cairn_shape_support(part.shape, down));
    double high = -INFINITY;
    for (int k = 0; k < 3; ++k)
        high = fmax(high, (double)glms_vec3_dot(n, xform_point(frame, corners[k])));
    return (double)glms_vec3_dot(n, low) - high;
}

static bool compare_triangle(void *context, int triangle, const vec3s corners[3])
{
    triangle_walk *w = context;
    cairn_query_result cached, cold;
    bool has_cached = mesh_triangle_query(w->surface, w->frame, triangle, w->part.shape, w->part.xf,
                                          w->cache, &cached);
    bool has_cold =
        mesh_triangle_query(w->surface, w->frame, triangle, w->part.shape, w->part.xf, NULL, &cold);
    w->out->queries++;
    w->out->verdicts += has_cached != has_cold;
    if (has_cached && has_cold) {
        w->out->distance = fmax(w->out->distance, fabs((double)(cached.distance - cold.distance)));
        w->out->normal =
            fmax(w->out->normal, (double)glms_vec3_distance(cached.normal, cold.normal));
        /* each normal's gap against the other's distance: neither answer is the reference */
        double gap_c = gap_along(corners, w->frame, w->part, cached.normal);
        double gap_u = gap_along(corners, w->frame, w->part, cold.normal);
        w->out->gap = fmax(w->out->gap, fmax(fabs(gap_c - (double)cold.distance),
                                             fabs(gap_u - (double)cached.distance)));
    }
    return true;
}

/* Every triangle under each part's bounds, cached (one cache per part, kept along the path)
   against cold. */
static void compare_triangles(const cairn_shape *surface, const cairn_shape *shape,
                              cairn_transform xf, triangle_cache caches[MAX_PARTS], comparison *out)
{
    cairn_transform frame = surface_frame();
    for (int j = 0; j < shape_part_count(shape); ++j) {
        shape_part part = shape_part_at(shape, xf, j);
        cairn_aabb box = cairn_shape_bounds(part.shape, xform_relative(frame, part.xf));
        box.min = glms_vec3_subs(box.min, margin);
        box.max = glms_vec3_adds(box.max, margin);
        triangle_walk w = {surface, frame, part, &caches[j], out};
        triangle_cache_begin(&caches[j]);
        triangles_query_box(surface, box, compare_triangle, &w);
        triangle_cache_end(&caches[j]);
    }
}

/* The deepest point over the manifolds, and its manifold's normal. */
static const manifold *deepest_manifold(const manifold *m, int count, float *deepest)
{
    const manifold *best = NULL;
    *deepest = INFINITY;
    for (int i = 0; i < count; ++i)
        for (int p = 0; p < m[i].point_count; ++p)
            if (m[i].points[p].separation < *deepest) {
                *deepest = m[i].points[p].separation;
                best = &m[i];
            }
    return best;
}

static int point_total(const manifold *m, int count)
{
    int total = 0;
    for (int i = 0; i < count; ++i)
        total += m[i].point_count;
    return total;
}

/* The body pair's manifolds, cached (the body pair's cache) against cold: the deepest point and
   its manifold's normal. The manifold and point counts may differ (logged): which manifold a
   triangle's points join, and whether a witness point is added, are thresholds (a merge angle,
   a 5 mm gap) that a normal within its tolerance can fall either side of. The surface is shape
   B here: the cache's pairs are then stored with the triangle as B (compare_triangles has it
   as A). */
static void compare_manifolds(const cairn_shape *surface, const cairn_shape *shape,
                              cairn_transform xf, triangle_cache *cache, comparison *out)
{
    manifold cached[CONTACT_MAX_MANIFOLDS], cold[CONTACT_MAX_MANIFOLDS];
    compound_stats with = {0}, without = {0};
    cairn_transform frame = surface_frame();
    int nc = mesh_manifolds(shape, xf, surface, frame, margin, NULL, cache, cached, &with);
    int nu = mesh_manifolds(shape, xf, surface, frame, margin, NULL, NULL, cold, &without);
    out->iterations_cached += with.gjk_iterations;
    out->iterations_cold += without.gjk_iterations;
    out->cache_hits += with.cache_hits;
    out->count_mismatches += nc != nu || point_total(cached, nc) != point_total(cold, nu);
    float dc, du;
    const manifold *mc = deepest_manifold(cached, nc, &dc), *mu = deepest_manifold(cold, nu, &du);
    if (!mc || !mu) {
        out->depth = mc == mu ? out->depth : INFINITY; /* one has points, the other none */
        return;
    }
    out->depth = fmax(out->depth, fabs((double)(dc - du)));
    out->turn = fmax(out->turn, glms_vec3_distance(mc->normal, mu->normal));
}

static comparison run_path(int kind, bool heightfield)
{
    cairn_shape *surface = make_surface(heightfield);
    cairn_shape *shape = make_shape(kind);
    cr_assert(surface && shape, "%s", cairn_last_error());
    triangle_cache part_caches[MAX_PARTS], body_cache;
    memset(part_caches, 0, sizeof part_caches);
    memset(&body_cache, 0, sizeof body_cache);
    comparison out = {0};
    for (int s = 0; s < STEPS; ++s) {
        cairn_transform xf = path_at(shape, s);
        compare_triangles(surface, shape, xf, part_caches, &out);
        compare_manifolds(surface, shape, xf, &body_cache, &out);
    }
    cairn_shape_release(shape);
    cairn_shape_release(surface);
    return out;
}

/* The cache is used: every GJK shape starts warm on most triangles and takes at most 3/4 of the
   cold iterations (measured: 0.24 for hulls to 0.62 for cylinders, whose curved rims take many
   iterations whatever the start). A sphere or a capsule takes none either way (closed forms). */
static void check_use(int kind, const char *surface, const comparison *c)
{
    if (kind == KIND_SPHERE || kind == KIND_CAPSULE) {
        cr_expect_eq(c->iterations_cold + c->iterations_cached, 0, "%s on the %s: GJK ran",
                     kind_names[kind], surface);
        return;
    }
    cr_expect_gt(c->cache_hits, c->queries / 2, "%s on the %s: %d warm starts in %d queries",
                 kind_names[kind], surface, c->cache_hits, c->queries);
    cr_expect_leq(4 * c->iterations_cached, 3 * c->iterations_cold,
                  "%s on the %s: %ld GJK iterations cached, %ld cold", kind_names[kind], surface,
                  c->iterations_cached, c->iterations_cold);
}

/* Distances, the normals' gaps and the manifolds' deepest points to 1e-4 of the shape's size:
   GJK and EPA stop at a relative gap of 1e-6 of the pair's size, so two starts of one query may
   end that far apart; a wrong simplex (points not on the shapes) errs by far more. Manifold
   normals, unit vectors, to 0.02 (1.1 degrees): the worst triangle normal on a cylinder's rim
   differs by 0.0096 between two starts whose distances agree to 1e-6 m (its gap check holds);
   flat shapes agree to 1e-5. */
static void check_kind(int kind)
{
    cairn_shape *shape = make_shape(kind);
    double size = shape_size(shape);
    cairn_shape_release(shape);
    double tolerance = 1e-4 * size;
    for (int h = 0; h < 2; ++h) {
        comparison c = run_path(kind, h == 1);
        const char *surface = h ? "heightfield" : "mesh";
        cr_log_info("%s on the %s: %d triangle queries, worst distance %.2e, gap %.2e, normal "
                    "%.2e; manifolds: depth %.2e, normal %.2e, %d steps' counts differ; GJK "
                    "iterations %ld cached, %ld cold; %d cache hits",
                    kind_names[kind], surface, c.queries, c.distance, c.gap, c.normal, c.depth,
                    c.turn, c.count_mismatches, c.iterations_cached, c.iterations_cold,
                    c.cache_hits);
        cr_expect_gt(c.queries, STEPS, "%s on the %s: the path met too few triangles",
                     kind_names[kind], surface);
        cr_expect_eq(c.verdicts, 0, "%s on the %s: %d triangles answered differently",
                     kind_names[kind], surface, c.verdicts);
        cr_expect_leq(c.distance, tolerance, "%s on the %s: distance differs by %g",
                      kind_names[kind], surface, c.distance);
        cr_expect_leq(c.gap, tolerance, "%s on the %s: a normal's gap misses by %g",
                      kind_names[kind], surface, c.gap);
        cr_expect_leq(c.depth, tolerance, "%s on the %s: deepest points differ by %g",
                      kind_names[kind], surface, c.depth);
        cr_expect_leq(c.turn, 0.02, "%s on the %s: manifold normals differ by %g", kind_names[kind],
                      surface, c.turn);
        check_use(kind, surface, &c);
    }
}

Test(triangle_cache, spheres_answer_as_uncached)
{
    check_kind(KIND_SPHERE);
}

Test(triangle_cache, boxes_answer_as_uncached)
{
    check_kind(KIND_BOX);
}

Test(triangle_cache, capsules_answer_as_uncached)
{
    check_kind(KIND_CAPSULE);
}

Test(triangle_cache, cylinders_answer_as_uncached)
{
    check_kind(KIND_CYLINDER);
}

Test(triangle_cache, hulls_answer_as_uncached)
{
    check_kind(KIND_HULL);
}

Test(triangle_cache, compound_children_answer_as_uncached)
{
    check_kind(KIND_COMPOUND);
}

/* ---- in a world ---- */

/* The wavy mesh and one body of every kind sliding and spinning over it, never sleeping. */
static cairn_world *sliding_world(bool caching)
{
    cairn_world_def def = cairn_world_default_def();
    def.solver.simplex_caching = caching;
    cairn_world *world = scene_world(&def);
    scene_body(world, make_surface(false), CAIRN_STATIC, surface_frame(), 1000.0f, 0.4f, 0.0f);
    for (int kind = 0; kind < KIND_COUNT; ++kind) {
        cairn_shape *shape = make_shape(kind);
        cairn_transform xf = path_at(shape, 0);
        xf.position = glms_vec3_add(xf.position, v3(1.4f * (float)kind - 2.0f, 0.3f, 0.0f));
        cairn_body_id id =
            scene_body_ex(world, shape, CAIRN_DYNAMIC, xf, 1000.0f, 0.4f, 0.0f, false);
        cairn_body_set_linear_velocity(world, id, v3(1.5f, 0.0f, 1.0f));
        cairn_body_set_angular_velocity(world, id, v3(0.0f, 2.0f, 0.5f));
    }
    return world;
}

typedef struct world_work {
    double iterations; /* the steps' mean GJK iterations per query, summed */
    int cache_hits;
} world_work;

static world_work step_world(cairn_world *world, int steps)
{
    world_work work = {0};
    for (int s = 0; s < steps; ++s) {
        cairn_world_step(world, SCENE_DT);
        cairn_step_stats stats = cairn_world_step_stats(world);
        work.iterations += stats.gjk_iterations;
        work.cache_hits += stats.cache_hits;
    }
    return work;
}

/* The world's statistics see the warm starts: cache hits only with simplex caching on, and
   fewer GJK iterations per query than with it off (the same scene). */
Test(triangle_cache, a_world_counts_its_warm_starts)
{
    cairn_world *on = sliding_world(true), *off = sliding_world(false);
    world_work warm = step_world(on, 120), cold = step_world(off, 120);
    cr_log_info("GJK iterations per query over 120 steps: %.1f cached, %.1f cold; %d cache hits",
                warm.iterations, cold.iterations, warm.cache_hits);
    cr_expect_gt(warm.cache_hits, 120 * 4, "only %d cache hits", warm.cache_hits);
    cr_expect_eq(cold.cache_hits, 0);
    cr_expect_lt(warm.iterations, 0.75 * cold.iterations, "%.1f iterations cached, %.1f cold",
                 warm.iterations, cold.iterations);
    cairn_world_destroy(on);
    cairn_world_destroy(off);
}

/* Entries in use over the world's walked contacts, and whether two worlds hold the same ones
   (contact by contact, key by key, byte for byte). */
static int cached_entries(const cairn_world *world)
{
    int total = 0;
    for (int i = 0; i < world->contacts.count; ++i)
        total += world->contacts.data[i].triangles ? world->contacts.data[i].triangles->count : 0;
    return total;
}

static bool same_caches(const cairn_world *a, const cairn_world *b)
{
    if (a->contacts.count != b->contacts.count)
        return false;
    for (int i = 0; i < a->contacts.count; ++i) {
        const triangle_cache *x = a->contacts.data[i].triangles, *y = b->contacts.data[i].triangles;
        int nx = x ? x->count : 0, ny = y ? y->count : 0;
        if (nx != ny)
            return false;
        for (int e = 0; e < nx; ++e)
            if (x->keys[e] != y->keys[e] ||
                memcmp(&x->entries[e], &y->entries[e], sizeof x->entries[e]) != 0)
                return false;
    }
    return true;
}

/* A snapshot carries the triangle caches: a twin world restored from it holds the same entries,
   and restored and stepped, the world gives the hash of the world that was saved, stepped as
   far (cold caches can end a query on another simplex, a few ulps away). */
Test(triangle_cache, a_snapshot_carries_the_caches)
{
    cairn_world *world = sliding_world(true), *twin = sliding_world(true);
    step_world(world, 60);
    cr_assert_gt(cached_entries(world), 10, "too few cached triangles to test");
    size_t size = cairn_world_snapshot_size(world);
    void *buffer = malloc(size);
    cr_assert(cairn_world_snapshot(world, buffer, size), "%s", cairn_last_error());
    cr_assert(cairn_world_restore(twin, buffer, size), "%s", cairn_last_error());
    cr_expect(same_caches(world, twin), "the restored caches differ");
    step_world(world, 60);
    uint64_t expected = cairn_world_state_hash(world);
    cr_assert(cairn_world_restore(world, buffer, size), "%s", cairn_last_error());
    cr_expect(same_caches(world, twin), "the caches differ after a second restore");
    step_world(world, 60);
    cr_expect_eq(cairn_world_state_hash(world), expected, "the restored world drifted");
    free(buffer);
    cairn_world_destroy(world);
    cairn_world_destroy(twin);
}
