/* Shape and material entries of scene files: `{sphere: {radius}}`, `{box: {half_extents,
   convex_radius}}`, capsule, cylinder, hull, `{compound: {children: [{shape, position,
   rotation | euler_degrees}]}}` (meshes and heightfields: surface_shapes.c), and
   `{friction, restitution}`. */
#include "scene.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Hulls read from a file hold at most this many points. */
#define HULL_POINTS_MAX 256
/* Compounds read from a file hold at most this many children. */
#define COMPOUND_CHILDREN_MAX 256

float io_default_convex_radius(float smallest_size)
{
    float fifth = 0.2f * smallest_size;
    return fifth < 0.05f ? fifth : 0.05f;
}

bool io_shape_made(const io_reader *reader, struct fy_node *at, const char *what,
                   cairn_shape *shape, cairn_shape **out)
{
    if (shape == NULL)
        return io_fail(reader, at, "%s: %s", what, cairn_last_error());
    *out = shape;
    return true;
}

static bool read_size(const io_reader *reader, struct fy_node *params, const char *what,
                      const char *key, bool required, float fallback, float *out)
{
    char name[IO_WHAT_CAPACITY];
    io_join(name, sizeof name, what, key, strlen(key));
    struct fy_node *value = io_lookup(params, key);
    if (value == NULL) {
        if (required)
            return io_fail(reader, params, "%s needs %s", what, key);
        *out = fallback;
        return true;
    }
    return io_read_float(reader, value, name, CAIRN_MIN_SIZE, CAIRN_MAX_SIZE, out);
}

static bool read_convex_radius(const io_reader *reader, struct fy_node *params, const char *what,
                               float fallback, float *out)
{
    char name[IO_WHAT_CAPACITY];
    io_join(name, sizeof name, what, "convex_radius", 13);
    struct fy_node *value = io_lookup(params, "convex_radius");
    if (value == NULL) {
        *out = fallback;
        return true;
    }
    return io_read_float(reader, value, name, 0.0f, CAIRN_MAX_SIZE, out);
}

static bool read_sphere(const io_reader *reader, struct fy_node *params, const char *what,
                        cairn_shape **out)
{
    static const char *const keys[] = {"radius"};
    float radius;
    return io_check_keys(reader, params, what, keys, 1) &&
           read_size(reader, params, what, "radius", true, 0.0f, &radius) &&
           io_shape_made(reader, params, what, cairn_shape_sphere(radius), out);
}

static bool read_box(const io_reader *reader, struct fy_node *params, const char *what,
                     cairn_shape **out)
{
    static const char *const keys[] = {"half_extents", "convex_radius"};
    if (!io_check_keys(reader, params, what, keys, 2))
        return false;
    struct fy_node *extents = io_lookup(params, "half_extents");
    if (extents == NULL)
        return io_fail(reader, params, "%s needs half_extents", what);
    char name[IO_WHAT_CAPACITY];
    io_join(name, sizeof name, what, "half_extents", 12);
    vec3s half;
    if (!io_read_vec3(reader, extents, name, CAIRN_MIN_SIZE, CAIRN_MAX_SIZE, &half))
        return false;
    float smallest = glms_vec3_min(half);
    float radius;
    return read_convex_radius(reader, params, what, io_default_convex_radius(smallest), &radius) &&
           io_shape_made(reader, params, what, cairn_shape_box(half, radius), out);
}

static bool read_capsule(const io_reader *reader, struct fy_node *params, const char *what,
                         cairn_shape **out)
{
    static const char *const keys[] = {"half_height", "radius"};
    if (!io_check_keys(reader, params, what, keys, 2))
        return false;
    struct fy_node *value = io_lookup(params, "half_height");
    if (value == NULL)
        return io_fail(reader, params, "%s needs half_height", what);
    char name[IO_WHAT_CAPACITY];
    io_join(name, sizeof name, what, "half_height", 11);
    float half_height, radius;
    return io_read_float(reader, value, name, 0.0f, CAIRN_MAX_SIZE, &half_height) &&
           read_size(reader, params, what, "radius", true, 0.0f, &radius) &&
           io_shape_made(reader, params, what, cairn_shape_capsule(half_height, radius), out);
}

