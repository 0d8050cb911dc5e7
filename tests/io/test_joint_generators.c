/* Jointed generators: each creates the bodies and joints it promises, with both anchors of every
   joint within 1 mm of each other at creation (the joint starts satisfied), and the layout its
   keys describe (chain links hanging from the origin, motored car wheels across the car, a
   ragdoll of 70 kg and 1.8 m, cradle strings of string_length). */
#define _POSIX_C_SOURCE 200809L
#include <cairn/io.h>

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define SCENES CAIRN_SOURCE_DIR "/demos/scenes/"
#define MAX    600

typedef struct scene {
    cairn_world *world;
    int bodies;
    char names[MAX][CAIRN_IO_NAME_CAPACITY];
    cairn_body_id ids[MAX];
    int joints;
    cairn_joint_id joint_ids[MAX];
    int per_type[CAIRN_JOINT_WHEEL + 1];
} scene;

static void keep(void *user, const cairn_scene_body *body)
{
    scene *s = user;
    cr_assert_lt(s->bodies, MAX);
    snprintf(s->names[s->bodies], CAIRN_IO_NAME_CAPACITY, "%s", body->name);
    s->ids[s->bodies++] = body->id;
}

static bool known(const scene *s, cairn_joint_id id)
{
    for (int i = 0; i < s->joints; ++i)
        if (s->joint_ids[i].index == id.index && s->joint_ids[i].generation == id.generation)
            return true;
    return false;
}

/* Loads a scene and gathers every joint through its bodies. */
static scene *load(const char *path)
{
    static scene s;
    memset(&s, 0, sizeof s);
    cairn_scene_options options = cairn_scene_default_options();
    options.on_body = keep;
    options.user = &s;
    cairn_io_error err;
    cr_assert(cairn_scene_load_ex(path, &options, &s.world, &err), "%s:%d:%d: %s", err.file,
              err.line, err.column, err.message);
    for (int i = 0; i < s.bodies; ++i) {
        cairn_joint_id ids[32];
        int count = cairn_body_joints(s.world, s.ids[i], ids, 32);
        cr_assert(count >= 0 && count <= 32);
        for (int k = 0; k < count; ++k)
            if (!known(&s, ids[k])) {
                cr_assert_lt(s.joints, MAX);
                s.joint_ids[s.joints++] = ids[k];
                s.per_type[cairn_joint_get_def(s.world, ids[k]).type]++;
            }
    }
    cr_expect_eq(cairn_world_joint_count(s.world), s.joints, "a joint without a body?");
    return &s;
}

static int named_like(const scene *s, const char *prefix)
{
    int count = 0;
    for (int i = 0; i < s->bodies; ++i)
        count += strncmp(s->names[i], prefix, strlen(prefix)) == 0;
    return count;
}

/* Every joint but the distance ones starts with its two anchors together. */
static void expect_anchors_together(const scene *s)
{
    for (int j = 0; j < s->joints; ++j) {
        cairn_joint_def def = cairn_joint_get_def(s->world, s->joint_ids[j]);
        if (def.type == CAIRN_JOINT_DISTANCE)
            continue;
        float gap = glms_vec3_distance(def.anchor_a, def.anchor_b);
        cr_expect_lt(gap, 1e-3f, "joint %d (type %d): anchors %g m apart", j, (int)def.type,
                     (double)gap);
    }
}

static cairn_body_id body(const scene *s, const char *name)
{
    for (int i = 0; i < s->bodies; ++i)
        if (strcmp(s->names[i], name) == 0)
            return s->ids[i];
    cr_assert_fail("no body %s", name);
    return (cairn_body_id){0, 0};
}

