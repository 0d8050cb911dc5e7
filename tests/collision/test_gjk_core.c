/* The GJK core on its own: seed 000's single-precision example, and the sphere/capsule closed
   forms against the general GJK/EPA path on the same shapes. */
#include <criterion/criterion.h>
#include <math.h>

#include "collision/query.h"
#include "collision/gjk.h"
#include "oracle.h"

static simplex_vertex vertex_at(vec3s w)
{
    simplex_vertex v = {.a_local = w, .b_local = {{0, 0, 0}}};
    v.a = dvec3_from(w);
    v.b = dvec3_make(0, 0, 0);
    v.w = v.a;
    return v;
}

/* Seed 000: segment A = (0.021119118, 79.584320), B = (0.020964622, -31.515678), query the
   origin. Building d as Q - P from barycentric coordinates gives dot(d, B - A) = 3.2e-6; the
   edge-perpendicular direction must be exactly perpendicular, even in floats. */
Test(gjk_core, seed_000_search_direction_is_exactly_perpendicular)
{
    vec3s a = {{0.021119118f, 79.584320f, 0.0f}}, b = {{0.020964622f, -31.515678f, 0.0f}};
    simplex s = {.count = 2};
    s.vertices[0] = vertex_at(a);
    s.vertices[1] = vertex_at(b);
    dvec3 closest;
    bool inside;
    dvec3 d = simplex_solve(&s, &closest, &inside);
    cr_assert_eq(s.count, 2, "the closest feature is the edge");
    vec3s df = dvec3_to_float(d);
    vec3s e = glms_vec3_sub(b, a);
    float dot_float = df.x * e.x + df.y * e.y + df.z * e.z;
    cr_expect(dot_float == 0.0f, "dot(d, B - A) = %g in floats", (double)dot_float);
    cr_expect(dvec3_dot(d, dvec3_sub(dvec3_from(b), dvec3_from(a))) == 0.0,
              "dot(d, B - A) = %g in doubles",
              dvec3_dot(d, dvec3_sub(dvec3_from(b), dvec3_from(a))));
    cr_expect(dvec3_dot(d, dvec3_neg(closest)) > 0.0, "d points towards the origin");
    /* Distance from the origin to the line through A and B, computed independently. */
    double ex = (double)b.x - a.x, ey = (double)b.y - a.y;
    double expected = fabs(ex * a.y - ey * a.x) / sqrt(ex * ex + ey * ey);
    double distance = sqrt(dvec3_length_sq(closest));
    cr_expect(fabs(distance - expected) < 1e-9, "distance %.12g, expected %.12g", distance,
              expected);
}

/* The closed forms (sphere-sphere, sphere-capsule, capsule-capsule) and the general GJK/EPA
   path must agree on random poses, separated and overlapping. */
Test(gjk_core, closed_forms_match_the_general_path)
{
    cairn_shape *shapes[3] = {cairn_shape_sphere(0.4f), cairn_shape_capsule(0.5f, 0.3f),
                              cairn_shape_capsule(0.0f, 0.25f)};
    oracle_rng rng;
    oracle_rng_seed(&rng, 2024);
    int checked = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const cairn_shape *a = shapes[trial % 3], *b = shapes[(trial / 3) % 3];
        cairn_transform xa = {{{0, 0, 0}}, oracle_rotation(&rng)};
        vec3s offset =
            glms_vec3_scale(oracle_unit_vector(&rng), (float)oracle_uniform(&rng, 0.05, 2.0));
        cairn_transform xb = {offset, oracle_rotation(&rng)};
        cairn_query_result closed, general;
        cr_assert(cairn_collide(a, xa, b, xb, NULL, &closed));
        if (closed.gjk_iterations != 0)
            continue; /* the closed form declined (touching cores) */
        bool epa_capped;
        cr_assert(query_gjk_epa(a, xa, b, xb, NULL, &general, &epa_capped));
        ++checked;
        cr_expect(closed.overlap == general.overlap, "trial %d: verdicts differ", trial);
        cr_expect(fabsf(closed.distance - general.distance) < 1e-4f,
                  "trial %d: distance %g vs general %g", trial, closed.distance, general.distance);
        cr_expect(glms_vec3_dot(closed.normal, general.normal) > 0.999f, "trial %d: normals differ",
                  trial);
    }
    cr_expect(checked > 2500, "only %d trials used the closed form", checked);
    for (int i = 0; i < 3; ++i)
        cairn_shape_release(shapes[i]);
}

/* Three collinear vertices on a line parallel to y (a stale cached simplex of a capsule against
   a box): round-off left the triangle's region weights positive although its face normal is
   exactly zero, and GJK, given no direction, called cores 103 m apart touching. The triangle
   must reduce to its closest edge or vertex, with the closest point at the line's distance and a
   search direction towards the origin. */
Test(gjk_core, collinear_triangle_reduces_to_a_segment)
{
    /* The differences exactly as the failing query formed them (hexadecimal doubles). */
    const dvec3 points[3] = {{-0x1.439024p+6, 0x1.42f257cp+4, -0x1.f4b658p+5},
                             {-0x1.439024p+6, -0x1.9cd44d1p+6, -0x1.f4b658p+5},
                             {-0x1.439024p+6, -0x1.98f3f2fp+6, -0x1.f4b658p+5}};
    simplex s = {.count = 3};
    for (int i = 0; i < 3; ++i)
        s.vertices[i] = (simplex_vertex){.a = points[i], .w = points[i]};
    dvec3 closest;
    bool inside;
    dvec3 d = simplex_solve(&s, &closest, &inside);
    cr_expect(!inside);
    cr_expect_leq(s.count, 2);
    double line = sqrt(points[0].x * points[0].x + points[0].z * points[0].z);
    cr_expect(fabs(sqrt(dvec3_length_sq(closest)) - line) < 1e-9 * line,
              "closest at %g, line at %g", sqrt(dvec3_length_sq(closest)), line);
    cr_expect(dvec3_dot(d, closest) < 0.0, "the direction must point towards the origin");
}
