/* The joint part of the public API: validation, creation and destruction, the per-body joint
   lists, run-time changes and reading back. */
#include "dynamics/joint.h"

#include "core/error.h"
#include "core/validate.h"
#include "core/xform.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

static const float max_position = 1e6f, max_speed = 1e4f;

cairn_joint_def cairn_joint_default_def(cairn_joint_type type)
{
    cairn_joint_def def;
    memset(&def, 0, sizeof def);
    def.type = type;
    def.axis = (vec3s){{1.0f, 0.0f, 0.0f}};
    def.axle = (vec3s){{0.0f, 0.0f, 1.0f}};
    def.cone_angle = 0.25f * GLM_PIf;
    def.spring_damping_ratio = 1.0f;
    return def;
}

static joint *world_joint(const cairn_world *world, cairn_joint_id id, const char *function)
{
    if (world == NULL) {
        error_set("%s: world is NULL", function);
        return NULL;
    }
    if (!id_pool_is_valid(&world->joint_ids, id.index, id.generation)) {
        error_set("%s: joint id {%u, %u} is null, stale or unknown", function, id.index,
                  id.generation);
        return NULL;
    }
    return &world->joints.data[id.index];
}

/* ---- validation ---- */

static const char *const type_names[] = {"ball",     "hinge",       "slider", "fixed",
                                         "distance", "swing-twist", "wheel"};

static bool check_finite(const char *function, const char *name, float value)
{
    if (!is_finite_float(value))
        return error_set("%s: %s is not finite", function, name);
    return true;
}

static bool check_not_negative(const char *function, const char *name, float value)
{
    if (!check_finite(function, name, value))
        return false;
    if (value < 0.0f)
        return error_set("%s: %s = %g must be >= 0", function, name, (double)value);
    return true;
}

static bool check_limits(const char *function, cairn_joint_type type, float lower, float upper)
{
    if (!check_finite(function, "lower", lower) || !check_finite(function, "upper", upper))
        return false;
    if (lower > upper)
        return error_set("%s: lower = %g is above upper = %g", function, (double)lower,
                         (double)upper);
    bool angular = type == CAIRN_JOINT_HINGE || type == CAIRN_JOINT_SWING_TWIST;
    if (angular && (lower < -GLM_PIf || upper > GLM_PIf))
        return error_set("%s: limits [%g, %g] rad are outside [-pi, pi]", function, (double)lower,
                         (double)upper);
    if (type == CAIRN_JOINT_DISTANCE && lower < 0.0f)
        return error_set("%s: lower = %g m is a negative length", function, (double)lower);
    if (type != CAIRN_JOINT_DISTANCE && !angular &&
        (fabsf(lower) > max_position || fabsf(upper) > max_position))
        return error_set("%s: limits [%g, %g] m are outside [-1e6, 1e6]", function, (double)lower,
                         (double)upper);
    return true;
}

static bool check_motor(const char *function, cairn_joint_type type, float speed, float force)
{
    if (!check_finite(function, "motor_speed", speed) ||
        !check_not_negative(function, "max_motor_force", force))
        return false;
    if (fabsf(speed) > max_speed)
        return error_set("%s: |motor_speed| = %g is above %g", function, (double)fabsf(speed),
                         (double)max_speed);
    if (type == CAIRN_JOINT_SWING_TWIST && speed != 0.0f)
        return error_set("%s: a swing-twist motor is joint friction: motor_speed must be 0",
                         function);
    return true;
}

static bool check_spring(const char *function, bool enable, float hertz, float damping,
                         float target)
{
    if (!check_not_negative(function, "spring_hertz", hertz) ||
        !check_not_negative(function, "spring_damping_ratio", damping) ||
        !check_finite(function, "spring_target", target))
        return false;
    if (enable && hertz == 0.0f)
        return error_set("%s: spring_hertz must be > 0 when the spring is enabled", function);
    return true;
}

