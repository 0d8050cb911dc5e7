/* Scene files: every bad value of a `joints:` entry (and of the jointed generators) is an error
   at the offending node's file:line:column, and a failed load leaves no world behind. Each case
   is a small scene written to a temporary file: the same bodies, then the case's lines. */
#define _POSIX_C_SOURCE 200809L
#include <cairn/io.h>

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Lines 1-16; a case's first line is line 17. */
static const char *const bodies = "bodies:\n"
                                  "  - name: a\n"
                                  "    shape: { sphere: { radius: 0.5 } }\n"
                                  "  - name: b\n"
                                  "    shape: { sphere: { radius: 0.5 } }\n"
                                  "    position: [2, 0, 0]\n"
                                  "  - name: twin\n"
                                  "    shape: { sphere: { radius: 0.5 } }\n"
                                  "    position: [4, 0, 0]\n"
                                  "  - name: twin\n"
                                  "    shape: { sphere: { radius: 0.5 } }\n"
                                  "    position: [6, 0, 0]\n"
                                  "  - name: ground\n"
                                  "    type: static\n"
                                  "    shape: { box: { half_extents: [5, 1, 5] } }\n"
                                  "    position: [0, -3, 0]\n";
#define FIRST_LINE 17

static void expect_error(const char *text, int line, int column, const char *message)
{
    char path[128];
    snprintf(path, sizeof path, "/tmp/cairn_joint_errors_%d.yaml", (int)getpid());
    FILE *file = fopen(path, "w");
    cr_assert_not_null(file);
    fputs(bodies, file);
    fputs(text, file);
    fclose(file);
    cairn_world *world = (cairn_world *)&path; /* must be reset to NULL */
    cairn_io_error err;
    bool loaded = cairn_scene_load(path, &world, &err);
    remove(path);
    cr_assert_not(loaded, "loaded:\n%s", text);
    cr_expect_null(world, "a failed load returned a world");
    cr_expect_str_eq(err.message, message, "in:\n%s", text);
    cr_expect_eq(err.line, line, "line %d, expected %d (%s)", err.line, line, err.message);
    cr_expect_eq(err.column, column, "column %d, expected %d (%s)", err.column, column,
                 err.message);
    cr_expect_str_eq(err.file, path);
}

#define L(n) (FIRST_LINE + (n)-1)

Test(scene_joint_errors, unknown_key_and_missing_keys)
{
    expect_error("joints:\n"
                 "  - type: hinge\n"
                 "    body_b: a\n"
                 "    anchor: [0, 0, 0]\n"
                 "    axes: [0, 1, 0]\n",
                 L(5), 5, "unknown key 'axes' in joints[0] (did you mean 'axis'?)");
    expect_error("joints:\n"
                 "  - type: ball\n"
                 "    anchor: [0, 0, 0]\n",
                 L(2), 5, "joints[0] (ball) needs body_b");
    expect_error("joints:\n"
                 "  - body_b: a\n"
                 "    anchor: [0, 0, 0]\n",
                 L(2), 5,
                 "joints[0] needs a type (ball | hinge | slider | fixed | distance | swing_twist)");
    expect_error("joints:\n"
                 "  - name: door\n"
                 "    type: hinge\n"
                 "    body_b: a\n"
                 "    anchor: [0, 0, 0]\n",
                 L(2), 5, "joints[0] ('door') (hinge) needs axis");
    expect_error("joints:\n"
                 "  - { type: ball, body_b: a }\n",
                 L(2), 5, "joints[0] (ball) needs anchor");
    expect_error("joints:\n"
                 "  - { type: ball, body_b: a, anchor: [0, 0, 0] }\n"
                 "  - { type: spring, body_b: a }\n",
                 L(3), 13,
                 "joints[1].type = 'spring' is not one of ball | hinge | slider | fixed | "
                 "distance | swing_twist | wheel");
    expect_error("joints: { type: ball }\n", L(1), 9, "joints must be a sequence, got a mapping");
}

