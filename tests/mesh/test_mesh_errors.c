/* Bad input to the mesh and heightfield constructors and a mesh on a dynamic body: NULL or a null
   id, a message naming what was wrong, nothing leaked. */
#include <criterion/criterion.h>
#include <string.h>

#include "mesh/mesh_helpers.h"

Test(mesh_errors, mesh_arrays_and_counts_are_checked)
{
    REJECT(cairn_shape_mesh(NULL, 4, unit_quad_triangles, 2), "vertices is NULL");
    REJECT(cairn_shape_mesh(unit_quad, 4, NULL, 2), "indices is NULL");
    REJECT(cairn_shape_mesh(unit_quad, 2, unit_quad_triangles, 2), "at least 3 vertices");
    REJECT(cairn_shape_mesh(unit_quad, 4, unit_quad_triangles, 0), "at least 1 triangle");
    REJECT(cairn_shape_mesh(unit_quad, 4, unit_quad_triangles, -3), "at least 1 triangle");
}

Test(mesh_errors, non_finite_and_far_vertices_are_named)
{
    vec3s v[4];
    memcpy(v, unit_quad, sizeof v);
    v[2].y = NAN;
    REJECT(cairn_shape_mesh(v, 4, unit_quad_triangles, 2), "vertex 2 is not finite");
    v[2].y = INFINITY;
    REJECT(cairn_shape_mesh(v, 4, unit_quad_triangles, 2), "vertex 2 is not finite");
    v[2].y = 0.0f;
    v[3].x = 2e6f;
    REJECT(cairn_shape_mesh(v, 4, unit_quad_triangles, 2), "vertex 3 is farther than");
}

Test(mesh_errors, indices_out_of_range_or_negative_are_named)
{
    int bad[6] = {0, 3, 2, 0, 4, 1};
    REJECT(cairn_shape_mesh(unit_quad, 4, bad, 2), "index 4 (triangle 1) = 4 is out of range");
    bad[4] = -1;
    REJECT(cairn_shape_mesh(unit_quad, 4, bad, 2), "index 4 (triangle 1) is negative");
}

Test(mesh_errors, all_degenerate_is_an_error_some_degenerate_are_dropped_and_counted)
{
    vec3s line[3] = {{{0, 0, 0}}, {{1, 0, 0}}, {{2, 0, 0}}};
    int repeated[6] = {0, 0, 1, 1, 2, 2};
    int collinear[3] = {0, 1, 2};
    REJECT(cairn_shape_mesh(line, 3, repeated, 2), "all 2 triangles are degenerate");
    REJECT(cairn_shape_mesh(line, 3, collinear, 1), "all 1 triangles are degenerate");

    size_t before = cairn_allocated_bytes();
    int mixed[12] = {0, 3, 2, 1, 1, 2, 0, 2, 1, 0, 0, 0};
    cairn_shape *mesh = cairn_shape_mesh(unit_quad, 4, mixed, 4);
    cr_assert_not_null(mesh, "%s", cairn_last_error());
    cr_expect_eq(cairn_mesh_dropped_count(mesh), 2);
    cr_expect_eq(cairn_shape_triangle_count(mesh), 4);
    vec3s corners[3];
    cr_expect(cairn_shape_triangle(mesh, 0, corners));
    cr_expect_not(cairn_shape_triangle(mesh, 1, corners), "a dropped triangle has no corners");
    cr_expect(cairn_shape_triangle(mesh, 2, corners));
    cr_expect_not(cairn_shape_triangle(mesh, 3, corners));
    cr_expect_not(cairn_shape_triangle(mesh, 4, corners));
    cairn_shape_release(mesh);
    cr_expect_eq(cairn_allocated_bytes(), before, "the mesh leaked");
}

Test(mesh_errors, heightfield_counts_heights_and_scale_are_checked)
{
    float h[6] = {0, 1, 0, 0, 2, 0};
    vec3s one = {{1, 1, 1}};
    REJECT(cairn_shape_heightfield(h, 1, 6, one), "both must be at least 2");
    REJECT(cairn_shape_heightfield(h, 3, 1, one), "both must be at least 2");
    REJECT(cairn_shape_heightfield(NULL, 3, 2, one), "heights is NULL");
    REJECT(cairn_shape_heightfield(h, 3, 2, (vec3s){{0, 1, 1}}), "scale.x = 0");
    REJECT(cairn_shape_heightfield(h, 3, 2, (vec3s){{1, -1, 1}}), "scale.y = -1");
    REJECT(cairn_shape_heightfield(h, 3, 2, (vec3s){{1, 1, NAN}}), "scale.z");
    REJECT(cairn_shape_heightfield(h, 100000, 100000, one), "samples is above");
    h[4] = NAN;
    REJECT(cairn_shape_heightfield(h, 3, 2, one), "height 4 (x 1, z 1) is not finite");
    h[4] = INFINITY;
    REJECT(cairn_shape_heightfield(h, 3, 2, one), "height 4 (x 1, z 1) is not finite");
}

Test(mesh_errors, a_mesh_or_heightfield_on_a_dynamic_body_is_rejected)
{
    cairn_world_def wd = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&wd);
    cairn_shape *mesh = cairn_shape_mesh(unit_quad, 4, unit_quad_triangles, 2);
    float h[4] = {0, 0, 0, 0};
    cairn_shape *field = cairn_shape_heightfield(h, 2, 2, (vec3s){{1, 1, 1}});
    cr_assert(mesh && field);
    size_t before = cairn_allocated_bytes();
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_DYNAMIC;
    def.shape = mesh;
    cairn_body_id id = cairn_body_create(world, &def);
    cr_expect_not(cairn_body_is_valid(world, id));
    cr_expect(strstr(cairn_last_error(), "use a hull or a compound") != NULL, "%s",
              cairn_last_error());
    cr_expect(strstr(cairn_last_error(), "mesh") != NULL);
    def.shape = field;
    id = cairn_body_create(world, &def);
    cr_expect_not(cairn_body_is_valid(world, id));
    cr_expect(strstr(cairn_last_error(), "heightfield cannot be the shape of a dynamic body"));
    cr_expect_eq(cairn_allocated_bytes(), before, "a rejected body allocated");
    def.type = CAIRN_STATIC;
    cr_expect(cairn_body_is_valid(world, cairn_body_create(world, &def)), "%s", cairn_last_error());
    def.type = CAIRN_KINEMATIC;
    def.shape = mesh;
    cr_expect(cairn_body_is_valid(world, cairn_body_create(world, &def)), "%s", cairn_last_error());
    cairn_world_destroy(world);
    cairn_shape_release(mesh);
    cairn_shape_release(field);
}