/* Which of limit, motor and spring each type has. */
static bool check_features(const char *function, cairn_joint_type type, bool limit, bool motor,
                           bool spring)
{
    bool has_limit = type != CAIRN_JOINT_BALL && type != CAIRN_JOINT_FIXED;
    bool has_motor = type == CAIRN_JOINT_HINGE || type == CAIRN_JOINT_SLIDER ||
                     type == CAIRN_JOINT_SWING_TWIST || type == CAIRN_JOINT_WHEEL;
    bool has_spring = type == CAIRN_JOINT_HINGE || type == CAIRN_JOINT_SLIDER ||
                      type == CAIRN_JOINT_DISTANCE || type == CAIRN_JOINT_BALL ||
                      type == CAIRN_JOINT_WHEEL;
    const char *missing = limit && !has_limit     ? "limit"
                          : motor && !has_motor   ? "motor"
                          : spring && !has_spring ? "spring"
                                                  : NULL;
    if (missing)
        return error_set("%s: a %s joint has no %s", function, type_names[type], missing);
    return true;
}

static bool check_point(const char *function, const char *name, vec3s p)
{
    if (!is_finite_vec3(p))
        return error_set("%s: %s is not finite", function, name);
    if (glms_vec3_norm(p) > max_position)
        return error_set("%s: |%s| = %g is above %g", function, name, (double)glms_vec3_norm(p),
                         (double)max_position);
    return true;
}

static bool needs_axis(cairn_joint_type type)
{
    return type == CAIRN_JOINT_HINGE || type == CAIRN_JOINT_SLIDER ||
           type == CAIRN_JOINT_SWING_TWIST || type == CAIRN_JOINT_WHEEL;
}

/* A wheel's steering: within a quarter turn either way. */
static bool check_steering(const char *function, float angle)
{
    if (!check_finite(function, "steering", angle))
        return false;
    if (fabsf(angle) > 0.5f * GLM_PIf)
        return error_set("%s: steering = %g rad is outside [-pi/2, pi/2]", function, (double)angle);
    return true;
}

/* A wheel's axle: finite, and at least a degree away from its axis (the axis checked first). */
static bool check_axle(const char *function, vec3s axis, vec3s axle)
{
    if (!is_finite_vec3(axle))
        return error_set("%s: axle is not finite", function);
    float length = glms_vec3_norm(axle);
    if (!(length > 1e-6f))
        return error_set("%s: axle is zero", function);
    float sine = glms_vec3_norm(glms_vec3_cross(glms_vec3_normalize(axis), axle)) / length;
    if (!(sine > 0.0175f))
        return error_set("%s: axle is within 1 degree of the axis: a wheel needs them apart",
                         function);
    return true;
}

static bool check_settings(const char *function, const cairn_joint_def *def)
{
    const char *fn = function;
    return check_features(fn, def->type, def->enable_limit, def->enable_motor,
                          def->enable_spring) &&
           check_limits(fn, def->type, def->lower, def->upper) &&
           check_motor(fn, def->type, def->motor_speed, def->max_motor_force) &&
           check_spring(fn, def->enable_spring, def->spring_hertz, def->spring_damping_ratio,
                        def->spring_target) &&
           check_not_negative(fn, "break_force", def->break_force);
}

static bool check_geometry(const char *fn, const cairn_joint_def *def)
{
    if (!check_point(fn, "anchor_a", def->anchor_a) || !check_point(fn, "anchor_b", def->anchor_b))
        return false;
    if (needs_axis(def->type)) {
        if (!is_finite_vec3(def->axis))
            return error_set("%s: axis is not finite", fn);
        if (!(glms_vec3_norm(def->axis) > 1e-6f))
            return error_set("%s: axis is zero", fn);
    }
    if (def->type == CAIRN_JOINT_SWING_TWIST &&
        !(def->cone_angle > 0.0f && def->cone_angle < GLM_PIf))
        return error_set("%s: cone_angle = %g is outside (0, pi)", fn, (double)def->cone_angle);
    if (def->type == CAIRN_JOINT_WHEEL &&
        (!check_axle(fn, def->axis, def->axle) || !check_steering(fn, def->steering)))
        return false;
    return true;
}

