/* Scene files: settings (include, world, solver), then `bodies:` in order, then `generators:`,
   then `joints:`, built into a new world. */
#include "scene.h"
#include "settings.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const body_type_names[] = {"static", "kinematic", "dynamic"};

cairn_scene_options cairn_scene_default_options(void)
{
    cairn_scene_options options;
    options.settings_path = NULL;
    options.on_body = NULL;
    options.user = NULL;
    options.world_def = NULL;
    return options;
}

/* The name table grows by doubling; it lives only while the scene loads. */
static bool remember_name(io_scene_builder *builder, struct fy_node *at, const char *name,
                          cairn_body_id id)
{
    if (builder->body_count == builder->name_capacity) {
        int capacity = builder->name_capacity ? 2 * builder->name_capacity : 64;
        io_named_body *names = realloc(builder->names, (size_t)capacity * sizeof *names);
        if (names == NULL)
            return io_fail(builder->reader, at, "out of memory for the body names");
        builder->names = names;
        builder->name_capacity = capacity;
    }
    io_named_body *entry = &builder->names[builder->body_count];
    io_copy(entry->name, sizeof entry->name, name);
    entry->id = id;
    entry->index = builder->body_count;
    builder->names_sorted = false;
    return true;
}

bool io_scene_add_body(io_scene_builder *builder, struct fy_node *at, const char *name,
                       const cairn_body_def *def, cairn_body_id *out)
{
    cairn_body_id id = cairn_body_create(builder->world, def);
    if (id.index == 0 && id.generation == 0)
        return io_fail(builder->reader, at, "body '%s': %s", name, cairn_last_error());
    if (!remember_name(builder, at, name, id))
        return false;
    if (builder->options->on_body != NULL) {
        cairn_scene_body body = {.id = id, .name = name, .def = def, .index = builder->body_count};
        builder->options->on_body(builder->options->user, &body);
    }
    builder->body_count++;
    if (out != NULL)
        *out = id;
    return true;
}

bool io_scene_add_joint(io_scene_builder *builder, struct fy_node *at, const char *what,
                        const cairn_joint_def *def)
{
    cairn_joint_id id = cairn_joint_create(builder->world, def);
    if (id.index == 0 && id.generation == 0)
        return io_fail(builder->reader, at, "%s: %s", what, cairn_last_error());
    builder->joint_count++;
    return true;
}

static int compare_names(const void *a, const void *b)
{
    const io_named_body *x = a, *y = b;
    int order = strcmp(x->name, y->name);
    return order != 0 ? order : (x->index > y->index) - (x->index < y->index);
}

int io_scene_find_body(io_scene_builder *builder, const char *name, cairn_body_id *id)
{
    if (!builder->names_sorted && builder->body_count > 1)
        qsort(builder->names, (size_t)builder->body_count, sizeof *builder->names, compare_names);
    builder->names_sorted = true;
    int low = 0, high = builder->body_count; /* first entry not below name */
    while (low < high) {
        int middle = low + (high - low) / 2;
        if (strcmp(builder->names[middle].name, name) < 0)
            low = middle + 1;
        else
            high = middle;
    }
    int count = 0;
    while (low + count < builder->body_count && strcmp(builder->names[low + count].name, name) == 0)
        count++;
    if (count > 0)
        *id = builder->names[low].id;
    return count;
}

/* Euler angles in degrees: rotate about X, then Y, then Z (world axes). */
versors io_rotation_from_euler_degrees(vec3s degrees)
{
    float to_radians = IO_PI / 180.0f;
    versors qx = glms_quatv(degrees.x * to_radians, (vec3s){{1, 0, 0}});
    versors qy = glms_quatv(degrees.y * to_radians, (vec3s){{0, 1, 0}});
    versors qz = glms_quatv(degrees.z * to_radians, (vec3s){{0, 0, 1}});
    return glms_quat_normalize(glms_quat_mul(qz, glms_quat_mul(qy, qx)));
}

/* locked_rotation and locked_translation: a list of the world axes the body does not turn about
   or move along, [x, z], as bits X 1, Y 2, Z 4; [] frees it. */
static bool read_locked_axes(const io_reader *reader, struct fy_node *node, const char *what,
                             uint32_t *out)
{
    static const char *const axes[] = {"x", "y", "z"};
    if (!io_expect_sequence(reader, node, what))
        return false;
    *out = 0u;
    void *iter = NULL;
    struct fy_node *item;
    for (int index = 0; (item = fy_node_sequence_iterate(node, &iter)) != NULL; ++index) {
        char name[IO_WHAT_CAPACITY + 16];
        snprintf(name, sizeof name, "%s[%d]", what, index);
        int axis;
        if (!io_read_enum(reader, item, name, axes, 3, &axis))
            return false;
        if (*out & (1u << axis))
            return io_fail(reader, item, "%s: axis %s is listed twice", name, axes[axis]);
        *out |= 1u << axis;
    }
    return true;
}

