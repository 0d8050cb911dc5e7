/* Scene files with per-cell heightfield materials: `materials: [{friction, restitution}, ...]` and
   `material_indices: [...]` (one per cell, row by row) on inline grids and on image heightfields
   load onto the shape (both triangles of a cell and ray hits see the cell's material), and every
   bad value is an error at its own file:line:column. */
#define _POSIX_C_SOURCE 200809L
#include <cairn/io.h>

#include "io/scene_text.h"

#include <criterion/criterion.h>
#include <stb/stb_image_write.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Lines 1 to 7: 4 x 3 samples, 3 x 2 cells of 1 m; the tests add materials (line 8) and
   material_indices (line 9). */
#define HEAD                                                                                       \
    "bodies:\n"                                                                                    \
    "  - type: static\n"                                                                           \
    "    shape:\n"                                                                                 \
    "      heightfield:\n"                                                                         \
    "        count_x: 4\n"                                                                         \
    "        count_z: 3\n"                                                                         \
    "        heights: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]\n"

static const cairn_shape *only_shape(cairn_world *world)
{
    cairn_body_id body;
    cr_assert_eq(cairn_world_bodies(world, &body, 1), 1);
    return cairn_body_shape(world, body);
}

/* Each cell's two triangles and a ray down onto each cell report the listed material. */
static void expect_cell_materials(cairn_world *world, const int *expected, int cells_x, int cells)
{
    const cairn_shape *field = only_shape(world);
    cr_assert_eq(cairn_shape_triangle_count(field), 2 * cells);
    for (int c = 0; c < cells; ++c) {
        for (int k = 0; k < 2; ++k)
            cr_expect_eq(cairn_shape_triangle_material(field, 2 * c + k), expected[c],
                         "cell %d triangle %d: material %d, expected %d", c, k,
                         cairn_shape_triangle_material(field, 2 * c + k), expected[c]);
        cairn_ray_hit hit;
        vec3s origin = {{(float)(c % cells_x) + 0.3f, 1, (float)(c / cells_x) + 0.6f}};
        cr_assert(cairn_world_raycast(world, origin, (vec3s){{0, -2, 0}}, &hit), "cell %d", c);
        cr_expect_eq(hit.material, expected[c], "ray on cell %d: material %d", c, hit.material);
    }
}

Test(scene_heightfield_materials, inline_grid_materials_load_per_cell)
{
    const char *text = HEAD "        materials: [{friction: 0.05, restitution: 0},\n"
                            "                    {friction: 0.9, restitution: 0.3}]\n"
                            "        material_indices: [0, 1, 1,\n"
                            "                           1, 0, 0]\n";
    char path[128];
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert(load_text(text, &world, &err, path, sizeof path), "%s:%d:%d: %s", err.file, err.line,
              err.column, err.message);
    const int expected[6] = {0, 1, 1, 1, 0, 0};
    expect_cell_materials(world, expected, 3, 6);
    cairn_surface_material m;
    cr_assert(cairn_shape_mesh_material(only_shape(world), 1, &m));
    cr_expect_float_eq(m.friction, 0.9f, 1e-6f);
    cr_expect_float_eq(m.restitution, 0.3f, 1e-6f);
    cr_expect(!cairn_shape_mesh_material(only_shape(world), 2, &m));
    cairn_world_destroy(world);
}

Test(scene_heightfield_materials, a_grid_without_materials_has_none)
{
    char path[128];
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert(load_text(HEAD, &world, &err, path, sizeof path), "%s", err.message);
    cr_expect_eq(cairn_shape_triangle_material(only_shape(world), 0), -1);
    cairn_world_destroy(world);
}

/* A flat 5 x 4 pixel image (4 x 3 cells) next to the scene files; its name into name. */
static void write_flat_image(char *path, size_t capacity)
{
    snprintf(path, capacity, "/tmp/cairn_cells_%d.png", (int)getpid());
    unsigned char pixels[5 * 4] = {0};
    cr_assert(stbi_write_png(path, 5, 4, 1, pixels, 5));
}

static void image_scene(char *text, size_t capacity, const char *image, const char *indices)
{
    snprintf(text, capacity,
             "bodies:\n"
             "  - type: static\n"
             "    shape:\n"
             "      heightfield:\n"
             "        image: %s\n"
             "        materials: [{friction: 0.05}, {friction: 0.9}, {friction: 0.4}]\n"
             "        material_indices: %s\n",
             strrchr(image, '/') + 1, indices); /* relative to the scene file, same directory */
}