static bool is_dynamic(const cairn_world *world, uint32_t index)
{
    return index != JOINT_WORLD && world->bodies.data[index].type == CAIRN_DYNAMIC;
}

/* The body indices of a def (body_a JOINT_WORLD when null), or false and an error. */
static bool check_bodies(const cairn_world *world, const cairn_joint_def *def, uint32_t *a,
                         uint32_t *b)
{
    const char *fn = "cairn_joint_create";
    cairn_body_id null_id = {0, 0};
    if (memcmp(&def->body_b, &null_id, sizeof null_id) == 0)
        return error_set("%s: body_b is the null id (only body_a may be the world)", fn);
    if (!cairn_body_is_valid(world, def->body_b))
        return error_set("%s: body_b {%u, %u} is stale or unknown", fn, def->body_b.index,
                         def->body_b.generation);
    bool world_a = memcmp(&def->body_a, &null_id, sizeof null_id) == 0;
    if (!world_a && !cairn_body_is_valid(world, def->body_a))
        return error_set("%s: body_a {%u, %u} is stale or unknown", fn, def->body_a.index,
                         def->body_a.generation);
    *a = world_a ? JOINT_WORLD : def->body_a.index;
    *b = def->body_b.index;
    if (*a == *b)
        return error_set("%s: body_a and body_b are the same body: a joint needs two", fn);
    if (!is_dynamic(world, *a) && !is_dynamic(world, *b))
        return error_set("%s: neither body is dynamic (two static or kinematic bodies, or one "
                         "and the world): the joint could move nothing",
                         fn);
    return true;
}

static bool check_def(const cairn_world *world, const cairn_joint_def *def, uint32_t *a,
                      uint32_t *b)
{
    const char *fn = "cairn_joint_create";
    if (world == NULL)
        return error_set("%s: world is NULL", fn);
    if (def == NULL)
        return error_set("%s: def is NULL", fn);
    if ((unsigned)def->type > (unsigned)CAIRN_JOINT_WHEEL)
        return error_set("%s: type %d is not a joint type", fn, (int)def->type);
    return check_bodies(world, def, a, b) && check_geometry(fn, def) && check_settings(fn, def);
}

/* ---- creation ---- */

/* A rotation whose x axis is the unit axis and whose y axis is toward second (not parallel to
   it), or chosen deterministically when second is zero. */
static versors frame_from_axes(vec3s axis, vec3s second)
{
    vec3s helper = fabsf(axis.x) < 0.57f ? (vec3s){{1, 0, 0}} : (vec3s){{0, 1, 0}};
    vec3s z = glms_vec3_cross(axis, helper);
    if (glms_vec3_norm2(second) > 0.0f)
        z = glms_vec3_cross(axis, second);
    z = glms_vec3_normalize(z);
    vec3s y = glms_vec3_cross(z, axis);
    mat3s m;
    m.col[0] = axis;
    m.col[1] = y;
    m.col[2] = z;
    return glms_quat_normalize(glms_mat3_quat(m));
}

static cairn_transform side_transform(const cairn_world *world, uint32_t index)
{
    return index == JOINT_WORLD ? cairn_transform_identity() : world->bodies.data[index].transform;
}

static void set_frames(const cairn_world *world, joint *j, const cairn_joint_def *def)
{
    cairn_transform xa = side_transform(world, j->body_a), xb = side_transform(world, j->body_b);
    /* one point for every type but the distance joint, which keeps two */
    vec3s anchor_b = def->type == CAIRN_JOINT_DISTANCE ? def->anchor_b : def->anchor_a;
    j->local_anchor_a = xform_inverse_point(xa, def->anchor_a);
    j->local_anchor_b = xform_inverse_point(xb, anchor_b);
    vec3s axis = needs_axis(def->type) ? glms_vec3_normalize(def->axis) : (vec3s){{1, 0, 0}};
    /* a wheel's frame has its y axis along the axle (joint_wheel.c) */
    vec3s second = def->type == CAIRN_JOINT_WHEEL ? def->axle : glms_vec3_zero();
    versors frame = frame_from_axes(axis, second);
    j->local_frame_a = glms_quat_normalize(glms_quat_mul(glms_quat_conjugate(xa.rotation), frame));
    j->local_frame_b = glms_quat_normalize(glms_quat_mul(glms_quat_conjugate(xb.rotation), frame));
    if (def->type == CAIRN_JOINT_DISTANCE)
        j->state.distance.rest_length = glms_vec3_distance(def->anchor_a, def->anchor_b);
}

