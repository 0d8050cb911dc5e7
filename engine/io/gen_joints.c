/* Generators of jointed bodies: chain (capsule links hanging from a world point), rope_bridge
   (planks hinged end to end between two world points), newtons_cradle (balls on V strings) and
   car (a box chassis on four motored wheels with suspensions). Positions and anchors are relative
   to the generator's origin, y up. */
#include "generators.h"

#include <math.h>

static const float degrees = IO_PI / 180.0f;

/* A joint between a (null: the world) and b at one point. */
static cairn_joint_def joint_at(cairn_joint_type type, cairn_body_id a, cairn_body_id b,
                                vec3s anchor)
{
    cairn_joint_def def = cairn_joint_default_def(type);
    def.body_a = a;
    def.body_b = b;
    def.anchor_a = def.anchor_b = anchor;
    return def;
}

static cairn_body_id world_side(void)
{
    return (cairn_body_id){0, 0};
}

/* links capsules (cap centres 2 * link_half_length apart) hanging from the origin, which the
   first is joined to; each joint sits at the shared cap centre of two links. The chain starts
   straight, angle_degrees from the vertical (positive towards +x), so it swings. joint: ball,
   or hinge (about z: the chain swings in the x-y plane only). */
bool io_gen_chain(io_gen *gen)
{
    static const char *const keys[] = {"links", "link_half_length", "radius", "joint",
                                       "angle_degrees"};
    static const char *const joint_names[] = {"ball", "hinge"};
    int links, joint_kind;
    float half, radius, angle;
    if (!io_gen_check_keys(gen, keys, 5) || !io_gen_int(gen, "links", 1, 10000, 10, &links) ||
        !io_gen_float(gen, "link_half_length", CAIRN_MIN_SIZE, CAIRN_MAX_SIZE, 0.25f, &half) ||
        !io_gen_float(gen, "radius", CAIRN_MIN_SIZE, CAIRN_MAX_SIZE, 0.05f, &radius) ||
        !io_gen_enum(gen, "joint", joint_names, 2, 0, &joint_kind) ||
        !io_gen_float(gen, "angle_degrees", -180.0f, 180.0f, 0.0f, &angle))
        return false;
    cairn_shape *capsule;
    if (!io_shape_made(gen->reader, gen->params, gen->what, cairn_shape_capsule(half, radius),
                       &capsule))
        return false;
    float a = angle * degrees;
    vec3s down = {{sinf(a), -cosf(a), 0.0f}};
    versors turn = io_rotation((vec3s){{0, 0, 1}}, a); /* local +y onto -down */
    cairn_joint_type type = joint_kind == 0 ? CAIRN_JOINT_BALL : CAIRN_JOINT_HINGE;
    cairn_body_id previous = world_side(), link;
    bool ok = true;
    for (int i = 0; i < links && ok; ++i) {
        vec3s top = glms_vec3_scale(down, 2.0f * half * (float)i);
        vec3s centre = glms_vec3_add(top, glms_vec3_scale(down, half));
        ok = io_gen_emit_id(gen, capsule, centre, turn, &link);
        cairn_joint_def def = joint_at(type, previous, link, top);
        def.axis = (vec3s){{0, 0, 1}};
        ok = ok && io_gen_joint(gen, &def);
        previous = link;
    }
    cairn_shape_release(capsule);
    return ok;
}

/* Planks laid along x on a sagging polyline: segment k (of planks) slopes by
   -sag_degrees * (1 - 2 (k + 0.5) / planks), so the bridge starts hanging rather than pulled
   straight (a straight line of joints between two fixed points cannot carry a load). Each
   plank is centred on its segment, gap / 2 short of both ends; neighbours are joined at the
   segment ends, the first and last plank to the world. joint: hinge (about z, across the
   bridge: one per end, each braking with joint_friction N m so the bridge stops swaying), or
   ball (two per end, at the plank edges, like ropes; no friction). The origin is midway
   between the two world anchors. */
