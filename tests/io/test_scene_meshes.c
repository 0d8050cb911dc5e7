/* Scene files with meshes and heightfields: a good scene loads and a box rests on each surface;
   every bad value is an error at its own file:line:column (index out of range, the wrong number
   of heights, a mesh on a dynamic body, ...) and a failed load leaves no world behind. */
#define _POSIX_C_SOURCE 200809L
#include <cairn/io.h>

#include <criterion/criterion.h>
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
    expect_error(HEAD "    shape: { heightfield: { image: hills.png } }\n", 3, 36,
                 "heightfield images are not read yet");
}

Test(scene_meshes, a_mesh_on_a_dynamic_body_is_an_error_at_the_body)
{
    expect_error("bodies:\n"
                 "  - name: rock\n"
                 "    shape: { mesh: { vertices: [[0, 0, 0], [1, 0, 0], [0, 0, 1]],\n"
                 "                     indices: [[0, 2, 1]] } }\n",
                 2, 5, "use a hull or a compound");
}