static void link_edge(cairn_world *world, uint32_t joint_index, int side)
{
    joint *j = &world->joints.data[joint_index];
    uint32_t body_index = side == 0 ? j->body_a : j->body_b;
    j->next[side] = j->prev[side] = -1;
    if (body_index == JOINT_WORLD)
        return;
    body *b = &world->bodies.data[body_index];
    int32_t key = (int32_t)(joint_index * 2 + (uint32_t)side);
    j->next[side] = b->joint_edges;
    if (b->joint_edges >= 0)
        world->joints.data[b->joint_edges >> 1].prev[b->joint_edges & 1] = key;
    b->joint_edges = key;
}

static void unlink_edge(cairn_world *world, uint32_t joint_index, int side)
{
    joint *j = &world->joints.data[joint_index];
    uint32_t body_index = side == 0 ? j->body_a : j->body_b;
    if (body_index == JOINT_WORLD)
        return;
    int32_t next = j->next[side], prev = j->prev[side];
    if (prev >= 0)
        world->joints.data[prev >> 1].next[prev & 1] = next;
    else
        world->bodies.data[body_index].joint_edges = next;
    if (next >= 0)
        world->joints.data[next >> 1].prev[next & 1] = prev;
}

cairn_joint_id cairn_joint_create(cairn_world *world, const cairn_joint_def *def)
{
    if (!world_unlocked(world, "cairn_joint_create"))
        return (cairn_joint_id){0, 0};
    cairn_joint_id null_id = {0, 0}, id;
    uint32_t a = JOINT_WORLD, b = JOINT_WORLD;
    if (!check_def(world, def, &a, &b))
        return null_id;
    if (!id_pool_alloc(&world->joint_ids, &id.index, &id.generation))
        return null_id;
    if (!array_grow(&world->joints, (int)id.index + 1)) {
        id_pool_free(&world->joint_ids, id.index, id.generation);
        return null_id;
    }
    while (world->joints.count <= (int)id.index)
        world->joints.data[world->joints.count++].alive = false;
    joint *j = &world->joints.data[id.index];
    memset(j, 0, sizeof *j);
    j->type = def->type;
    j->alive = true;
    j->generation = id.generation;
    j->body_a = a;
    j->body_b = b;
    j->settings = *def;
    set_frames(world, j, def);
    link_edge(world, id.index, 0);
    link_edge(world, id.index, 1);
    if (a != JOINT_WORLD)
        islands_wake(world, a);
    islands_wake(world, b);
    /* a contact between the two ends at the next step (with its end event) */
    world->refilter_pending |= !def->collide_connected;
    return id;
}

/* ---- destruction ---- */

static void wake_side(cairn_world *world, uint32_t index)
{
    if (index != JOINT_WORLD)
        islands_wake(world, index);
}

/* Unlinks and frees the joint; its bodies wake. refilter: the two bodies stay, and may now
   collide. */
static void destroy_joint(cairn_world *world, uint32_t index, bool refilter)
{
    joint *j = &world->joints.data[index];
    unlink_edge(world, index, 0);
    unlink_edge(world, index, 1);
    wake_side(world, j->body_a);
    wake_side(world, j->body_b);
    world->refilter_pending |=
        refilter && !j->settings.collide_connected && j->body_a != JOINT_WORLD;
    j->alive = false;
    id_pool_free(&world->joint_ids, index, j->generation);
    /* The slot keeps the pool's next generation (id_pool_free's bump): a snapshot rebuilds the
       pool from the slots, and the destroyed joint's own generation there would make its id
       valid again. */
    j->generation = id_generation_next(j->generation);
}

