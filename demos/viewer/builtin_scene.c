/* The built-in stacking world, used when no scene file is available: a floor, a 10-box stack, a
   4-level box pyramid, and a sphere, capsule, cylinder and hull dropped beside them. */
#include "scene.h"

#include <math.h>
#include <stdio.h>

typedef struct shape_row {
    cairn_shape_type type;
    /* box: half extents; sphere: radius; capsule, cylinder: half height, radius;
       hull: radii of the ellipsoid its points lie on */
    float size[3];
    float convex_radius;
} shape_row;

typedef enum placement { PLACE_ONE, PLACE_STACK, PLACE_PYRAMID } placement;

typedef struct item_row {
    placement how;
    int shape;
    float position[3]; /* PLACE_ONE: the centre; stack/pyramid: centre of the bottom row */
    int count;         /* stack: boxes; pyramid: levels */
    float tilt;        /* radians about the (1, 0, 1) axis, so dropped shapes tumble */
    cairn_body_type type;
} item_row;

enum { FLOOR, BOX, SPHERE, CAPSULE, CYLINDER, HULL, SHAPE_ROWS };

static const shape_row shape_rows[SHAPE_ROWS] = {
    [FLOOR] = {CAIRN_SHAPE_BOX, {50.0f, 1.0f, 50.0f}, 0.0f},
    [BOX] = {CAIRN_SHAPE_BOX, {0.5f, 0.5f, 0.5f}, 0.05f},
    [SPHERE] = {CAIRN_SHAPE_SPHERE, {0.5f}, 0.0f},
    [CAPSULE] = {CAIRN_SHAPE_CAPSULE, {0.5f, 0.4f}, 0.0f},
    [CYLINDER] = {CAIRN_SHAPE_CYLINDER, {0.5f, 0.5f}, 0.05f},
    [HULL] = {CAIRN_SHAPE_HULL, {0.7f, 0.5f, 0.6f}, 0.02f},
};

static const item_row item_rows[] = {
    {PLACE_ONE, FLOOR, {0.0f, -1.0f, 0.0f}, 1, 0.0f, CAIRN_STATIC},
    {PLACE_STACK, BOX, {0.0f, 0.5f, 0.0f}, 10, 0.0f, CAIRN_DYNAMIC},
    {PLACE_PYRAMID, BOX, {4.0f, 0.5f, 0.0f}, 4, 0.0f, CAIRN_DYNAMIC},
    {PLACE_ONE, SPHERE, {-3.0f, 3.0f, 4.0f}, 1, 0.0f, CAIRN_DYNAMIC},
    {PLACE_ONE, CAPSULE, {-1.0f, 3.5f, 4.0f}, 1, 0.6f, CAIRN_DYNAMIC},
    {PLACE_ONE, CYLINDER, {1.0f, 4.0f, 4.0f}, 1, 0.4f, CAIRN_DYNAMIC},
    {PLACE_ONE, HULL, {3.0f, 3.0f, 4.0f}, 1, 0.3f, CAIRN_DYNAMIC},
};

#define HULL_POINTS 24
#define PYRAMID_GAP 0.1f /* metres between neighbouring boxes of a pyramid row */

/* A small integer hash: fixed, irregular-looking offsets without a random generator's state. */
static float jitter(unsigned i)
{
    i = (i ^ 61u) ^ (i >> 16);
    i *= 9u;
    i ^= i >> 4;
    i *= 0x27d4eb2du;
    i ^= i >> 15;
    return (float)(i & 0xffffu) / 65535.0f - 0.5f;
}

/* Points spread over an ellipsoid by the golden-angle spiral, perturbed so the hull is not
   symmetric. */
static cairn_shape *make_hull(const shape_row *row)
{
    vec3s points[HULL_POINTS];
    for (int i = 0; i < HULL_POINTS; ++i) {
        float y = 1.0f - 2.0f * ((float)i + 0.5f + 0.4f * jitter((unsigned)i)) / HULL_POINTS;
        float r = sqrtf(fmaxf(0.0f, 1.0f - y * y));
        float phi = (float)i * 2.39996f + 0.8f * jitter((unsigned)i + 100u);
        points[i] =
            (vec3s){{row->size[0] * r * cosf(phi), row->size[1] * y, row->size[2] * r * sinf(phi)}};
    }
    return cairn_shape_hull(points, HULL_POINTS, row->convex_radius);
}

