/* Heightfield holes (CAIRN_HEIGHTFIELD_HOLE): a sample marked as a hole removes the cells around
   it. Checked against independent answers: free fall through the hole and rest on the analytic
   surface beside it, rays against the plane the solid cells lie in, overlaps and casts against
   the sphere-plane distance, active edges against the adjacency of the remaining triangles, and
   the bad grids refused with their messages. */
#include <criterion/criterion.h>
#include <float.h>
#include <stdio.h>

#include "geometry/triangles.h"
#include "mesh/mesh_helpers.h"

static const float dt = 1.0f / 60.0f;
static const cairn_transform identity = {{{0, 0, 0}}, {{0, 0, 0, 1}}};

/* N x N samples of 1 m cells, all at height 0, with the samples listed in holes (x, z pairs)
   marked as holes. */
enum { N = 11 };
static cairn_shape *flat_field(const int (*holes)[2], int hole_count)
{
    float h[N * N] = {0};
    for (int i = 0; i < hole_count; ++i)
        h[holes[i][1] * N + holes[i][0]] = CAIRN_HEIGHTFIELD_HOLE;
    cairn_shape *field = cairn_shape_heightfield(h, N, N, (vec3s){{1, 1, 1}});
    cr_assert_not_null(field, "%s", cairn_last_error());
    return field;
}

static cairn_world *world_with_ground(cairn_shape *ground, cairn_transform xf)
{
    cairn_world_def world_def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&world_def);
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_STATIC;
    def.shape = ground;
    def.transform = xf;
    cairn_body_create(world, &def);
    return world;
}

static cairn_body_id drop(cairn_world *world, cairn_shape *shape, vec3s at)
{
    cairn_body_def def = cairn_body_default_def();
    def.shape = shape;
    def.transform.position = at;
    return cairn_body_create(world, &def);
}

/* Hole at sample (5, 5): cells x, z in {4, 5} have no triangles, an open square over
   [4, 6] x [4, 6]. A ball over its middle touches nothing and falls freely; one over solid
   ground rests on it at y = radius. */
Test(heightfield_holes, a_ball_falls_through_the_hole_and_rests_beside_it)
{
    static const int holes[1][2] = {{5, 5}};
    cairn_shape *field = flat_field(holes, 1);
    cairn_world *world = world_with_ground(field, identity);
    const float radius = 0.4f, y0 = 2.0f;
    cairn_shape *ball = cairn_shape_sphere(radius);
    cairn_body_id over = drop(world, ball, (vec3s){{5, y0, 5}});
    cairn_body_id beside = drop(world, ball, (vec3s){{2, y0, 2}});
    const int steps = 60;
    for (int i = 0; i < steps; ++i)
        cairn_world_step(world, dt);
    double t = steps * (double)dt, g = 9.81;
    double free_fall = y0 - 0.5 * g * t * t;
    float y_over = cairn_body_transform(world, over).position.y;
    float y_beside = cairn_body_transform(world, beside).position.y;
    printf("hole: ball over the hole at y %.4f (free fall %.4f), beside at %.4f (radius %.2f)\n",
           (double)y_over, free_fall, (double)y_beside, (double)radius);
    /* the integrator's free fall lags the exact one by at most g dt t / 2 */
    cr_expect(fabs(y_over - free_fall) < 0.5 * g * dt * t + 1e-3, "over the hole: y %.4f, %.4f",
              (double)y_over, free_fall);
    cr_expect(fabsf(y_beside - radius) < 0.01f, "beside: y %.4f", (double)y_beside);
    cairn_world_destroy(world);
    cairn_shape_release(ball);
    cairn_shape_release(field);
}

/* A tilted plane h = 0.2 x + 0.1 z (sample units), scale (0.5, 2, 0.75), placed at (1, 0, -1),
   with a hole at sample (3, 2): the four cells around it are open. */
enum { TX = 8, TZ = 6 };
static const vec3s tilt_scale = {{0.5f, 2.0f, 0.75f}};
static const cairn_transform tilt_xf = {{{1, 0, -1}}, {{0, 0, 0, 1}}};

static float tilt_height(float x, float z) /* world height over world (x, z) */
{
    float sx = (x - tilt_xf.position.x) / tilt_scale.x,
          sz = (z - tilt_xf.position.z) / tilt_scale.z;
    return (0.2f * sx + 0.1f * sz) * tilt_scale.y;
}