/* Reads everything of a body but its name and shape onto def. */
static bool read_body_fields(const io_reader *reader, struct fy_node *body, const char *what,
                             cairn_body_def *def)
{
    char name[IO_WHAT_CAPACITY];
    struct fy_node *value;
#define FIELD(key)                                                                                 \
    (io_join(name, sizeof name, what, key, strlen(key)), value = io_lookup(body, key))
    if (FIELD("type") != NULL) {
        int type;
        if (!io_read_enum(reader, value, name, body_type_names, 3, &type))
            return false;
        def->type = type == 0 ? CAIRN_STATIC : type == 1 ? CAIRN_KINEMATIC : CAIRN_DYNAMIC;
    }
    if (FIELD("position") != NULL && !io_read_vec3(reader, value, name, -IO_MAX_POSITION,
                                                   IO_MAX_POSITION, &def->transform.position))
        return false;
    struct fy_node *rotation = io_lookup(body, "rotation");
    struct fy_node *euler = io_lookup(body, "euler_degrees");
    if (rotation != NULL && euler != NULL)
        return io_fail(reader, euler, "%s: give rotation or euler_degrees, not both", what);
    if (FIELD("rotation") != NULL && !io_read_quat(reader, value, name, &def->transform.rotation))
        return false;
    if (FIELD("euler_degrees") != NULL) {
        vec3s degrees;
        if (!io_read_vec3(reader, value, name, -3600.0f, 3600.0f, &degrees))
            return false;
        def->transform.rotation = io_rotation_from_euler_degrees(degrees);
    }
    if (FIELD("linear_velocity") != NULL &&
        !io_read_vec3(reader, value, name, -IO_MAX_SPEED, IO_MAX_SPEED, &def->linear_velocity))
        return false;
    if (FIELD("angular_velocity") != NULL &&
        !io_read_vec3(reader, value, name, -IO_MAX_SPEED, IO_MAX_SPEED, &def->angular_velocity))
        return false;
    if (FIELD("density") != NULL &&
        !io_read_float_above(reader, value, name, 0.0f, IO_MAX_DENSITY, &def->density))
        return false;
    if (FIELD("material") != NULL && !io_read_material(reader, value, name, def))
        return false;
    if (FIELD("allow_sleep") != NULL && !io_read_bool(reader, value, name, &def->allow_sleep))
        return false;
    if (FIELD("gravity_scale") != NULL && !io_read_float(reader, value, name, -IO_MAX_GRAVITY_SCALE,
                                                         IO_MAX_GRAVITY_SCALE, &def->gravity_scale))
        return false;
    if (FIELD("linear_damping") != NULL &&
        !io_read_float(reader, value, name, 0.0f, IO_MAX_DAMPING, &def->linear_damping))
        return false;
    if (FIELD("angular_damping") != NULL &&
        !io_read_float(reader, value, name, 0.0f, IO_MAX_DAMPING, &def->angular_damping))
        return false;
    if (FIELD("layer") != NULL && !io_read_bits(reader, value, name, &def->layer))
        return false;
    if (FIELD("mask") != NULL && !io_read_bits(reader, value, name, &def->mask))
        return false;
    if (FIELD("sensor") != NULL && !io_read_bool(reader, value, name, &def->is_sensor))
        return false;
    if (FIELD("enabled") != NULL && !io_read_bool(reader, value, name, &def->enabled))
        return false;
    if (FIELD("locked_rotation") != NULL &&
        !read_locked_axes(reader, value, name, &def->locked_rotation))
        return false;
    if (FIELD("locked_translation") != NULL &&
        !read_locked_axes(reader, value, name, &def->locked_translation))
        return false;
#undef FIELD
    return true;
}