static cairn_shape *make_shape(const shape_row *row)
{
    switch (row->type) {
    case CAIRN_SHAPE_SPHERE:
        return cairn_shape_sphere(row->size[0]);
    case CAIRN_SHAPE_BOX:
        return cairn_shape_box((vec3s){{row->size[0], row->size[1], row->size[2]}},
                               row->convex_radius);
    case CAIRN_SHAPE_CAPSULE:
        return cairn_shape_capsule(row->size[0], row->size[1]);
    case CAIRN_SHAPE_CYLINDER:
        return cairn_shape_cylinder(row->size[0], row->size[1], row->convex_radius);
    case CAIRN_SHAPE_HULL:
        return make_hull(row);
    case CAIRN_SHAPE_COMPOUND:
    case CAIRN_SHAPE_MESH:
    case CAIRN_SHAPE_HEIGHTFIELD:
        break; /* the built-in scene has no compounds and no static geometry */
    }
    return NULL;
}

static bool add_body(cairn_world *world, const item_row *item, cairn_shape *shape, vec3s position)
{
    cairn_body_def def = cairn_body_default_def();
    def.type = item->type;
    def.shape = shape;
    def.transform.position = position;
    vec3s axis = glms_vec3_normalize((vec3s){{1.0f, 0.0f, 1.0f}});
    def.transform.rotation = glms_quatv(item->tilt, axis);
    return cairn_body_is_valid(world, cairn_body_create(world, &def));
}

static bool place_item(cairn_world *world, const item_row *item, cairn_shape *shape)
{
    vec3s origin = {{item->position[0], item->position[1], item->position[2]}};
    const float *half = shape_rows[item->shape].size;
    bool ok = true;
    if (item->how == PLACE_ONE) {
        ok = add_body(world, item, shape, origin);
    } else if (item->how == PLACE_STACK) {
        for (int i = 0; i < item->count && ok; ++i) {
            vec3s up = {{0.0f, 2.0f * half[1] * (float)i, 0.0f}};
            ok = add_body(world, item, shape, glms_vec3_add(origin, up));
        }
    } else {
        float step = 2.0f * half[0] + PYRAMID_GAP;
        for (int level = 0; level < item->count && ok; ++level) {
            int row = item->count - level;
            for (int i = 0; i < row && ok; ++i) {
                float x = ((float)i - 0.5f * (float)(row - 1)) * step;
                vec3s offset = {{x, 2.0f * half[1] * (float)level, 0.0f}};
                ok = add_body(world, item, shape, glms_vec3_add(origin, offset));
            }
        }
    }
    return ok;
}

static bool populate(cairn_world *world, cairn_shape *const shapes[SHAPE_ROWS])
{
    for (int i = 0; i < SHAPE_ROWS; ++i) {
        if (!shapes[i]) {
            fprintf(stderr, "cairn-demo: cannot create shape %d: %s\n", i, cairn_last_error());
            return false;
        }
    }
    int items = (int)(sizeof item_rows / sizeof item_rows[0]);
    for (int i = 0; i < items; ++i) {
        if (!place_item(world, &item_rows[i], shapes[item_rows[i].shape])) {
            fprintf(stderr, "cairn-demo: cannot create a body: %s\n", cairn_last_error());
            return false;
        }
    }
    return true;
}

cairn_world *builtin_scene_create(void)
{
    cairn_world_def def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&def);
    if (!world) {
        fprintf(stderr, "cairn-demo: cannot create the world: %s\n", cairn_last_error());
        return NULL;
    }
    cairn_shape *shapes[SHAPE_ROWS];
    for (int i = 0; i < SHAPE_ROWS; ++i) {
        shapes[i] = make_shape(&shape_rows[i]);
    }
    bool ok = populate(world, shapes);
    /* The bodies hold their own references. */
    for (int i = 0; i < SHAPE_ROWS; ++i) {
        cairn_shape_release(shapes[i]);
    }
    if (!ok) {
        cairn_world_destroy(world);
        return NULL;
    }
    return world;
}