static cairn_shape *tilted_field(void)
{
    float h[TX * TZ];
    for (int z = 0; z < TZ; ++z)
        for (int x = 0; x < TX; ++x)
            h[z * TX + x] = 0.2f * (float)x + 0.1f * (float)z;
    h[2 * TX + 3] = CAIRN_HEIGHTFIELD_HOLE;
    cairn_shape *field = cairn_shape_heightfield(h, TX, TZ, tilt_scale);
    cr_assert_not_null(field, "%s", cairn_last_error());
    return field;
}

static bool cell_is_open(int x, int z) /* touches sample (3, 2) */
{
    return (x == 2 || x == 3) && (z == 1 || z == 2);
}

/* A ray down through the middle of every cell: the open ones miss, the others hit the plane at
   its analytic height, on a triangle of that cell. */
Test(heightfield_holes, rays_miss_open_cells_and_hit_the_plane_beside)
{
    cairn_shape *field = tilted_field();
    cairn_world *world = world_with_ground(field, tilt_xf);
    float worst = 0.0f;
    int misses = 0;
    for (int z = 0; z < TZ - 1; ++z)
        for (int x = 0; x < TX - 1; ++x) {
            float px = tilt_xf.position.x + ((float)x + 0.3f) * tilt_scale.x;
            float pz = tilt_xf.position.z + ((float)z + 0.6f) * tilt_scale.z;
            vec3s origin = {{px, 20, pz}}, down = {{0, -40, 0}};
            cairn_triangle_hit hit;
            bool got = cairn_shape_raycast_triangle(field, tilt_xf, origin, down, &hit);
            cairn_ray_hit world_hit;
            bool world_got = cairn_world_raycast(world, origin, down, &world_hit);
            cr_expect_eq(world_got, got, "cell (%d, %d): world ray and triangle ray disagree", x,
                         z);
            if (cell_is_open(x, z)) {
                cr_expect_not(got, "cell (%d, %d) is open, hit triangle %d", x, z, hit.triangle);
                misses += !got;
                continue;
            }
            cr_assert(got, "cell (%d, %d): no hit", x, z);
            cr_expect_eq(hit.triangle / 2, z * (TX - 1) + x, "cell (%d, %d): triangle %d", x, z,
                         hit.triangle);
            float error = fabsf(hit.point.y - tilt_height(px, pz));
            worst = fmaxf(worst, error);
            cr_expect(error < 1e-4f, "cell (%d, %d): y %.5f, plane %.5f", x, z, (double)hit.point.y,
                      (double)tilt_height(px, pz));
        }
    printf("hole: 4 open cells, %d rays missed; worst height error beside %.2g m\n", misses,
           (double)worst);
    cr_expect_eq(misses, 4);
    cairn_world_destroy(world);
    cairn_shape_release(field);
}

/* The triangle accessors and the bounds: the open cells' triangles do not exist, and a hole does
   not stretch the bounds (it is FLT_MAX high). */
Test(heightfield_holes, open_triangles_are_gone_and_bounds_ignore_holes)
{
    cairn_shape *field = tilted_field();
    int count = cairn_shape_triangle_count(field), present = 0;
    cr_expect_eq(count, 2 * (TX - 1) * (TZ - 1));
    for (int t = 0; t < count; ++t) {
        vec3s c[3];
        int cell = t / 2;
        bool exists = cairn_shape_triangle(field, t, c);
        cr_expect_eq(exists, !cell_is_open(cell % (TX - 1), cell / (TX - 1)), "triangle %d", t);
        present += exists;
    }
    cr_expect_eq(present, count - 8);
    cairn_aabb box = cairn_shape_local_bounds(field);
    float top = (0.2f * (TX - 1) + 0.1f * (TZ - 1)) * tilt_scale.y; /* the highest sample */
    cr_expect(fabsf(box.max.y - top) < 1e-5f && fabsf(box.min.y) < 1e-6f, "y bounds [%g, %g]",
              (double)box.min.y, (double)box.max.y);
    cairn_shape_release(field);
}

/* Overlap and shape casts: a ball inside the hole overlaps nothing and a ball cast down through
   it misses; beside the hole the cast stops where the ball meets the plane (analytic). */
