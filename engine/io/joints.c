/* The `joints:` section of scene files: each entry names its type and its bodies (by name,
   generated bodies included), and every value is checked here, where its position is known,
   before cairn_joint_create sees it. */
#include "scene.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const type_names[] = {"ball",     "hinge",       "slider", "fixed",
                                         "distance", "swing_twist", "wheel"};
#define TYPE_COUNT 7

static const char *const joint_keys[] = {
    "name", "type",    "body_a", "body_b",     "anchor", "anchor_a",    "anchor_b",
    "axis", "limits",  "motor",  "cone_angle", "spring", "break_force", "collide_connected",
    "axle", "steering"};
#define JOINT_KEY_COUNT 16

/* The optional parts each type has; a key for a part the type lacks is an error, never
   ignored. */
enum {
    USES_AXIS = 1,
    USES_LIMITS = 2,
    USES_CONE = 4,
    USES_MOTOR = 8,
    USES_SPRING = 16,
    USES_TWO_ANCHORS = 32,
    USES_AXLE = 64 /* axle and steering */
};
static const unsigned type_uses[TYPE_COUNT] = {
    [CAIRN_JOINT_BALL] = 0,
    [CAIRN_JOINT_HINGE] = USES_AXIS | USES_LIMITS | USES_MOTOR | USES_SPRING,
    [CAIRN_JOINT_SLIDER] = USES_AXIS | USES_LIMITS | USES_MOTOR | USES_SPRING,
    [CAIRN_JOINT_FIXED] = 0,
    [CAIRN_JOINT_DISTANCE] = USES_LIMITS | USES_SPRING | USES_TWO_ANCHORS,
    [CAIRN_JOINT_SWING_TWIST] = USES_AXIS | USES_LIMITS | USES_CONE | USES_MOTOR,
    [CAIRN_JOINT_WHEEL] = USES_AXIS | USES_LIMITS | USES_MOTOR | USES_SPRING | USES_AXLE,
};

/* One joint entry being read: its node, its dotted name and its type. */
typedef struct joint_entry {
    io_scene_builder *builder;
    const io_reader *reader;
    struct fy_node *node;
    char what[IO_WHAT_CAPACITY + CAIRN_IO_NAME_CAPACITY + 8]; /* "joints[3] ('door')" */
    char field[IO_WHAT_CAPACITY]; /* "joints[3]", the prefix of field names */
    int type;
} joint_entry;

/* The key node of key in the mapping (errors about a key point at the key itself). */
static struct fy_node *key_node(struct fy_node *mapping, const char *key)
{
    void *iter = NULL;
    struct fy_node_pair *pair;
    while ((pair = fy_node_mapping_iterate(mapping, &iter)) != NULL)
        if (io_scalar_is(fy_node_pair_key(pair), key))
            return fy_node_pair_key(pair);
    return NULL;
}

/* The value of key and its dotted name in name; NULL when absent. */
static struct fy_node *field(const joint_entry *e, const char *key, char *name, size_t capacity)
{
    io_join(name, capacity, e->field, key, strlen(key));
    return io_lookup(e->node, key);
}

static bool check_type_keys(const joint_entry *e)
{
    static const struct {
        const char *key;
        unsigned part;
    } parts[] = {{"axis", USES_AXIS},    {"limits", USES_LIMITS}, {"cone_angle", USES_CONE},
                 {"motor", USES_MOTOR},  {"spring", USES_SPRING}, {"axle", USES_AXLE},
                 {"steering", USES_AXLE}};
    const char *type = type_names[e->type];
    unsigned uses = type_uses[e->type];
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; ++i) {
        struct fy_node *key = key_node(e->node, parts[i].key);
        if (key != NULL && !(uses & parts[i].part))
            return io_fail(e->reader, key, "%s: a %s joint has no %s", e->what, type, parts[i].key);
    }
    struct fy_node *one = key_node(e->node, "anchor");
    struct fy_node *two = key_node(e->node, "anchor_a");
    if (two == NULL)
        two = key_node(e->node, "anchor_b");
    if ((uses & USES_TWO_ANCHORS) && one != NULL)
        return io_fail(e->reader, one, "%s: a %s joint takes anchor_a and anchor_b, not anchor",
                       e->what, type);
    if (!(uses & USES_TWO_ANCHORS) && two != NULL)
        return io_fail(e->reader, two, "%s: a %s joint takes anchor, not anchor_a and anchor_b",
                       e->what, type);
    return true;
}

