/* Split impulse mode closes a joint's error with position passes: each pass moves the bodies'
   poses by JOINT_POSITION_FACTOR (0.8) of the error measured at the poses it finds, and leaves
   the velocities alone. A body held by one joint to the world has one pass an exact answer:
   after n passes a fifth to the n of the error is left, and the body has not started to move. */
#include "joint_helpers.h"

/* A weightless world in split impulse mode with one substep and the given position passes. */
static cairn_world *split_world(int passes)
{
    cairn_world_def def = cairn_world_default_def();
    def.gravity = v3(0, 0, 0);
    def.angular_damping = 0.0f;
    def.solver.position_correction = CAIRN_SPLIT_IMPULSE;
    def.solver.substeps = 1;
    def.solver.position_iterations = passes;
    return scene_world(&def);
}

static void teleport(cairn_world *world, cairn_body_id body, vec3s position, versors rotation)
{
    cairn_transform xf = {position, rotation};
    cr_assert(cairn_body_set_transform(world, body, xf), "%s", cairn_last_error());
}

/* A ball joint at the centre of a sphere, the sphere moved 0.1 m off it. */
static void check_ball(int passes)
{
    cairn_world *world = split_world(passes);
    vec3s at = v3(0, 2, 0);
    cairn_body_id ball = joint_body(world, cairn_shape_sphere(0.2f), at);
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_BALL);
    def.body_b = ball;
    def.anchor_a = def.anchor_b = at;
    cairn_joint_id joint = joint_make(world, &def);
    teleport(world, ball, v3(0.1f, 2, 0), glms_quat_identity());
    cairn_world_step(world, SCENE_DT);
    cairn_joint_def now = cairn_joint_get_def(world, joint);
    float gap = glms_vec3_distance(now.anchor_a, now.anchor_b);
    float expect = 0.1f * powf(0.2f, (float)passes);
    cr_expect(fabsf(gap - expect) < 1e-5f, "%d passes: gap %.6f m, expected %.6f m", passes,
              (double)gap, (double)expect);
    float speed = glms_vec3_norm(cairn_body_linear_velocity(world, ball));
    cr_expect(speed < 1e-5f, "%d passes: the correction left %.6f m/s", passes, (double)speed);
    cairn_world_destroy(world);
}

Test(position_passes, close_a_ball_joint_by_four_fifths_a_pass)
{
    check_ball(1);
    check_ball(2);
}

/* A wheel on a hinge about y with an upper limit of 0.5 rad, turned to 0.6 rad: one pass takes
   it back to 0.5 + 0.2 * 0.1 rad, without spinning it. */
Test(position_passes, close_a_violated_hinge_limit_without_spinning)
{
    cairn_world *world = split_world(1);
    vec3s at = v3(0, 2, 0);
    cairn_body_id wheel = joint_body(world, cairn_shape_cylinder(0.1f, 0.5f, 0.0f), at);
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_HINGE);
    def.body_b = wheel;
    def.anchor_a = def.anchor_b = at;
    def.axis = v3(0, 1, 0);
    def.enable_limit = true;
    def.lower = -0.5f;
    def.upper = 0.5f;
    cairn_joint_id hinge = joint_make(world, &def);
    teleport(world, wheel, at, glms_quatv(0.6f, v3(0, 1, 0)));
    cr_assert(fabsf(cairn_joint_position(world, hinge) - 0.6f) < 1e-5f, "at %.5f rad",
              (double)cairn_joint_position(world, hinge));
    cairn_world_step(world, SCENE_DT);
    float angle = cairn_joint_position(world, hinge);
    cr_expect(fabsf(angle - 0.52f) < 1e-4f, "at %.5f rad, expected 0.52", (double)angle);
    float spin = glms_vec3_norm(cairn_body_angular_velocity(world, wheel));
    cr_expect(spin < 1e-5f, "the correction left %.6f rad/s", (double)spin);
    cairn_world_destroy(world);
}