Test(heightfield_holes, overlaps_and_casts_pass_through_the_hole)
{
    static const int holes[1][2] = {{5, 5}};
    cairn_shape *field = flat_field(holes, 1);
    cairn_world *world = world_with_ground(field, identity);
    const float radius = 0.4f;
    cairn_shape *ball = cairn_shape_sphere(radius);
    cairn_transform in_hole = {{{5, 0, 5}}, {{0, 0, 0, 1}}};
    cairn_transform on_ground = {{{2, 0.2f, 2}}, {{0, 0, 0, 1}}};
    cr_expect_not(cairn_overlap(ball, in_hole, field, identity), "a ball in the hole overlaps");
    cr_expect(cairn_overlap(ball, on_ground, field, identity), "a ball in the ground does not");
    cairn_body_id found[2];
    cr_expect_eq(cairn_world_overlap_shape(world, ball, in_hole, CAIRN_QUERY_ALL, found, 2), 0);
    cr_expect_eq(cairn_world_overlap_shape(world, ball, on_ground, CAIRN_QUERY_ALL, found, 2), 1);

    vec3s down = {{0, -4, 0}};
    cairn_transform above_hole = {{{5, 2, 5}}, {{0, 0, 0, 1}}};
    cairn_transform above_ground = {{{2, 2, 2}}, {{0, 0, 0, 1}}};
    cairn_cast_hit hit;
    cr_expect_not(cairn_shape_cast(field, identity, ball, above_hole, down, &hit),
                  "cast through the hole hit at %g", (double)hit.fraction);
    cr_assert(cairn_shape_cast(field, identity, ball, above_ground, down, &hit), "%s",
              cairn_last_error());
    float expected = (2.0f - radius) / 4.0f; /* the ball's bottom reaches y = 0 */
    printf("hole: cast beside the hole stops at %.5f (plane %.5f)\n", (double)hit.fraction,
           (double)expected);
    cr_expect(fabsf(hit.fraction - expected) < 1e-3f, "fraction %g, expected %g",
              (double)hit.fraction, (double)expected);
    cairn_shape_cast_hit world_hit;
    cr_expect_not(
        cairn_world_shape_cast(world, ball, above_hole, down, CAIRN_QUERY_ALL, &world_hit),
        "world cast through the hole hit");
    cr_expect(cairn_world_shape_cast(world, ball, above_ground, down, CAIRN_QUERY_ALL, &world_hit));
    cairn_world_destroy(world);
    cairn_shape_release(ball);
    cairn_shape_release(field);
}

/* A trench: every sample at x = 6 is a hole, so cells x = 5 and 6 are open over 5 < x < 7.
   A box overhanging the trench's edge at x = 5 with its centre of mass over the solid side
   stays up, flat and still (no contact from the missing triangles pulls it in or tilts it); one
   whose centre of mass is over the trench tips into it. */
Test(heightfield_holes, a_box_across_the_edge_stays_up_on_the_solid_side)
{
    int holes[N][2];
    for (int z = 0; z < N; ++z)
        holes[z][0] = 6, holes[z][1] = z;
    cairn_shape *field = flat_field((const int(*)[2])holes, N);
    cairn_world *world = world_with_ground(field, identity);
    const float half = 0.25f;
    cairn_shape *box = cairn_shape_box((vec3s){{0.5f, half, 0.5f}}, 0.02f);
    vec3s start = {{4.7f, half + 0.01f, 3}}; /* spans x 4.2 to 5.2: 0.2 m over the trench */
    cairn_body_id stays = drop(world, box, start);
    cairn_body_id tips = drop(world, box, (vec3s){{5.3f, half + 0.01f, 7}}); /* 4.8 to 5.8 */
    float worst_tilt = 0.0f, worst_vy = 0.0f;
    for (int i = 0; i < 180; ++i) {
        cairn_world_step(world, dt);
        if (i < 30)
            continue; /* landing from 1 cm */
        versors q = cairn_body_transform(world, stays).rotation;
        worst_tilt = fmaxf(worst_tilt, 2.0f * asinf(fminf(1.0f, sqrtf(q.x * q.x + q.z * q.z))));
        worst_vy = fmaxf(worst_vy, fabsf(cairn_body_linear_velocity(world, stays).y));
    }
    cairn_transform xf = cairn_body_transform(world, stays);
    printf("hole: box over the edge at (%.4f, %.4f), tilt %.2g rad, |vy| %.2g m/s; "
           "the other at y %.3f\n",
           (double)xf.position.x, (double)xf.position.y, (double)worst_tilt, (double)worst_vy,
           (double)cairn_body_transform(world, tips).position.y);
    cr_expect(fabsf(xf.position.y - half) < 0.005f, "y %.4f, expected %.2f", (double)xf.position.y,
              (double)half);
    cr_expect(fabsf(xf.position.x - start.x) < 0.005f, "slid from x %.2f to %.4f", (double)start.x,
              (double)xf.position.x);
    cr_expect_lt(worst_tilt, 0.01f);
    cr_expect_lt(worst_vy, 0.02f);
    cairn_contact_data contacts[4];
    int n = cairn_body_contacts(world, stays, contacts, 4);
    cr_expect_gt(n, 0);
    for (int i = 0; i < n && i < 4; ++i)
        cr_expect(fabsf(fabsf(contacts[i].normal.y) - 1.0f) < 1e-3f,
                  "contact %d normal (%g, %g, %g): a ghost from the open cells", i,
                  (double)contacts[i].normal.x, (double)contacts[i].normal.y,
                  (double)contacts[i].normal.z);
    cr_expect_lt(cairn_body_transform(world, tips).position.y, -half,
                 "the box over the trench did not fall in");
    cairn_world_destroy(world);
    cairn_shape_release(box);
    cairn_shape_release(field);
}