Test(joint_generators, chain_links_hang_from_the_origin)
{
    scene *s = load(SCENES "chain.yaml");
    cr_expect_eq(named_like(s, "chain_"), 12 + 20 + 10);
    cr_expect_eq(s->per_type[CAIRN_JOINT_BALL], 12 + 20);
    cr_expect_eq(s->per_type[CAIRN_JOINT_HINGE], 10);
    expect_anchors_together(s);
    /* the first link of the first chain hangs from the world at the origin, 40 degrees out */
    cairn_joint_id first;
    cr_assert_eq(cairn_body_joints(s->world, body(s, "chain_0"), &first, 1), 2);
    cairn_joint_id ids[2];
    cairn_body_joints(s->world, body(s, "chain_0"), ids, 2);
    int found = 0;
    for (int k = 0; k < 2; ++k) {
        cairn_joint_def def = cairn_joint_get_def(s->world, ids[k]);
        if (def.body_a.index != 0 || def.body_a.generation != 0)
            continue; /* the joint to chain_1 */
        found++;
        cr_expect_float_eq(def.anchor_a.x, -3.0f, 1e-5f);
        cr_expect_float_eq(def.anchor_a.y, 6.0f, 1e-5f);
    }
    cr_expect_eq(found, 1, "chain_0 is joined to the world once");
    /* the links' far ends: 12 links of 0.4 m along 40 degrees */
    cairn_transform last = cairn_body_transform(s->world, body(s, "chain_11"));
    float along = 0.4f * 11.5f, angle = 40.0f * 3.14159265f / 180.0f;
    cr_expect_float_eq(last.position.x, -3.0f + along * sinf(angle), 1e-4f);
    cr_expect_float_eq(last.position.y, 6.0f - along * cosf(angle), 1e-4f);
    cairn_world_destroy(s->world);
}

Test(joint_generators, rope_bridge_planks_between_two_world_anchors)
{
    scene *s = load(SCENES "bridge.yaml");
    cr_expect_eq(named_like(s, "rope_bridge_"), 16);
    cr_expect_eq(s->joints, 17);
    cr_expect_eq(s->per_type[CAIRN_JOINT_HINGE], 17);
    expect_anchors_together(s);
    int to_world = 0;
    for (int j = 0; j < s->joints; ++j) {
        cairn_joint_def def = cairn_joint_get_def(s->world, s->joint_ids[j]);
        if (def.body_a.index == 0 && def.body_a.generation == 0) {
            to_world++;
            cr_expect_float_eq(def.anchor_a.y, 5.0f, 1e-4f, "the ends hang at the origin's height");
        }
        cr_expect_float_eq(fabsf(def.axis.z), 1.0f, 1e-5f, "hinges across the bridge");
        cr_expect(def.enable_motor, "joint friction");
        cr_expect_float_eq(def.motor_speed, 0.0f, 0.0f);
        cr_expect_float_eq(def.max_motor_force, 50.0f, 1e-4f);
    }
    cr_expect_eq(to_world, 2);
    cairn_world_destroy(s->world);
}

Test(joint_generators, rope_bridge_on_ball_joints_has_two_per_end)
{
    char path[128];
    snprintf(path, sizeof path, "/tmp/cairn_bridge_balls_%d.yaml", (int)getpid());
    FILE *file = fopen(path, "w");
    cr_assert_not_null(file);
    fputs("generators:\n  - rope_bridge: { planks: 5, joint: ball }\n", file);
    fclose(file);
    scene *s = load(path);
    remove(path);
    cr_expect_eq(s->bodies, 5);
    cr_expect_eq(s->per_type[CAIRN_JOINT_BALL], 12);
    expect_anchors_together(s);
    cairn_world_destroy(s->world);
}

Test(joint_generators, newtons_cradle_hangs_each_ball_on_a_v)
{
    scene *s = load(SCENES "cradle.yaml");
    cr_expect_eq(named_like(s, "newtons_cradle_"), 5);
    cr_expect_eq(s->per_type[CAIRN_JOINT_DISTANCE], 10);
    for (int j = 0; j < s->joints; ++j) {
        cairn_joint_def def = cairn_joint_get_def(s->world, s->joint_ids[j]);
        cr_expect_float_eq(glms_vec3_distance(def.anchor_a, def.anchor_b), 2.0f, 1e-3f,
                           "string_length");
        cr_expect_float_eq(def.anchor_a.y, 3.0f, 1e-5f);
    }
    /* touching in a row, the first pulled out and up */
    vec3s p1 = cairn_body_transform(s->world, body(s, "newtons_cradle_1")).position;
    vec3s p2 = cairn_body_transform(s->world, body(s, "newtons_cradle_2")).position;
    vec3s p0 = cairn_body_transform(s->world, body(s, "newtons_cradle_0")).position;
    cr_expect_float_eq(glms_vec3_distance(p1, p2), 0.4f, 1e-5f);
    cr_expect_gt(p0.y, p1.y + 0.1f);
    cr_expect_float_eq(cairn_body_restitution(s->world, body(s, "newtons_cradle_3")), 1.0f, 0.0f);
    cr_expect_float_eq(cairn_body_friction(s->world, body(s, "newtons_cradle_3")), 0.0f, 0.0f);
    cairn_world_destroy(s->world);
}

