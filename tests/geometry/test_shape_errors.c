/* Every bad input to a shape constructor returns NULL with a message naming what was wrong,
   and allocates nothing. */
#include <criterion/criterion.h>
#include <string.h>

#include "shape_oracle.h"

static void expect_rejected(cairn_shape *shape, const char *needle, const char *what)
{
    cr_expect_null(shape, "%s was accepted", what);
    cr_expect(strstr(cairn_last_error(), needle) != NULL, "%s: message '%s' lacks '%s'", what,
              cairn_last_error(), needle);
    cairn_shape_release(shape);
}

#define REJECT(call, needle)                                                                       \
    do {                                                                                           \
        cairn_clear_error();                                                                       \
        size_t before = cairn_allocated_bytes();                                                   \
        cairn_shape *shape = (call);                                                               \
        expect_rejected(shape, needle, #call);                                                     \
        cr_expect_eq(cairn_allocated_bytes(), before, "%s leaked", #call);                         \
    } while (0)

Test(shape_errors, sphere_radius_must_be_a_size)
{
    REJECT(cairn_shape_sphere(0.0f), "radius");
    REJECT(cairn_shape_sphere(-1.0f), "radius");
    REJECT(cairn_shape_sphere(NAN), "not finite");
    REJECT(cairn_shape_sphere(INFINITY), "not finite");
    REJECT(cairn_shape_sphere(1e5f), "outside");
    REJECT(cairn_shape_sphere(1e-5f), "outside");
}

Test(shape_errors, box_extents_and_radius_are_checked)
{
    REJECT(cairn_shape_box((vec3s){{0, 1, 1}}, 0), "half_extents.x");
    REJECT(cairn_shape_box((vec3s){{1, -1, 1}}, 0), "half_extents.y");
    REJECT(cairn_shape_box((vec3s){{1, 1, NAN}}, 0), "half_extents.z");
    REJECT(cairn_shape_box((vec3s){{1, 1, 1}}, -0.1f), "negative");
    REJECT(cairn_shape_box((vec3s){{1, 0.2f, 1}}, 0.3f), "larger than the shape allows");
    REJECT(cairn_shape_box((vec3s){{1, 1, 1}}, NAN), "convex_radius");
}

Test(shape_errors, capsule_and_cylinder_are_checked)
{
    REJECT(cairn_shape_capsule(-0.5f, 1), "half_height");
    REJECT(cairn_shape_capsule(NAN, 1), "half_height");
    REJECT(cairn_shape_capsule(1, 0), "radius");
    REJECT(cairn_shape_cylinder(0, 1, 0), "half_height");
    REJECT(cairn_shape_cylinder(1, INFINITY, 0), "radius");
    REJECT(cairn_shape_cylinder(1, 0.5f, 0.6f), "larger than the shape allows");
    REJECT(cairn_shape_cylinder(1, 0.5f, -0.01f), "negative");
}

Test(shape_errors, hull_input_is_checked)
{
    vec3s tetra[4] = {{{0, 0, 0}}, {{1, 0, 0}}, {{0, 1, 0}}, {{0, 0, 1}}};
    REJECT(cairn_shape_hull(NULL, 4, 0), "NULL");
    REJECT(cairn_shape_hull(tetra, 3, 0), "at least 4");
    REJECT(cairn_shape_hull(tetra, -2, 0), "at least 4");
    REJECT(cairn_shape_hull(tetra, 4, -1), "negative");
    vec3s with_nan[4] = {{{0, 0, 0}}, {{1, 0, 0}}, {{0, NAN, 0}}, {{0, 0, 1}}};
    REJECT(cairn_shape_hull(with_nan, 4, 0), "point 2 is not finite");
    vec3s with_inf[4] = {{{0, 0, 0}}, {{1, 0, 0}}, {{0, 1, 0}}, {{0, 0, -INFINITY}}};
    REJECT(cairn_shape_hull(with_inf, 4, 0), "point 3 is not finite");
    vec3s same[5] = {{{1, 2, 3}}, {{1, 2, 3}}, {{1, 2, 3}}, {{1, 2, 3}}, {{1, 2, 3}}};
    REJECT(cairn_shape_hull(same, 5, 0), "cairn_shape_hull");
    vec3s line[5] = {{{0, 0, 0}}, {{1, 1, 1}}, {{2, 2, 2}}, {{3, 3, 3}}, {{-1, -1, -1}}};
    REJECT(cairn_shape_hull(line, 5, 0), "cairn_shape_hull");
    vec3s plane[6] = {{{0, 0, 0}}, {{1, 0, 0}}, {{0, 1, 0}}, {{1, 1, 0}}, {{2, 3, 0}}, {{5, 1, 0}}};
    REJECT(cairn_shape_hull(plane, 6, 0), "cairn_shape_hull");
    vec3s far[4] = {{{0, 0, 0}}, {{1, 0, 0}}, {{0, 1, 0}}, {{0, 0, 2e4f}}};
    REJECT(cairn_shape_hull(far, 4, 0), "farther than");
}

/* A convex radius a hull cannot hold is clamped, not refused: the rounded hull must still lie
   inside the hull of the points. */
Test(shape_errors, hull_convex_radius_is_clamped_to_what_fits)
{
    vec3s slab[8];
    for (int i = 0; i < 8; ++i)
        slab[i] = (vec3s){{(i & 1) ? 1.0f : -1.0f, (i & 2) ? 0.1f : -0.1f, (i & 4) ? 1.0f : -1.0f}};
    cairn_shape *shape = cairn_shape_hull(slab, 8, 0.5f);
    cr_assert_not_null(shape, "%s", cairn_last_error());
    float r = cairn_shape_convex_radius(shape);
    cr_expect(r > 0.0f && r <= 0.1f + 1e-6f, "clamped radius %g", r);
    cr_expect(cairn_shape_get_params(shape).convex_radius == r);
    cairn_aabb bounds = cairn_shape_local_bounds(shape);
    cr_expect(bounds.max.y <= 0.1f + 1e-5f && bounds.min.y >= -0.1f - 1e-5f);
    cairn_shape_release(shape);
}

/* The getters take a NULL shape (what cairn_body_shape gives for a stale id): an error naming
   the getter and a zero answer, not a crash. */
Test(shape_errors, getters_refuse_a_null_shape)
{
    cairn_aabb box = cairn_shape_bounds(NULL, cairn_transform_identity());
    cr_expect(strstr(cairn_last_error(), "cairn_shape_bounds") != NULL, "%s", cairn_last_error());
    cr_expect(glms_vec3_eqv(box.min, glms_vec3_zero()) && glms_vec3_eqv(box.max, box.min));
    box = cairn_shape_local_bounds(NULL);
    cr_expect(strstr(cairn_last_error(), "cairn_shape_local_bounds") != NULL);
    cr_expect(glms_vec3_eqv(box.max, glms_vec3_zero()));
    cr_expect_eq(cairn_shape_convex_radius(NULL), 0.0f);
    cr_expect(strstr(cairn_last_error(), "cairn_shape_convex_radius") != NULL);
    cr_expect_eq(cairn_shape_volume(NULL), 0.0f);
    cr_expect(strstr(cairn_last_error(), "cairn_shape_volume") != NULL);
    cairn_shape_get_type(NULL);
    cr_expect(strstr(cairn_last_error(), "cairn_shape_get_type") != NULL);
    cairn_shape_get_params(NULL);
    cr_expect(strstr(cairn_last_error(), "cairn_shape_get_params") != NULL);
    cairn_mass_properties mass;
    cr_expect(!cairn_shape_mass_properties(NULL, 1000.0f, &mass));
}
