/* Scene files with materials for meshes read from files: `mesh: { file, materials: { <file
   material name>: {friction, restitution} } }` (tests/io/data/scene_file_materials.yaml on
   three_pads.obj). Each triangle takes the material of the file material it was drawn with, the
   file's materials the scene does not name take the body's friction and restitution, boxes
   sliding on the three pads stop at v^2 / (2 mu g) with mu = sqrt(f_pad * f_box), and a name the
   file does not have (or a bad value) is an error at its file:line:column. */
#define _POSIX_C_SOURCE 200809L
#include <cairn/io.h>

#include "io/scene_text.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define SCENE CAIRN_SOURCE_DIR "/tests/io/data/scene_file_materials.yaml"
#define PADS  CAIRN_SOURCE_DIR "/tests/io/data/three_pads.obj"

/* The pads of three_pads.obj by x (ice, rubber, stone), and the materials the scene gives them:
   stone is not named, so it takes the body's (friction 0.5, restitution 0.25), and ice names no
   restitution, so it keeps the body's. */
static const float pad_x[3] = {-6.0f, 0.0f, 6.0f};
static const cairn_surface_material pad_material[3] = {{0.05f, 0.25f}, {0.9f, 0.7f}, {0.5f, 0.25f}};
static const char *const pad_name[3] = {"ice", "rubber", "stone"};

static int pad_at(float x)
{
    return x < -3.0f ? 0 : x < 3.0f ? 1 : 2;
}

static cairn_world *load_scene(void)
{
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert(cairn_scene_load(SCENE, &world, &err), "%s:%d:%d: %s", err.file, err.line, err.column,
              err.message);
    return world;
}

static const cairn_shape *first_shape(cairn_world *world)
{
    cairn_body_id body;
    cr_assert_eq(cairn_world_bodies(world, &body, 1), 1);
    return cairn_body_shape(world, body);
}

Test(scene_file_materials, each_triangle_takes_its_file_material)
{
    cairn_world *world = load_scene();
    const cairn_shape *mesh = first_shape(world);
    int triangles = cairn_shape_triangle_count(mesh), per_pad[3] = {0, 0, 0};
    cr_assert_eq(triangles, 6, "three quads, two triangles each");
    for (int t = 0; t < triangles; ++t) {
        vec3s c[3];
        cr_assert(cairn_shape_triangle(mesh, t, c));
        int pad = pad_at((c[0].x + c[1].x + c[2].x) / 3.0f);
        per_pad[pad]++;
        cairn_surface_material m;
        cr_assert(cairn_shape_mesh_material(mesh, cairn_shape_triangle_material(mesh, t), &m),
                  "triangle %d has no material", t);
        cr_expect_float_eq(m.friction, pad_material[pad].friction, 1e-6f, "%s triangle %d",
                           pad_name[pad], t);
        cr_expect_float_eq(m.restitution, pad_material[pad].restitution, 1e-6f, "%s triangle %d",
                           pad_name[pad], t);
    }
    for (int p = 0; p < 3; ++p)
        cr_expect_eq(per_pad[p], 2, "%s has %d triangles", pad_name[p], per_pad[p]);
    cairn_world_destroy(world);
}

static cairn_body_id sliding_box(cairn_world *world, float x, float friction, float speed)
{
    cairn_body_def def = cairn_body_default_def();
    vec3s half = {{0.4f, 0.25f, 0.4f}};
    def.shape = cairn_shape_box(half, 0.02f);
    def.transform.position = (vec3s){{x, half.y, -7.0f}};
    def.linear_velocity = (vec3s){{0, 0, speed}};
    def.friction = friction;
    def.allow_sleep = false;
    cairn_body_id id = cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);
    return id;
}