Test(joint_generators, car_wheels_on_motored_wheel_joints_across_the_car)
{
    scene *s = load(SCENES "car.yaml");
    cr_expect_eq(named_like(s, "car_"), 5);
    cr_expect_eq(s->per_type[CAIRN_JOINT_WHEEL], 4);
    cr_expect_eq(s->joints, 4);
    expect_anchors_together(s);
    cairn_body_id chassis = body(s, "car_0");
    int steered = 0;
    for (int j = 0; j < s->joints; ++j) {
        cairn_joint_def def = cairn_joint_get_def(s->world, s->joint_ids[j]);
        cr_expect_eq(def.body_a.index, chassis.index);
        cr_expect(def.enable_motor);
        cr_expect_float_eq(def.motor_speed, 12.0f, 1e-6f);
        cr_expect_float_eq(def.max_motor_force, 800.0f, 1e-3f);
        cr_expect_float_eq(def.axis.y, 1.0f, 1e-5f, "the suspension is vertical");
        cr_expect_float_eq(fabsf(def.axle.z), 1.0f, 1e-5f);
        cr_expect(def.enable_spring && def.enable_limit);
        cr_expect_float_eq(def.spring_hertz, 5.0f, 1e-6f);
        cr_expect_float_eq(def.upper, 0.1f, 1e-6f);
        cr_expect_float_eq(def.lower, -0.1f, 1e-6f);
        steered += def.steering != 0.0f;
        /* the cylinder's own axis (local +y) lies along the axle */
        versors q = cairn_body_transform(s->world, def.body_b).rotation;
        vec3s wheel_axis = glms_quat_rotatev(q, (vec3s){{0, 1, 0}});
        cr_expect_float_eq(fabsf(glms_vec3_dot(wheel_axis, def.axle)), 1.0f, 1e-5f);
    }
    cr_expect_eq(steered, 0, "car.yaml steers no wheel");
    cairn_world_destroy(s->world);
}

/* steering: 0.3 turns the front wheels' axles (and only theirs); driven forward on a floor, the
   car's heading turns left (about +y). */
Test(joint_generators, a_steered_car_turns_left)
{
    char path[128];
    snprintf(path, sizeof path, "/tmp/cairn_car_%d.yaml", (int)getpid());
    FILE *file = fopen(path, "w");
    cr_assert_not_null(file);
    fputs(
        "bodies:\n"
        "  - { type: static, shape: { box: { half_extents: [50, 1, 50] } }, position: [0, -1, 0],\n"
        "      material: { friction: 1.0 } }\n"
        "generators:\n"
        "  - car: { motor_speed: 8, max_motor_torque: 600, steering: 0.3,\n"
        "           material: { friction: 1.0 } }\n",
        file);
    fclose(file);
    scene *s = load(path);
    remove(path);
    cairn_body_id chassis = body(s, "car_0");
    int front = 0, rear = 0;
    for (int j = 0; j < s->joints; ++j) {
        cairn_joint_def def = cairn_joint_get_def(s->world, s->joint_ids[j]);
        vec3s wheel = cairn_body_transform(s->world, def.body_b).position;
        if (wheel.x > 0.0f)
            front += def.steering == 0.3f;
        else
            rear += def.steering == 0.0f;
    }
    cr_expect(front == 2 && rear == 2, "steered: %d front of 2, unsteered: %d rear of 2", front,
              rear);
    for (int step = 0; step < 180; ++step)
        cairn_world_step(s->world, 1.0f / 60.0f);
    versors q = cairn_body_transform(s->world, chassis).rotation;
    vec3s forward = glms_quat_rotatev(q, (vec3s){{1, 0, 0}});
    double heading = atan2(-(double)forward.z, (double)forward.x);
    cr_expect(heading > 0.3, "the car's heading turned %g rad", heading);
    cairn_world_destroy(s->world);
}

