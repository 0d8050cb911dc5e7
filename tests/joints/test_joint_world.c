/* Joints in the world: islands (a chain sleeps and wakes as one, a joint wakes what it ties),
   filtering (jointed bodies do not collide unless asked), destruction (a body takes its joints
   with it), counts, statistics and the state hash. */
#include "joint_helpers.h"

#include <string.h>

enum { LINKS = 8 };

static void hang_chain(cairn_world *world, cairn_body_id *links, cairn_joint_id *joints)
{
    for (int i = 0; i < LINKS; ++i)
        links[i] =
            scene_body(world, cairn_shape_capsule(0.2f, 0.05f), CAIRN_DYNAMIC,
                       scene_at(v3(0, 10 - 0.5f * (float)i - 0.25f, 0)), 1000.0f, 0.5f, 0.0f);
    for (int i = 0; i < LINKS; ++i) {
        cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_BALL);
        if (i > 0)
            def.body_a = links[i - 1];
        def.body_b = links[i];
        def.anchor_a = def.anchor_b = v3(0, 10 - 0.5f * (float)i, 0);
        joints[i] = joint_make(world, &def);
    }
}

static int awake_count(const cairn_world *world, const cairn_body_id *links)
{
    int awake = 0;
    for (int i = 0; i < LINKS; ++i)
        awake += cairn_body_is_awake(world, links[i]);
    return awake;
}

Test(joint_world, a_hanging_chain_sleeps_and_wakes_as_one)
{
    cairn_world *world = joint_world_with(cairn_world_default_def());
    cairn_body_id links[LINKS];
    cairn_joint_id joints[LINKS];
    hang_chain(world, links, joints);
    int steps = 0;
    while (awake_count(world, links) > 0 && steps < 600) {
        cairn_world_step(world, SCENE_DT);
        int awake = awake_count(world, links);
        cr_assert(awake == 0 || awake == LINKS, "step %d: %d of %d awake", steps, awake, LINKS);
        ++steps;
    }
    cr_expect(steps < 120, "the chain took %d steps to sleep", steps);
    cairn_body_apply_impulse(world, links[LINKS - 1], v3(1, 0, 0),
                             cairn_body_transform(world, links[LINKS - 1]).position);
    cr_expect_eq(awake_count(world, links), LINKS, "waking the last link wakes the chain");
    cairn_world_destroy(world);
}

Test(joint_world, a_joint_wakes_what_it_ties)
{
    cairn_world *world = joint_world_with(cairn_world_default_def());
    scene_floor(world, 0.5f, 0.0f);
    cairn_body_id box = scene_body(world, cairn_shape_box(v3(0.5f, 0.5f, 0.5f), 0.02f),
                                   CAIRN_DYNAMIC, scene_at(v3(0, 0.5f, 0)), 1000.0f, 0.5f, 0.0f);
    cr_assert(cairn_body_set_awake(world, box, false));
    cairn_body_id ball = scene_body(world, cairn_shape_sphere(0.2f), CAIRN_DYNAMIC,
                                    scene_at(v3(0, 3, 0)), 1000.0f, 0.5f, 0.0f);
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_DISTANCE);
    def.body_a = box;
    def.body_b = ball;
    def.anchor_a = v3(0, 1, 0);
    def.anchor_b = v3(0, 3, 0);
    joint_make(world, &def);
    cr_expect(cairn_body_is_awake(world, box), "the sleeping box woke");
    cairn_world_destroy(world);
}

/* Two boxes overlapping by 0.2 m, joined by a ball joint: no contact between them unless
   collide_connected; destroying the joint lets them collide from the next step. */
static int contact_count(const cairn_world *world, cairn_body_id body)
{
    return cairn_body_contacts(world, body, NULL, 0);
}

Test(joint_world, jointed_bodies_do_not_collide)
{
    cairn_world_def wd = cairn_world_default_def();
    wd.gravity = v3(0, 0, 0);
    for (int connected = 0; connected < 2; ++connected) {
        cairn_world *world = joint_world_with(wd);
        cairn_body_id a =
            joint_body(world, cairn_shape_box(v3(0.5f, 0.5f, 0.5f), 0.0f), v3(0, 2, 0));
        cairn_body_id b =
            joint_body(world, cairn_shape_box(v3(0.5f, 0.5f, 0.5f), 0.0f), v3(0.8f, 2, 0));
        cairn_world_step(world, SCENE_DT); /* a contact exists before the joint */
        cr_assert_eq(contact_count(world, a), 1);
        cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_BALL);
        def.body_a = a;
        def.body_b = b;
        def.anchor_a = def.anchor_b = v3(0.4f, 2, 0);
        def.collide_connected = connected;
        cairn_joint_id joint = joint_make(world, &def);
        cairn_world_step(world, SCENE_DT);
        cr_expect_eq(contact_count(world, a), connected, "collide_connected %d", connected);
        if (!connected) {
            cairn_contact_events events = cairn_world_contact_events(world);
            cr_expect_eq(events.end_count, 1, "the touch ended with an event");
            cairn_joint_destroy(world, joint);
            cr_expect(!cairn_joint_is_valid(world, joint));
            cairn_world_step(world, SCENE_DT);
            cr_expect_eq(contact_count(world, a), 1, "they collide again without the joint");
        }
        cairn_world_destroy(world);
    }
}

