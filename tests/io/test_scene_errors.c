/* Scene files: every mistake in bodies, shapes and generators is an error with file, line, column
   and a message; a failed load leaves no world behind. */
#include <cairn/io.h>

#include <criterion/criterion.h>
#include <string.h>

#define DATA CAIRN_SOURCE_DIR "/tests/io/data/"

static void expect_error(const char *name, int line, int column, const char *message)
{
    char path[512];
    snprintf(path, sizeof path, DATA "%s", name);
    cairn_world *world = (cairn_world *)&path; /* must be reset to NULL */
    cairn_io_error err;
    cr_assert_not(cairn_scene_load(path, &world, &err), "%s loaded", name);
    cr_expect_null(world, "%s: a failed load returned a world", name);
    cr_expect_str_eq(err.message, message, "%s", name);
    cr_expect_eq(err.line, line, "%s: line %d, expected %d (%s)", name, err.line, line,
                 err.message);
    cr_expect_eq(err.column, column, "%s: column %d, expected %d (%s)", name, err.column, column,
                 err.message);
    cr_expect(strstr(err.file, name) != NULL, "error file %s", err.file);
}

Test(scene_errors, non_unit_quaternion)
{
    expect_error("scene_bad_quat.yaml", 4, 15,
                 "bodies[0].rotation has length 2: a rotation must be a unit quaternion "
                 "[x, y, z, w] (length within 1e-3 of 1)");
}

Test(scene_errors, unknown_shape_kind)
{
    expect_error("scene_unknown_shape.yaml", 3, 14,
                 "unknown key 'cuboid' in bodies[0].shape (expected sphere, box, capsule, "
                 "cylinder, hull, compound, mesh, heightfield)");
}

Test(scene_errors, missing_shape)
{
    expect_error("scene_missing_shape.yaml", 2, 5, "bodies[0] ('ball') needs a shape");
}

Test(scene_errors, shape_size_out_of_range)
{
    expect_error("scene_bad_radius.yaml", 4, 17,
                 "bodies[0].shape.sphere.radius = -1 is outside [0.0001, 10000]");
}

Test(scene_errors, unknown_generator_suggests_the_closest)
{
    expect_error("scene_unknown_generator.yaml", 2, 5,
                 "unknown key 'pyramids' in generators[0] (did you mean 'pyramid'?)");
}

Test(scene_errors, generator_parameter_out_of_range)
{
    expect_error("scene_generator_range.yaml", 2, 24,
                 "generators[0].pyramid.levels = 0 is outside [1, 100]");
}

Test(scene_errors, body_type_names)
{
    expect_error("scene_bad_type.yaml", 3, 11,
                 "bodies[0].type = 'floating' is not one of static | kinematic | dynamic");
}

Test(scene_errors, missing_include)
{
    expect_error("scene_include_missing.yaml", 2, 10,
                 "cannot open included file '" DATA "../nowhere/settings.yaml'");
}

Test(scene_errors, rotation_and_euler_together)
{
    expect_error("scene_euler_and_rotation.yaml", 4, 20,
                 "bodies[0]: give rotation or euler_degrees, not both");
}

Test(scene_errors, settings_inside_a_scene_are_checked)
{
    expect_error("scene_bad_settings.yaml", 2, 13, "solver.substeps = 0 is outside [1, 16]");
}

Test(scene_errors, positions_and_lengths)
{
    expect_error("scene_bad_position.yaml", 3, 19,
                 "bodies[0].position[1] = 2e6 is outside [-1e+06, 1e+06]");
    expect_error("scene_wrong_vec_length.yaml", 3, 22,
                 "bodies[0].linear_velocity must have 3 elements, got 4");
    expect_error("run_bad_scene.yaml", 4, 14, "bodies[0].density = -5 is outside (0, 1e+06]");
}

Test(scene_errors, engine_rejections_are_positioned)
{
    char path[512];
    snprintf(path, sizeof path, DATA "scene_engine_rejects.yaml");
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert_not(cairn_scene_load(path, &world, &err));
    cr_expect_eq(err.line, 3);
    cr_expect_eq(err.column, 19);
    cr_expect(strncmp(err.message, "bodies[0].shape.box: cairn_shape_box:", 37) == 0, "%s",
              err.message);
}

Test(scene_errors, bad_override_settings_name_their_own_file)
{
    cairn_scene_options options = cairn_scene_default_options();
    options.settings_path = DATA "out_of_range.yaml";
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert_not(cairn_scene_load_ex(DATA "scene_names.yaml", &options, &world, &err));
    cr_expect_null(world);
    cr_expect(strstr(err.file, "out_of_range.yaml") != NULL, "%s", err.file);
    cr_expect_eq(err.line, 3);
    cr_expect_eq(err.column, 24);
}

Test(scene_errors, null_arguments)
{
    cairn_io_error err;
    cairn_world *world = NULL;
    cr_expect_not(cairn_scene_load(NULL, &world, &err));
    cr_expect_not(cairn_scene_load(DATA "scene_names.yaml", NULL, &err));
    cr_expect_not(cairn_scene_load(DATA "does_not_exist.yaml", &world, &err));
    cr_expect_str_eq(err.message, "cannot open file: No such file or directory");
}