/* On a flat grid every edge shared by two remaining triangles is inactive and every other one
   (the grid's border, the rim of the hole) is active: the adjacency found by brute force over
   the remaining triangles' corners. */
Test(heightfield_holes, edges_around_a_hole_are_borders)
{
    static const int holes[2][2] = {{3, 3}, {7, 2}};
    cairn_shape *field = flat_field(holes, 2);
    int count = cairn_shape_triangle_count(field), rim = 0;
    for (int t = 0; t < count; ++t) {
        vec3s c[3];
        if (!cairn_shape_triangle(field, t, c))
            continue;
        for (int e = 0; e < 3; ++e) {
            vec3s a = c[e], b = c[(e + 1) % 3];
            bool shared = false;
            for (int u = 0; u < count && !shared; ++u) {
                vec3s d[3];
                if (u == t || !cairn_shape_triangle(field, u, d))
                    continue;
                for (int f = 0; f < 3; ++f)
                    shared |= glms_vec3_eqv(d[f], b) && glms_vec3_eqv(d[(f + 1) % 3], a);
            }
            bool border = (a.x == b.x && (a.x == 0 || a.x == N - 1)) ||
                          (a.z == b.z && (a.z == 0 || a.z == N - 1));
            rim += !shared && !border;
            cr_expect_eq(triangles_edge_active(field, t, e), !shared,
                         "triangle %d edge %d (%g,%g)-(%g,%g)", t, e, (double)a.x, (double)a.z,
                         (double)b.x, (double)b.z);
        }
    }
    cr_expect_eq(rim, 2 * 8, "each hole's rim is 8 edges of 1 m, got %d", rim);
    cairn_shape_release(field);
}

/* Bad grids: no cell left, and the other non-finite values still refused. */
Test(heightfield_holes, grids_without_a_solid_cell_are_refused)
{
    float all[9], ring[9] = {0}, corner[9] = {0};
    for (int i = 0; i < 9; ++i)
        all[i] = CAIRN_HEIGHTFIELD_HOLE;
    REJECT(cairn_shape_heightfield(all, 3, 3, (vec3s){{1, 1, 1}}),
           "every cell touches a hole (9 of 9 samples are holes)");
    ring[4] = CAIRN_HEIGHTFIELD_HOLE; /* the centre: a corner of all four cells */
    REJECT(cairn_shape_heightfield(ring, 3, 3, (vec3s){{1, 1, 1}}),
           "every cell touches a hole (1 of 9 samples are holes)");
    corner[0] = CAIRN_HEIGHTFIELD_HOLE; /* one cell of four */
    cairn_shape *field = cairn_shape_heightfield(corner, 3, 3, (vec3s){{1, 1, 1}});
    cr_expect_not_null(field, "%s", cairn_last_error());
    cairn_shape_release(field);
    corner[0] = NAN;
    REJECT(cairn_shape_heightfield(corner, 3, 3, (vec3s){{1, 1, 1}}), "is not finite");
    corner[0] = INFINITY;
    REJECT(cairn_shape_heightfield(corner, 3, 3, (vec3s){{1, 1, 1}}), "is not finite");
    corner[0] = -FLT_MAX; /* not the hole value: a height far out of range */
    REJECT(cairn_shape_heightfield(corner, 3, 3, (vec3s){{1, 1, 1}}), "farther than");
}