void cairn_joint_destroy(cairn_world *world, cairn_joint_id id)
{
    if (!world_unlocked(world, "cairn_joint_destroy"))
        return;
    if (world_joint(world, id, "cairn_joint_destroy") != NULL)
        destroy_joint(world, id.index, true);
}

void joints_destroy_body(cairn_world *world, uint32_t body_index)
{
    while (world->bodies.data[body_index].joint_edges >= 0)
        destroy_joint(world, (uint32_t)world->bodies.data[body_index].joint_edges >> 1, false);
}

void joints_break(cairn_world *world)
{
    if (world->joints_broken == 0)
        return;
    for (int i = 0; i < world->joints.count; ++i) {
        joint *j = &world->joints.data[i];
        if (!j->alive || !j->broken)
            continue;
        cairn_body_id world_id = {0, 0};
        cairn_joint_break_event e = {
            .joint = {(uint32_t)i, j->generation},
            .body_a = j->body_a == JOINT_WORLD ? world_id : body_id_at(world, j->body_a),
            .body_b = body_id_at(world, j->body_b),
            .force = j->reaction_force,
            .torque = j->reaction_torque,
            .point = xform_point(side_transform(world, j->body_b), j->local_anchor_b),
            .user_data = j->settings.user_data,
        };
        (void)array_push(&world->events.joint_breaks, e); /* best effort, like contact events */
        destroy_joint(world, (uint32_t)i, true);
    }
    world->joints_broken = 0;
}

void joints_free(cairn_world *world)
{
    array_free(&world->joints);
    id_pool_destroy(&world->joint_ids);
}

/* The one setting kept in the state, after the state was cleared. */
static void restore_rest_length(joint *j)
{
    if (j->type == CAIRN_JOINT_DISTANCE)
        j->state.distance.rest_length =
            glms_vec3_distance(j->settings.anchor_a, j->settings.anchor_b);
}

void joint_reset_impulses(joint *j)
{
    memset(&j->point.impulse, 0, sizeof j->point.impulse);
    memset(&j->free_axis, 0, sizeof j->free_axis);
    memset(&j->state, 0, sizeof j->state);
    restore_rest_length(j);
}

void joint_copy_without_state(joint *out, const joint *j)
{
    memcpy(out, j, offsetof(joint, point));
    memset((char *)out + offsetof(joint, point), 0, sizeof *out - offsetof(joint, point));
    restore_rest_length(out);
}

/* ---- the joint graph, for filtering and islands ---- */

static uint32_t other_side(const joint *j, int32_t key)
{
    return (key & 1) ? j->body_a : j->body_b;
}

bool joints_allow_collision(const cairn_world *world, uint32_t a, uint32_t b)
{
    for (int32_t key = world->bodies.data[a].joint_edges; key >= 0;) {
        const joint *j = &world->joints.data[key >> 1];
        if (other_side(j, key) == b && !j->settings.collide_connected)
            return false;
        key = j->next[key & 1];
    }
    return true;
}

void joints_for_each_partner(cairn_world *world, uint32_t body_index,
                             void (*visit)(cairn_world *, uint32_t, void *), void *context)
{
    for (int32_t key = world->bodies.data[body_index].joint_edges; key >= 0;) {
        const joint *j = &world->joints.data[key >> 1];
        int32_t next = j->next[key & 1]; /* visit may wake bodies, never unlink joints */
        uint32_t other = other_side(j, key);
        if (other != JOINT_WORLD)
            visit(world, other, context);
        key = next;
    }
}

/* ---- reading back ---- */

bool cairn_joint_is_valid(const cairn_world *world, cairn_joint_id id)
{
    return world != NULL && id_pool_is_valid(&world->joint_ids, id.index, id.generation);
}