Test(scene_file_materials, boxes_stop_at_v2_over_2_mu_g_on_each_pad)
{
    cairn_world *world = load_scene();
    const float box_friction = 1.0f, speed = 5.0f, g = 9.81f;
    cairn_body_id boxes[3];
    for (int p = 0; p < 3; ++p)
        boxes[p] = sliding_box(world, pad_x[p], box_friction, speed);
    for (int i = 0; i < 300; ++i)
        cairn_world_step(world, 1.0f / 60.0f);
    for (int p = 0; p < 3; ++p) {
        double mu = sqrt((double)pad_material[p].friction * box_friction);
        double expected = (double)speed * speed / (2.0 * mu * g);
        double distance = cairn_body_transform(world, boxes[p]).position.z + 7.0;
        double error = fabs(distance - expected) / expected;
        printf("file mesh %s (mu %.4f): slid %.4f m, expected %.4f m (error %.2f%%)\n", pad_name[p],
               mu, distance, expected, 100.0 * error);
        /* 4 %: the semi-implicit step stops about v dt / 2 = 4 cm short of the continuous answer */
        cr_expect_lt(error, 0.04, "%s: slid %g m, expected %g m", pad_name[p], distance, expected);
    }
    cairn_world_destroy(world);
}

/* The same file without `materials`: a plain mesh, as before. */
Test(scene_file_materials, without_materials_the_mesh_has_none)
{
    char path[128];
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert(load_text("bodies:\n  - type: static\n    shape: { mesh: { file: " PADS " } }\n",
                        &world, &err, path, sizeof path),
              "%s", err.message);
    cr_expect_eq(cairn_shape_triangle_material(first_shape(world), 0), -1);
    cairn_world_destroy(world);
}

/* The rolling resistance of a file material: its entry's, else the body's (as friction and
   restitution are). */
Test(scene_file_materials, rolling_resistance_comes_from_the_entry_or_the_body)
{
    char path[128];
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert(load_text("bodies:\n"
                        "  - type: static\n"
                        "    material: { rolling_resistance: 0.02 }\n"
                        "    shape:\n"
                        "      mesh:\n"
                        "        file: " PADS "\n"
                        "        materials: { ice: { rolling_resistance: 0.1 }, rubber: {} }\n",
                        &world, &err, path, sizeof path),
              "%s:%d:%d: %s", err.file, err.line, err.column, err.message);
    const cairn_shape *mesh = first_shape(world);
    const float expected[3] = {0.1f, 0.02f, 0.02f};
    for (int t = 0; t < cairn_shape_triangle_count(mesh); ++t) {
        vec3s c[3];
        cr_assert(cairn_shape_triangle(mesh, t, c));
        int pad = pad_at((c[0].x + c[1].x + c[2].x) / 3.0f);
        cairn_surface_material m;
        cr_assert(cairn_shape_mesh_material(mesh, cairn_shape_triangle_material(mesh, t), &m));
        cr_expect_float_eq(m.rolling_resistance, expected[pad], 1e-7f, "%s triangle %d: %g",
                           pad_name[pad], t, (double)m.rolling_resistance);
    }
    cairn_world_destroy(world);
}

/* Lines 1 to 6; the tests add the entries (line 7 on). */
#define HEAD                                                                                       \
    "bodies:\n"                                                                                    \
    "  - type: static\n"                                                                           \
    "    shape:\n"                                                                                 \
    "      mesh:\n"                                                                                \
    "        file: " PADS "\n"                                                                     \
    "        materials:\n"

Test(scene_file_materials, bad_names_and_values_are_reported_where_they_are)
{
    expect_error(HEAD "          ice: { friction: 0.05 }\n"
                      "          metal: { friction: 0.3 }\n",
                 8, 11,
                 "bodies[0].shape.mesh.materials: the mesh file '" PADS
                 "' has no material 'metal' (its materials: ");
    expect_error(HEAD "          metal: { friction: 0.3 }\n", 7, 11, "ice, rubber, stone");
    expect_error(HEAD "          rubber: { friction: -1 }\n", 7, 31,
                 "bodies[0].shape.mesh.materials.rubber.friction");
    expect_error(HEAD "          rubber: { restitution: 2 }\n", 7, 34,
                 "materials.rubber.restitution");
    expect_error(HEAD "          rubber: { rolling_resistance: -0.5 }\n", 7, 41,
                 "materials.rubber.rolling_resistance");
    expect_error(HEAD "          rubber: { bounce: 1 }\n", 7, 21, "unknown key 'bounce'");
    expect_error(HEAD "          - ice\n", 7, 11, "bodies[0].shape.mesh.materials");
    expect_error("bodies:\n"
                 "  - type: static\n"
                 "    shape: { mesh: { file: " PADS ", material_indices: [0] } }\n",
                 3, (int)strlen(PADS) + 30, "unknown key 'material_indices'");
}
