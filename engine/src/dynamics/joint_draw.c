/* The joints' debug-draw layer: anchors, axes and the ranges the limits allow, drawn from the
   joint frames at the bodies' current poses. Reads only. */
#include "dynamics/debug_draw_internal.h"
#include "dynamics/joint.h"

#include "core/xform.h"

#include <math.h>

enum { ARC_SEGMENTS = 24 };
#define AXIS_LENGTH 0.4f  /* m, the joint axis */
#define ARC_RADIUS  0.25f /* m, limit arcs and cones */

static const vec4s white = {{1, 1, 1, 1}}, grey = {{0.6f, 0.6f, 0.6f, 1}},
                   cyan = {{0.2f, 0.9f, 1, 1}}, yellow = {{1, 0.9f, 0.2f, 1}},
                   red = {{1, 0.1f, 0.1f, 1}};

static cairn_transform side_transform(const cairn_world *world, uint32_t index)
{
    return index == JOINT_WORLD ? cairn_transform_identity() : world->bodies.data[index].transform;
}

static vec3s side_center(const cairn_world *world, uint32_t index, vec3s fallback)
{
    return index == JOINT_WORLD ? fallback : world->bodies.data[index].center;
}

/* The point at angle a on the circle about frame x through frame y (radius r). */
static vec3s on_circle(vec3s centre, versors frame, float r, float a)
{
    vec3s y = joint_axis_y(frame), z = joint_axis_z(frame);
    return glms_vec3_add(
        centre, glms_vec3_add(glms_vec3_scale(y, r * cosf(a)), glms_vec3_scale(z, r * sinf(a))));
}

static void draw_arc(const cairn_debug_draw *d, vec3s centre, versors frame, float from, float to)
{
    vec3s previous = on_circle(centre, frame, ARC_RADIUS, from);
    d->line(d->context, centre, previous, yellow);
    for (int k = 1; k <= ARC_SEGMENTS; ++k) {
        vec3s next =
            on_circle(centre, frame, ARC_RADIUS, from + (to - from) * (float)k / ARC_SEGMENTS);
        d->line(d->context, previous, next, yellow);
        previous = next;
    }
    d->line(d->context, centre, previous, yellow);
}

/* The cone around frame x of half-angle cone: its rim and four generators. */
static void draw_cone(const cairn_debug_draw *d, vec3s apex, versors frame, float cone)
{
    vec3s tip = glms_vec3_add(apex, glms_vec3_scale(joint_axis_x(frame), ARC_RADIUS * cosf(cone)));
    float r = ARC_RADIUS * sinf(cone);
    vec3s previous = on_circle(tip, frame, r, 0.0f);
    for (int k = 1; k <= ARC_SEGMENTS; ++k) {
        vec3s next = on_circle(tip, frame, r, 2.0f * GLM_PIf * (float)k / ARC_SEGMENTS);
        d->line(d->context, previous, next, yellow);
        if (k % (ARC_SEGMENTS / 4) == 0)
            d->line(d->context, apex, next, yellow);
        previous = next;
    }
}

/* A range along the frame's axis from the anchor: [lower, upper] m. */
static void draw_range(const cairn_debug_draw *d, vec3s anchor, vec3s axis, float lower,
                       float upper)
{
    d->line(d->context, glms_vec3_add(anchor, glms_vec3_scale(axis, lower)),
            glms_vec3_add(anchor, glms_vec3_scale(axis, upper)), yellow);
}

static void draw_limits(const cairn_debug_draw *d, const joint *j, vec3s anchor_a, versors frame_a)
{
    const cairn_joint_def *s = &j->settings;
    vec3s x = joint_axis_x(frame_a);
    switch (j->type) {
    case CAIRN_JOINT_HINGE:
        if (s->enable_limit)
            draw_arc(d, anchor_a, frame_a, s->lower, s->upper);
        break;
    case CAIRN_JOINT_SWING_TWIST:
        draw_cone(d, anchor_a, frame_a, s->cone_angle);
        if (s->enable_limit)
            draw_arc(d, glms_vec3_add(anchor_a, glms_vec3_scale(x, ARC_RADIUS)), frame_a, s->lower,
                     s->upper);
        break;
    case CAIRN_JOINT_SLIDER:
    case CAIRN_JOINT_WHEEL:
        if (s->enable_limit)
            draw_range(d, anchor_a, x, s->lower, s->upper);
        break;
    default:
        break;
    }
}

static void draw_joint(const cairn_world *world, const joint *j, const cairn_debug_draw *d)
{
    cairn_transform xa = side_transform(world, j->body_a), xb = side_transform(world, j->body_b);
    vec3s anchor_a = xform_point(xa, j->local_anchor_a);
    vec3s anchor_b = xform_point(xb, j->local_anchor_b);
    versors frame_a = glms_quat_mul(xa.rotation, j->local_frame_a);
    d->line(d->context, side_center(world, j->body_a, anchor_a), anchor_a, grey);
    d->line(d->context, side_center(world, j->body_b, anchor_b), anchor_b, grey);
    debug_draw_point(d, anchor_a, white);
    debug_draw_point(d, anchor_b, white);
    if (j->type == CAIRN_JOINT_DISTANCE) {
        const cairn_joint_def *s = &j->settings;
        d->line(d->context, anchor_a, anchor_b, cyan);
        vec3s u = glms_vec3_sub(anchor_b, anchor_a);
        float length = glms_vec3_norm(u);
        if (s->enable_limit && length > 1e-6f)
            draw_range(d, anchor_a, glms_vec3_scale(u, 1.0f / length), s->lower, s->upper);
        return;
    }
    if (j->type != CAIRN_JOINT_BALL && j->type != CAIRN_JOINT_FIXED)
        d->line(d->context, anchor_a,
                glms_vec3_add(anchor_a, glms_vec3_scale(joint_axis_x(frame_a), AXIS_LENGTH)), cyan);
    draw_limits(d, j, anchor_a, frame_a);
}

void joints_debug_draw(const cairn_world *world, const cairn_debug_draw *d)
{
    for (int i = 0; i < world->joints.count; ++i)
        if (world->joints.data[i].alive)
            draw_joint(world, &world->joints.data[i], d);
    for (int i = 0; i < world->events.joint_breaks.count; ++i)
        debug_draw_point(d, world->events.joint_breaks.data[i].point, red);
}
