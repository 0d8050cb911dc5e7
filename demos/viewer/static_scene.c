/* The built-in stacking scene as a table: a floor, a stack, a pyramid and one of each other
   shape. Replaced by a cairn_world-based scene once the world exists. */
#include "scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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
    float colour[4];
    bool is_static;
} item_row;

enum { FLOOR, BOX, SPHERE, CAPSULE, CYLINDER, HULL, SHAPE_ROWS };

static const shape_row shape_rows[SHAPE_ROWS] = {
    [FLOOR] = {CAIRN_SHAPE_BOX, {20.0f, 0.5f, 20.0f}, 0.0f},
    [BOX] = {CAIRN_SHAPE_BOX, {0.5f, 0.5f, 0.5f}, 0.05f},
    [SPHERE] = {CAIRN_SHAPE_SPHERE, {0.5f}, 0.0f},
    [CAPSULE] = {CAIRN_SHAPE_CAPSULE, {0.5f, 0.4f}, 0.0f},
    [CYLINDER] = {CAIRN_SHAPE_CYLINDER, {0.5f, 0.5f}, 0.05f},
    [HULL] = {CAIRN_SHAPE_HULL, {0.7f, 0.5f, 0.6f}, 0.02f},
};

static const item_row item_rows[] = {
    {PLACE_ONE, FLOOR, {0.0f, -0.5f, 0.0f}, 1, {0.62f, 0.63f, 0.62f, 1.0f}, true},
    {PLACE_STACK, BOX, {0.0f, 0.5f, 0.0f}, 10, {0.80f, 0.52f, 0.32f, 0.0f}, false},
    {PLACE_PYRAMID, BOX, {4.0f, 0.5f, 0.0f}, 4, {0.36f, 0.55f, 0.75f, 0.0f}, false},
    {PLACE_ONE, SPHERE, {-3.0f, 0.5f, 4.0f}, 1, {0.85f, 0.30f, 0.30f, 0.0f}, false},
    {PLACE_ONE, CAPSULE, {-1.0f, 0.9f, 4.0f}, 1, {0.40f, 0.72f, 0.40f, 0.0f}, false},
    {PLACE_ONE, CYLINDER, {1.0f, 0.5f, 4.0f}, 1, {0.86f, 0.75f, 0.30f, 0.0f}, false},
    {PLACE_ONE, HULL, {3.0f, 0.5f, 4.0f}, 1, {0.62f, 0.45f, 0.78f, 0.0f}, false},
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
    }
    return NULL;
}

static int item_body_count(const item_row *item)
{
    if (item->how == PLACE_PYRAMID) {
        return item->count * (item->count + 1) / 2;
    }
    return item->count;
}

static void add_body(scene *s, const item_row *item, vec3s position)
{
    /* Alternate the shade so neighbouring boxes of a stack read as separate stones. */
    float shade = (s->body_count % 2) ? 0.86f : 1.0f;
    scene_body *b = &s->bodies[s->body_count++];
    b->shape = item->shape;
    /* The built-in scene starts unrotated. */
    b->transform = (cairn_transform){.position = position, .rotation = glms_quat_identity()};
    b->colour = (vec4s){{item->colour[0] * shade, item->colour[1] * shade, item->colour[2] * shade,
                         item->colour[3]}};
    b->is_static = item->is_static;
}

static void place_item(scene *s, const item_row *item)
{
    vec3s origin = {{item->position[0], item->position[1], item->position[2]}};
    const float *half = shape_rows[item->shape].size;
    if (item->how == PLACE_ONE) {
        add_body(s, item, origin);
    } else if (item->how == PLACE_STACK) {
        for (int i = 0; i < item->count; ++i) {
            add_body(s, item, glms_vec3_add(origin, (vec3s){{0.0f, 2.0f * half[1] * i, 0.0f}}));
        }
    } else {
        float step = 2.0f * half[0] + PYRAMID_GAP;
        for (int level = 0; level < item->count; ++level) {
            int row = item->count - level;
            for (int i = 0; i < row; ++i) {
                float x = ((float)i - 0.5f * (float)(row - 1)) * step;
                add_body(s, item,
                         glms_vec3_add(origin, (vec3s){{x, 2.0f * half[1] * level, 0.0f}}));
            }
        }
    }
}

bool static_scene_create(scene *out)
{
    *out = (scene){.name = "built-in stacking"};
    for (int i = 0; i < SHAPE_ROWS; ++i) {
        out->shapes[i] = make_shape(&shape_rows[i]);
        if (!out->shapes[i]) {
            fprintf(stderr, "cairn-demo: cannot create shape %d: %s\n", i, cairn_last_error());
            scene_destroy(out);
            return false;
        }
        out->shape_count = i + 1;
    }
    int total = 0;
    int items = (int)(sizeof item_rows / sizeof item_rows[0]);
    for (int i = 0; i < items; ++i) {
        total += item_body_count(&item_rows[i]);
    }
    out->bodies = calloc((size_t)total, sizeof *out->bodies);
    if (!out->bodies) {
        fprintf(stderr, "cairn-demo: out of memory for %d bodies\n", total);
        scene_destroy(out);
        return false;
    }
    for (int i = 0; i < items; ++i) {
        place_item(out, &item_rows[i]);
    }
    return true;
}
