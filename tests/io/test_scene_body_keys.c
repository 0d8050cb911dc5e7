/* Scene files carry the body API's keys (sensor, layer, mask, gravity_scale, damping, enabled,
   locked_rotation, locked_translation, material.rolling_resistance) onto the bodies, and a bad
   value of each is an error with file, line and column. */
#include <cairn/io.h>

#include <criterion/criterion.h>
#include <string.h>

#define DATA CAIRN_SOURCE_DIR "/tests/io/data/"

Test(scene_body_keys, keys_reach_the_bodies)
{
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert(cairn_scene_load(DATA "scene_body_keys.yaml", &world, &err), "%s:%d:%d: %s", err.file,
              err.line, err.column, err.message);
    cairn_body_id ids[2];
    cr_assert_eq(cairn_world_bodies(world, ids, 2), 2);
    cr_expect(cairn_body_is_sensor(world, ids[0]));
    cr_expect_eq(cairn_body_layer(world, ids[0]), 4u);
    cr_expect_eq(cairn_body_mask(world, ids[0]), 6u);
    cr_expect(cairn_body_is_enabled(world, ids[0]));
    cr_expect(!cairn_body_is_sensor(world, ids[1]));
    cr_expect_eq(cairn_body_layer(world, ids[1]), 1u);
    cr_expect_eq(cairn_body_mask(world, ids[1]), 0xffffffffu);
    cr_expect_eq(cairn_body_gravity_scale(world, ids[1]), -0.5f);
    cr_expect_eq(cairn_body_linear_damping(world, ids[1]), 0.75f);
    cr_expect_eq(cairn_body_angular_damping(world, ids[1]), 1.5f);
    cr_expect_eq(cairn_body_linear_damping(world, ids[0]), 0.0f);
    cr_expect(!cairn_body_is_enabled(world, ids[1]));
    cr_expect_eq(cairn_body_locked_rotation(world, ids[1]),
                 CAIRN_LOCK_ROTATION_X | CAIRN_LOCK_ROTATION_Z);
    cr_expect_eq(cairn_body_locked_rotation(world, ids[0]), 0u);
    cr_expect_eq(cairn_body_locked_translation(world, ids[1]), CAIRN_LOCK_TRANSLATION_Y);
    cr_expect_eq(cairn_body_locked_translation(world, ids[0]), 0u);
    cr_expect_eq(cairn_body_rolling_resistance(world, ids[1]), 0.04f);
    cr_expect_eq(cairn_body_rolling_resistance(world, ids[0]), 0.0f);
    cairn_world_destroy(world);
}

static void expect_error(const char *name, int line, int column, const char *message)
{
    char path[512];
    snprintf(path, sizeof path, DATA "%s", name);
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert_not(cairn_scene_load(path, &world, &err), "%s loaded", name);
    cr_expect_null(world);
    cr_expect_str_eq(err.message, message, "%s", name);
    cr_expect_eq(err.line, line, "%s: line %d, expected %d", name, err.line, line);
    cr_expect_eq(err.column, column, "%s: column %d, expected %d", name, err.column, column);
    cr_expect(strstr(err.file, name) != NULL, "error file %s", err.file);
}

Test(scene_body_keys, bad_values_have_positions)
{
    expect_error("scene_bad_mask.yaml", 3, 11,
                 "bodies[0].mask = 0x1ffffffff is outside [0, 0xffffffff]");
    expect_error("scene_bad_layer.yaml", 3, 12,
                 "bodies[0].layer must be a decimal or 0x hexadecimal integer, got '-1'");
    expect_error("scene_bad_gravity_scale.yaml", 3, 20,
                 "bodies[0].gravity_scale = 200 is outside [-100, 100]");
    expect_error("scene_bad_damping.yaml", 4, 21,
                 "bodies[0].linear_damping = -2 is outside [0, 100]");
    expect_error("scene_bad_sensor.yaml", 3, 13,
                 "bodies[0].sensor must be true or false, got 'maybe'");
    expect_error("scene_bad_locked_rotation.yaml", 3, 26,
                 "bodies[0].locked_rotation[1] = 'w' is not one of x | y | z");
    expect_error("scene_twice_locked_rotation.yaml", 3, 26,
                 "bodies[0].locked_rotation[1]: axis y is listed twice");
    expect_error("scene_bad_locked_translation.yaml", 3, 25,
                 "bodies[0].locked_translation must be a sequence, got a scalar");
    expect_error("scene_twice_locked_translation.yaml", 3, 32,
                 "bodies[0].locked_translation[2]: axis z is listed twice");
    expect_error("scene_bad_rolling_resistance.yaml", 3, 37,
                 "bodies[0].material.rolling_resistance = 1.5 is outside [0, 1]");
}