bool io_gen_rope_bridge(io_gen *gen)
{
    static const char *const keys[] = {"planks", "plank_half_extents", "gap", "sag_degrees",
                                       "joint",  "joint_friction"};
    static const char *const joint_names[] = {"hinge", "ball"};
    int planks, joint_kind;
    vec3s half;
    float gap, sag, friction;
    if (!io_gen_check_keys(gen, keys, 6) || !io_gen_int(gen, "planks", 1, 10000, 12, &planks) ||
        !io_gen_vec3(gen, "plank_half_extents", CAIRN_MIN_SIZE, CAIRN_MAX_SIZE,
                     (vec3s){{0.25f, 0.05f, 1.0f}}, &half) ||
        !io_gen_float(gen, "gap", 0.0f, CAIRN_MAX_SIZE, 0.1f, &gap) ||
        !io_gen_float(gen, "sag_degrees", 0.0f, 60.0f, 20.0f, &sag) ||
        !io_gen_enum(gen, "joint", joint_names, 2, 0, &joint_kind) ||
        !io_gen_float(gen, "joint_friction", 0.0f, IO_MAX_FORCE, 50.0f, &friction))
        return false;
    if (joint_kind == 1 && io_gen_has(gen, "joint_friction"))
        return io_fail(gen->reader, io_lookup(gen->params, "joint_friction"),
                       "%s.joint_friction is for hinges: ball joints have no motor", gen->what);
    cairn_shape *box;
    if (!io_gen_box(gen, half, &box))
        return false;
    float length = 2.0f * half.x + gap, span = 0.0f;
    for (int k = 0; k < planks; ++k)
        span += length * cosf(sag * degrees * (1.0f - 2.0f * ((float)k + 0.5f) / (float)planks));
    vec3s end = {{-0.5f * span, 0.0f, 0.0f}}; /* the left end of the current segment */
    cairn_body_id previous = world_side(), plank = world_side();
    bool ok = true;
    for (int k = 0; k <= planks && ok; ++k) {
        if (k < planks) {
            float slope = -sag * degrees * (1.0f - 2.0f * ((float)k + 0.5f) / (float)planks);
            vec3s along = {{cosf(slope), sinf(slope), 0.0f}};
            vec3s centre = glms_vec3_add(end, glms_vec3_scale(along, 0.5f * length));
            ok = io_gen_emit_id(gen, box, centre, io_rotation((vec3s){{0, 0, 1}}, slope), &plank);
        }
        /* the last end joins the last plank to the world */
        cairn_body_id a = k < planks ? previous : world_side();
        cairn_body_id b = k < planks ? plank : previous;
        if (joint_kind == 0) {
            cairn_joint_def def = joint_at(CAIRN_JOINT_HINGE, a, b, end);
            def.axis = (vec3s){{0, 0, 1}};
            def.enable_motor = friction > 0.0f; /* speed 0: joint friction */
            def.max_motor_force = friction;
            ok = ok && io_gen_joint(gen, &def);
        } else {
            for (int side = -1; side <= 1 && ok; side += 2) {
                vec3s edge = {{end.x, end.y, (float)side * half.z}};
                cairn_joint_def def = joint_at(CAIRN_JOINT_BALL, a, b, edge);
                ok = io_gen_joint(gen, &def);
            }
        }
        if (k < planks) {
            float slope = -sag * degrees * (1.0f - 2.0f * ((float)k + 0.5f) / (float)planks);
            end = glms_vec3_add(end, (vec3s){{length * cosf(slope), length * sinf(slope), 0}});
            previous = plank;
        }
    }
    cairn_shape_release(box);
    return ok;
}

/* balls spheres in a row along x, touching, each hung from two world points (z = +-
   string_length / 2, y = 0: a V of two distance joints, so it swings in the x-y plane only).
   The first ball is pulled out by pull_degrees towards -x. Without a material the balls are
   frictionless and perfectly elastic. */
bool io_gen_newtons_cradle(io_gen *gen)
{
    static const char *const keys[] = {"balls", "radius", "string_length", "pull_degrees"};
    int balls;
    float radius, string, pull;
    if (!io_gen_check_keys(gen, keys, 4) || !io_gen_int(gen, "balls", 1, 1000, 5, &balls) ||
        !io_gen_float(gen, "radius", CAIRN_MIN_SIZE, CAIRN_MAX_SIZE, 0.2f, &radius) ||
        !io_gen_float(gen, "string_length", CAIRN_MIN_SIZE, CAIRN_MAX_SIZE, 2.0f, &string) ||
        !io_gen_float(gen, "pull_degrees", 0.0f, 90.0f, 30.0f, &pull))
        return false;
    if (!io_gen_has(gen, "material")) {
        gen->body.friction = 0.0f;
        gen->body.restitution = 1.0f;
    }
    cairn_shape *sphere;
    if (!io_shape_made(gen->reader, gen->params, gen->what, cairn_shape_sphere(radius), &sphere))
        return false;
    float spread = 30.0f * degrees; /* half the angle of the V */
    float drop = string * cosf(spread), side = string * sinf(spread);
    bool ok = true;
    for (int i = 0; i < balls && ok; ++i) {
        float x = 2.0f * radius * ((float)i - 0.5f * (float)(balls - 1));
        float p = i == 0 ? pull * degrees : 0.0f;
        vec3s centre = {{x - drop * sinf(p), -drop * cosf(p), 0.0f}};
        cairn_body_id ball;
        ok = io_gen_emit_id(gen, sphere, centre, glms_quat_identity(), &ball);
        for (int s = -1; s <= 1 && ok; s += 2) {
            cairn_joint_def def = joint_at(CAIRN_JOINT_DISTANCE, world_side(), ball, centre);
            def.anchor_a = (vec3s){{x, 0.0f, (float)s * side}};
            ok = io_gen_joint(gen, &def);
        }
    }
    cairn_shape_release(sphere);
    return ok;
}

