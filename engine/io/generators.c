/* The `generators:` sequence: dispatch by name, the options every generator shares, naming
   `<generator>_<n>`, and the parameter readers with defaults. */
#include "generators.h"

#include <stdio.h>
#include <string.h>

typedef struct generator_entry {
    const char *name;
    io_generator_kind kind;
    bool (*run)(io_gen *gen);
} generator_entry;

static const generator_entry generators[] = {
    {"pyramid", IO_GEN_PYRAMID, io_gen_pyramid},
    {"wall", IO_GEN_WALL, io_gen_wall},
    {"stack", IO_GEN_STACK, io_gen_stack},
    {"tower", IO_GEN_TOWER, io_gen_tower},
    {"grid", IO_GEN_GRID, io_gen_grid},
    {"rain", IO_GEN_RAIN, io_gen_grid},
    {"dominoes", IO_GEN_DOMINOES, io_gen_dominoes},
    {"ramp", IO_GEN_RAMP, io_gen_ramp},
    {"card_house", IO_GEN_CARD_HOUSE, io_gen_card_house},
    {"stairs", IO_GEN_STAIRS, io_gen_stairs},
    {"chain", IO_GEN_CHAIN, io_gen_chain},
    {"rope_bridge", IO_GEN_ROPE_BRIDGE, io_gen_rope_bridge},
    {"ragdoll", IO_GEN_RAGDOLL, io_gen_ragdoll},
    {"newtons_cradle", IO_GEN_NEWTONS_CRADLE, io_gen_newtons_cradle},
    {"car", IO_GEN_CAR, io_gen_car},
    {"terrain", IO_GEN_TERRAIN, io_gen_terrain},
};
#define GENERATOR_COUNT ((int)(sizeof generators / sizeof generators[0]))

static const char *const common_keys[] = {"origin", "density", "material", "allow_sleep"};
#define COMMON_COUNT 4

versors io_rotation(vec3s axis, float angle)
{
    return glms_quatv(angle, axis);
}

bool io_gen_emit(io_gen *gen, const cairn_shape *shape, vec3s position, versors rotation)
{
    return io_gen_emit_id(gen, shape, position, rotation, NULL);
}

bool io_gen_emit_id(io_gen *gen, const cairn_shape *shape, vec3s position, versors rotation,
                    cairn_body_id *out)
{
    if (gen->builder->body_count >= IO_MAX_BODIES)
        return io_fail(gen->reader, gen->params, "%s: the scene would have more than %d bodies",
                       gen->what, IO_MAX_BODIES);
    char name[CAIRN_IO_NAME_CAPACITY];
    snprintf(name, sizeof name, "%s_%d", gen->kind_name, gen->builder->generated[gen->kind]);
    gen->builder->generated[gen->kind]++;
    cairn_body_def def = gen->body;
    def.shape = shape;
    def.transform.position = glms_vec3_add(gen->origin, position);
    def.transform.rotation = rotation;
    return io_scene_add_body(gen->builder, gen->params, name, &def, out);
}

bool io_gen_joint(io_gen *gen, const cairn_joint_def *def)
{
    cairn_joint_def placed = *def;
    placed.anchor_a = glms_vec3_add(gen->origin, def->anchor_a);
    placed.anchor_b = glms_vec3_add(gen->origin, def->anchor_b);
    return io_scene_add_joint(gen->builder, gen->params, gen->what, &placed);
}

bool io_gen_has(io_gen *gen, const char *key)
{
    return io_lookup(gen->params, key) != NULL;
}

bool io_gen_check_keys(io_gen *gen, const char *const *keys, int count)
{
    const char *all[32];
    int total = 0;
    for (int i = 0; i < count && total < 32; ++i)
        all[total++] = keys[i];
    for (int i = 0; i < COMMON_COUNT && total < 32; ++i)
        all[total++] = common_keys[i];
    return io_check_keys(gen->reader, gen->params, gen->what, all, total);
}

/* The parameter's node and its dotted name; NULL when absent. */
static struct fy_node *param(io_gen *gen, const char *key, char *name, size_t capacity)
{
    io_join(name, capacity, gen->what, key, strlen(key));
    return io_lookup(gen->params, key);
}

bool io_gen_int(io_gen *gen, const char *key, int low, int high, int fallback, int *out)
{
    char name[IO_WHAT_CAPACITY + 32];
    struct fy_node *value = param(gen, key, name, sizeof name);
    *out = fallback;
    return value == NULL || io_read_int(gen->reader, value, name, low, high, out);
}

