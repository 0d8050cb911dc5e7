/* demos/settings/default.yaml is the documentation of every tunable: it must set every field of
   cairn_world_def to exactly cairn_world_default_def(). Presets and layering load as claimed. */
#include <cairn/io.h>

#include <criterion/criterion.h>
#include <stddef.h>
#include <string.h>

#define SETTINGS CAIRN_SOURCE_DIR "/demos/settings/"
#define DATA     CAIRN_SOURCE_DIR "/tests/io/data/"

/* Every field of cairn_world_def, by name, offset and size. A field added to the struct but not
   here makes the padding count below wrong, so this list cannot silently fall behind either. */
#define FIELD(member)                                                                              \
    {                                                                                              \
#member, offsetof(cairn_world_def, member), sizeof(((cairn_world_def *)0)->member)         \
    }
static const struct {
    const char *name;
    size_t offset, size;
} fields[] = {
    FIELD(gravity),
    FIELD(linear_damping),
    FIELD(angular_damping),
    FIELD(max_linear_speed),
    FIELD(max_angular_speed),
    FIELD(hit_event_threshold),
    FIELD(solver.velocity_iterations),
    FIELD(solver.position_iterations),
    FIELD(solver.substeps),
    FIELD(solver.baumgarte),
    FIELD(solver.linear_slop),
    FIELD(solver.max_linear_correction),
    FIELD(solver.restitution_threshold),
    FIELD(solver.warm_start_factor),
    FIELD(solver.contact_hertz),
    FIELD(solver.contact_damping_ratio),
    FIELD(solver.max_push_velocity),
    FIELD(solver.speculative_distance),
    FIELD(solver.position_correction),
    FIELD(solver.warm_starting),
    FIELD(solver.simplex_caching),
    FIELD(solver.joint_trees),
    FIELD(solver.sleep_linear_velocity),
    FIELD(solver.sleep_angular_velocity),
    FIELD(solver.time_to_sleep),
    FIELD(solver.pair_cache_distance),
    FIELD(solver.pair_cache_angle),
    FIELD(solver.joint_hertz),
    FIELD(solver.joint_damping_ratio),
};
#define FIELD_COUNT (sizeof fields / sizeof fields[0])
/* The def's settings end where its threads begin: worker count and task callbacks belong to the
   program (cairn-run --threads), never to a settings file. */
#define SETTINGS_BYTES offsetof(cairn_world_def, worker_count)

/* A def of garbage settings with valid threads (the file sets no threads; validation checks them).
 */
static void fill_settings(cairn_world_def *def, int pattern)
{
    *def = cairn_world_default_def();
    memset(def, pattern, SETTINGS_BYTES);
}

static bool is_field_byte(size_t byte)
{
    for (size_t i = 0; i < FIELD_COUNT; ++i)
        if (byte >= fields[i].offset && byte < fields[i].offset + fields[i].size)
            return true;
    return false;
}

Test(settings_files, default_yaml_sets_every_field)
{
    /* Apply the file over two different garbage patterns: every byte the file sets is equal
       afterwards; bytes it leaves alone keep their pattern and differ. Only padding may. */
    cairn_world_def a, b;
    fill_settings(&a, 0xA5);
    fill_settings(&b, 0x5A);
    cairn_io_error err;
    cr_assert(cairn_settings_apply(SETTINGS "default.yaml", &a, &err), "%s:%d:%d: %s", err.file,
              err.line, err.column, err.message);
    cr_assert(cairn_settings_apply(SETTINGS "default.yaml", &b, &err), "%s", err.message);
    size_t field_bytes = 0;
    for (size_t i = 0; i < FIELD_COUNT; ++i)
        field_bytes += fields[i].size;
    size_t padding = SETTINGS_BYTES - field_bytes, differing = 0;
    for (size_t byte = 0; byte < SETTINGS_BYTES; ++byte) {
        bool differs = ((unsigned char *)&a)[byte] != ((unsigned char *)&b)[byte];
        differing += differs;
        cr_expect(!(differs && is_field_byte(byte)),
                  "byte %zu of a field is not set by default.yaml", byte);
    }
    cr_expect_eq(differing, padding,
                 "%zu bytes not set by default.yaml, %zu bytes of padding: a cairn_world_def field "
                 "is missing from default.yaml or from this test's list",
                 differing, padding);
}

Test(settings_files, default_yaml_equals_the_defaults_field_by_field)
{
    cairn_world_def expected = cairn_world_default_def();
    cairn_world_def loaded;
    fill_settings(&loaded, 0xA5);
    cairn_io_error err;
    cr_assert(cairn_settings_apply(SETTINGS "default.yaml", &loaded, &err), "%s", err.message);
    for (size_t i = 0; i < FIELD_COUNT; ++i) {
        const unsigned char *x = (const unsigned char *)&expected + fields[i].offset;
        const unsigned char *y = (const unsigned char *)&loaded + fields[i].offset;
        cr_expect(memcmp(x, y, fields[i].size) == 0,
                  "default.yaml and cairn_world_default_def() disagree on %s", fields[i].name);
    }
}