/* What a car's wheels share: drive, suspension and the front wheels' steering. */
typedef struct car_wheels {
    float speed, torque;                    /* motor: rad/s (positive forward), N m */
    float hertz, damping, travel, steering; /* suspension spring, +-travel m; front steering rad */
} car_wheels;

/* Wheel i's joint: a wheel joint with a vertical suspension and its axle across the car. */
static cairn_joint_def car_wheel_joint(cairn_body_id chassis, cairn_body_id tyre, vec3s centre,
                                       const car_wheels *w, bool front)
{
    cairn_joint_def def = joint_at(CAIRN_JOINT_WHEEL, chassis, tyre, centre);
    def.axis = (vec3s){{0, 1, 0}};
    def.axle = (vec3s){{0, 0, -1}}; /* rolling towards +x turns a wheel about -z */
    def.steering = front ? w->steering : 0.0f;
    def.enable_motor = true;
    def.motor_speed = w->speed;
    def.max_motor_force = w->torque;
    def.enable_spring = true;
    def.spring_hertz = w->hertz;
    def.spring_damping_ratio = w->damping;
    def.enable_limit = true;
    def.lower = -w->travel;
    def.upper = w->travel;
    return def;
}

static bool read_car_wheels(io_gen *gen, car_wheels *w)
{
    return io_gen_float(gen, "motor_speed", -IO_MAX_SPEED, IO_MAX_SPEED, 0.0f, &w->speed) &&
           io_gen_float(gen, "max_motor_torque", 0.0f, IO_MAX_FORCE, 200.0f, &w->torque) &&
           io_gen_float(gen, "suspension_hertz", 0.1f, 100.0f, 6.0f, &w->hertz) &&
           io_gen_float(gen, "suspension_damping", 0.0f, 10.0f, 0.5f, &w->damping) &&
           io_gen_float(gen, "suspension_travel", 0.0f, CAIRN_MAX_SIZE, 0.15f, &w->travel) &&
           io_gen_float(gen, "steering", -0.5f * IO_PI, 0.5f * IO_PI, 0.0f, &w->steering);
}

/* A box chassis (long along x: the car drives towards +x) on four cylinder wheels, each on a
   wheel joint: a vertical suspension (spring at suspension_hertz, the wheel's own frequency,
   with suspension_damping, travel +-suspension_travel m) and the axle across the car, driven by
   a motor at motor_speed (rad/s, positive drives forward) up to max_motor_torque (N m; the
   default speed 0 is a brake); the front wheels steered by steering (rad, positive turns left).
   The origin is on the ground under the chassis centre. Without a density the car weighs about a
   tonne. */
bool io_gen_car(io_gen *gen)
{
    static const char *const keys[] = {
        "chassis_half_extents", "wheel_radius",      "wheel_half_width",
        "motor_speed",          "max_motor_torque",  "suspension_hertz",
        "suspension_damping",   "suspension_travel", "steering"};
    vec3s chassis;
    float radius, half_width;
    car_wheels w;
    if (!io_gen_check_keys(gen, keys, 9) ||
        !io_gen_vec3(gen, "chassis_half_extents", CAIRN_MIN_SIZE, CAIRN_MAX_SIZE,
                     (vec3s){{2.0f, 0.25f, 0.9f}}, &chassis) ||
        !io_gen_float(gen, "wheel_radius", CAIRN_MIN_SIZE, CAIRN_MAX_SIZE, 0.4f, &radius) ||
        !io_gen_float(gen, "wheel_half_width", CAIRN_MIN_SIZE, CAIRN_MAX_SIZE, 0.15f,
                      &half_width) ||
        !read_car_wheels(gen, &w))
        return false;
    if (!io_gen_has(gen, "density"))
        gen->body.density = 300.0f;
    cairn_shape *box, *wheel;
    float rounding = io_default_convex_radius(half_width < radius ? half_width : radius);
    if (!io_gen_box(gen, chassis, &box))
        return false;
    if (!io_shape_made(gen->reader, gen->params, gen->what,
                       cairn_shape_cylinder(half_width, radius, rounding), &wheel)) {
        cairn_shape_release(box);
        return false;
    }
    cairn_body_id body, tyre;
    bool ok = io_gen_emit_id(gen, box, (vec3s){{0.0f, radius + 0.5f * chassis.y, 0.0f}},
                             glms_quat_identity(), &body);
    versors across = io_rotation((vec3s){{1, 0, 0}}, 0.5f * IO_PI); /* cylinder +y onto +z */
    for (int i = 0; i < 4 && ok; ++i) {
        vec3s centre = {{(i < 2 ? 0.65f : -0.65f) * chassis.x, radius,
                         (i % 2 ? 1.0f : -1.0f) * (chassis.z + half_width + 0.02f)}};
        ok = io_gen_emit_id(gen, wheel, centre, across, &tyre);
        cairn_joint_def def = car_wheel_joint(body, tyre, centre, &w, i < 2);
        ok = ok && io_gen_joint(gen, &def);
    }
    cairn_shape_release(box);
    cairn_shape_release(wheel);
    return ok;
}
