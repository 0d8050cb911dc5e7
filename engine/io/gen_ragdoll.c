/* The ragdoll generator: humanoids of eleven capsules (pelvis, torso, head, upper and lower arms
   and legs), about 1.8 m tall and 70 kg, joined with human limits: swing-twist spine, neck,
   shoulders and hips, hinged elbows and knees, each with a little joint friction so a ragdoll
   comes to rest. */
#include "generators.h"

#include <math.h>

enum {
    PELVIS,
    TORSO,
    HEAD,
    UPPER_ARM_L,
    LOWER_ARM_L,
    UPPER_ARM_R,
    LOWER_ARM_R,
    UPPER_LEG_L,
    LOWER_LEG_L,
    UPPER_LEG_R,
    LOWER_LEG_R,
    PART_COUNT
};

/* Standing in a T-pose facing +z, feet at y = 0; "left" is +x. along_x: the capsule lies
   along x (else along y). */
static const struct part {
    vec3s centre;
    float half_height, radius;
    bool along_x;
} parts[PART_COUNT] = {
    [PELVIS] = {{{0.0f, 0.95f, 0.0f}}, 0.07f, 0.11f, true},
    [TORSO] = {{{0.0f, 1.29f, 0.0f}}, 0.12f, 0.15f, false},
    [HEAD] = {{{0.0f, 1.69f, 0.0f}}, 0.02f, 0.10f, false},
    [UPPER_ARM_L] = {{{0.36f, 1.45f, 0.0f}}, 0.13f, 0.05f, true},
    [LOWER_ARM_L] = {{{0.67f, 1.45f, 0.0f}}, 0.12f, 0.045f, true},
    [UPPER_ARM_R] = {{{-0.36f, 1.45f, 0.0f}}, 0.13f, 0.05f, true},
    [LOWER_ARM_R] = {{{-0.67f, 1.45f, 0.0f}}, 0.12f, 0.045f, true},
    [UPPER_LEG_L] = {{{0.10f, 0.69f, 0.0f}}, 0.15f, 0.07f, false},
    [LOWER_LEG_L] = {{{0.10f, 0.26f, 0.0f}}, 0.17f, 0.06f, false},
    [UPPER_LEG_R] = {{{-0.10f, 0.69f, 0.0f}}, 0.15f, 0.07f, false},
    [LOWER_LEG_R] = {{{-0.10f, 0.26f, 0.0f}}, 0.17f, 0.06f, false},
};

/* Swing-twist joints: the axis points from body a into body b; twist in [-twist, twist].
   Hinges: the axis is chosen so that flexion (elbow forward, knee backward) is the positive
   angle; limits [lower, upper]. */
static const struct link {
    int a, b;
    cairn_joint_type type;
    vec3s anchor, axis;
    float cone, lower, upper;
} links[PART_COUNT - 1] = {
    {PELVIS, TORSO, CAIRN_JOINT_SWING_TWIST, {{0.0f, 1.04f, 0.0f}}, {{0, 1, 0}}, 0.4f, -0.3f, 0.3f},
    {TORSO, HEAD, CAIRN_JOINT_SWING_TWIST, {{0.0f, 1.56f, 0.0f}}, {{0, 1, 0}}, 0.5f, -0.5f, 0.5f},
    {TORSO,
     UPPER_ARM_L,
     CAIRN_JOINT_SWING_TWIST,
     {{0.17f, 1.45f, 0.0f}},
     {{1, 0, 0}},
     1.2f,
     -0.8f,
     0.8f},
    {TORSO,
     UPPER_ARM_R,
     CAIRN_JOINT_SWING_TWIST,
     {{-0.17f, 1.45f, 0.0f}},
     {{-1, 0, 0}},
     1.2f,
     -0.8f,
     0.8f},
    {UPPER_ARM_L,
     LOWER_ARM_L,
     CAIRN_JOINT_HINGE,
     {{0.52f, 1.45f, 0.0f}},
     {{0, -1, 0}},
     0.0f,
     0.0f,
     2.6f},
    {UPPER_ARM_R,
     LOWER_ARM_R,
     CAIRN_JOINT_HINGE,
     {{-0.52f, 1.45f, 0.0f}},
     {{0, 1, 0}},
     0.0f,
     0.0f,
     2.6f},
    {PELVIS,
     UPPER_LEG_L,
     CAIRN_JOINT_SWING_TWIST,
     {{0.10f, 0.90f, 0.0f}},
     {{0, -1, 0}},
     0.8f,
     -0.4f,
     0.4f},
    {PELVIS,
     UPPER_LEG_R,
     CAIRN_JOINT_SWING_TWIST,
     {{-0.10f, 0.90f, 0.0f}},
     {{0, -1, 0}},
     0.8f,
     -0.4f,
     0.4f},
    {UPPER_LEG_L,
     LOWER_LEG_L,
     CAIRN_JOINT_HINGE,
     {{0.10f, 0.48f, 0.0f}},
     {{1, 0, 0}},
     0.0f,
     0.0f,
     2.6f},
    {UPPER_LEG_R,
     LOWER_LEG_R,
     CAIRN_JOINT_HINGE,
     {{-0.10f, 0.48f, 0.0f}},
     {{1, 0, 0}},
     0.0f,
     0.0f,
     2.6f},
};

