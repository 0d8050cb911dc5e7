/* Queries against meshes and heightfields through the public API: world ray casts (the viewer's
   picking) and cairn_shape_raycast_triangle against brute force over the placed triangles,
   cairn_overlap of spheres against exact point-triangle distances, shape casts against the
   analytic time of impact, and the queries that refuse a mesh. */
#include <criterion/criterion.h>
#include <string.h>

#include "mesh/mesh_helpers.h"

/* ---- oracles, in double ---- */

typedef struct d3 {
    double x, y, z;
} d3;

static d3 d3_of(vec3s v)
{
    return (d3){v.x, v.y, v.z};
}
static d3 sub(d3 a, d3 b)
{
    return (d3){a.x - b.x, a.y - b.y, a.z - b.z};
}
static double dot(d3 a, d3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
static d3 cross(d3 a, d3 b)
{
    return (d3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

/* Ray-triangle: the plane crossing, then inside if on the inner side of all three edges. */
static bool oracle_ray(const d3 c[3], d3 o, d3 d, double *t)
{
    d3 n = cross(sub(c[1], c[0]), sub(c[2], c[0]));
    double nd = dot(n, d);
    if (nd == 0.0)
        return false;
    *t = dot(n, sub(c[0], o)) / nd;
    if (*t < 0.0 || *t > 1.0)
        return false;
    d3 p = {o.x + *t * d.x, o.y + *t * d.y, o.z + *t * d.z};
    for (int e = 0; e < 3; ++e)
        if (dot(cross(sub(c[(e + 1) % 3], c[e]), sub(p, c[e])), n) < 0.0)
            return false;
    return true;
}

static double segment_distance(d3 p, d3 a, d3 b)
{
    d3 ab = sub(b, a);
    double t = dot(sub(p, a), ab) / dot(ab, ab);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    d3 q = {a.x + t * ab.x, a.y + t * ab.y, a.z + t * ab.z};
    d3 g = sub(p, q);
    return sqrt(dot(g, g));
}

/* Point-triangle distance: the plane distance when the projection falls inside, else the
   nearest of the three sides. */
static double oracle_point_triangle(d3 p, const d3 c[3])
{
    d3 n = cross(sub(c[1], c[0]), sub(c[2], c[0]));
    double len = sqrt(dot(n, n));
    n = (d3){n.x / len, n.y / len, n.z / len};
    double h = dot(sub(p, c[0]), n);
    d3 q = {p.x - h * n.x, p.y - h * n.y, p.z - h * n.z};
    bool inside = true;
    for (int e = 0; e < 3; ++e)
        inside = inside && dot(cross(sub(c[(e + 1) % 3], c[e]), sub(q, c[e])), n) >= 0.0;
    if (inside)
        return fabs(h);
    return fmin(segment_distance(p, c[0], c[1]),
                fmin(segment_distance(p, c[1], c[2]), segment_distance(p, c[2], c[0])));
}

/* The placed triangle i of a shape, world frame. */
static bool world_triangle(const cairn_shape *shape, cairn_transform xf, int i, d3 out[3])
{
    vec3s c[3];
    if (!cairn_shape_triangle(shape, i, c))
        return false;
    for (int k = 0; k < 3; ++k)
        out[k] = d3_of(glms_vec3_add(glms_quat_rotatev(xf.rotation, c[k]), xf.position));
    return true;
}

static cairn_shape *bumpy_heightfield(int n)
{
    float *h = malloc((size_t)(n * n) * sizeof *h);
    for (int z = 0; z < n; ++z)
        for (int x = 0; x < n; ++x)
            h[z * n + x] = 0.6f * sinf(0.7f * (float)x) * cosf(0.5f * (float)z);
    cairn_shape *shape = cairn_shape_heightfield(h, n, n, (vec3s){{0.5f, 1.0f, 0.5f}});
    free(h);
    return shape;
}

/* World ray casts hit the placed mesh (or heightfield) where brute force says, and
   cairn_shape_raycast_triangle names the same triangle. */
static void check_world_rays(cairn_shape *shape, cairn_transform xf, uint64_t seed)
{
    cairn_world_def wd = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&wd);
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_STATIC;
    def.shape = shape;
    def.transform = xf;
    cairn_body_id body = cairn_body_create(world, &def);
    cr_assert(cairn_body_is_valid(world, body), "%s", cairn_last_error());
    test_rng r = {seed};
    int hits = 0, wrong = 0;
    for (int i = 0; i < 300; ++i) {
        cairn_aabb box = cairn_shape_bounds(shape, xf);
        vec3s centre = glms_vec3_scale(glms_vec3_add(box.min, box.max), 0.5f);
        d3 o = {rng_range(&r, -4, 4) + centre.x, rng_range(&r, 1, 4) + box.max.y,
                rng_range(&r, -4, 4) + centre.z};
        d3 d = {rng_range(&r, -4, 4), rng_range(&r, -8, -2), rng_range(&r, -4, 4)};
        double best = INFINITY;
        int best_triangle = -1;
        for (int t = 0; t < cairn_shape_triangle_count(shape); ++t) {
            d3 c[3];
            double s;
            if (world_triangle(shape, xf, t, c) && oracle_ray(c, o, d, &s) && s < best)
                best = s, best_triangle = t;
        }
        vec3s origin = {{(float)o.x, (float)o.y, (float)o.z}};
        vec3s translation = {{(float)d.x, (float)d.y, (float)d.z}};
        cairn_ray_hit hit;
        bool found = cairn_world_raycast(world, origin, translation, &hit);
        cairn_triangle_hit th;
        bool found_triangle = cairn_shape_raycast_triangle(shape, xf, origin, translation, &th);
        hits += found;
        if (found != (best_triangle >= 0) || found_triangle != found) {
            wrong++;
            continue;
        }
        if (!found)
            continue;
        d3 c[3];
        world_triangle(shape, xf, th.triangle, c);
        d3 n = cross(sub(c[1], c[0]), sub(c[2], c[0]));
        double cosine = dot(n, d3_of(hit.normal)) / sqrt(dot(n, n));
        wrong += fabs(hit.fraction - best) > 1e-4 || fabs(th.fraction - best) > 1e-4 ||
                 fabs(fabs(cosine) - 1.0) > 1e-4 || dot(d3_of(hit.normal), d) > 0.0 ||
                 hit.body.index != body.index;
        /* a different triangle only on a tie (a shared edge) */
        double s;
        wrong +=
            th.triangle != best_triangle && !(oracle_ray(c, o, d, &s) && fabs(s - best) < 1e-5);
    }
    cr_expect_eq(wrong, 0, "%d of 300 rays disagree", wrong);
    cr_expect_gt(hits, 100, "only %d hits", hits);
    cairn_world_destroy(world);
}

Test(mesh_queries, world_rays_hit_a_rotated_mesh_where_brute_force_does)
{
    cairn_shape *floor = floor_mesh(12, 0.5f, 0.2f);
    cairn_transform xf = {{{3, -1, 2}}, glms_quatv(0.4f, (vec3s){{0, 1, 0}})};
    check_world_rays(floor, xf, 11);
    cairn_shape_release(floor);
}

Test(mesh_queries, world_rays_hit_a_placed_heightfield_where_brute_force_does)
{
    cairn_shape *field = bumpy_heightfield(20);
    cairn_transform xf = {{{-5, 0.5f, -4}}, glms_quatv(0.3f, (vec3s){{0, 1, 0}})};
    check_world_rays(field, xf, 12);
    cairn_shape_release(field);
}

/* cairn_overlap of a sphere and a mesh or heightfield: true exactly when some triangle is within
   the radius. */
static void check_sphere_overlaps(cairn_shape *surface, cairn_transform xf, uint64_t seed)
{
    test_rng r = {seed};
    int wrong = 0, overlaps = 0, checked = 0;
    cairn_aabb box = cairn_shape_bounds(surface, xf);
    vec3s centre_of = glms_vec3_scale(glms_vec3_add(box.min, box.max), 0.5f);
    for (int i = 0; i < 400; ++i) {
        float radius = rng_range(&r, 0.05f, 0.8f);
        vec3s centre = {{centre_of.x + rng_range(&r, -3, 3),
                         rng_range(&r, box.min.y - 0.5f, box.max.y + 0.5f),
                         centre_of.z + rng_range(&r, -3, 3)}};
        double nearest = INFINITY;
        for (int t = 0; t < cairn_shape_triangle_count(surface); ++t) {
            d3 c[3];
            if (world_triangle(surface, xf, t, c))
                nearest = fmin(nearest, oracle_point_triangle(d3_of(centre), c));
        }
        if (fabs(nearest - radius) < 1e-4)
            continue; /* too close to call in float */
        cairn_shape *ball = cairn_shape_sphere(radius);
        bool got = cairn_overlap(ball, (cairn_transform){centre, {{0, 0, 0, 1}}}, surface, xf);
        cairn_shape_release(ball);
        wrong += got != (nearest < radius);
        overlaps += got;
        checked++;
    }
    cr_expect_eq(wrong, 0, "%d of %d overlaps disagree", wrong, checked);
    cr_expect_gt(overlaps, 50);
    cr_expect_gt(checked - overlaps, 50);
}

Test(mesh_queries, sphere_overlaps_match_point_triangle_distances)
{
    cairn_shape *field = bumpy_heightfield(10);
    check_sphere_overlaps(
        field,
        (cairn_transform){{{-2, 0, -2}}, glms_quatv(0.5f, glms_vec3_normalize((vec3s){{1, 0, 1}}))},
        13);
    cairn_shape_release(field);
    cairn_shape *floor = floor_mesh(10, 0.5f, 0.4f);
    check_sphere_overlaps(
        floor, (cairn_transform){{{1, 2, -1}}, glms_quatv(0.7f, (vec3s){{0, 1, 0}})}, 14);
    cairn_shape_release(floor);
}

Test(mesh_queries, shapes_cast_down_onto_a_mesh_stop_at_the_surface)
{
    cairn_shape *floor = floor_mesh(8, 0.5f, 0.0f);
    cairn_transform id = {{{0, 0, 0}}, {{0, 0, 0, 1}}};
    cairn_shape *ball = cairn_shape_sphere(0.3f);
    cairn_shape *box = cairn_shape_box((vec3s){{0.4f, 0.2f, 0.3f}}, 0.02f);
    for (int i = 0; i < 5; ++i) {
        float height = 1.0f + 0.37f * (float)i;
        cairn_transform at = {{{0.13f * (float)i, height, -0.21f * (float)i}}, {{0, 0, 0, 1}}};
        cairn_cast_hit hit;
        cr_assert(cairn_shape_cast(floor, id, ball, at, (vec3s){{0, -4, 0}}, &hit), "%s",
                  cairn_last_error());
        cr_expect_float_eq(hit.fraction, (height - 0.3f) / 4.0f, 1e-4f);
        cr_expect_float_eq(hit.normal.y, 1.0f, 1e-3f);
        cr_assert(cairn_shape_cast(floor, id, box, at, (vec3s){{0, -4, 0}}, &hit), "%s",
                  cairn_last_error());
        cr_expect_float_eq(hit.fraction, (height - 0.2f) / 4.0f, 1e-4f);
    }
    /* the same through the world: the mesh as a static body */
    cairn_world_def wd = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&wd);
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_STATIC;
    def.shape = floor;
    cairn_body_id body = cairn_body_create(world, &def);
    cairn_shape_cast_hit world_hit;
    cairn_transform above = {{{0.3f, 2.0f, -0.4f}}, {{0, 0, 0, 1}}};
    cr_assert(cairn_world_shape_cast(world, ball, above, (vec3s){{0, -4, 0}}, CAIRN_QUERY_ALL,
                                     &world_hit),
              "%s", cairn_last_error());
    cr_expect_eq(world_hit.body.index, body.index);
    cr_expect_float_eq(world_hit.fraction, (2.0f - 0.3f) / 4.0f, 1e-4f);
    cr_expect_float_eq(world_hit.normal.y, 1.0f, 1e-3f);
    cairn_body_id found[2];
    above.position.y = 0.25f; /* the ball dips 5 cm into the floor */
    cr_expect_eq(cairn_world_overlap_shape(world, ball, above, CAIRN_QUERY_ALL, found, 2), 1);
    above.position.y = 0.35f;
    cr_expect_eq(cairn_world_overlap_shape(world, ball, above, CAIRN_QUERY_ALL, found, 2), 0);
    cairn_world_destroy(world);

    cairn_transform beside = {{{5, 1, 0}}, {{0, 0, 0, 1}}};
    cairn_cast_hit hit;
    cr_expect_not(cairn_shape_cast(floor, id, ball, beside, (vec3s){{0, -4, 0}}, &hit),
                  "missed the floor, no hit");
    cairn_shape_release(ball);
    cairn_shape_release(box);
    cairn_shape_release(floor);
}

Test(mesh_queries, shape_raycast_triangle_checks_its_input)
{
    cairn_shape *mesh = cairn_shape_mesh(unit_quad, 4, unit_quad_triangles, 2);
    cairn_shape *ball = cairn_shape_sphere(0.5f);
    cairn_transform id = {{{0, 0, 0}}, {{0, 0, 0, 1}}};
    cairn_triangle_hit hit;
    vec3s o = {{0.5f, 1, 0.5f}}, d = {{0, -2, 0}};
    cr_expect_not(cairn_shape_raycast_triangle(ball, id, o, d, &hit));
    cr_expect(strstr(cairn_last_error(), "not a mesh or heightfield"));
    cr_expect_not(cairn_shape_raycast_triangle(mesh, id, (vec3s){{NAN, 0, 0}}, d, &hit));
    cr_expect(strstr(cairn_last_error(), "not finite"));
    cr_expect_not(cairn_shape_raycast_triangle(mesh, (cairn_transform){{{0, 0, 0}}, {{0, 0, 0, 2}}},
                                               o, d, &hit));
    cr_expect(strstr(cairn_last_error(), "rotation"));
    cr_expect_not(cairn_shape_raycast_triangle(NULL, id, o, d, &hit));
    cr_assert(cairn_shape_raycast_triangle(mesh, id, o, d, &hit));
    cr_expect_float_eq(hit.fraction, 0.5f, 1e-6f);
    cr_expect_float_eq(hit.point.y, 0.0f, 1e-6f);
    cairn_shape_release(mesh);
    cairn_shape_release(ball);
}

Test(mesh_queries, convex_pair_queries_and_compounds_refuse_meshes)
{
    cairn_shape *mesh = cairn_shape_mesh(unit_quad, 4, unit_quad_triangles, 2);
    cairn_shape *ball = cairn_shape_sphere(0.5f);
    cairn_transform id = {{{0, 0, 0}}, {{0, 0, 0, 1}}};
    cairn_query_result q;
    cr_expect_not(cairn_collide(mesh, id, ball, id, NULL, &q));
    cr_expect(strstr(cairn_last_error(), "shape a is a mesh or heightfield"), "%s",
              cairn_last_error());
    cr_expect_not(cairn_collide_sat(ball, id, mesh, id, &q));
    const cairn_shape *children[1] = {mesh};
    REJECT(cairn_shape_compound(children, &id, 1), "child 0 is a mesh or heightfield");
    cairn_cast_hit hit;
    cr_expect_not(cairn_shape_cast(ball, id, mesh, id, (vec3s){{0, 1, 0}}, &hit));
    cr_expect(strstr(cairn_last_error(), "shape b is a mesh or heightfield"), "%s",
              cairn_last_error());
    cairn_mass_properties mass;
    cr_expect(cairn_shape_mass_properties(mesh, 1000.0f, &mass));
    cr_expect_eq(mass.mass, 0.0f);
    cairn_shape_release(mesh);
    cairn_shape_release(ball);
}
