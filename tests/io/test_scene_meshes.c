/* Scene files with meshes and heightfields: a good scene loads and a box rests on each surface;
   every bad value is an error at its own file:line:column (index out of range, the wrong number
   of heights, a mesh on a dynamic body, ...) and a failed load leaves no world behind. */
#define _POSIX_C_SOURCE 200809L
#include <cairn/io.h>

#include "io/scene_text.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stb/stb_image_write.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

Test(scene_meshes, boxes_rest_on_an_inline_mesh_and_heightfield)
{
    const char *text = "bodies:\n"
                       "  - name: ground\n"
                       "    type: static\n"
                       "    shape:\n"
                       "      mesh:\n"
                       "        vertices: [[-5, 0, -5], [5, 0, -5], [5, 0, 5], [-5, 0, 5]]\n"
                       "        indices: [[0, 2, 1], [0, 3, 2]]\n"
                       "  - name: hills\n"
                       "    type: static\n"
                       "    position: [20, 0, -2]\n"
                       "    shape: { heightfield: { count_x: 3, count_z: 3,\n"
                       "             heights: [0, 0, 0, 0, 0, 0, 0, 0, 0], scale: [2, 1, 2] } }\n"
                       "  - name: box\n"
                       "    shape: { box: { half_extents: [0.5, 0.5, 0.5] } }\n"
                       "    position: [0.3, 2, 0.2]\n"
                       "  - name: box2\n"
                       "    shape: { box: { half_extents: [0.5, 0.5, 0.5] } }\n"
                       "    position: [22, 2, 0]\n";
    char path[128];
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert(load_text(text, &world, &err, path, sizeof path), "%s:%d:%d: %s", err.file, err.line,
              err.column, err.message);
    for (int i = 0; i < 180; ++i)
        cairn_world_step(world, 1.0f / 60.0f);
    /* bodies in creation order: the boxes are the third and fourth */
    cairn_body_id ids[4];
    cr_assert_eq(cairn_world_bodies(world, ids, 4), 4);
    cr_expect_float_eq(cairn_body_transform(world, ids[2]).position.y, 0.5f, 0.01f);
    cr_expect_float_eq(cairn_body_transform(world, ids[3]).position.y, 0.5f, 0.01f);
    cr_expect_eq(cairn_shape_get_type(cairn_body_shape(world, ids[0])), CAIRN_SHAPE_MESH);
    cr_expect_eq(cairn_shape_get_type(cairn_body_shape(world, ids[1])), CAIRN_SHAPE_HEIGHTFIELD);
    cairn_world_destroy(world);
}

#define HEAD "bodies:\n  - type: static\n"

Test(scene_meshes, bad_mesh_values_are_reported_where_they_are)
{
    expect_error(HEAD "    shape: { mesh: { vertices: [[0, 0, 0], [1, 0, 0], [0, 0, 1]],\n"
                      "                     indices: [[0, 2, 1], [0, 3, 1]] } }\n",
                 4, 47, "bodies[0].shape.mesh.indices[1][1] = 3 is out of range");
    expect_error(HEAD "    shape: { mesh: { vertices: [[0, 0, 0], [1, 0, 0], [0, 0, 1]],\n"
                      "                     indices: [[0, 2, -1]] } }\n",
                 4, 39, "indices[0][2] = -1 is out of range");
    expect_error(HEAD "    shape: { mesh: { vertices: [[0, 0, 0], [1, 0, 0], [0, 0, 1]],\n"
                      "                     indices: [[0, 2]] } }\n",
                 4, 32, "indices[0] has 2 indices, a triangle needs 3");
    expect_error(HEAD "    shape: { mesh: { vertices: [[0, 0, 0], [1, 0, 0], [0, 0, 1]] } }\n", 3,
                 20, "bodies[0].shape.mesh needs indices");
    expect_error(HEAD "    shape: { mesh: { vertices: [[0, 0, 0], [1, 0, .nan], [0, 0, 1]],\n"
                      "                     indices: [[0, 2, 1]] } }\n",
                 3, 51, "vertices[1][2] = .nan is not a finite number");
    expect_error(HEAD "    shape: { mesh: { vertices: [[0, 0, 0], [1, 0, 0], [2, 0, 0]],\n"
                      "                     indices: [[0, 2, 1]] } }\n",
                 3, 20, "all 1 triangles are degenerate");
    expect_error(HEAD "    shape:\n"
                      "      mesh:\n"
                      "        vertices:\n"
                      "          - [0, 0, 0]\n"
                      "        indices: [[0, 0, 0]]\n",
                 /* libfyaml marks a sequence whose first item is a collection at that item */
                 6, 13, "vertices has 1 vertices, expected 3");
    expect_error(HEAD "    shape: { mesh: { vertices: [[0, 0, 0]], indeces: [[0, 0, 0]] } }\n", 3,
                 45, "unknown key 'indeces'");
    expect_error(HEAD "    shape: { mesh: { file: no_such_level.glb } }\n", 3, 28,
                 "cannot read the mesh file");
    expect_error(HEAD "    shape: { mesh: { file: level.glb, indices: [[0, 1, 2]] } }\n", 3, 39,
                 "unknown key 'indices'");
}