Test(scene_heightfield_materials, image_heightfield_materials_load_per_cell)
{
    char image[128], text[1024], path[128];
    write_flat_image(image, sizeof image);
    image_scene(text, sizeof text, image, "[0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]");
    cairn_world *world = NULL;
    cairn_io_error err;
    bool loaded = load_text(text, &world, &err, path, sizeof path);
    image_scene(text, sizeof text, image, "[0, 1, 2]");
    expect_error(text, 7, 27,
                 "bodies[0].shape.heightfield.material_indices has 3 entries, expected one per "
                 "cell ((width - 1) * (height - 1) = 4 * 3 = 12)");
    image_scene(text, sizeof text, image, "[0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 3]");
    expect_error(text, 7, 61,
                 "material_indices[11] = 3 is out of range: the heightfield has 3 materials");
    remove(image);
    cr_assert(loaded, "%s:%d:%d: %s", err.file, err.line, err.column, err.message);
    const int expected[12] = {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2};
    expect_cell_materials(world, expected, 4, 12);
    cairn_world_destroy(world);
}

Test(scene_heightfield_materials, bad_material_values_are_reported_where_they_are)
{
    expect_error(HEAD "        materials: [{friction: 0.05, restitution: 0}]\n"
                      "        material_indices: [0, 2, 0, 0, 0, 0]\n",
                 9, 31,
                 "bodies[0].shape.heightfield.material_indices[1] = 2 is out of range: "
                 "the heightfield has 1 materials");
    expect_error(HEAD "        materials: [{friction: 0.05, restitution: 0}]\n"
                      "        material_indices: [0, 0, 0, 0, 0, -1]\n",
                 9, 43, "material_indices[5] = -1 is out of range");
    expect_error(HEAD "        materials: [{friction: 0.05}]\n"
                      "        material_indices: [0, 0, 0, 0, 0]\n",
                 9, 27,
                 "material_indices has 5 entries, expected one per cell ((count_x - 1) * "
                 "(count_z - 1) = 3 * 2 = 6)");
    expect_error(HEAD "        materials: [{friction: 0.05}]\n"
                      "        material_indices: [0, 0, 0, 0, 0, 0, 0]\n",
                 9, 27, "material_indices has 7 entries");
    expect_error(HEAD "        materials: [{friction: 0.05, restitution: 0}, {friction: -1}]\n"
                      "        material_indices: [0, 1, 0, 0, 0, 0]\n",
                 8, 66, "bodies[0].shape.heightfield.materials[1].friction");
    expect_error(HEAD "        materials: [{friction: 0.05, restitution: 1.5}]\n"
                      "        material_indices: [0, 0, 0, 0, 0, 0]\n",
                 8, 51, "materials[0].restitution");
    expect_error(HEAD "        materials: [{friction: .nan}]\n"
                      "        material_indices: [0, 0, 0, 0, 0, 0]\n",
                 8, 32, "materials[0].friction = .nan is not a finite number");
    expect_error(HEAD "        materials: [{friction: 0.05, bounce: 1}]\n"
                      "        material_indices: [0, 0, 0, 0, 0, 0]\n",
                 8, 38, "unknown key 'bounce'");
    expect_error(HEAD "        materials: [{friction: 0.05}]\n"
                      "        material_indices: [0, 0, zero, 0, 0, 0]\n",
                 9, 34, "material_indices[2]");
    expect_error(HEAD "        materials: [{friction: 0.05}]\n", 5, 9,
                 "bodies[0].shape.heightfield needs material_indices");
    expect_error(HEAD "        material_indices: [0, 0, 0, 0, 0, 0]\n", 5, 9,
                 "bodies[0].shape.heightfield needs materials");
    expect_error(HEAD "        materials: [{friction: 0.05}]\n"
                      "        material_indices: 0\n",
                 9, 27, "material_indices");
    /* the grid is checked before its materials */
    expect_error("bodies:\n"
                 "  - type: static\n"
                 "    shape: { heightfield: { count_x: 4, count_z: 3, heights: [0, 0],\n"
                 "                            materials: [{friction: 0.05}],\n"
                 "                            material_indices: [0, 0, 0, 0, 0, 0] } }\n",
                 3, 62, "heights has 2 heights");
}
