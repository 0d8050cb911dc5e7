/* A fixed joint holds a cantilever with little sag; a breakable one breaks when, and only
   when, the load exceeds its break force, and is reported and destroyed after the step. */
#include "joint_helpers.h"

Test(fixed, holds_a_cantilever)
{
    cairn_world *world = joint_world();
    cairn_body_id wall = joint_static(world, cairn_shape_box(v3(0.1f, 1, 1), 0.0f), v3(0, 5, 0));
    cairn_body_id beam =
        joint_body(world, cairn_shape_box(v3(1, 0.1f, 0.1f), 0.01f), v3(1.1f, 5, 0));
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_FIXED);
    def.body_a = wall;
    def.body_b = beam;
    def.anchor_a = def.anchor_b = v3(0.1f, 5, 0);
    cairn_joint_id weld = joint_make(world, &def);
    for (int n = 0; n < 180; ++n)
        cairn_world_step(world, SCENE_DT);
    vec3s tip = joint_carried(world, beam, v3(1.1f, 5, 0), v3(2.1f, 5, 0));
    cr_expect(fabsf(tip.y - 5.0f) < 0.005f, "tip sags %.2f mm", (5.0f - tip.y) * 1000.0f);
    /* it carries the beam's weight and the moment of it about the wall */
    float weight = cairn_body_mass(world, beam) * (float)SCENE_G;
    vec3s force = cairn_joint_reaction_force(world, weld);
    vec3s torque = cairn_joint_reaction_torque(world, weld);
    cr_expect(fabsf(force.y - weight) < 0.01f * weight, "force %g, weight %g", (double)force.y,
              (double)weight);
    cr_expect(fabsf(torque.z - weight * 1.0f) < 0.02f * weight, "torque %g, expected %g",
              (double)torque.z, (double)weight);
    cairn_world_destroy(world);
}

/* A box hangs from the world on a weld; a downward force grows by 50 N a step. The reaction is
   m g + F, so the joint must break in the first step whose force takes it above break_force. */
Test(fixed, breaks_when_the_load_crosses_its_break_force)
{
    cairn_world *world = joint_world();
    vec3s at = v3(0, 5, 0);
    cairn_body_id box = joint_body(world, cairn_shape_box(v3(0.2f, 0.2f, 0.2f), 0.01f), at);
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_FIXED);
    def.body_b = box;
    def.anchor_a = def.anchor_b = v3(0, 5.2f, 0);
    def.break_force = 2000.0f;
    def.user_data = &def;
    cairn_joint_id weld = joint_make(world, &def);
    float weight = cairn_body_mass(world, box) * (float)SCENE_G;
    const float ramp = 50.0f;
    int predicted = 0;
    while (weight + ramp * (float)predicted <= def.break_force)
        ++predicted;
    int broke = -1;
    for (int n = 0; n < 100 && broke < 0; ++n) {
        vec3s centre = cairn_body_transform(world, box).position;
        cr_assert(cairn_body_apply_force(world, box, v3(0, -ramp * (float)n, 0), centre));
        cairn_world_step(world, SCENE_DT);
        cairn_joint_events events = cairn_world_joint_events(world);
        if (events.break_count > 0) {
            broke = n;
            cr_expect_eq(events.break_count, 1);
            cr_expect(events.breaks[0].joint.index == weld.index &&
                      events.breaks[0].joint.generation == weld.generation);
            cr_expect(events.breaks[0].user_data == &def);
            cr_expect(events.breaks[0].force.y > def.break_force, "reported %g N",
                      (double)events.breaks[0].force.y);
            cr_expect(!cairn_joint_is_valid(world, weld), "a broken joint is destroyed");
        } else {
            cr_assert(cairn_joint_is_valid(world, weld));
        }
    }
    cr_expect(abs(broke - predicted) <= 1, "broke at step %d, predicted %d", broke, predicted);
    cr_expect_eq(cairn_world_joint_count(world), 0);
    /* events last until the next step */
    cairn_world_step(world, SCENE_DT);
    cr_expect_eq(cairn_world_joint_events(world).break_count, 0);
    cairn_world_destroy(world);
}