/* A required key's value, or an error at the entry. */
static struct fy_node *required(const joint_entry *e, const char *key, char *name, size_t capacity)
{
    struct fy_node *value = field(e, key, name, capacity);
    if (value == NULL)
        io_fail(e->reader, e->node, "%s (%s) needs %s", e->what, type_names[e->type], key);
    return value;
}

/* body_a (optional: the world) and body_b, by name. */
static bool read_body(const joint_entry *e, const char *key, cairn_body_id *out, char *body_name,
                      size_t capacity)
{
    char name[IO_WHAT_CAPACITY];
    struct fy_node *value = field(e, key, name, sizeof name);
    if (!io_read_string(e->reader, value, name, body_name, capacity))
        return false;
    int matches = io_scene_find_body(e->builder, body_name, out);
    if (matches == 0)
        return io_fail(e->reader, value, "%s: no body is named '%s'", name, body_name);
    if (matches > 1)
        return io_fail(e->reader, value, "%s: %d bodies are named '%s'; a joint needs one", name,
                       matches, body_name);
    return true;
}

static bool read_bodies(const joint_entry *e, cairn_joint_def *def)
{
    char name[IO_WHAT_CAPACITY];
    char a[CAIRN_IO_NAME_CAPACITY] = "", b[CAIRN_IO_NAME_CAPACITY];
    if (required(e, "body_b", name, sizeof name) == NULL)
        return false;
    if (io_lookup(e->node, "body_a") != NULL && !read_body(e, "body_a", &def->body_a, a, sizeof a))
        return false;
    if (!read_body(e, "body_b", &def->body_b, b, sizeof b))
        return false;
    if (strcmp(a, b) == 0)
        return io_fail(e->reader, io_lookup(e->node, "body_b"),
                       "%s: body_a and body_b are both '%s'; a joint needs two bodies", e->what, b);
    return true;
}

static bool read_point(const joint_entry *e, const char *key, vec3s *out)
{
    char name[IO_WHAT_CAPACITY];
    struct fy_node *value = required(e, key, name, sizeof name);
    return value != NULL &&
           io_read_vec3(e->reader, value, name, -IO_MAX_POSITION, IO_MAX_POSITION, out);
}

static bool read_anchors(const joint_entry *e, cairn_joint_def *def)
{
    if (type_uses[e->type] & USES_TWO_ANCHORS)
        return read_point(e, "anchor_a", &def->anchor_a) &&
               read_point(e, "anchor_b", &def->anchor_b);
    if (!read_point(e, "anchor", &def->anchor_a))
        return false;
    def->anchor_b = def->anchor_a;
    return true;
}

/* A required direction (key) of any length the engine can normalise; noun names it in the
   error ("an axis"). */
static bool read_direction(const joint_entry *e, const char *key, const char *noun, vec3s *out)
{
    char name[IO_WHAT_CAPACITY];
    struct fy_node *value = required(e, key, name, sizeof name);
    if (value == NULL ||
        !io_read_vec3(e->reader, value, name, -IO_MAX_POSITION, IO_MAX_POSITION, out))
        return false;
    /* the engine's own threshold: shorter vectors have no reliable direction */
    if (!(glms_vec3_norm(*out) > 1e-6f))
        return io_fail(e->reader, value, "%s is zero: %s needs a direction", name, noun);
    return true;
}

/* A wheel's axle (required) and steering (optional, rad in [-pi/2, pi/2]). */
static bool read_axle(const joint_entry *e, cairn_joint_def *def)
{
    char name[IO_WHAT_CAPACITY];
    struct fy_node *value;
    if (!read_direction(e, "axle", "an axle", &def->axle))
        return false;
    if ((value = field(e, "steering", name, sizeof name)) != NULL &&
        !io_read_float(e->reader, value, name, -0.5f * IO_PI, 0.5f * IO_PI, &def->steering))
        return false;
    return true;
}

