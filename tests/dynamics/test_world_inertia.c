/* The world inverse inertia R I^-1 R^T of a body, kept with its rotation. The contacts hold it
   fixed over a step (from the step's start), so a substep's position update brings it up to date
   only for the bodies whose inertia the next substep reads (joints, torque); the step's last
   update brings every body's. Checked against body_sync_inertia on the body's own transform, to
   the bit. */
#include "dynamics/body.h"
#include "dynamics/integrate.h"
#include "dynamics/scene_helpers.h"
#include "dynamics/world_state.h"

#include <cairn/joint.h>
#include <stdlib.h>
#include <string.h>

static const body *body_of(const cairn_world *world, cairn_body_id id)
{
    return &world->bodies.data[id.index];
}

/* Whether the body's stored world inverse inertia is the one its transform gives. */
static bool inertia_current(const cairn_world *world, cairn_body_id id)
{
    body fresh = *body_of(world, id);
    body_sync_inertia(&fresh);
    return memcmp(&fresh.inverse_inertia, &body_of(world, id)->inverse_inertia,
                  sizeof fresh.inverse_inertia) == 0;
}

/* A box of three different sides turning about a tilted axis, so its world inertia changes with
   every substep. */
static cairn_body_id tumbling_box(cairn_world *world, vec3s position)
{
    cairn_body_id id = scene_body(world, cairn_shape_box(v3(0.6f, 0.3f, 0.15f), 0.0f),
                                  CAIRN_DYNAMIC, scene_at(position), 500.0f, 0.5f, 0.0f);
    cr_assert(cairn_body_set_angular_velocity(world, id, v3(4.0f, 9.0f, -2.0f)));
    return id;
}

/* A ball joint holding the body to the world at a point off its centre. */
static void hang(cairn_world *world, cairn_body_id id, vec3s anchor)
{
    cairn_joint_def jd = cairn_joint_default_def(CAIRN_JOINT_BALL);
    jd.body_b = id;
    jd.anchor_a = jd.anchor_b = anchor;
    cr_assert(cairn_joint_is_valid(world, cairn_joint_create(world, &jd)), "%s",
              cairn_last_error());
}

/* Three tumbling boxes in a weightless world: one free, one pushed by a torque (applied again
   before each step: a torque lasts one step), one hung from the world by a ball joint. */
typedef struct three_boxes {
    cairn_world *world;
    cairn_body_id free_box, pushed, hung;
} three_boxes;

static const vec3s PUSH = {{0.5f, -1.0f, 2.0f}};

static three_boxes three_boxes_make(void)
{
    cairn_world_def def = cairn_world_default_def();
    def.gravity = v3(0, 0, 0);
    three_boxes t = {.world = scene_world(&def)};
    t.free_box = tumbling_box(t.world, v3(0, 0, 0));
    t.pushed = tumbling_box(t.world, v3(3, 0, 0));
    t.hung = tumbling_box(t.world, v3(6, 0, 0));
    hang(t.world, t.hung, v3(6.6f, 0, 0));
    return t;
}

Test(world_inertia, every_body_is_current_after_each_step)
{
    three_boxes t = three_boxes_make();
    cairn_world *world = t.world;
    cairn_body_id free_box = t.free_box, pushed = t.pushed, hung = t.hung;
    for (int n = 0; n < 20; ++n) {
        cr_assert(cairn_body_apply_torque(world, pushed, PUSH));
        cairn_world_step(world, 1.0f / 60.0f);
        cr_expect(inertia_current(world, free_box), "step %d: the free box's inertia is stale", n);
        cr_expect(inertia_current(world, pushed), "step %d: the pushed box's inertia is stale", n);
        cr_expect(inertia_current(world, hung), "step %d: the hung box's inertia is stale", n);
    }
    cairn_world_destroy(world);
}

/* One position update that is not the step's last: the bodies the next substep reads are current,
   the others keep the inertia of the step's start. */
Test(world_inertia, a_substep_updates_the_bodies_it_must)
{
    three_boxes t = three_boxes_make();
    cairn_world *world = t.world;
    cairn_body_id free_box = t.free_box, pushed = t.pushed, hung = t.hung;
    cr_assert(cairn_body_apply_torque(world, pushed, PUSH));
    mat3s before = body_of(world, free_box)->inverse_inertia;

    body_velocity *velocities = calloc((size_t)world->bodies.count + 1, sizeof *velocities);
    cr_assert_not_null(velocities);
    velocities_load(world, velocities);
    integrate_positions(world, 1.0f / 240.0f, velocities, NULL, false, world->awake.data, 0,
                        world->awake.count);
    cr_expect(inertia_current(world, pushed), "a body with a torque must be current");
    cr_expect(inertia_current(world, hung), "a body with a joint must be current");
    cr_expect(memcmp(&before, &body_of(world, free_box)->inverse_inertia, sizeof before) == 0,
              "the free box keeps its inertia until the step's last update");
    cr_expect(!inertia_current(world, free_box), "the free box turned: its inertia changed");

    integrate_positions(world, 1.0f / 240.0f, velocities, NULL, true, world->awake.data, 0,
                        world->awake.count);
    cr_expect(inertia_current(world, free_box), "the last update makes every body current");
    free(velocities);
    cairn_world_destroy(world);
}