Test(scene_joint_errors, wheel_keys)
{
    expect_error("joints:\n"
                 "  - type: hinge\n"
                 "    body_b: a\n"
                 "    anchor: [0, 0, 0]\n"
                 "    axis: [0, 1, 0]\n"
                 "    axle: [0, 0, 1]\n",
                 L(6), 5, "joints[0]: a hinge joint has no axle");
    expect_error("joints:\n"
                 "  - type: wheel\n"
                 "    body_b: a\n"
                 "    anchor: [0, 0, 0]\n"
                 "    axis: [0, 1, 0]\n",
                 L(2), 5, "joints[0] (wheel) needs axle");
    expect_error("joints:\n"
                 "  - type: wheel\n"
                 "    body_b: a\n"
                 "    anchor: [0, 0, 0]\n"
                 "    axis: [0, 1, 0]\n"
                 "    axle: [0, 0, 1]\n"
                 "    steering: 2\n",
                 L(7), 15, "joints[0].steering = 2 is outside [-1.5708, 1.5708]");
}

Test(scene_joint_errors, wrong_types)
{
    expect_error("joints:\n"
                 "  - { type: ball, body_b: a, anchor: [0, 0, 0], break_force: strong }\n",
                 L(2), 62, "joints[0].break_force must be a number, got 'strong'");
    expect_error("joints:\n"
                 "  - { type: ball, body_b: a, anchor: [0, 0, 0], collide_connected: 3 }\n",
                 L(2), 68, "joints[0].collide_connected must be true or false, got '3'");
    expect_error("joints:\n"
                 "  - { type: ball, body_b: a, anchor: [0, 0] }\n",
                 L(2), 38, "joints[0].anchor must have 3 elements, got 2");
    expect_error("joints:\n"
                 "  - { type: hinge, body_b: a, anchor: [0, 0, 0], axis: [0, 1, 0], motor: 3 }\n",
                 L(2), 74, "joints[0].motor must be a mapping, got a scalar");
    expect_error(
        "joints:\n"
        "  - { type: hinge, body_b: a, anchor: [0, 0, 0], axis: [0, 1, 0], limits: [1] }\n",
        L(2), 75, "joints[0].limits must have 2 elements, got 1");
}

Test(scene_joint_errors, bodies_by_name)
{
    expect_error("joints:\n"
                 "  - type: ball\n"
                 "    body_b: c\n"
                 "    anchor: [0, 0, 0]\n",
                 L(3), 13, "joints[0].body_b: no body is named 'c'");
    expect_error("joints:\n"
                 "  - type: ball\n"
                 "    body_a: twin\n"
                 "    body_b: a\n"
                 "    anchor: [0, 0, 0]\n",
                 L(3), 13, "joints[0].body_a: 2 bodies are named 'twin'; a joint needs one");
    expect_error("joints:\n"
                 "  - type: ball\n"
                 "    body_a: a\n"
                 "    body_b: a\n"
                 "    anchor: [0, 0, 0]\n",
                 L(4), 13, "joints[0]: body_a and body_b are both 'a'; a joint needs two bodies");
    /* what only the engine checks comes back at the joint's node */
    expect_error("joints:\n"
                 "  - type: ball\n"
                 "    body_b: ground\n"
                 "    anchor: [0, 0, 0]\n",
                 L(2), 5,
                 "joints[0]: cairn_joint_create: neither body is dynamic (two static or kinematic "
                 "bodies, or one and the world): the joint could move nothing");
}