/* Angles (hinge, twist) in [-pi, pi]; distance lengths >= 0; slider offsets any sign. */
static bool read_limits(const joint_entry *e, struct fy_node *value, cairn_joint_def *def)
{
    char name[IO_WHAT_CAPACITY];
    field(e, "limits", name, sizeof name);
    bool angular = e->type == CAIRN_JOINT_HINGE || e->type == CAIRN_JOINT_SWING_TWIST;
    float low = angular ? -IO_PI : e->type == CAIRN_JOINT_DISTANCE ? 0.0f : -IO_MAX_POSITION;
    float high = angular ? IO_PI : IO_MAX_POSITION;
    float limits[2];
    if (!io_read_floats(e->reader, value, name, 2, low, high, limits))
        return false;
    if (limits[0] > limits[1])
        return io_fail(e->reader, value, "%s: lower %g is above upper %g", name, (double)limits[0],
                       (double)limits[1]);
    def->enable_limit = true;
    def->lower = limits[0];
    def->upper = limits[1];
    return true;
}

static bool read_cone(const joint_entry *e, struct fy_node *value, cairn_joint_def *def)
{
    char name[IO_WHAT_CAPACITY];
    field(e, "cone_angle", name, sizeof name);
    if (!io_read_float(e->reader, value, name, -IO_MAX_POSITION, IO_MAX_POSITION, &def->cone_angle))
        return false;
    if (!(def->cone_angle > 0.0f && def->cone_angle < IO_PI))
        return io_fail(e->reader, value, "%s = %g is outside (0, pi) rad", name,
                       (double)def->cone_angle);
    return true;
}

/* `{speed, max_force}`; a swing-twist motor is joint friction, so its speed is 0. */
static bool read_motor(const joint_entry *e, struct fy_node *value, cairn_joint_def *def)
{
    static const char *const keys[] = {"speed", "max_force"};
    char name[IO_WHAT_CAPACITY], part[IO_WHAT_CAPACITY];
    field(e, "motor", name, sizeof name);
    if (!io_expect_mapping(e->reader, value, name) ||
        !io_check_keys(e->reader, value, name, keys, 2))
        return false;
    struct fy_node *speed = io_lookup(value, "speed");
    struct fy_node *force = io_lookup(value, "max_force");
    if (force == NULL)
        return io_fail(e->reader, value, "%s needs max_force", name);
    io_join(part, sizeof part, name, "speed", 5);
    if (speed != NULL &&
        !io_read_float(e->reader, speed, part, -IO_MAX_SPEED, IO_MAX_SPEED, &def->motor_speed))
        return false;
    if (e->type == CAIRN_JOINT_SWING_TWIST && def->motor_speed != 0.0f)
        return io_fail(e->reader, speed,
                       "%s must be 0: a swing_twist motor is joint friction (it brakes)", part);
    io_join(part, sizeof part, name, "max_force", 9);
    if (!io_read_float(e->reader, force, part, 0.0f, IO_MAX_FORCE, &def->max_motor_force))
        return false;
    def->enable_motor = true;
    return true;
}

/* `{hertz, damping_ratio, target}`; a distance spring's target defaults to the length at
   creation, the others' to 0. */
