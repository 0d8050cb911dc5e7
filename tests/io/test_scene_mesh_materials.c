/* Scene files with per-triangle mesh materials: `materials: [{friction, restitution}, ...]` and
   `material_indices: [...]` load onto the mesh (queries and ray hits see them), and every bad
   value is an error at its own file:line:column. */
#define _POSIX_C_SOURCE 200809L
#include <cairn/io.h>

#include "io/scene_text.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Lines 1 to 6; the tests add materials (line 7) and material_indices (line 8). */
#define HEAD                                                                                       \
    "bodies:\n"                                                                                    \
    "  - type: static\n"                                                                           \
    "    shape:\n"                                                                                 \
    "      mesh:\n"                                                                                \
    "        vertices: [[-5, 0, -5], [5, 0, -5], [5, 0, 5], [-5, 0, 5]]\n"                         \
    "        indices: [[0, 2, 1], [0, 3, 2]]\n"

Test(scene_mesh_materials, materials_load_onto_the_mesh)
{
    const char *text = HEAD "        materials: [{friction: 0.05, restitution: 0},\n"
                            "                    {friction: 0.9, restitution: 0.3, "
                            "rolling_resistance: 0.04}]\n"
                            "        material_indices: [1, 0]\n";
    char path[128];
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert(load_text(text, &world, &err, path, sizeof path), "%s:%d:%d: %s", err.file, err.line,
              err.column, err.message);
    cairn_body_id ground;
    cr_assert_eq(cairn_world_bodies(world, &ground, 1), 1);
    const cairn_shape *mesh = cairn_body_shape(world, ground);
    cr_expect_eq(cairn_shape_triangle_material(mesh, 0), 1);
    cr_expect_eq(cairn_shape_triangle_material(mesh, 1), 0);
    cairn_surface_material m;
    cr_assert(cairn_shape_mesh_material(mesh, 1, &m));
    cr_expect_float_eq(m.friction, 0.9f, 1e-6f);
    cr_expect_float_eq(m.restitution, 0.3f, 1e-6f);
    cr_expect_float_eq(m.rolling_resistance, 0.04f, 1e-6f);
    cr_assert(cairn_shape_mesh_material(mesh, 0, &m));
    cr_expect_float_eq(m.friction, 0.05f, 1e-6f);
    cr_expect_eq(m.rolling_resistance, 0.0f, "a key left out takes the body default");
    /* triangle 0 (0, 2, 1) covers x > z, triangle 1 x < z */
    cairn_ray_hit hit;
    cr_assert(cairn_world_raycast(world, (vec3s){{2, 1, -2}}, (vec3s){{0, -2, 0}}, &hit));
    cr_expect_eq(hit.material, 1);
    cr_assert(cairn_world_raycast(world, (vec3s){{-2, 1, 2}}, (vec3s){{0, -2, 0}}, &hit));
    cr_expect_eq(hit.material, 0);
    cairn_world_destroy(world);
}

Test(scene_mesh_materials, bad_material_values_are_reported_where_they_are)
{
    expect_error(HEAD "        materials: [{friction: 0.05, restitution: 0}]\n"
                      "        material_indices: [0, 2]\n",
                 8, 31, "bodies[0].shape.mesh.material_indices[1] = 2 is out of range");
    expect_error(HEAD "        materials: [{friction: 0.05, restitution: 0}]\n"
                      "        material_indices: [0, -1]\n",
                 8, 31, "material_indices[1] = -1 is out of range");
    expect_error(HEAD "        materials: [{friction: 0.05, restitution: 0}, {friction: -1}]\n"
                      "        material_indices: [0, 1]\n",
                 7, 66, "bodies[0].shape.mesh.materials[1].friction");
    expect_error(HEAD "        materials: [{friction: 0.05, restitution: 1.5}]\n"
                      "        material_indices: [0, 0]\n",
                 7, 51, "materials[0].restitution");
    expect_error(HEAD "        materials: [{friction: 0.05, rolling_resistance: 1.5}]\n"
                      "        material_indices: [0, 0]\n",
                 7, 58, "materials[0].rolling_resistance");
    expect_error(HEAD "        materials: [{friction: .inf}]\n"
                      "        material_indices: [0, 0]\n",
                 7, 32, "materials[0].friction = .inf is not a finite number");
    expect_error(HEAD "        materials: [{friction: 0.05, bounce: 1}]\n"
                      "        material_indices: [0, 0]\n",
                 7, 38, "unknown key 'bounce'");
    /* libfyaml gives an empty flow sequence no position of its own: the error points at its key */
    expect_error(HEAD "        materials: []\n"
                      "        material_indices: [0, 0]\n",
                 7, 9, "materials has 0 materials, expected 1 to");
    expect_error(HEAD "        materials: [{friction: 0.05}]\n"
                      "        material_indices: [0]\n",
                 8, 27, "material_indices has 1 entries, expected one per triangle (2)");
    expect_error(HEAD "        materials: [{friction: 0.05}]\n"
                      "        material_indices: [0, x]\n",
                 8, 31, "material_indices[1]");
    expect_error(HEAD "        materials: [{friction: 0.05}]\n", 5, 9,
                 "bodies[0].shape.mesh needs material_indices");
    expect_error(HEAD "        material_indices: [0, 0]\n", 5, 9,
                 "bodies[0].shape.mesh needs materials");
    expect_error(HEAD "        materials: {friction: 0.05}\n"
                      "        material_indices: [0, 0]\n",
                 7, 20, "materials");
}
