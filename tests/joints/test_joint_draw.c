/* The joints' debug layer draws each joint at its anchors (points where the joint holds the
   bodies), its axis and its limit ranges, and the joints broken in the last step. */
#include "joint_helpers.h"

typedef struct record {
    int lines, points;
    vec3s last_points[64];
    float farthest; /* from the anchor, over every line end */
    vec3s anchor;
} record;

static void on_line(void *context, vec3s from, vec3s to, vec4s colour)
{
    (void)colour;
    record *r = context;
    r->lines++;
    r->farthest = fmaxf(
        r->farthest, fmaxf(glms_vec3_distance(from, r->anchor), glms_vec3_distance(to, r->anchor)));
}

static void on_point(void *context, vec3s at, float size, vec4s colour)
{
    (void)size;
    (void)colour;
    record *r = context;
    if (r->points < 64)
        r->last_points[r->points] = at;
    r->points++;
}

static record draw_joints(const cairn_world *world, vec3s anchor)
{
    record r = {.anchor = anchor};
    cairn_debug_draw draw = {.line = on_line, .point = on_point, .context = &r};
    cr_assert(cairn_world_debug_draw(world, &draw, CAIRN_DEBUG_DRAW_JOINTS), "%s",
              cairn_last_error());
    return r;
}

static int points_at(const record *r, vec3s at)
{
    int count = 0;
    for (int i = 0; i < r->points && i < 64; ++i)
        count += glms_vec3_distance(r->last_points[i], at) < 1e-4f;
    return count;
}

Test(joint_draw, anchors_axis_and_limits)
{
    cairn_world *world = joint_world();
    vec3s anchor = v3(0, 3, 0);
    cr_expect_eq(draw_joints(world, anchor).lines, 0, "nothing without joints");
    cairn_body_id door =
        joint_body(world, cairn_shape_box(v3(0.5f, 0.5f, 0.05f), 0.0f), v3(0.5f, 3, 0));
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_HINGE);
    def.body_b = door;
    def.anchor_a = def.anchor_b = anchor;
    def.axis = v3(0, 1, 0);
    joint_make(world, &def);
    record plain = draw_joints(world, anchor);
    cr_expect_eq(points_at(&plain, anchor), 2, "both anchors drawn at the joint");
    def.enable_limit = true;
    def.lower = -1.0f;
    def.upper = 1.0f;
    def.anchor_a = def.anchor_b = v3(0, 2, 0);
    def.body_b = joint_body(world, cairn_shape_box(v3(0.5f, 0.5f, 0.05f), 0.0f), v3(0.5f, 2, 0));
    joint_make(world, &def);
    record limited = draw_joints(world, anchor);
    cr_expect(limited.lines >= 2 * plain.lines + 24, "an arc: %d lines against %d", limited.lines,
              plain.lines);
    cairn_world_destroy(world);
}

Test(joint_draw, a_broken_joint_is_drawn_where_it_broke)
{
    cairn_world *world = joint_world();
    vec3s at = v3(0, 5, 0);
    cairn_body_id box = joint_body(world, cairn_shape_box(v3(0.2f, 0.2f, 0.2f), 0.0f), at);
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_FIXED);
    def.body_b = box;
    def.anchor_a = def.anchor_b = v3(0, 5.2f, 0);
    def.break_force = 10.0f; /* less than the box's weight: breaks at the first step */
    joint_make(world, &def);
    cairn_world_step(world, SCENE_DT);
    cr_assert_eq(cairn_world_joint_events(world).break_count, 1);
    record r = draw_joints(world, at);
    cr_expect_eq(r.points, 1, "one red point for the broken joint");
    vec3s where = cairn_world_joint_events(world).breaks[0].point;
    cr_expect(glms_vec3_distance(where, v3(0, 5.2f, 0)) < 0.01f, "broke at (%g %g %g)",
              (double)where.x, (double)where.y, (double)where.z);
    cairn_world_destroy(world);
}
