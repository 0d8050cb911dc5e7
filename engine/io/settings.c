/* Settings files: `world:` and `solver:` mapped field by field onto cairn_world_def through one
   table (name, type, range), and `include:` chains with cycle detection. */
#define _POSIX_C_SOURCE 200809L
#include "settings.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

typedef enum field_type { FIELD_INT, FIELD_FLOAT, FIELD_BOOL, FIELD_VEC3, FIELD_ENUM } field_type;

typedef struct field {
    const char *section; /* "world" or "solver" */
    const char *name;
    field_type type;
    size_t offset; /* in cairn_world_def */
    double low, high;
} field;

#define WORLD(name, type, low, high)                                                               \
    {                                                                                              \
        "world", #name, type, offsetof(cairn_world_def, name), low, high                           \
    }
#define SOLVER(name, type, low, high)                                                              \
    {                                                                                              \
        "solver", #name, type, offsetof(cairn_world_def, solver.name), low, high                   \
    }

/* Ranges as documented in <cairn/world.h>; cairn_world_def_validate cross-checks the result. */
static const field fields[] = {
    WORLD(gravity, FIELD_VEC3, -1000, 1000),
    WORLD(linear_damping, FIELD_FLOAT, 0, 100),
    WORLD(angular_damping, FIELD_FLOAT, 0, 100),
    WORLD(max_linear_speed, FIELD_FLOAT, 0, 1e4),
    WORLD(max_angular_speed, FIELD_FLOAT, 0, 1e4),
    WORLD(hit_event_threshold, FIELD_FLOAT, 0, 1e4),
    SOLVER(velocity_iterations, FIELD_INT, 1, 100),
    SOLVER(position_iterations, FIELD_INT, 0, 100),
    SOLVER(substeps, FIELD_INT, 1, 16),
    SOLVER(baumgarte, FIELD_FLOAT, 0, 1),
    SOLVER(linear_slop, FIELD_FLOAT, 0, 0.1),
    SOLVER(max_linear_correction, FIELD_FLOAT, 0, 10),
    SOLVER(restitution_threshold, FIELD_FLOAT, 0, 100),
    SOLVER(warm_start_factor, FIELD_FLOAT, 0, 1),
    SOLVER(contact_hertz, FIELD_FLOAT, 0, 1000),
    SOLVER(contact_damping_ratio, FIELD_FLOAT, 0, 100),
    SOLVER(max_push_velocity, FIELD_FLOAT, 0, 100),
    SOLVER(speculative_distance, FIELD_FLOAT, 0, 1),
    SOLVER(position_correction, FIELD_ENUM, 0, 2),
    SOLVER(warm_starting, FIELD_BOOL, 0, 1),
    SOLVER(simplex_caching, FIELD_BOOL, 0, 1),
    SOLVER(joint_trees, FIELD_BOOL, 0, 1),
    SOLVER(sleep_linear_velocity, FIELD_FLOAT, 0, 10),
    SOLVER(sleep_angular_velocity, FIELD_FLOAT, 0, 10),
    SOLVER(time_to_sleep, FIELD_FLOAT, 0, 100),
    SOLVER(pair_cache_distance, FIELD_FLOAT, 0, 0.1),
    SOLVER(pair_cache_angle, FIELD_FLOAT, 0, 0.5),
    SOLVER(joint_hertz, FIELD_FLOAT, 0, 1000),
    SOLVER(joint_damping_ratio, FIELD_FLOAT, 0, 100),
};
#define FIELD_COUNT ((int)(sizeof fields / sizeof fields[0]))

/* In the order of CAIRN_BAUMGARTE, CAIRN_SPLIT_IMPULSE, CAIRN_SOFT_STEP. */
static const char *const correction_names[] = {"baumgarte", "split_impulse", "soft_step"};

static bool read_field(const io_reader *reader, const field *f, struct fy_node *value,
                       cairn_world_def *def)
{
    char what[IO_WHAT_CAPACITY];
    io_join(what, sizeof what, f->section, f->name, strlen(f->name));
    char *target = (char *)def + f->offset;
    switch (f->type) {
    case FIELD_INT: {
        int v;
        if (!io_read_int(reader, value, what, (int)f->low, (int)f->high, &v))
            return false;
        memcpy(target, &v, sizeof v);
        return true;
    }
    case FIELD_FLOAT: {
        float v;
        if (!io_read_float(reader, value, what, (float)f->low, (float)f->high, &v))
            return false;
        memcpy(target, &v, sizeof v);
        return true;
    }
    case FIELD_BOOL: {
        bool v;
        if (!io_read_bool(reader, value, what, &v))
            return false;
        memcpy(target, &v, sizeof v);
        return true;
    }
    case FIELD_VEC3: {
        vec3s v;
        if (!io_read_vec3(reader, value, what, (float)f->low, (float)f->high, &v))
            return false;
        memcpy(target, &v, sizeof v);
        return true;
    }
    case FIELD_ENUM: {
        int v;
        if (!io_read_enum(reader, value, what, correction_names, 3, &v))
            return false;
        memcpy(target, &v, sizeof v);
        return true;
    }
    }
    return false;
}

static bool read_section(const io_reader *reader, struct fy_node *mapping, const char *section,
                         cairn_world_def *def)
{
    if (!io_expect_mapping(reader, mapping, section))
        return false;
    const char *names[FIELD_COUNT];
    int count = 0;
    for (int i = 0; i < FIELD_COUNT; ++i)
        if (strcmp(fields[i].section, section) == 0)
            names[count++] = fields[i].name;
    if (!io_check_keys(reader, mapping, section, names, count))
        return false;
    for (int i = 0; i < FIELD_COUNT; ++i) {
        if (strcmp(fields[i].section, section) != 0)
            continue;
        struct fy_node *value = io_lookup(mapping, fields[i].name);
        if (value != NULL && !read_field(reader, &fields[i], value, def))
            return false;
    }
    return true;
}