static bool read_body(io_scene_builder *builder, struct fy_node *body, int index)
{
    static const char *const keys[] = {"name",
                                       "type",
                                       "shape",
                                       "position",
                                       "rotation",
                                       "euler_degrees",
                                       "linear_velocity",
                                       "angular_velocity",
                                       "density",
                                       "material",
                                       "allow_sleep",
                                       "gravity_scale",
                                       "linear_damping",
                                       "angular_damping",
                                       "layer",
                                       "mask",
                                       "sensor",
                                       "enabled",
                                       "locked_rotation",
                                       "locked_translation"};
    const io_reader *reader = builder->reader;
    char what[IO_WHAT_CAPACITY];
    snprintf(what, sizeof what, "bodies[%d]", index);
    if (!io_expect_mapping(reader, body, what) ||
        !io_check_keys(reader, body, what, keys, (int)(sizeof keys / sizeof keys[0])))
        return false;
    char name[CAIRN_IO_NAME_CAPACITY];
    snprintf(name, sizeof name, "body_%d", index);
    struct fy_node *name_node = io_lookup(body, "name");
    char field[IO_WHAT_CAPACITY + 8];
    snprintf(field, sizeof field, "%s.name", what);
    if (name_node != NULL && !io_read_string(reader, name_node, field, name, sizeof name))
        return false;
    cairn_body_def def = cairn_body_default_def();
    if (!read_body_fields(reader, body, what, &def))
        return false;
    struct fy_node *shape_node = io_lookup(body, "shape");
    if (shape_node == NULL)
        return io_fail(reader, body, "%s ('%s') needs a shape", what, name);
    snprintf(field, sizeof field, "%s.shape", what);
    cairn_shape *shape = NULL;
    if (!io_read_body_shape(reader, shape_node, field, &def, &shape))
        return false;
    def.shape = shape;
    bool ok = io_scene_add_body(builder, body, name, &def, NULL);
    cairn_shape_release(shape);
    return ok;
}

static bool read_bodies(io_scene_builder *builder, struct fy_node *bodies)
{
    if (!io_expect_sequence(builder->reader, bodies, "bodies"))
        return false;
    void *iter = NULL;
    struct fy_node *body;
    for (int index = 0; (body = fy_node_sequence_iterate(bodies, &iter)) != NULL; ++index)
        if (!read_body(builder, body, index))
            return false;
    return true;
}

/* Settings of the scene (its include, world and solver), then the override file. */
static bool scene_settings(const io_reader *reader, struct fy_node *root,
                           const cairn_scene_options *options, cairn_world_def *def)
{
    io_include_chain chain;
    io_include_chain_begin(&chain, reader->path);
    *def = cairn_world_default_def();
    if (root != NULL && !io_settings_apply_root(reader, root, &chain, def))
        return false;
    if (options->settings_path != NULL)
        return cairn_settings_apply(options->settings_path, def, reader->err);
    return io_check_world_def(reader, root != NULL ? io_lookup(root, "solver") : NULL, def);
}

static bool build_scene(const io_reader *reader, const cairn_scene_options *options,
                        cairn_world **out_world)
{
    static const char *const keys[] = {"include", "world",      "solver",
                                       "bodies",  "generators", "joints"};
    struct fy_node *root = io_reader_root(reader);
    if (root != NULL && (!io_expect_mapping(reader, root, "a scene file") ||
                         !io_check_keys(reader, root, "a scene file", keys, 6)))
        return false;
    cairn_world_def def;
    if (!scene_settings(reader, root, options, &def))
        return false;
    if (options->world_def != NULL)
        *options->world_def = def;
    io_scene_builder builder = {.reader = reader, .options = options};
    builder.world = cairn_world_create(&def);
    if (builder.world == NULL)
        return io_fail(reader, NULL, "cannot create the world: %s", cairn_last_error());
    struct fy_node *bodies = io_lookup(root, "bodies");
    struct fy_node *generators = io_lookup(root, "generators");
    struct fy_node *joints = io_lookup(root, "joints");
    /* Joints name bodies, generated ones included: they come last. */
    bool ok = (bodies == NULL || read_bodies(&builder, bodies)) &&
              (generators == NULL || io_run_generators(&builder, generators)) &&
              (joints == NULL || io_read_joints(&builder, joints));
    free(builder.names);
    if (!ok) {
        cairn_world_destroy(builder.world);
        return false;
    }
    *out_world = builder.world;
    return true;
}

bool cairn_scene_load_ex(const char *path, const cairn_scene_options *options,
                         cairn_world **out_world, cairn_io_error *err)
{
    if (err == NULL)
        return false;
    memset(err, 0, sizeof *err);
    if (out_world != NULL)
        *out_world = NULL;
    if (path == NULL || out_world == NULL) {
        io_copy(err->message, sizeof err->message, "cairn_scene_load: NULL argument");
        return false;
    }
    cairn_scene_options defaults = cairn_scene_default_options();
    io_reader reader;
    if (!io_reader_open(&reader, path, err))
        return false;
    bool ok = build_scene(&reader, options != NULL ? options : &defaults, out_world);
    io_reader_close(&reader);
    return ok;
}

bool cairn_scene_load(const char *path, cairn_world **out_world, cairn_io_error *err)
{
    return cairn_scene_load_ex(path, NULL, out_world, err);
}