static bool read_cylinder(const io_reader *reader, struct fy_node *params, const char *what,
                          cairn_shape **out)
{
    static const char *const keys[] = {"half_height", "radius", "convex_radius"};
    float half_height, radius, rounding;
    if (!io_check_keys(reader, params, what, keys, 3) ||
        !read_size(reader, params, what, "half_height", true, 0.0f, &half_height) ||
        !read_size(reader, params, what, "radius", true, 0.0f, &radius))
        return false;
    float smallest = half_height < radius ? half_height : radius;
    return read_convex_radius(reader, params, what, io_default_convex_radius(smallest),
                              &rounding) &&
           io_shape_made(reader, params, what, cairn_shape_cylinder(half_height, radius, rounding),
                         out);
}

static bool read_hull(const io_reader *reader, struct fy_node *params, const char *what,
                      cairn_shape **out)
{
    static const char *const keys[] = {"points", "convex_radius"};
    if (!io_check_keys(reader, params, what, keys, 2))
        return false;
    struct fy_node *points = io_lookup(params, "points");
    char name[IO_WHAT_CAPACITY];
    io_join(name, sizeof name, what, "points", 6);
    if (points == NULL)
        return io_fail(reader, params, "%s needs points", what);
    vec3s *buffer;
    int count;
    float radius;
    bool ok = io_read_vec3_list(reader, points, name, "points", 4, HULL_POINTS_MAX, -CAIRN_MAX_SIZE,
                                CAIRN_MAX_SIZE, &buffer, &count) &&
              read_convex_radius(reader, params, what, 0.05f, &radius) &&
              io_shape_made(reader, params, what, cairn_shape_hull(buffer, count, radius), out);
    free(buffer);
    return ok;
}

/* One child: its convex shape and its placement in the compound's frame. */
static bool read_child(const io_reader *reader, struct fy_node *child, const char *what,
                       cairn_shape **shape, cairn_transform *xf)
{
    static const char *const keys[] = {"shape", "position", "rotation", "euler_degrees"};
    if (!io_expect_mapping(reader, child, what) || !io_check_keys(reader, child, what, keys, 4))
        return false;
    char name[IO_WHAT_CAPACITY];
    struct fy_node *value;
#define FIELD(key)                                                                                 \
    (io_join(name, sizeof name, what, key, strlen(key)), value = io_lookup(child, key))
    *xf = cairn_transform_identity();
    if (FIELD("position") != NULL &&
        !io_read_vec3(reader, value, name, -CAIRN_MAX_SIZE, CAIRN_MAX_SIZE, &xf->position))
        return false;
    if (io_lookup(child, "rotation") != NULL && io_lookup(child, "euler_degrees") != NULL)
        return io_fail(reader, io_lookup(child, "euler_degrees"),
                       "%s: give rotation or euler_degrees, not both", what);
    if (FIELD("rotation") != NULL && !io_read_quat(reader, value, name, &xf->rotation))
        return false;
    if (FIELD("euler_degrees") != NULL) {
        vec3s degrees;
        if (!io_read_vec3(reader, value, name, -3600.0f, 3600.0f, &degrees))
            return false;
        xf->rotation = io_rotation_from_euler_degrees(degrees);
    }
    if (FIELD("shape") == NULL)
        return io_fail(reader, child, "%s needs a shape", what);
#undef FIELD
    if (!io_read_shape(reader, value, name, shape))
        return false;
    if (cairn_shape_get_type(*shape) == CAIRN_SHAPE_COMPOUND) {
        cairn_shape_release(*shape);
        return io_fail(reader, value, "%s: a compound cannot be a child of a compound", name);
    }
    return true;
}

static void release_all(cairn_shape **shapes, int count)
{
    for (int i = 0; i < count; ++i)
        cairn_shape_release(shapes[i]);
}

static bool read_compound(const io_reader *reader, struct fy_node *params, const char *what,
                          cairn_shape **out)
{
    static const char *const keys[] = {"children"};
    if (!io_check_keys(reader, params, what, keys, 1))
        return false;
    struct fy_node *children = io_lookup(params, "children");
    char name[IO_WHAT_CAPACITY];
    io_join(name, sizeof name, what, "children", 8);
    if (children == NULL)
        return io_fail(reader, params, "%s needs children", what);
    if (!io_expect_sequence(reader, children, name))
        return false;
    int count = fy_node_sequence_item_count(children);
    if (count < 1 || count > COMPOUND_CHILDREN_MAX)
        return io_fail(reader, children, "%s has %d children, expected 1 to %d", name, count,
                       COMPOUND_CHILDREN_MAX);
    cairn_shape *shapes[COMPOUND_CHILDREN_MAX];
    cairn_transform xfs[COMPOUND_CHILDREN_MAX];
    void *iter = NULL;
    for (int i = 0; i < count; ++i) {
        char item[IO_WHAT_CAPACITY + 16];
        snprintf(item, sizeof item, "%s[%d]", name, i);
        if (!read_child(reader, fy_node_sequence_iterate(children, &iter), item, &shapes[i],
                        &xfs[i])) {
            release_all(shapes, i);
            return false;
        }
    }
    cairn_shape *compound = cairn_shape_compound((const cairn_shape *const *)shapes, xfs, count);
    release_all(shapes, count); /* the compound holds its own references */
    return io_shape_made(reader, params, what, compound, out);
}