Test(settings_files, settings_load_starts_from_the_defaults)
{
    cairn_world_def def;
    memset(&def, 0xA5, sizeof def);
    cairn_io_error err;
    cr_assert(cairn_settings_load(DATA "preset_base.yaml", &def, &err), "%s", err.message);
    cairn_world_def expected = cairn_world_default_def();
    expected.solver.velocity_iterations = 20;
    cr_expect_eq(def.solver.velocity_iterations, 20);
    cr_expect_eq(def.solver.substeps, expected.solver.substeps);
    cr_expect_eq(def.gravity.y, expected.gravity.y);
    cr_expect_eq(def.solver.position_correction, expected.solver.position_correction);
}

Test(settings_files, include_is_applied_first_then_the_file)
{
    cairn_world_def def;
    cairn_io_error err;
    cr_assert(cairn_settings_load(DATA "preset_layered.yaml", &def, &err), "%s", err.message);
    cr_expect_eq(def.solver.velocity_iterations, 20); /* from the include */
    cr_expect_eq(def.solver.substeps, 2);
    cr_expect_float_eq(def.gravity.y, -1.62f, 1e-6f);
}

Test(settings_files, apply_changes_only_what_the_file_sets)
{
    cairn_world_def def = cairn_world_default_def();
    def.solver.velocity_iterations = 50;
    def.linear_damping = 0.5f;
    cairn_io_error err;
    cr_assert(cairn_settings_apply(SETTINGS "fast.yaml", &def, &err), "%s", err.message);
    /* fast.yaml includes default.yaml, which sets everything */
    cr_expect_eq(def.linear_damping, 0.0f);
    cr_expect_eq(def.solver.velocity_iterations, 4);
    def.linear_damping = 0.5f;
    cr_assert(cairn_settings_apply(DATA "preset_base.yaml", &def, &err), "%s", err.message);
    cr_expect_eq(def.linear_damping, 0.5f);
    cr_expect_eq(def.solver.velocity_iterations, 20);
}

/* dir/name loads into def, which validates (expectations naming the file). False when it did not
   load. */
static bool load_and_validate(const char *dir, const char *name, cairn_world_def *def)
{
    char path[512];
    snprintf(path, sizeof path, "%s%s", dir, name);
    cairn_io_error err;
    bool loaded = cairn_settings_load(path, def, &err);
    cr_expect(loaded, "%s: %s", name, err.message);
    if (loaded)
        cr_expect(cairn_world_def_validate(def), "%s: %s", name, cairn_last_error());
    return loaded;
}

Test(settings_files, presets_load_and_validate)
{
    static const char *const presets[] = {"default.yaml", "fast.yaml", "stable.yaml"};
    for (int i = 0; i < 3; ++i) {
        cairn_world_def def;
        load_and_validate(SETTINGS, presets[i], &def);
    }
    cairn_world_def fast, stable;
    cairn_io_error err;
    cr_assert(cairn_settings_load(SETTINGS "fast.yaml", &fast, &err));
    cr_assert(cairn_settings_load(SETTINGS "stable.yaml", &stable, &err));
    cr_expect_lt(fast.solver.velocity_iterations,
                 cairn_world_default_def().solver.velocity_iterations);
    cr_expect_gt(stable.solver.velocity_iterations,
                 cairn_world_default_def().solver.velocity_iterations);
}

/* The settings files bench/README.md measures with load, validate and say what they promise. */
Test(settings_files, bench_settings_load_and_validate)
{
    static const char *const files[] = {"one_substep_rigid.yaml",
                                        "one_substep_rigid_no_trees.yaml"};
    for (size_t i = 0; i < sizeof files / sizeof *files; ++i) {
        cairn_world_def def;
        cr_assert(load_and_validate(CAIRN_SOURCE_DIR "/bench/settings/", files[i], &def));
        cr_expect_eq(def.solver.substeps, 1, "%s", files[i]);
        cr_expect_eq(def.solver.position_correction, CAIRN_SPLIT_IMPULSE, "%s", files[i]);
        cr_expect_eq(def.solver.joint_trees, i == 0, "%s", files[i]);
    }
}

Test(settings_files, empty_file_is_the_defaults)
{
    cairn_world_def def;
    cairn_io_error err;
    cr_assert(cairn_settings_load(DATA "empty.yaml", &def, &err), "%s", err.message);
    cairn_world_def expected = cairn_world_default_def();
    cr_expect_eq(def.solver.velocity_iterations, expected.solver.velocity_iterations);
}

Test(settings_files, null_arguments_fail_cleanly)
{
    cairn_io_error err;
    cr_expect_not(cairn_settings_load(NULL, NULL, &err));
    cr_expect_not(cairn_settings_apply(SETTINGS "default.yaml", NULL, &err));
}