static bool read_spring(const joint_entry *e, struct fy_node *value, cairn_joint_def *def)
{
    static const char *const keys[] = {"hertz", "damping_ratio", "target"};
    char name[IO_WHAT_CAPACITY], part[IO_WHAT_CAPACITY];
    field(e, "spring", name, sizeof name);
    if (!io_expect_mapping(e->reader, value, name) ||
        !io_check_keys(e->reader, value, name, keys, 3))
        return false;
    struct fy_node *hertz = io_lookup(value, "hertz");
    struct fy_node *damping = io_lookup(value, "damping_ratio");
    struct fy_node *target = io_lookup(value, "target");
    if (hertz == NULL)
        return io_fail(e->reader, value, "%s needs hertz", name);
    io_join(part, sizeof part, name, "hertz", 5);
    if (!io_read_float_above(e->reader, hertz, part, 0.0f, IO_MAX_HERTZ, &def->spring_hertz))
        return false;
    io_join(part, sizeof part, name, "damping_ratio", 13);
    if (damping != NULL &&
        !io_read_float(e->reader, damping, part, 0.0f, 1000.0f, &def->spring_damping_ratio))
        return false;
    def->spring_target =
        e->type == CAIRN_JOINT_DISTANCE ? glms_vec3_distance(def->anchor_a, def->anchor_b) : 0.0f;
    io_join(part, sizeof part, name, "target", 6);
    if (target != NULL && !io_read_float(e->reader, target, part, -IO_MAX_POSITION, IO_MAX_POSITION,
                                         &def->spring_target))
        return false;
    def->enable_spring = true;
    return true;
}

/* Everything after type, bodies and anchors; each part present only where the type has it. */
static bool read_parts(const joint_entry *e, cairn_joint_def *def)
{
    char name[IO_WHAT_CAPACITY];
    struct fy_node *value;
    unsigned uses = type_uses[e->type];
    if ((uses & USES_AXIS) && !read_direction(e, "axis", "an axis", &def->axis))
        return false;
    if ((uses & USES_AXLE) && !read_axle(e, def))
        return false;
    if ((value = field(e, "limits", name, sizeof name)) != NULL && !read_limits(e, value, def))
        return false;
    if ((value = field(e, "cone_angle", name, sizeof name)) != NULL && !read_cone(e, value, def))
        return false;
    if ((value = field(e, "motor", name, sizeof name)) != NULL && !read_motor(e, value, def))
        return false;
    if ((value = field(e, "spring", name, sizeof name)) != NULL && !read_spring(e, value, def))
        return false;
    if ((value = field(e, "break_force", name, sizeof name)) != NULL &&
        !io_read_float(e->reader, value, name, 0.0f, IO_MAX_FORCE, &def->break_force))
        return false;
    if ((value = field(e, "collide_connected", name, sizeof name)) != NULL &&
        !io_read_bool(e->reader, value, name, &def->collide_connected))
        return false;
    return true;
}

static bool read_joint(io_scene_builder *builder, struct fy_node *node, int index)
{
    joint_entry e = {.builder = builder, .reader = builder->reader, .node = node};
    snprintf(e.field, sizeof e.field, "joints[%d]", index);
    io_copy(e.what, sizeof e.what, e.field);
    if (!io_expect_mapping(e.reader, node, e.field) ||
        !io_check_keys(e.reader, node, e.field, joint_keys, JOINT_KEY_COUNT))
        return false;
    char name[IO_WHAT_CAPACITY], joint_name[CAIRN_IO_NAME_CAPACITY];
    struct fy_node *value = field(&e, "name", name, sizeof name);
    if (value != NULL) {
        if (!io_read_string(e.reader, value, name, joint_name, sizeof joint_name))
            return false;
        snprintf(e.what, sizeof e.what, "%s ('%s')", e.field, joint_name);
    }
    value = field(&e, "type", name, sizeof name);
    if (value == NULL)
        return io_fail(e.reader, node, "%s needs a type (%s)", e.what,
                       "ball | hinge | slider | fixed | distance | swing_twist");
    if (!io_read_enum(e.reader, value, name, type_names, TYPE_COUNT, &e.type))
        return false;
    cairn_joint_def def = cairn_joint_default_def((cairn_joint_type)e.type);
    if (!check_type_keys(&e) || !read_bodies(&e, &def) || !read_anchors(&e, &def) ||
        !read_parts(&e, &def))
        return false;
    return io_scene_add_joint(builder, node, e.what, &def);
}

bool io_read_joints(io_scene_builder *builder, struct fy_node *sequence)
{
    if (!io_expect_sequence(builder->reader, sequence, "joints"))
        return false;
    void *iter = NULL;
    struct fy_node *item;
    for (int index = 0; (item = fy_node_sequence_iterate(sequence, &iter)) != NULL; ++index)
        if (!read_joint(builder, item, index))
            return false;
    return true;
}