vec3s cairn_joint_reaction_force(const cairn_world *world, cairn_joint_id id)
{
    const joint *j = world_joint(world, id, "cairn_joint_reaction_force");
    return j ? j->reaction_force : glms_vec3_zero();
}

vec3s cairn_joint_reaction_torque(const cairn_world *world, cairn_joint_id id)
{
    const joint *j = world_joint(world, id, "cairn_joint_reaction_torque");
    return j ? j->reaction_torque : glms_vec3_zero();
}

float cairn_joint_position(const cairn_world *world, cairn_joint_id id)
{
    const joint *j = world_joint(world, id, "cairn_joint_position");
    return j ? joint_position_now(world, j) : 0.0f;
}

cairn_joint_def cairn_joint_get_def(const cairn_world *world, cairn_joint_id id)
{
    cairn_joint_def def;
    memset(&def, 0, sizeof def);
    const joint *j = world_joint(world, id, "cairn_joint_get_def");
    if (j == NULL)
        return def;
    def = j->settings;
    cairn_transform xa = side_transform(world, j->body_a), xb = side_transform(world, j->body_b);
    def.anchor_a = xform_point(xa, j->local_anchor_a);
    def.anchor_b = xform_point(xb, j->local_anchor_b);
    versors frame_a = glms_quat_mul(xa.rotation, j->local_frame_a);
    def.axis = joint_axis_x(frame_a);
    if (j->type == CAIRN_JOINT_WHEEL)
        def.axle = joint_axis_y(frame_a);
    return def;
}

void *cairn_joint_user_data(const cairn_world *world, cairn_joint_id id)
{
    const joint *j = world_joint(world, id, "cairn_joint_user_data");
    return j ? j->settings.user_data : NULL;
}

int cairn_world_joint_count(const cairn_world *world)
{
    return world ? id_pool_count(&world->joint_ids) : 0;
}

int cairn_world_joints(const cairn_world *world, cairn_joint_id *ids, int capacity)
{
    int count = 0;
    for (int i = 0; world != NULL && i < world->joints.count; ++i) {
        const joint *j = &world->joints.data[i];
        if (!j->alive)
            continue;
        if (ids != NULL && count < capacity)
            ids[count] = (cairn_joint_id){(uint32_t)i, j->generation};
        ++count;
    }
    return count;
}

int cairn_body_joints(const cairn_world *world, cairn_body_id body_id, cairn_joint_id *out,
                      int capacity)
{
    const body *b = world_body(world, body_id, "cairn_body_joints");
    if (b == NULL)
        return -1;
    if (capacity < 0 || (out == NULL && capacity > 0)) {
        error_set("cairn_body_joints: capacity = %d with out %s", capacity, out ? "given" : "NULL");
        return -1;
    }
    int count = 0;
    for (int32_t key = b->joint_edges; key >= 0; ++count) {
        const joint *j = &world->joints.data[key >> 1];
        if (count < capacity)
            out[count] = (cairn_joint_id){(uint32_t)key >> 1, j->generation};
        key = j->next[key & 1];
    }
    return count;
}

cairn_joint_events cairn_world_joint_events(const cairn_world *world)
{
    cairn_joint_events none = {NULL, 0};
    if (world == NULL)
        return none;
    return (cairn_joint_events){world->events.joint_breaks.data, world->events.joint_breaks.count};
}

/* ---- changes at run time ---- */

/* The joint, its bodies woken, or NULL. */
static joint *joint_to_change(cairn_world *world, cairn_joint_id id, const char *function)
{
    joint *j = world_joint(world, id, function);
    if (j != NULL) {
        wake_side(world, j->body_a);
        wake_side(world, j->body_b);
    }
    return j;
}