bool io_gen_float(io_gen *gen, const char *key, float low, float high, float fallback, float *out)
{
    char name[IO_WHAT_CAPACITY + 32];
    struct fy_node *value = param(gen, key, name, sizeof name);
    *out = fallback;
    return value == NULL || io_read_float(gen->reader, value, name, low, high, out);
}

bool io_gen_vec3(io_gen *gen, const char *key, float low, float high, vec3s fallback, vec3s *out)
{
    char name[IO_WHAT_CAPACITY + 32];
    struct fy_node *value = param(gen, key, name, sizeof name);
    *out = fallback;
    return value == NULL || io_read_vec3(gen->reader, value, name, low, high, out);
}

bool io_gen_bool(io_gen *gen, const char *key, bool fallback, bool *out)
{
    char name[IO_WHAT_CAPACITY + 32];
    struct fy_node *value = param(gen, key, name, sizeof name);
    *out = fallback;
    return value == NULL || io_read_bool(gen->reader, value, name, out);
}

bool io_gen_enum(io_gen *gen, const char *key, const char *const *names, int count, int fallback,
                 int *out)
{
    char name[IO_WHAT_CAPACITY + 32];
    struct fy_node *value = param(gen, key, name, sizeof name);
    *out = fallback;
    return value == NULL || io_read_enum(gen->reader, value, name, names, count, out);
}

bool io_gen_shape(io_gen *gen, const char *key, cairn_shape *(*fallback)(void), cairn_shape **out)
{
    char name[IO_WHAT_CAPACITY + 32];
    struct fy_node *value = param(gen, key, name, sizeof name);
    if (value != NULL)
        return io_read_shape(gen->reader, value, name, out);
    return io_shape_made(gen->reader, gen->params, name, fallback(), out);
}

bool io_gen_box(io_gen *gen, vec3s half_extents, cairn_shape **out)
{
    float rounding = io_default_convex_radius(glms_vec3_min(half_extents));
    return io_shape_made(gen->reader, gen->params, gen->what,
                         cairn_shape_box(half_extents, rounding), out);
}

static bool read_common(io_gen *gen)
{
    char name[IO_WHAT_CAPACITY + 32];
    struct fy_node *value;
    gen->body = cairn_body_default_def();
    if (!io_gen_vec3(gen, "origin", -IO_MAX_POSITION, IO_MAX_POSITION, glms_vec3_zero(),
                     &gen->origin))
        return false;
    if ((value = param(gen, "density", name, sizeof name)) != NULL &&
        !io_read_float_above(gen->reader, value, name, 0.0f, IO_MAX_DENSITY, &gen->body.density))
        return false;
    if ((value = param(gen, "material", name, sizeof name)) != NULL &&
        !io_read_material(gen->reader, value, name, &gen->body))
        return false;
    return io_gen_bool(gen, "allow_sleep", true, &gen->body.allow_sleep);
}

static bool run_generator(io_scene_builder *builder, struct fy_node *item, int index)
{
    const io_reader *reader = builder->reader;
    char what[32];
    snprintf(what, sizeof what, "generators[%d]", index);
    if (!io_expect_mapping(reader, item, what))
        return false;
    const char *names[GENERATOR_COUNT];
    for (int i = 0; i < GENERATOR_COUNT; ++i)
        names[i] = generators[i].name;
    if (!io_check_keys(reader, item, what, names, GENERATOR_COUNT))
        return false;
    if (fy_node_mapping_item_count(item) != 1)
        return io_fail(reader, item, "%s must name exactly one generator", what);
    void *iter = NULL;
    struct fy_node_pair *pair = fy_node_mapping_iterate(item, &iter);
    const generator_entry *entry = NULL;
    for (int i = 0; i < GENERATOR_COUNT && entry == NULL; ++i)
        if (io_scalar_is(fy_node_pair_key(pair), generators[i].name))
            entry = &generators[i];
    io_gen gen = {.builder = builder,
                  .reader = reader,
                  .params = fy_node_pair_value(pair),
                  .kind = entry->kind,
                  .kind_name = entry->name};
    io_join(gen.what, sizeof gen.what, what, entry->name, strlen(entry->name));
    if (!io_expect_mapping(reader, gen.params, gen.what) || !read_common(&gen))
        return false;
    return entry->run(&gen);
}

bool io_run_generators(io_scene_builder *builder, struct fy_node *sequence)
{
    if (!io_expect_sequence(builder->reader, sequence, "generators"))
        return false;
    void *iter = NULL;
    struct fy_node *item;
    for (int index = 0; (item = fy_node_sequence_iterate(sequence, &iter)) != NULL; ++index)
        if (!run_generator(builder, item, index))
            return false;
    return true;
}