Test(joint_generators, ragdolls_of_eleven_capsules_70_kg_1_8_m)
{
    scene *s = load(SCENES "ragdolls.yaml");
    cr_expect_eq(named_like(s, "ragdoll_"), 40 * 11);
    cr_expect_eq(named_like(s, "stairs_"), 16);
    cr_expect_eq(s->joints, 40 * 10);
    cr_expect_eq(s->per_type[CAIRN_JOINT_SWING_TWIST], 40 * 6);
    cr_expect_eq(s->per_type[CAIRN_JOINT_HINGE], 40 * 4);
    expect_anchors_together(s);
    for (int d = 0; d < 40; ++d) {
        float mass = 0.0f;
        for (int part = 0; part < 11; ++part) {
            char name[32];
            snprintf(name, sizeof name, "ragdoll_%d", d * 11 + part);
            cairn_body_id id = body(s, name);
            cr_expect_eq(cairn_shape_get_type(cairn_body_shape(s->world, id)), CAIRN_SHAPE_CAPSULE);
            mass += cairn_body_mass(s->world, id);
        }
        cr_expect_float_eq(mass, 70.0f, 0.1f, "ragdoll %d weighs %g kg", d, (double)mass);
    }
    cairn_world_destroy(s->world);
}

Test(joint_generators, one_ragdoll_stands_1_8_m_tall_with_flexing_limits)
{
    char path[128];
    snprintf(path, sizeof path, "/tmp/cairn_ragdoll_%d.yaml", (int)getpid());
    FILE *file = fopen(path, "w");
    cr_assert_not_null(file);
    fputs("generators:\n  - ragdoll: { origin: [0, 0, 0] }\n", file);
    fclose(file);
    scene *s = load(path);
    remove(path);
    cr_assert_eq(s->bodies, 11);
    float low = 1e9f, high = -1e9f;
    for (int i = 0; i < 11; ++i) {
        cairn_aabb box = cairn_shape_bounds(cairn_body_shape(s->world, s->ids[i]),
                                            cairn_body_transform(s->world, s->ids[i]));
        low = fminf(low, box.min.y);
        high = fmaxf(high, box.max.y);
    }
    cr_expect_float_eq(high - low, 1.8f, 0.05f, "height %g m", (double)(high - low));
    cr_expect_lt(fabsf(low), 0.05f, "the feet stand at the origin");
    for (int j = 0; j < s->joints; ++j) {
        cairn_joint_def def = cairn_joint_get_def(s->world, s->joint_ids[j]);
        cr_expect(def.enable_limit);
        cr_expect(def.enable_motor, "joint friction");
        cr_expect_float_eq(def.motor_speed, 0.0f, 0.0f);
        if (def.type == CAIRN_JOINT_HINGE) {
            cr_expect_float_eq(def.lower, 0.0f, 0.0f, "elbows and knees do not overextend");
            cr_expect_float_eq(def.upper, 2.6f, 1e-6f);
        } else {
            cr_expect_eq(def.type, CAIRN_JOINT_SWING_TWIST);
            cr_expect(def.cone_angle >= 0.4f - 1e-6f && def.cone_angle <= 1.2f + 1e-6f);
        }
    }
    cairn_world_destroy(s->world);
}

Test(joint_generators, welded_wall_and_stairs)
{
    scene *s = load(SCENES "breakable.yaml");
    cr_expect_eq(named_like(s, "wall_"), 120);
    /* 12 rows of 10 in running bond: 9 welds along each row, 19 down onto each row below */
    cr_expect_eq(s->per_type[CAIRN_JOINT_FIXED], 12 * 9 + 11 * 19);
    cr_expect_eq(s->joints, 12 * 9 + 11 * 19);
    expect_anchors_together(s);
    for (int j = 0; j < s->joints; ++j)
        cr_expect_float_eq(cairn_joint_get_def(s->world, s->joint_ids[j]).break_force, 1e4f, 1e-2f);
    cairn_world_destroy(s->world);
}