Test(scene_joint_errors, axis_limits_and_cone)
{
    expect_error("joints:\n"
                 "  - type: hinge\n"
                 "    body_b: a\n"
                 "    anchor: [0, 0, 0]\n"
                 "    axis: [0, 0, 0]\n",
                 L(5), 11, "joints[0].axis is zero: an axis needs a direction");
    expect_error("joints:\n"
                 "  - type: slider\n"
                 "    body_b: a\n"
                 "    anchor: [0, 0, 0]\n"
                 "    axis: [0, .inf, 0]\n",
                 L(5), 15, "joints[0].axis[1] = .inf is not a finite number");
    expect_error("joints:\n"
                 "  - type: hinge\n"
                 "    body_b: a\n"
                 "    anchor: [0, 0, 0]\n"
                 "    axis: [0, 1, 0]\n"
                 "    limits: [1, -1]\n",
                 L(6), 13, "joints[0].limits: lower 1 is above upper -1");
    expect_error("joints:\n"
                 "  - type: hinge\n"
                 "    body_b: a\n"
                 "    anchor: [0, 0, 0]\n"
                 "    axis: [0, 1, 0]\n"
                 "    limits: [-4, 0]\n",
                 L(6), 14, "joints[0].limits[0] = -4 is outside [-3.14159, 3.14159]");
    expect_error("joints:\n"
                 "  - type: distance\n"
                 "    body_b: a\n"
                 "    anchor_a: [0, 1, 0]\n"
                 "    anchor_b: [0, 0, 0]\n"
                 "    limits: [-1, 2]\n",
                 L(6), 14, "joints[0].limits[0] = -1 is outside [0, 1e+06]");
    expect_error("joints:\n"
                 "  - type: swing_twist\n"
                 "    body_b: a\n"
                 "    anchor: [0, 0, 0]\n"
                 "    axis: [0, 1, 0]\n"
                 "    cone_angle: 3.5\n",
                 L(6), 17, "joints[0].cone_angle = 3.5 is outside (0, pi) rad");
    expect_error("joints:\n"
                 "  - type: swing_twist\n"
                 "    body_b: a\n"
                 "    anchor: [0, 0, 0]\n"
                 "    axis: [0, 1, 0]\n"
                 "    cone_angle: 0\n",
                 L(6), 17, "joints[0].cone_angle = 0 is outside (0, pi) rad");
}

Test(scene_joint_errors, negative_springs_motors_and_forces)
{
    const char *hinge = "joints:\n"
                        "  - type: hinge\n"
                        "    body_b: a\n"
                        "    anchor: [0, 0, 0]\n"
                        "    axis: [0, 1, 0]\n";
    char text[512];
    snprintf(text, sizeof text, "%s    spring: { hertz: -1 }\n", hinge);
    expect_error(text, L(6), 22, "joints[0].spring.hertz = -1 is outside (0, 10000]");
    snprintf(text, sizeof text, "%s    spring: { hertz: 2, damping_ratio: -0.5 }\n", hinge);
    expect_error(text, L(6), 40, "joints[0].spring.damping_ratio = -0.5 is outside [0, 1000]");
    snprintf(text, sizeof text, "%s    spring: { damping_ratio: 1 }\n", hinge);
    expect_error(text, L(6), 13, "joints[0].spring needs hertz");
    snprintf(text, sizeof text, "%s    motor: { speed: 1, max_force: -3 }\n", hinge);
    expect_error(text, L(6), 35, "joints[0].motor.max_force = -3 is outside [0, 1e+12]");
    snprintf(text, sizeof text, "%s    motor: { speed: 1, torque: 3 }\n", hinge);
    expect_error(text, L(6), 24,
                 "unknown key 'torque' in joints[0].motor (expected speed, max_force)");
    snprintf(text, sizeof text, "%s    break_force: -1\n", hinge);
    expect_error(text, L(6), 18, "joints[0].break_force = -1 is outside [0, 1e+12]");
    expect_error("joints:\n"
                 "  - type: swing_twist\n"
                 "    body_b: a\n"
                 "    anchor: [0, 0, 0]\n"
                 "    axis: [0, 1, 0]\n"
                 "    motor: { speed: 1, max_force: 2 }\n",
                 L(6), 21,
                 "joints[0].motor.speed must be 0: a swing_twist motor is joint friction (it "
                 "brakes)");
}

