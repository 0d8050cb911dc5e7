/* Scene files: a `joints:` section builds one joint per entry with the bodies it names (generated
   ones included), its anchors, axis, limits, motor, spring, break force and collision flag, and a
   wheel's axle and steering. */
#include <cairn/io.h>

#include <criterion/criterion.h>
#include <string.h>

#define DATA CAIRN_SOURCE_DIR "/tests/io/data/"

typedef struct named {
    int count;
    char names[16][CAIRN_IO_NAME_CAPACITY];
    cairn_body_id ids[16];
} named;

static void keep(void *user, const cairn_scene_body *body)
{
    named *n = user;
    cr_assert_lt(n->count, 16);
    snprintf(n->names[n->count], CAIRN_IO_NAME_CAPACITY, "%s", body->name);
    n->ids[n->count++] = body->id;
}

static cairn_body_id id_of(const named *n, const char *name)
{
    for (int i = 0; i < n->count; ++i)
        if (strcmp(n->names[i], name) == 0)
            return n->ids[i];
    cr_assert_fail("no body %s", name);
    return (cairn_body_id){0, 0};
}

static bool same(cairn_body_id a, cairn_body_id b)
{
    return a.index == b.index && a.generation == b.generation;
}

static void expect_vec(vec3s v, float x, float y, float z)
{
    cr_expect_float_eq(v.x, x, 1e-5f, "x %g, expected %g", (double)v.x, (double)x);
    cr_expect_float_eq(v.y, y, 1e-5f, "y %g, expected %g", (double)v.y, (double)y);
    cr_expect_float_eq(v.z, z, 1e-5f, "z %g, expected %g", (double)v.z, (double)z);
}

/* The body's joints of the given type (exactly one expected). */
static cairn_joint_def joint_of(const cairn_world *world, cairn_body_id body, cairn_joint_type type)
{
    cairn_joint_id ids[8];
    int count = cairn_body_joints(world, body, ids, 8);
    cairn_joint_def found = {0};
    int matches = 0;
    for (int i = 0; i < count; ++i) {
        cairn_joint_def def = cairn_joint_get_def(world, ids[i]);
        if (def.type == type) {
            found = def;
            matches++;
        }
    }
    cr_assert_eq(matches, 1, "%d joints of type %d", matches, (int)type);
    return found;
}

static cairn_world *load(named *n)
{
    cairn_scene_options options = cairn_scene_default_options();
    options.on_body = keep;
    options.user = n;
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert(cairn_scene_load_ex(DATA "scene_joints.yaml", &options, &world, &err), "%s:%d:%d: %s",
              err.file, err.line, err.column, err.message);
    return world;
}

Test(scene_joints, one_joint_per_entry)
{
    named n = {0};
    cairn_world *world = load(&n);
    cr_expect_eq(cairn_world_joint_count(world), 6);
    cr_expect_eq(cairn_body_joints(world, id_of(&n, "frame"), NULL, 0), 2);
    cr_expect_eq(cairn_body_joints(world, id_of(&n, "lamp"), NULL, 0), 2);
    cr_expect_eq(cairn_body_joints(world, id_of(&n, "stack_2"), NULL, 0), 0);
    cairn_world_destroy(world);
}

Test(scene_joints, hinge_with_every_part)
{
    named n = {0};
    cairn_world *world = load(&n);
    cairn_joint_def def = joint_of(world, id_of(&n, "door"), CAIRN_JOINT_HINGE);
    cr_expect(same(def.body_a, id_of(&n, "frame")));
    cr_expect(same(def.body_b, id_of(&n, "door")));
    expect_vec(def.anchor_a, 0.1f, 2.0f, 0.0f);
    expect_vec(def.anchor_b, 0.1f, 2.0f, 0.0f);
    expect_vec(def.axis, 0.0f, 1.0f, 0.0f);
    cr_expect(def.enable_limit);
    cr_expect_float_eq(def.lower, -1.5f, 1e-6f);
    cr_expect_float_eq(def.upper, 1.5f, 1e-6f);
    cr_expect(def.enable_motor);
    cr_expect_float_eq(def.motor_speed, 0.5f, 1e-6f);
    cr_expect_float_eq(def.max_motor_force, 20.0f, 1e-6f);
    cr_expect(def.enable_spring);
    cr_expect_float_eq(def.spring_hertz, 2.0f, 1e-6f);
    cr_expect_float_eq(def.spring_damping_ratio, 0.5f, 1e-6f);
    cr_expect_float_eq(def.spring_target, 0.25f, 1e-6f);
    cr_expect_float_eq(def.break_force, 1e4f, 1e-2f);
    cr_expect_not(def.collide_connected);
    cairn_world_destroy(world);
}

