/* The body palette. */
#include "body_colour.h"

#define SLEEP_GREY_MIX 0.6f /* how far a sleeping body's colour moves towards grey */

static vec3s shape_albedo(cairn_shape_type shape)
{
    switch (shape) {
    case CAIRN_SHAPE_BOX:
        return (vec3s){{0.80f, 0.52f, 0.32f}};
    case CAIRN_SHAPE_SPHERE:
        return (vec3s){{0.85f, 0.30f, 0.30f}};
    case CAIRN_SHAPE_CAPSULE:
        return (vec3s){{0.40f, 0.72f, 0.40f}};
    case CAIRN_SHAPE_CYLINDER:
        return (vec3s){{0.86f, 0.75f, 0.30f}};
    case CAIRN_SHAPE_HULL:
        return (vec3s){{0.62f, 0.45f, 0.78f}};
    case CAIRN_SHAPE_COMPOUND:
        return (vec3s){{0.35f, 0.62f, 0.80f}};
    case CAIRN_SHAPE_MESH:
    case CAIRN_SHAPE_HEIGHTFIELD:
        return (vec3s){{0.55f, 0.60f, 0.50f}};
    }
    return (vec3s){{0.7f, 0.7f, 0.7f}};
}

vec4s body_colour(cairn_body_type type, cairn_shape_type shape, uint32_t body_index, bool awake)
{
    if (type == CAIRN_STATIC) {
        return (vec4s){{0.62f, 0.63f, 0.62f, 1.0f}};
    }
    vec3s c = shape_albedo(shape);
    if (type == CAIRN_KINEMATIC) {
        c = (vec3s){{0.35f, 0.60f, 0.80f}};
    }
    /* Alternate the shade so neighbouring bodies (a stack's boxes) read as separate stones. */
    c = glms_vec3_scale(c, (body_index % 2u) ? 0.86f : 1.0f);
    if (!awake) {
        float grey = 0.8f * (0.3f * c.x + 0.59f * c.y + 0.11f * c.z);
        c = glms_vec3_lerp(c, (vec3s){{grey, grey, grey}}, SLEEP_GREY_MIX);
    }
    return (vec4s){{c.x, c.y, c.z, 0.0f}};
}