Test(scene_meshes, bad_heightfield_values_are_reported_where_they_are)
{
    expect_error(
        HEAD "    shape: { heightfield: { count_x: 3, count_z: 2, heights: [0, 1, 0, 0, 2] } }\n",
        3, 62, "heights has 5 heights, expected count_x * count_z = 3 * 2 = 6");
    expect_error(HEAD "    shape: { heightfield: { count_x: 1, count_z: 2, heights: [0, 1] } }\n",
                 3, 38, "count_x = 1 is outside [2, ");
    expect_error(HEAD "    shape: { heightfield: { count_x: 2, count_z: 2, heights: [0, 1, 0, 1],\n"
                      "                            scale: [1, 0, 1] } }\n",
                 4, 40, "scale[1] = 0 is outside");
    expect_error(HEAD "    shape: { heightfield: { count_x: 2, count_z: 2 } }\n", 3, 27,
                 "needs heights");
    expect_error(HEAD "    shape: { heightfield: { image: no_such_hills.png } }\n", 3, 36,
                 "cannot read the image");
    expect_error(HEAD "    shape: { heightfield: { image: hills.png, heights: [0, 1] } }\n", 3, 47,
                 "unknown key 'heights'");
}

/* A grey image of width x depth pixels, grey(x, z), written next to the scene files. */
static void write_image(const char *path, int width, int depth, int (*grey)(int, int))
{
    unsigned char pixels[64 * 64];
    cr_assert(width * depth <= 64 * 64);
    for (int z = 0; z < depth; ++z)
        for (int x = 0; x < width; ++x)
            pixels[z * width + x] = (unsigned char)grey(x, z);
    cr_assert(stbi_write_png(path, width, depth, 1, pixels, width));
}

static int slope_grey(int x, int z)
{
    return (x * 50 + z * 13) % 256;
}

/* An image heightfield: each sample's height is grey / 255 times scale.y, at (x sx, z sz) of the
   body, measured by a ray down onto each sample of the loaded world. */
Test(scene_meshes, a_heightfield_image_gives_each_pixel_its_height)
{
    char image[128], scene_text[512], path[128];
    snprintf(image, sizeof image, "/tmp/cairn_hills_%d.png", (int)getpid());
    write_image(image, 5, 4, slope_grey);
    snprintf(scene_text, sizeof scene_text,
             "bodies:\n"
             "  - name: hills\n"
             "    type: static\n"
             "    shape: { heightfield: { image: %s, scale: [0.5, 2, 0.75] } }\n"
             "    position: [1, 0, -1]\n",
             strrchr(image, '/') + 1); /* relative to the scene file, in the same directory */
    cairn_world *world = NULL;
    cairn_io_error err;
    bool loaded = load_text(scene_text, &world, &err, path, sizeof path);
    remove(image);
    cr_assert(loaded, "%s:%d:%d: %s", err.file, err.line, err.column, err.message);
    for (int z = 0; z < 4; ++z)
        for (int x = 0; x < 5; ++x) {
            /* a little inside the cell, so the ray meets one triangle, not an edge */
            float px = 1.0f + 0.5f * (float)x + (x < 4 ? 0.001f : -0.001f);
            float pz = -1.0f + 0.75f * (float)z + (z < 3 ? 0.001f : -0.001f);
            cairn_ray_hit hit;
            cr_assert(cairn_world_raycast(world, (vec3s){{px, 10, pz}}, (vec3s){{0, -20, 0}}, &hit),
                      "no hit at sample (%d, %d)", x, z);
            float expected = 2.0f * (float)slope_grey(x, z) / 255.0f;
            cr_expect(fabsf(hit.point.y - expected) < 1e-3f, "sample (%d, %d): %.4f, %.4f", x, z,
                      (double)hit.point.y, (double)expected);
        }
    cairn_world_destroy(world);
}

