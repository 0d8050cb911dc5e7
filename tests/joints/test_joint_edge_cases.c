/* Joints where the game does unusual things: a pendulum hung from a moving kinematic body, a
   jointed body disabled and enabled again, a jointed body teleported away, a joint to a static
   body that is destroyed, and warm starting turned off. */
#include "joint_helpers.h"

static cairn_joint_id hang(cairn_world *world, cairn_body_id from, cairn_body_id bob, vec3s pivot)
{
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_BALL);
    def.body_a = from;
    def.body_b = bob;
    def.anchor_a = def.anchor_b = pivot;
    return joint_make(world, &def);
}

static float gap(const cairn_world *world, cairn_joint_id joint)
{
    cairn_joint_def d = cairn_joint_get_def(world, joint);
    return glms_vec3_distance(d.anchor_a, d.anchor_b);
}

Test(joint_edges, a_kinematic_body_carries_what_hangs_from_it)
{
    cairn_world *world = joint_world();
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_KINEMATIC;
    def.shape = cairn_shape_box(v3(0.2f, 0.2f, 0.2f), 0.0f);
    def.transform.position = v3(0, 5, 0);
    def.linear_velocity = v3(2, 0, 0);
    cairn_body_id crane = cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);
    cairn_body_id load = joint_body(world, cairn_shape_sphere(0.2f), v3(0, 4, 0));
    cairn_joint_id hook = hang(world, crane, load, v3(0, 4.8f, 0));
    float worst = 0.0f;
    for (int n = 0; n < 120; ++n) {
        cairn_world_step(world, SCENE_DT);
        worst = fmaxf(worst, gap(world, hook));
    }
    cr_expect(worst < 0.002f, "the hook opened %.4f m", worst);
    cr_expect(cairn_body_transform(world, load).position.x > 3.0f, "the load stayed behind");
    cairn_world_destroy(world);
}

Test(joint_edges, a_disabled_body_lets_go_and_comes_back)
{
    cairn_world *world = joint_world();
    cairn_body_id a = joint_body(world, cairn_shape_sphere(0.2f), v3(0, 5, 0));
    cairn_body_id b = joint_body(world, cairn_shape_sphere(0.2f), v3(0, 4, 0));
    hang(world, (cairn_body_id){0, 0}, a, v3(0, 5.5f, 0));
    cairn_joint_id link = hang(world, a, b, v3(0, 4.5f, 0));
    cr_assert(cairn_body_set_enabled(world, a, false));
    for (int n = 0; n < 30; ++n)
        cairn_world_step(world, SCENE_DT);
    cr_expect(cairn_body_transform(world, b).position.y < 3.0f, "b fell while a was disabled");
    cr_expect(cairn_joint_is_valid(world, link), "disabling keeps the joint");
    cr_assert(cairn_body_set_enabled(world, a, true));
    for (int n = 0; n < 120; ++n)
        cairn_world_step(world, SCENE_DT);
    cr_expect(gap(world, link) < 0.01f, "the joint pulled b back: gap %.4f", gap(world, link));
    cairn_world_destroy(world);
}

Test(joint_edges, a_teleported_body_is_pulled_back_without_exploding)
{
    cairn_world *world = joint_world();
    cairn_body_id bob = joint_body(world, cairn_shape_sphere(0.2f), v3(0, 4, 0));
    cairn_joint_id joint = hang(world, (cairn_body_id){0, 0}, bob, v3(0, 5, 0));
    cairn_transform far = cairn_transform_identity();
    far.position = v3(3, 1, -2);
    cr_assert(cairn_body_set_transform(world, bob, far));
    /* the joint closes the 4.5 m error like a stiff spring: fast (about 300 m/s in the first
       step, as Box2D's soft joints do), but it settles */
    for (int n = 0; n < 180; ++n) {
        cairn_world_step(world, SCENE_DT);
        vec3s v = cairn_body_linear_velocity(world, bob);
        cr_assert(isfinite(v.x) && glms_vec3_norm(v) <= 400.0f, "step %d: %g m/s", n,
                  (double)glms_vec3_norm(v));
    }
    /* swinging fast after the throw, it whips: the gap stays a little open */
    cr_expect(gap(world, joint) < 0.02f, "gap %.4f m after 3 s", gap(world, joint));
    cairn_world_destroy(world);
}

Test(joint_edges, destroying_the_static_anchor_destroys_the_joint)
{
    cairn_world *world = joint_world();
    cairn_body_id beam = joint_static(world, cairn_shape_box(v3(1, 0.1f, 0.1f), 0.0f), v3(0, 5, 0));
    cairn_body_id bob = joint_body(world, cairn_shape_sphere(0.2f), v3(0, 4, 0));
    cairn_joint_id joint = hang(world, beam, bob, v3(0, 4.9f, 0));
    for (int n = 0; n < 30; ++n)
        cairn_world_step(world, SCENE_DT);
    cairn_body_destroy(world, beam);
    cr_expect(!cairn_joint_is_valid(world, joint));
    cr_expect(cairn_body_is_awake(world, bob), "the bob woke");
    for (int n = 0; n < 30; ++n)
        cairn_world_step(world, SCENE_DT);
    cr_expect(cairn_body_transform(world, bob).position.y < 3.5f, "and falls");
    cairn_world_destroy(world);
}

/* A chain of ten spheres released horizontally whips its end round: each substep the joints
   act along their directions at its start, and the last links turn far in a substep, so the
   whip opens the joints by centimetres (29 mm here) before the bias closes them. Without warm
   starting the chain solve is the same (a calm tree is solved exactly every substep). */
Test(joint_edges, works_without_warm_starting)
{
    cairn_world_def def = cairn_world_default_def();
    def.solver.warm_starting = false;
    def.angular_damping = 0.0f;
    cairn_world *world = joint_world_with(def);
    cairn_body_id prev = {0, 0};
    cairn_joint_id joints[10];
    for (int i = 0; i < 10; ++i) {
        cairn_body_id link =
            joint_body(world, cairn_shape_sphere(0.1f), v3(0.25f + 0.5f * (float)i, 8, 0));
        joints[i] = hang(world, prev, link, v3(0.5f * (float)i, 8, 0));
        prev = link;
    }
    float worst = 0.0f;
    for (int n = 0; n < 240; ++n) {
        cairn_world_step(world, SCENE_DT);
        for (int i = 0; i < 10; ++i)
            worst = fmaxf(worst, gap(world, joints[i]));
    }
    cr_expect(worst < 0.035f, "gap %.4f m", worst);
    cairn_world_destroy(world);
}