bool io_read_shape(const io_reader *reader, struct fy_node *node, const char *what,
                   cairn_shape **out)
{
    cairn_body_def def = cairn_body_default_def();
    return io_read_body_shape(reader, node, what, &def, out);
}

bool io_read_body_shape(const io_reader *reader, struct fy_node *node, const char *what,
                        const cairn_body_def *body, cairn_shape **out)
{
    static const char *const kinds[] = {"sphere", "box",      "capsule", "cylinder",
                                        "hull",   "compound", "mesh",    "heightfield"};
    if (!io_expect_mapping(reader, node, what) || !io_check_keys(reader, node, what, kinds, 8))
        return false;
    if (fy_node_mapping_item_count(node) != 1)
        return io_fail(reader, node,
                       "%s must have exactly one of sphere, box, capsule, cylinder, hull, "
                       "compound, mesh, heightfield",
                       what);
    void *iter = NULL;
    struct fy_node_pair *pair = fy_node_mapping_iterate(node, &iter);
    struct fy_node *key = fy_node_pair_key(pair);
    struct fy_node *params = fy_node_pair_value(pair);
    size_t length;
    const char *kind = io_scalar(key, &length);
    char name[IO_WHAT_CAPACITY];
    io_join(name, sizeof name, what, kind, length);
    if (!io_expect_mapping(reader, params, name))
        return false;
    if (io_scalar_is(key, "sphere"))
        return read_sphere(reader, params, name, out);
    if (io_scalar_is(key, "box"))
        return read_box(reader, params, name, out);
    if (io_scalar_is(key, "capsule"))
        return read_capsule(reader, params, name, out);
    if (io_scalar_is(key, "cylinder"))
        return read_cylinder(reader, params, name, out);
    if (io_scalar_is(key, "compound"))
        return read_compound(reader, params, name, out);
    if (io_scalar_is(key, "mesh")) {
        cairn_surface_material body_material = io_surface_material_of(body);
        return io_read_mesh(reader, params, name, &body_material, out);
    }
    if (io_scalar_is(key, "heightfield"))
        return io_read_heightfield(reader, params, name, out);
    return read_hull(reader, params, name, out);
}

bool io_read_material(const io_reader *reader, struct fy_node *node, const char *what,
                      cairn_body_def *def)
{
    static const char *const keys[] = {"friction", "restitution", "rolling_resistance"};
    if (!io_expect_mapping(reader, node, what) || !io_check_keys(reader, node, what, keys, 3))
        return false;
    char name[IO_WHAT_CAPACITY];
    struct fy_node *friction = io_lookup(node, "friction");
    io_join(name, sizeof name, what, "friction", 8);
    if (friction != NULL &&
        !io_read_float(reader, friction, name, 0.0f, IO_MAX_FRICTION, &def->friction))
        return false;
    struct fy_node *restitution = io_lookup(node, "restitution");
    io_join(name, sizeof name, what, "restitution", 11);
    if (restitution != NULL &&
        !io_read_float(reader, restitution, name, 0.0f, 1.0f, &def->restitution))
        return false;
    struct fy_node *rolling = io_lookup(node, "rolling_resistance");
    io_join(name, sizeof name, what, "rolling_resistance", 18);
    return rolling == NULL ||
           io_read_float(reader, rolling, name, 0.0f, 1.0f, &def->rolling_resistance);
}

bool io_read_surface_material(const io_reader *reader, struct fy_node *node, const char *what,
                              cairn_surface_material *material)
{
    cairn_body_def def = cairn_body_default_def();
    def.friction = material->friction;
    def.restitution = material->restitution;
    def.rolling_resistance = material->rolling_resistance;
    if (!io_read_material(reader, node, what, &def))
        return false;
    *material = io_surface_material_of(&def);
    return true;
}