Test(scene_meshes, a_heightfield_image_too_narrow_is_an_error)
{
    char image[128];
    snprintf(image, sizeof image, "/tmp/cairn_line_%d.png", (int)getpid());
    write_image(image, 1, 6, slope_grey);
    char text[256];
    snprintf(text, sizeof text, HEAD "    shape: { heightfield: { image: %s } }\n", image);
    expect_error(text, 3, 36, "is 1 x 6 pixels; a heightfield needs 2 to");
    remove(image);
}

Test(scene_meshes, a_mesh_on_a_dynamic_body_is_an_error_at_the_body)
{
    expect_error("bodies:\n"
                 "  - name: rock\n"
                 "    shape: { mesh: { vertices: [[0, 0, 0], [1, 0, 0], [0, 0, 1]],\n"
                 "                     indices: [[0, 2, 1]] } }\n",
                 2, 5, "use a hull or a compound");
}

/* ---- mesh files (Assimp) ---- */

static void write_text(const char *path, const char *text)
{
    FILE *file = fopen(path, "w");
    cr_assert_not_null(file);
    fputs(text, file);
    fclose(file);
}

/* A scene of one static body whose shape is `mesh: { file: <name>, scale }`, plus extra bodies;
   the mesh file is written next to it and removed after the load. */
static bool load_with_file(const char *file_name, const char *file_text, const char *scale,
                           const char *extra, cairn_world **world, cairn_io_error *err)
{
    char file_path[160], scene_text[1024], path[128];
    snprintf(file_path, sizeof file_path, "/tmp/%d_%s", (int)getpid(), file_name);
    write_text(file_path, file_text);
    snprintf(scene_text, sizeof scene_text,
             "bodies:\n"
             "  - name: level\n"
             "    type: static\n"
             "    shape: { mesh: { file: %s, scale: %s } }\n"
             "%s",
             strrchr(file_path, '/') + 1, scale, extra);
    bool loaded = load_text(scene_text, world, err, path, sizeof path);
    remove(file_path);
    return loaded;
}

/* Two objects in one OBJ file (a 4 x 4 m floor of two triangles at y = 0 and a quad at y = 1),
   scaled by (2, 3, 2): all four triangles, each at its scaled height under a ray. */
Test(scene_meshes, an_obj_file_merges_its_objects_scaled)
{
    const char *obj = "o floor\n"
                      "v -2 0 -2\nv -2 0 2\nv 2 0 2\nv 2 0 -2\n"
                      "f 1 2 3 4\n" /* a quad: triangulated on import */
                      "o shelf\n"
                      "v 3 1 -1\nv 3 1 1\nv 5 1 1\nv 5 1 -1\n"
                      "f 5 6 7\nf 5 7 8\n";
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert(load_with_file("level.obj", obj, "[2, 3, 2]", "", &world, &err), "%s:%d:%d: %s",
              err.file, err.line, err.column, err.message);
    cairn_body_id ids[4];
    cr_assert_eq(cairn_world_bodies(world, ids, 4), 1);
    cr_expect_eq(cairn_shape_triangle_count(cairn_body_shape(world, ids[0])), 4);
    cairn_ray_hit hit;
    cr_assert(cairn_world_raycast(world, (vec3s){{1, 10, 1}}, (vec3s){{0, -20, 0}}, &hit));
    cr_expect(fabsf(hit.point.y) < 1e-5f, "floor at y %g", (double)hit.point.y);
    cr_assert(cairn_world_raycast(world, (vec3s){{8, 10, 0.5f}}, (vec3s){{0, -20, 0}}, &hit));
    cr_expect(fabsf(hit.point.y - 3.0f) < 1e-5f, "shelf at y %g, 1 m times 3", (double)hit.point.y);
    cr_expect_not(cairn_world_raycast(world, (vec3s){{5, 10, 0}}, (vec3s){{0, -20, 0}}, &hit),
                  "a hit between the floor (to x = 4) and the shelf (from x = 6)");
    cairn_world_destroy(world);
}

