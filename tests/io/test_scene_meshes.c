/* Scene files with meshes and heightfields: a good scene loads and a box rests on each surface;
   every bad value is an error at its own file:line:column (index out of range, the wrong number
   of heights, a mesh on a dynamic body, ...) and a failed load leaves no world behind. */
#define _POSIX_C_SOURCE 200809L
#include <cairn/io.h>

#include <criterion/criterion.h>
#include <math.h>
#include <stb/stb_image_write.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static bool load_text(const char *text, cairn_world **world, cairn_io_error *err, char *path,
                      size_t capacity)
{
    snprintf(path, capacity, "/tmp/cairn_scene_meshes_%d.yaml", (int)getpid());
    FILE *file = fopen(path, "w");
    cr_assert_not_null(file);
    fputs(text, file);
    fclose(file);
    bool loaded = cairn_scene_load(path, world, err);
    remove(path);
    return loaded;
}

static void expect_error(const char *text, int line, int column, const char *message)
{
    char path[128];
    cairn_world *world = (cairn_world *)&path; /* must be reset to NULL */
    cairn_io_error err;
    cr_assert_not(load_text(text, &world, &err, path, sizeof path), "loaded:\n%s", text);
    cr_expect_null(world, "a failed load returned a world");
    cr_expect(strstr(err.message, message) != NULL, "message '%s' lacks '%s'", err.message,
              message);
    cr_expect_eq(err.line, line, "line %d, expected %d (%s)", err.line, line, err.message);
    cr_expect_eq(err.column, column, "column %d, expected %d (%s)", err.column, column,
                 err.message);
    cr_expect_str_eq(err.file, path);
}

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
    expect_error(HEAD "    shape: { mesh: { file: level.glb } }\n", 3, 28,
                 "mesh files are not read yet");
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