bool io_resolve_relative(const io_reader *reader, struct fy_node *at, const char *relative,
                         char *out, size_t capacity)
{
    size_t dir_length = 0;
    if (relative[0] != '/') {
        const char *slash = strrchr(reader->path, '/');
        dir_length = slash != NULL ? (size_t)(slash - reader->path) + 1 : 0;
    }
    if (dir_length + strlen(relative) >= capacity)
        return io_fail(reader, at, "path '%s' is too long", relative);
    memcpy(out, reader->path, dir_length);
    snprintf(out + dir_length, capacity - dir_length, "%s", relative);
    return true;
}

static bool apply_file(const char *path, const io_reader *includer, struct fy_node *include_node,
                       io_include_chain *chain, cairn_world_def *def, cairn_io_error *err);

/* Applies the file named by an `include:` value, relative to the including file. */
static bool apply_include(const io_reader *reader, struct fy_node *value, io_include_chain *chain,
                          cairn_world_def *def)
{
    char relative[IO_PATH_CAPACITY];
    if (!io_read_string(reader, value, "include", relative, sizeof relative))
        return false;
    char path[IO_PATH_CAPACITY];
    if (!io_resolve_relative(reader, value, relative, path, sizeof path))
        return false;
    return apply_file(path, reader, value, chain, def, reader->err);
}

bool io_settings_apply_root(const io_reader *reader, struct fy_node *root, io_include_chain *chain,
                            cairn_world_def *def)
{
    struct fy_node *include = io_lookup(root, "include");
    if (include != NULL && !apply_include(reader, include, chain, def))
        return false;
    struct fy_node *world = io_lookup(root, "world");
    if (world != NULL && !read_section(reader, world, "world", def))
        return false;
    struct fy_node *solver = io_lookup(root, "solver");
    if (solver != NULL && !read_section(reader, solver, "solver", def))
        return false;
    return true;
}

static bool push_file(io_include_chain *chain, const char *path, const io_reader *includer,
                      struct fy_node *include_node, cairn_io_error *err)
{
    struct stat info;
    if (stat(path, &info) != 0) {
        if (includer != NULL)
            return io_fail(includer, include_node, "cannot open included file '%s'", path);
        io_copy(err->file, sizeof err->file, path);
        err->line = err->column = 0;
        snprintf(err->message, sizeof err->message, "cannot open file: %s", strerror(errno));
        return false;
    }
    for (int i = 0; i < chain->depth; ++i)
        if (chain->device[i] == info.st_dev && chain->inode[i] == info.st_ino)
            return io_fail(includer, include_node, "include cycle: '%s' is already being loaded",
                           path);
    if (chain->depth == IO_INCLUDE_DEPTH_MAX)
        return io_fail(includer, include_node, "includes are nested deeper than %d files",
                       IO_INCLUDE_DEPTH_MAX);
    chain->device[chain->depth] = info.st_dev;
    chain->inode[chain->depth] = info.st_ino;
    chain->depth++;
    return true;
}

static bool apply_file(const char *path, const io_reader *includer, struct fy_node *include_node,
                       io_include_chain *chain, cairn_world_def *def, cairn_io_error *err)
{
    if (!push_file(chain, path, includer, include_node, err))
        return false;
    io_reader reader;
    bool ok = io_reader_open(&reader, path, err);
    if (ok) {
        struct fy_node *root = io_reader_root(&reader);
        static const char *const keys[] = {"include", "world", "solver"};
        ok = root == NULL || (io_expect_mapping(&reader, root, "a settings file") &&
                              io_check_keys(&reader, root, "a settings file", keys, 3) &&
                              io_settings_apply_root(&reader, root, chain, def));
        io_reader_close(&reader);
    }
    chain->depth--;
    return ok;
}

void io_include_chain_begin(io_include_chain *chain, const char *path)
{
    chain->depth = 0;
    struct stat info;
    if (stat(path, &info) == 0) {
        chain->device[0] = info.st_dev;
        chain->inode[0] = info.st_ino;
        chain->depth = 1;
    }
}

bool io_check_world_def(const io_reader *reader, struct fy_node *at, const cairn_world_def *def)
{
    if (cairn_world_def_validate(def))
        return true;
    return io_fail(reader, at, "%s", cairn_last_error());
}

bool cairn_settings_apply(const char *path, cairn_world_def *def, cairn_io_error *err)
{
    if (path == NULL || def == NULL || err == NULL) {
        if (err != NULL) {
            memset(err, 0, sizeof *err);
            snprintf(err->message, sizeof err->message, "cairn_settings_apply: NULL argument");
        }
        return false;
    }
    memset(err, 0, sizeof *err);
    io_include_chain chain = {.depth = 0};
    cairn_world_def result = *def;
    if (!apply_file(path, NULL, NULL, &chain, &result, err))
        return false;
    if (!cairn_world_def_validate(&result)) {
        io_copy(err->file, sizeof err->file, path);
        err->line = err->column = 0;
        io_copy(err->message, sizeof err->message, cairn_last_error());
        return false;
    }
    *def = result;
    return true;
}

bool cairn_settings_load(const char *path, cairn_world_def *def, cairn_io_error *err)
{
    if (def == NULL)
        return cairn_settings_apply(path, def, err);
    cairn_world_def result = cairn_world_default_def();
    if (!cairn_settings_apply(path, &result, err))
        return false;
    *def = result;
    return true;
}