bool cairn_joint_set_limits(cairn_world *world, cairn_joint_id id, bool enable, float lower,
                            float upper)
{
    if (!world_unlocked(world, "cairn_joint_set_limits"))
        return false;
    const char *fn = "cairn_joint_set_limits";
    joint *j = world_joint(world, id, fn);
    if (j == NULL || !check_features(fn, j->type, enable, false, false) ||
        !check_limits(fn, j->type, lower, upper))
        return false;
    joint_to_change(world, id, fn);
    j->settings.enable_limit = enable;
    j->settings.lower = lower;
    j->settings.upper = upper;
    if (!enable)
        j->free_axis.lower = j->free_axis.upper = 0.0f;
    return true;
}

bool cairn_joint_set_motor(cairn_world *world, cairn_joint_id id, bool enable, float speed,
                           float max_force)
{
    if (!world_unlocked(world, "cairn_joint_set_motor"))
        return false;
    const char *fn = "cairn_joint_set_motor";
    joint *j = world_joint(world, id, fn);
    if (j == NULL || !check_features(fn, j->type, false, enable, false) ||
        !check_motor(fn, j->type, speed, max_force))
        return false;
    joint_to_change(world, id, fn);
    if (enable && !j->settings.enable_motor && j->type == CAIRN_JOINT_SWING_TWIST)
        memset(&j->state.swing_twist.friction, 0, sizeof j->state.swing_twist.friction);
    j->settings.enable_motor = enable;
    j->settings.motor_speed = speed;
    j->settings.max_motor_force = max_force;
    if (!enable)
        j->free_axis.motor = 0.0f;
    return true;
}

bool cairn_joint_set_spring(cairn_world *world, cairn_joint_id id, bool enable, float hertz,
                            float damping_ratio, float target)
{
    if (!world_unlocked(world, "cairn_joint_set_spring"))
        return false;
    const char *fn = "cairn_joint_set_spring";
    joint *j = world_joint(world, id, fn);
    if (j == NULL || !check_features(fn, j->type, false, false, enable) ||
        !check_spring(fn, enable, hertz, damping_ratio, target))
        return false;
    joint_to_change(world, id, fn);
    j->settings.enable_spring = enable;
    j->settings.spring_hertz = hertz;
    j->settings.spring_damping_ratio = damping_ratio;
    j->settings.spring_target = target;
    if (!enable)
        j->free_axis.spring = 0.0f;
    return true;
}

bool cairn_joint_set_world_anchor(cairn_world *world, cairn_joint_id id, vec3s point)
{
    if (!world_unlocked(world, "cairn_joint_set_world_anchor"))
        return false;
    const char *fn = "cairn_joint_set_world_anchor";
    joint *j = world_joint(world, id, fn);
    if (j == NULL || !check_point(fn, "point", point))
        return false;
    if (j->body_a != JOINT_WORLD)
        return error_set("%s: the joint is not held to the world (body_a is a body)", fn);
    joint_to_change(world, id, fn);
    j->local_anchor_a = point; /* the world's frame is the world */
    return true;
}

bool cairn_joint_set_break_force(cairn_world *world, cairn_joint_id id, float force)
{
    if (!world_unlocked(world, "cairn_joint_set_break_force"))
        return false;
    const char *fn = "cairn_joint_set_break_force";
    joint *j = world_joint(world, id, fn);
    if (j == NULL || !check_not_negative(fn, "break_force", force))
        return false;
    j->settings.break_force = force;
    return true;
}

bool cairn_joint_set_steering(cairn_world *world, cairn_joint_id id, float angle)
{
    const char *fn = "cairn_joint_set_steering";
    if (!world_unlocked(world, fn))
        return false;
    joint *j = world_joint(world, id, fn);
    if (j == NULL || !check_steering(fn, angle))
        return false;
    if (j->type != CAIRN_JOINT_WHEEL)
        return error_set("%s: a %s joint has no steering", fn, type_names[j->type]);
    joint_to_change(world, id, fn);
    j->settings.steering = angle;
    return true;
}

bool cairn_joint_set_user_data(cairn_world *world, cairn_joint_id id, void *user_data)
{
    joint *j = world_joint(world, id, "cairn_joint_set_user_data");
    if (j == NULL)
        return false;
    j->settings.user_data = user_data;
    return true;
}