Test(scene_joint_errors, keys_the_type_does_not_use)
{
    expect_error("joints:\n"
                 "  - type: hinge\n"
                 "    body_b: a\n"
                 "    anchor: [0, 0, 0]\n"
                 "    axis: [0, 1, 0]\n"
                 "    cone_angle: 0.5\n",
                 L(6), 5, "joints[0]: a hinge joint has no cone_angle");
    expect_error("joints:\n"
                 "  - type: ball\n"
                 "    body_b: a\n"
                 "    anchor: [0, 0, 0]\n"
                 "    motor: { speed: 1, max_force: 2 }\n",
                 L(5), 5, "joints[0]: a ball joint has no motor");
    expect_error("joints:\n"
                 "  - type: fixed\n"
                 "    body_b: a\n"
                 "    anchor: [0, 0, 0]\n"
                 "    axis: [0, 1, 0]\n",
                 L(5), 5, "joints[0]: a fixed joint has no axis");
    expect_error("joints:\n"
                 "  - type: distance\n"
                 "    body_b: a\n"
                 "    anchor_a: [0, 1, 0]\n"
                 "    anchor_b: [0, 0, 0]\n"
                 "    motor: { max_force: 2 }\n",
                 L(6), 5, "joints[0]: a distance joint has no motor");
    expect_error("joints:\n"
                 "  - type: distance\n"
                 "    body_b: a\n"
                 "    anchor: [0, 0, 0]\n",
                 L(4), 5, "joints[0]: a distance joint takes anchor_a and anchor_b, not anchor");
    expect_error("joints:\n"
                 "  - type: ball\n"
                 "    body_b: a\n"
                 "    anchor_b: [0, 0, 0]\n",
                 L(4), 5, "joints[0]: a ball joint takes anchor, not anchor_a and anchor_b");
    expect_error("joints:\n"
                 "  - type: distance\n"
                 "    body_b: a\n"
                 "    anchor_a: [0, 1, 0]\n",
                 L(2), 5, "joints[0] (distance) needs anchor_b");
}

Test(scene_joint_errors, jointed_generators)
{
    expect_error("generators:\n"
                 "  - chain: { links: 0 }\n",
                 L(2), 21, "generators[0].chain.links = 0 is outside [1, 10000]");
    expect_error("generators:\n"
                 "  - chain: { joint: rope }\n",
                 L(2), 21, "generators[0].chain.joint = 'rope' is not one of ball | hinge");
    expect_error("generators:\n"
                 "  - ragdoll: { mass: 80, density: 900 }\n",
                 L(2), 22, "generators[0].ragdoll: give mass or density, not both");
    expect_error("generators:\n"
                 "  - wall: { break_force: 100 }\n",
                 L(2), 26, "generators[0].wall.break_force is for welded walls: add weld: true");
    expect_error("generators:\n"
                 "  - rope_bridge: { plank_half_extents: [0.3, 0, 1] }\n",
                 L(2), 46,
                 "generators[0].rope_bridge.plank_half_extents[1] = 0 is outside [0.0001, 10000]");
    expect_error("generators:\n"
                 "  - rope_bridge: { joint: ball, joint_friction: 5 }\n",
                 L(2), 49,
                 "generators[0].rope_bridge.joint_friction is for hinges: ball joints have no "
                 "motor");
    expect_error("generators:\n"
                 "  - newtons_cradle: { pull_degrees: 120 }\n",
                 L(2), 37, "generators[0].newtons_cradle.pull_degrees = 120 is outside [0, 90]");
    expect_error("generators:\n"
                 "  - car: { wheel_radius: -0.4 }\n",
                 L(2), 26, "generators[0].car.wheel_radius = -0.4 is outside [0.0001, 10000]");
    expect_error("generators:\n"
                 "  - car: { max_motor_torque: -1 }\n",
                 L(2), 30, "generators[0].car.max_motor_torque = -1 is outside [0, 1e+12]");
}