Test(scene_joints, world_joints_and_defaults)
{
    named n = {0};
    cairn_world *world = load(&n);
    cairn_body_id null_id = {0, 0};
    cairn_joint_def slider = joint_of(world, id_of(&n, "drawer"), CAIRN_JOINT_SLIDER);
    cr_expect(same(slider.body_a, null_id), "body_a omitted: the world");
    expect_vec(slider.anchor_a, 3.0f, 1.0f, 0.0f);
    expect_vec(slider.axis, 0.0f, 0.0f, 1.0f); /* [0, 0, 2] normalised */
    cr_expect_float_eq(slider.lower, -0.5f, 1e-6f);
    cr_expect_float_eq(slider.upper, 0.25f, 1e-6f);
    cr_expect_not(slider.enable_motor);
    cr_expect_not(slider.enable_spring);
    cr_expect_float_eq(slider.break_force, 0.0f, 0.0f);

    cairn_joint_def rope = joint_of(world, id_of(&n, "lamp"), CAIRN_JOINT_DISTANCE);
    expect_vec(rope.anchor_a, 6.0f, 5.0f, 0.0f);
    expect_vec(rope.anchor_b, 6.0f, 3.2f, 0.0f);
    cr_expect(rope.enable_limit);
    cr_expect_float_eq(rope.lower, 0.0f, 0.0f);
    cr_expect_float_eq(rope.upper, 1.8f, 1e-6f);
    cr_expect(rope.enable_spring);
    cr_expect_float_eq(rope.spring_hertz, 1.0f, 1e-6f);
    cr_expect_float_eq(rope.spring_damping_ratio, 1.0f, 1e-6f); /* the default */
    cr_expect_float_eq(rope.spring_target, 1.8f, 1e-5f);        /* the length at creation */

    cairn_joint_def ball = joint_of(world, id_of(&n, "lamp"), CAIRN_JOINT_BALL);
    expect_vec(ball.anchor_a, 6.0f, 3.0f, 0.0f);
    cr_expect(ball.collide_connected);
    cairn_world_destroy(world);
}

Test(scene_joints, swing_twist_and_fixed_of_generated_bodies)
{
    named n = {0};
    cairn_world *world = load(&n);
    cairn_joint_def arm = joint_of(world, id_of(&n, "arm"), CAIRN_JOINT_SWING_TWIST);
    cr_expect(same(arm.body_a, id_of(&n, "frame")));
    expect_vec(arm.anchor_b, 9.0f, 2.4f, 0.0f);
    expect_vec(arm.axis, 0.0f, -1.0f, 0.0f);
    cr_expect_float_eq(arm.cone_angle, 0.7f, 1e-6f);
    cr_expect_float_eq(arm.lower, -0.5f, 1e-6f);
    cr_expect_float_eq(arm.upper, 0.5f, 1e-6f);
    cr_expect(arm.enable_motor);
    cr_expect_float_eq(arm.motor_speed, 0.0f, 0.0f);
    cr_expect_float_eq(arm.max_motor_force, 2.0f, 1e-6f);

    cairn_joint_def weld = joint_of(world, id_of(&n, "stack_1"), CAIRN_JOINT_FIXED);
    cr_expect(same(weld.body_a, id_of(&n, "stack_0")));
    cr_expect(same(weld.body_b, id_of(&n, "stack_1")));
    expect_vec(weld.anchor_a, 12.0f, 1.0f, 0.0f);
    cr_expect_float_eq(weld.break_force, 500.0f, 1e-3f);
    cairn_world_destroy(world);
}

Test(scene_joints, a_wheel_with_its_axle_and_steering)
{
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert(cairn_scene_load(DATA "scene_wheel.yaml", &world, &err), "%s:%d:%d: %s", err.file,
              err.line, err.column, err.message);
    cairn_joint_id id;
    cr_assert_eq(cairn_world_joints(world, &id, 1), 1);
    cairn_joint_def def = cairn_joint_get_def(world, id);
    cr_expect_eq(def.type, CAIRN_JOINT_WHEEL);
    expect_vec(def.axis, 0.0f, 1.0f, 0.0f);
    expect_vec(def.axle, 0.0f, 0.0f, 1.0f);
    cr_expect_float_eq(def.steering, 0.25f, 1e-6f);
    cr_expect(def.enable_limit && def.enable_spring && def.enable_motor);
    cr_expect_float_eq(def.lower, -0.15f, 1e-6f);
    cr_expect_float_eq(def.upper, 0.1f, 1e-6f);
    cr_expect_float_eq(def.spring_hertz, 4.0f, 1e-6f);
    cr_expect_float_eq(def.motor_speed, -10.0f, 1e-6f);
    cairn_world_destroy(world);
}
