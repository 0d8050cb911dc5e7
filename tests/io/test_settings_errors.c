/* Every way a settings file can be wrong is an error with the file, line, column and a message
   naming the field and (for ranges) the valid range; nothing is ignored silently. */
#include <cairn/io.h>

#include <criterion/criterion.h>
#include <string.h>

#define DATA CAIRN_SOURCE_DIR "/tests/io/data/"

/* Loads a file that must fail and checks where and why. */
static void expect_error(const char *name, int line, int column, const char *message)
{
    char path[512];
    snprintf(path, sizeof path, DATA "%s", name);
    cairn_world_def def = cairn_world_default_def();
    def.solver.velocity_iterations = 77;
    cairn_io_error err;
    cr_assert_not(cairn_settings_apply(path, &def, &err), "%s loaded", name);
    cr_expect_eq(def.solver.velocity_iterations, 77, "a failed load changed def");
    cr_expect_str_eq(err.message, message, "%s", name);
    cr_expect_eq(err.line, line, "%s: line %d, expected %d (%s)", name, err.line, line,
                 err.message);
    cr_expect_eq(err.column, column, "%s: column %d, expected %d (%s)", name, err.column, column,
                 err.message);
    cr_expect(strstr(err.file, name) != NULL, "error file %s", err.file);
}

Test(settings_errors, unknown_key_suggests_the_closest)
{
    expect_error("unknown_key.yaml", 2, 3,
                 "unknown key 'velocity_iteration' in solver (did you mean "
                 "'velocity_iterations'?)");
}

Test(settings_errors, unknown_top_level_key)
{
    expect_error("settings_with_bodies.yaml", 1, 1,
                 "unknown key 'bodies' in a settings file (expected include, world, solver)");
}

Test(settings_errors, wrong_types)
{
    expect_error("wrong_type.yaml", 2, 24,
                 "solver.velocity_iterations must be an integer, got 'lots'");
    expect_error("wrong_type_bool.yaml", 2, 18,
                 "solver.warm_starting must be true or false, got '1'");
    expect_error("quoted_number.yaml", 2, 24,
                 "solver.velocity_iterations must be an integer, got a quoted string");
    expect_error("empty_value.yaml", 2, 3, "solver.baumgarte must be a number, got nothing");
    expect_error("section_not_mapping.yaml", 1, 9, "solver must be a mapping, got a scalar");
    expect_error("not_a_mapping.yaml", 1, 1, "a settings file must be a mapping, got a sequence");
}

Test(settings_errors, wrong_array_length)
{
    expect_error("wrong_length.yaml", 2, 12, "world.gravity must have 3 elements, got 2");
    expect_error("wrong_length_block.yaml", 3, 5, "world.gravity must have 3 elements, got 2");
}

Test(settings_errors, out_of_range_names_the_valid_range)
{
    expect_error("out_of_range.yaml", 3, 24, "solver.velocity_iterations = -3 is outside [1, 100]");
    expect_error("out_of_range_float.yaml", 2, 14, "solver.baumgarte = 1.5 is outside [0, 1]");
    expect_error("out_of_range_vec.yaml", 2, 16,
                 "world.gravity[1] = -2000 is outside [-1000, 1000]");
    expect_error("bad_enum.yaml", 2, 24,
                 "solver.position_correction = 'springy' is not one of baumgarte | split_impulse | "
                 "soft_step");
}

Test(settings_errors, nan_and_inf)
{
    expect_error("nan.yaml", 2, 14, "solver.baumgarte = .nan is not a finite number");
    expect_error("inf.yaml", 2, 16, "world.gravity[1] = .inf is not a finite number");
}

Test(settings_errors, missing_include)
{
    expect_error("missing_include.yaml", 1, 10, "cannot open included file '" DATA "missing.yaml'");
}

Test(settings_errors, self_include_and_cycle_are_errors_not_hangs)
{
    expect_error("self_include.yaml", 1, 10,
                 "include cycle: '" DATA "self_include.yaml' is already being loaded");
    /* a includes b includes a: reported where b includes a */
    char path[512];
    snprintf(path, sizeof path, DATA "cycle_a.yaml");
    cairn_world_def def = cairn_world_default_def();
    cairn_io_error err;
    cr_assert_not(cairn_settings_load(path, &def, &err));
    cr_expect(strstr(err.file, "cycle_b.yaml") != NULL, "%s", err.file);
    cr_expect_eq(err.line, 2);
    cr_expect_eq(err.column, 10);
    cr_expect_str_eq(err.message, "include cycle: '" DATA "cycle_a.yaml' is already being loaded");
}

Test(settings_errors, malformed_yaml_reports_libfyaml_position)
{
    expect_error("malformed.yaml", 4, 1,
                 "YAML syntax error: flow sequence without a closing bracket");
    expect_error("duplicate_key.yaml", 3, 3, "YAML syntax error: duplicate key");
}

Test(settings_errors, control_characters_are_refused_before_parsing)
{
    expect_error("control_character.yaml", 2, 6, "control character 0x01 is not allowed in YAML");
}

Test(settings_errors, missing_file)
{
    cairn_world_def def = cairn_world_default_def();
    cairn_io_error err;
    cr_assert_not(cairn_settings_load(DATA "no_such_file.yaml", &def, &err));
    cr_expect_eq(err.line, 0);
    cr_expect_eq(err.column, 0);
    cr_expect_str_eq(err.file, DATA "no_such_file.yaml");
    cr_expect_str_eq(err.message, "cannot open file: No such file or directory");
}

Test(settings_errors, formatted_error_is_file_line_column_message)
{
    cairn_world_def def;
    cairn_io_error err;
    cr_assert_not(cairn_settings_load(DATA "out_of_range.yaml", &def, &err));
    char text[600];
    cairn_io_error_format(&err, text, sizeof text);
    cr_expect_str_eq(text, DATA "out_of_range.yaml:3:24: solver.velocity_iterations = -3 is "
                                "outside [1, 100]");
}