static float capsule_volume(const struct part *p)
{
    float r = p->radius;
    return IO_PI * r * r * 2.0f * p->half_height + 4.0f / 3.0f * IO_PI * r * r * r;
}

/* One ragdoll: its parts turned by `turn` about its feet and moved to `base`. */
static bool emit_ragdoll(io_gen *gen, cairn_shape *const *shapes, versors turn, vec3s base,
                         float friction)
{
    cairn_body_id ids[PART_COUNT];
    versors sideways = io_rotation((vec3s){{0, 0, 1}}, 0.5f * IO_PI); /* capsule +y onto -x */
    for (int i = 0; i < PART_COUNT; ++i) {
        vec3s p = glms_vec3_add(base, glms_quat_rotatev(turn, parts[i].centre));
        versors q = parts[i].along_x ? glms_quat_mul(turn, sideways) : turn;
        if (!io_gen_emit_id(gen, shapes[i], p, glms_quat_normalize(q), &ids[i]))
            return false;
    }
    for (int i = 0; i < PART_COUNT - 1; ++i) {
        const struct link *l = &links[i];
        cairn_joint_def def = cairn_joint_default_def(l->type);
        def.body_a = ids[l->a];
        def.body_b = ids[l->b];
        def.anchor_a = def.anchor_b = glms_vec3_add(base, glms_quat_rotatev(turn, l->anchor));
        def.axis = glms_quat_rotatev(turn, l->axis);
        def.enable_limit = true;
        def.lower = l->lower;
        def.upper = l->upper;
        if (l->type == CAIRN_JOINT_SWING_TWIST)
            def.cone_angle = l->cone;
        def.enable_motor = friction > 0.0f; /* speed 0: joint friction */
        def.max_motor_force = friction;
        if (!io_gen_joint(gen, &def))
            return false;
    }
    return true;
}

/* count ragdolls, the i-th at origin + i * spacing, each turned by euler_degrees (about its
   feet) and thrown at linear_velocity. mass (kg) sets the density unless density is given;
   joint_friction (N m) is the largest torque with which each joint brakes. */
bool io_gen_ragdoll(io_gen *gen)
{
    static const char *const keys[] = {"count", "spacing",        "euler_degrees",
                                       "mass",  "joint_friction", "linear_velocity"};
    int count;
    vec3s spacing, euler;
    float mass, friction;
    if (!io_gen_check_keys(gen, keys, 6) || !io_gen_int(gen, "count", 1, 10000, 1, &count) ||
        !io_gen_vec3(gen, "spacing", -IO_MAX_POSITION, IO_MAX_POSITION, (vec3s){{1.0f, 0.0f, 0.0f}},
                     &spacing) ||
        !io_gen_vec3(gen, "euler_degrees", -3600.0f, 3600.0f, glms_vec3_zero(), &euler) ||
        !io_gen_float(gen, "mass", 1.0f, 1e5f, 70.0f, &mass) ||
        !io_gen_float(gen, "joint_friction", 0.0f, IO_MAX_FORCE, 3.0f, &friction) ||
        !io_gen_vec3(gen, "linear_velocity", -IO_MAX_SPEED, IO_MAX_SPEED, glms_vec3_zero(),
                     &gen->body.linear_velocity))
        return false;
    if (io_gen_has(gen, "density") && io_gen_has(gen, "mass"))
        return io_fail(gen->reader, io_lookup(gen->params, "mass"),
                       "%s: give mass or density, not both", gen->what);
    float volume = 0.0f;
    for (int i = 0; i < PART_COUNT; ++i)
        volume += capsule_volume(&parts[i]);
    if (!io_gen_has(gen, "density"))
        gen->body.density = mass / volume;
    cairn_shape *shapes[PART_COUNT];
    int made = 0;
    bool ok = true;
    for (; made < PART_COUNT && ok; ++made)
        ok = io_shape_made(gen->reader, gen->params, gen->what,
                           cairn_shape_capsule(parts[made].half_height, parts[made].radius),
                           &shapes[made]);
    if (!ok)
        made--; /* the failed one holds no shape */
    versors turn = io_rotation_from_euler_degrees(euler);
    for (int i = 0; i < count && ok; ++i)
        ok = emit_ragdoll(gen, shapes, turn, glms_vec3_scale(spacing, (float)i), friction);
    for (int i = 0; i < made; ++i)
        cairn_shape_release(shapes[i]);
    return ok;
}