Test(joint_world, destroying_a_body_destroys_its_joints)
{
    cairn_world *world = joint_world_with(cairn_world_default_def());
    cairn_body_id links[LINKS];
    cairn_joint_id joints[LINKS];
    hang_chain(world, links, joints);
    cr_expect_eq(cairn_world_joint_count(world), LINKS);
    cairn_joint_id all[LINKS + 1];
    cr_expect_eq(cairn_world_joints(world, all, LINKS + 1), LINKS);
    for (int i = 0; i < LINKS; ++i)
        cr_expect(memcmp(&all[i], &joints[i], sizeof all[i]) == 0, "joint %d in id order", i);
    cr_expect_eq(cairn_world_joints(world, NULL, 0), LINKS);
    cairn_joint_id mine[4];
    cr_expect_eq(cairn_body_joints(world, links[3], mine, 4), 2);
    bool seen[2] = {false, false};
    for (int i = 0; i < 2; ++i)
        for (int k = 0; k < 2; ++k)
            seen[k] |= memcmp(&mine[i], &joints[3 + k], sizeof mine[i]) == 0;
    cr_expect(seen[0] && seen[1], "link 3 has joints 3 and 4");
    cr_expect_eq(cairn_body_joints(world, links[0], NULL, 0), 2,
                 "the top link counts its "
                 "joint to the world");
    cairn_body_destroy(world, links[3]);
    cr_expect(!cairn_joint_is_valid(world, joints[3]) && !cairn_joint_is_valid(world, joints[4]));
    cr_expect(cairn_joint_is_valid(world, joints[2]) && cairn_joint_is_valid(world, joints[5]));
    cr_expect_eq(cairn_world_joint_count(world), LINKS - 2);
    cr_expect_eq(cairn_body_joints(world, links[2], mine, 4), 1);
    cr_expect_eq(cairn_body_joints(world, links[4], mine, 4), 1);
    /* a stale joint id is an error everywhere, and changes nothing */
    cairn_joint_destroy(world, joints[3]);
    cr_expect(strstr(cairn_last_error(), "stale") != NULL, "%s", cairn_last_error());
    cr_expect(!cairn_joint_set_motor(world, joints[3], false, 0, 0));
    cr_expect_eq(cairn_world_joint_count(world), LINKS - 2);
    for (int n = 0; n < 60; ++n)
        cairn_world_step(world, SCENE_DT);
    cr_expect(cairn_body_transform(world, links[LINKS - 1]).position.y < 5.0f,
              "the part below the gap falls");
    cr_expect_eq(cairn_world_step_stats(world).joints, LINKS - 2);
    cairn_world_destroy(world);
}

static uint64_t run_chain(int steps, bool motorised)
{
    cairn_world *world = joint_world();
    cairn_body_id links[LINKS];
    cairn_joint_id joints[LINKS];
    hang_chain(world, links, joints);
    cairn_body_apply_impulse(world, links[LINKS / 2], v3(2, 0, 1),
                             cairn_body_transform(world, links[LINKS / 2]).position);
    if (motorised) {
        cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_SWING_TWIST);
        def.body_a = links[LINKS - 2];
        def.body_b = links[LINKS - 1];
        def.anchor_a = def.anchor_b = v3(0, 10 - 0.5f * (LINKS - 1), 0);
        def.enable_motor = true;
        def.max_motor_force = 5.0f;
        def.collide_connected = true;
        joint_make(world, &def);
    }
    for (int n = 0; n < steps; ++n)
        cairn_world_step(world, SCENE_DT);
    uint64_t hash = cairn_world_state_hash(world);
    cairn_world_destroy(world);
    return hash;
}

Test(joint_world, state_hash_is_deterministic_and_sees_joints)
{
    cr_expect_eq(run_chain(200, false), run_chain(200, false));
    cr_expect_eq(run_chain(200, true), run_chain(200, true));
    cr_expect_neq(run_chain(200, false), run_chain(200, true));
    /* the hash includes the joints' impulses: same bodies, different joint state */
    cairn_world *world = joint_world();
    cairn_body_id links[LINKS];
    cairn_joint_id joints[LINKS];
    hang_chain(world, links, joints);
    cairn_world_step(world, SCENE_DT);
    uint64_t with = cairn_world_state_hash(world);
    cairn_joint_destroy(world, joints[0]);
    cr_expect_neq(cairn_world_state_hash(world), with);
    cairn_world_destroy(world);
}
