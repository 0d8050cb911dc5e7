/* In the rigid modes a body held far from its joint's anchor stays where it is held: the joint
   solver solves each joint's equality rows as one block (joint_block.h). Solved part by part
   (anchors, then rotation), Baumgarte's diverged. */
#include "joint_helpers.h"

#include <math.h>

static const int rigid_modes[] = {CAIRN_BAUMGARTE, CAIRN_SPLIT_IMPULSE};
static const char *const mode_names[] = {"Baumgarte", "split impulse"};

/* Rigid mode, the Gauss-Seidel passes only (no tree solve), default iterations and substeps. */
static cairn_world *rigid_world(int mode)
{
    cairn_world_def def = cairn_world_default_def();
    def.solver.position_correction = mode;
    def.solver.joint_trees = false;
    def.angular_damping = def.linear_damping = 0.0f;
    return scene_world(&def);
}

/* A 1 m box held to the world by the joint def (its type, limits, motor) at `lever` m from its
   centre along x, the joint's axis along z. */
static cairn_body_id held_box(cairn_world *world, cairn_joint_def def, float lever,
                              cairn_joint_id *held)
{
    cairn_body_id box =
        joint_body(world, cairn_shape_box(v3(0.5f, 0.5f, 0.5f), 0.0f), v3(lever, 5, 0));
    def.body_b = box;
    def.anchor_a = def.anchor_b = v3(0, 5, 0);
    def.axis = v3(0, 0, 1);
    *held = joint_make(world, &def);
    return box;
}

/* A weld, and a slider along z (across gravity's pull), hold a box 2 and 5 m from the anchor
   within 1 mm for 10 s. Part by part, Baumgarte's box reached 780 m/s (2 m) and 1,000 m/s
   (5 m) within seconds. */
Test(joint_block, a_weld_or_slider_far_from_the_centre_holds)
{
    cairn_joint_type types[] = {CAIRN_JOINT_FIXED, CAIRN_JOINT_SLIDER};
    float levers[] = {2.0f, 5.0f};
    for (int m = 0; m < 2; ++m)
        for (int t = 0; t < 2; ++t)
            for (int l = 0; l < 2; ++l) {
                cairn_world *world = rigid_world(rigid_modes[m]);
                cairn_joint_id held;
                cairn_body_id box =
                    held_box(world, cairn_joint_default_def(types[t]), levers[l], &held);
                float worst = 0.0f;
                for (int n = 0; n < 600; ++n) {
                    cairn_world_step(world, SCENE_DT);
                    vec3s at = cairn_body_transform(world, box).position;
                    worst = fmaxf(worst, glms_vec3_distance(at, v3(levers[l], 5, 0)));
                }
                cr_expect(worst < 1e-3f, "%s, %s at %.0f m: moved %.2f mm", mode_names[m],
                          types[t] == CAIRN_JOINT_FIXED ? "weld" : "slider", (double)levers[l],
                          (double)worst * 1e3);
                cairn_world_destroy(world);
            }
}

/* A hinge pendulum released level, its box 2 and 5 m from the axis: its centre is never faster
   than a point mass falling the same height would be (sqrt(2 g L), the bound of energy kept),
   and the anchors stay within 1 cm. Part by part, Baumgarte's reached 650 m/s. */
Test(joint_block, a_long_hinge_pendulum_keeps_its_energy)
{
    float levers[] = {2.0f, 5.0f};
    for (int m = 0; m < 2; ++m)
        for (int l = 0; l < 2; ++l) {
            cairn_world *world = rigid_world(rigid_modes[m]);
            cairn_joint_id held;
            cairn_body_id box =
                held_box(world, cairn_joint_default_def(CAIRN_JOINT_HINGE), levers[l], &held);
            float bound = sqrtf(2.0f * (float)SCENE_G * levers[l]) * 1.01f;
            float fastest = 0.0f, apart = 0.0f;
            for (int n = 0; n < 600; ++n) {
                cairn_world_step(world, SCENE_DT);
                fastest = fmaxf(fastest, glms_vec3_norm(cairn_body_linear_velocity(world, box)));
                vec3s anchor = joint_carried(world, box, v3(levers[l], 5, 0), v3(0, 5, 0));
                apart = fmaxf(apart, glms_vec3_distance(anchor, v3(0, 5, 0)));
            }
            cr_expect(fastest <= bound, "%s at %.0f m: %.2f m/s, bound %.2f", mode_names[m],
                      (double)levers[l], (double)fastest, (double)bound);
            cr_expect(apart < 0.01f, "%s at %.0f m: anchors %.1f mm apart", mode_names[m],
                      (double)levers[l], (double)apart * 1e3);
            cr_expect(fastest > 0.5f * bound, "%s at %.0f m: it swings (%.2f m/s)", mode_names[m],
                      (double)levers[l], (double)fastest);
            cairn_world_destroy(world);
        }
}

/* The same pendulum with a limit of +-0.5 rad (and a motor driving it into the limit), with and
   without the tree solve: the limit stops it (the centre never faster than its fall to the
   limit allows), and at rest it lies on the limit. The limit solved alone, then the block,
   fought over the lever as the parts did: 760 m/s at 2 m in Baumgarte mode, trees or not. */
Test(joint_block, a_long_hinge_pendulum_rests_on_its_limit)
{
    const float limit = 0.5f;
    for (int m = 0; m < 2; ++m)
        for (int trees = 0; trees < 2; ++trees)
            for (int motor = 0; motor < 2; ++motor) {
                cairn_world_def def = cairn_world_default_def();
                def.solver.position_correction = rigid_modes[m];
                def.solver.joint_trees = trees;
                cairn_world *world = scene_world(&def);
                const float lever = 2.0f;
                cairn_joint_def jd = cairn_joint_default_def(CAIRN_JOINT_HINGE);
                jd.enable_limit = true;
                jd.lower = -limit;
                jd.upper = limit;
                jd.enable_motor = motor;
                jd.motor_speed = -1.0f;
                jd.max_motor_force = 200.0f;
                cairn_joint_id held;
                cairn_body_id box = held_box(world, jd, lever, &held);
                float bound =
                    sqrtf(2.0f * (float)SCENE_G * lever * sinf(limit) + (motor ? 4.0f : 0.0f)) *
                    1.05f;
                float fastest = 0.0f;
                for (int n = 0; n < 600; ++n) {
                    cairn_world_step(world, SCENE_DT);
                    fastest =
                        fmaxf(fastest, glms_vec3_norm(cairn_body_linear_velocity(world, box)));
                }
                float angle = cairn_joint_position(world, held);
                vec3s anchor = joint_carried(world, box, v3(lever, 5, 0), v3(0, 5, 0));
                const char *how[] = {"alone", "with a motor"};
                cr_expect(fastest <= bound, "%s, trees %d, %s: %.2f m/s, bound %.2f", mode_names[m],
                          trees, how[motor], (double)fastest, (double)bound);
                cr_expect(fabsf(angle + limit) < 0.02f, "%s, trees %d, %s: rests at %.3f rad",
                          mode_names[m], trees, how[motor], (double)angle);
                cr_expect(glms_vec3_distance(anchor, v3(0, 5, 0)) < 0.01f,
                          "%s, trees %d, %s: anchors apart", mode_names[m], trees, how[motor]);
                cairn_world_destroy(world);
            }
}
