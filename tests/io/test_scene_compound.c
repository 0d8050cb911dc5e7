/* Compound shapes in scene files: children with positions and rotations become one compound body
   that rests on its legs; every mistake (nesting, no children, unknown keys, a bad child, a
   child without a shape) is an error with file, line and column. */
#include <cairn/io.h>

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#define DATA CAIRN_SOURCE_DIR "/tests/io/data/"

static void expect_error(const char *name, int line, int column, const char *message)
{
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert_not(cairn_scene_load(name, &world, &err), "%s loaded", name);
    cr_expect_null(world);
    cr_expect_str_eq(err.message, message, "%s", name);
    cr_expect(err.line == line && err.column == column, "%s: %d:%d, expected %d:%d (%s)", name,
              err.line, err.column, line, column, err.message);
}

Test(scene_compound, loads_and_rests_on_its_legs)
{
    size_t before = cairn_allocated_bytes();
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert(cairn_scene_load(DATA "scene_compound.yaml", &world, &err), "%s:%d:%d: %s", err.file,
              err.line, err.column, err.message);
    cairn_body_id ids[2];
    cr_assert_eq(cairn_world_bodies(world, ids, 2), 2);
    const cairn_shape *table = cairn_body_shape(world, ids[1]);
    cr_assert_eq(cairn_shape_get_type(table), CAIRN_SHAPE_COMPOUND);
    cr_assert_eq(cairn_compound_child_count(table), 4);
    cairn_transform xf;
    const cairn_shape *leg = cairn_compound_child(table, 1, &xf);
    cr_expect_eq(cairn_shape_get_type(leg), CAIRN_SHAPE_CYLINDER);
    cr_expect(xf.position.x == -0.8f && xf.position.y == 0.15f && xf.position.z == 0.0f);
    cairn_compound_child(table, 3, &xf); /* euler_degrees [0, 0, 90]: x turns into y */
    vec3s x_axis = glms_quat_rotatev(xf.rotation, (vec3s){{1, 0, 0}});
    cr_expect(fabsf(x_axis.y - 1.0f) < 1e-5f, "child 3's x axis (%g %g %g)", (double)x_axis.x,
              (double)x_axis.y, (double)x_axis.z);
    /* The legs and the ball reach 0.1 m below the origin: it comes to rest 0.1 m above y = 0. */
    for (int i = 0; i < 180; ++i)
        cairn_world_step(world, 1.0f / 60.0f);
    float y = cairn_body_transform(world, ids[1]).position.y;
    cr_expect(fabsf(y - 0.1f) < 0.01f, "table origin at %g, expected 0.1", (double)y);
    cairn_world_destroy(world);
    cr_expect_eq(cairn_allocated_bytes(), before, "the loaded compound leaked");
}

Test(scene_compound, nested_compound_is_an_error)
{
    expect_error(DATA "scene_compound_nested.yaml", 5, 20,
                 "bodies[0].shape.compound.children[0].shape: a compound cannot be a child of a "
                 "compound");
}

Test(scene_compound, no_children_is_an_error)
{
    expect_error(DATA "scene_compound_empty.yaml", 2, 26,
                 "bodies[0].shape.compound.children has 0 children, expected 1 to 256");
}

Test(scene_compound, unknown_child_key_is_an_error)
{
    expect_error(DATA "scene_compound_child_key.yaml", 6, 13,
                 "unknown key 'positon' in bodies[0].shape.compound.children[0] (did you mean "
                 "'position'?)");
}

Test(scene_compound, bad_child_shape_is_an_error)
{
    expect_error(DATA "scene_compound_child_radius.yaml", 6, 52,
                 "bodies[0].shape.compound.children[1].shape.box.half_extents[2] = -1 is outside "
                 "[0.0001, 10000]");
}

Test(scene_compound, child_without_shape_is_an_error)
{
    expect_error(DATA "scene_compound_no_shape.yaml", 5, 13,
                 "bodies[0].shape.compound.children[0] needs a shape");
}