/* A sphere rolls down a 20-degree ramp read from an OBJ file (0.5 m triangles) at
   (5/7) g sin(theta), within 3%. */
Test(scene_meshes, a_sphere_rolls_down_an_obj_ramp)
{
    const double theta = 20.0 * 3.14159265358979 / 180.0;
    static char obj[65536];
    size_t at = 0;
    enum { ALONG = 40, ACROSS = 8 }; /* 20 m x 4 m in 0.5 m cells */
    for (int i = 0; i <= ALONG; ++i)
        for (int j = 0; j <= ACROSS; ++j) {
            double s = 0.5 * i; /* down the slope, towards +x */
            at += (size_t)snprintf(obj + at, sizeof obj - at, "v %.6f %.6f %.6f\n", s * cos(theta),
                                   10.0 - s * sin(theta), 0.5 * j - 2.0);
        }
    for (int i = 0; i < ALONG; ++i)
        for (int j = 0; j < ACROSS; ++j) {
            int a = i * (ACROSS + 1) + j + 1, b = a + 1, c = a + ACROSS + 1, d = c + 1;
            /* counter-clockwise seen from above the slope */
            at += (size_t)snprintf(obj + at, sizeof obj - at, "f %d %d %d\nf %d %d %d\n", a, b, c,
                                   c, b, d);
        }
    cr_assert_lt(at, sizeof obj - 1);
    const char *ball = "  - name: ball\n"
                       "    shape: { sphere: { radius: 0.25 } }\n"
                       "    position: [1.0, 10.0, 0]\n";
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert(load_with_file("ramp.obj", obj, "[1, 1, 1]", ball, &world, &err), "%s:%d:%d: %s",
              err.file, err.line, err.column, err.message);
    cairn_body_id ids[4];
    cr_assert_eq(cairn_world_bodies(world, ids, 4), 2);
    cairn_body_id sphere = ids[1];
    /* start it on the ramp's surface, at rest */
    cairn_transform xf = cairn_body_transform(world, sphere);
    double surface = 10.0 - xf.position.x * tan(theta);
    xf.position.y = (float)(surface + 0.25 / cos(theta));
    cr_assert(cairn_body_set_transform(world, sphere, xf));
    for (int n = 0; n < 30; ++n) /* settle into rolling */
        cairn_world_step(world, 1.0f / 60.0f);
    vec3s v0 = cairn_body_linear_velocity(world, sphere);
    for (int n = 0; n < 60; ++n)
        cairn_world_step(world, 1.0f / 60.0f);
    vec3s v1 = cairn_body_linear_velocity(world, sphere);
    double along0 = v0.x * cos(theta) - v0.y * sin(theta);
    double along1 = v1.x * cos(theta) - v1.y * sin(theta);
    double measured = along1 - along0, expected = 5.0 / 7.0 * 9.81 * sin(theta);
    cr_log_info("OBJ ramp: %.4f m/s^2 against (5/7) g sin(theta) = %.4f", measured, expected);
    cr_expect(fabs(measured - expected) < 0.03 * expected, "rolls at %.4f m/s^2, expected %.4f",
              measured, expected);
    cairn_world_destroy(world);
}

Test(scene_meshes, a_file_that_is_not_a_mesh_is_an_error_with_assimps_reason)
{
    cairn_world *world = (cairn_world *)&world;
    cairn_io_error err;
    cr_assert_not(
        load_with_file("notes.txt", "this is not a mesh\n", "[1, 1, 1]", "", &world, &err));
    cr_expect_null(world);
    cr_expect(strstr(err.message, "cannot read the mesh file") != NULL, "%s", err.message);
    cr_expect_eq(err.line, 4);
    cr_expect_eq(err.column, 28);
    /* an OBJ file with no faces has nothing to stand on */
    cr_assert_not(
        load_with_file("points.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\n", "[1, 1, 1]", "", &world, &err));
    cr_expect(strstr(err.message, "cannot read the mesh file") != NULL ||
                  strstr(err.message, "holds no triangles") != NULL,
              "%s", err.message);
}
