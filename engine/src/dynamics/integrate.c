/* Semi-implicit Euler integration of awake bodies: gravity (scaled per body), applied forces and
   torques, damping; then positions. */
#include "dynamics/integrate.h"

#include "core/xform.h"
#include "dynamics/integrate_lanes.h"

#include <math.h>

static vec3s clamp_length(vec3s v, float limit)
{
    float length = glms_vec3_norm(v);
    if (isinf(length)) { /* finite, but past 1.8e19 its squared length overflows a float */
        double x = v.x, y = v.y, z = v.z;
        return glms_vec3_scale(v, (float)(limit / sqrt(x * x + y * y + z * z)));
    }
    return length > limit ? glms_vec3_scale(v, limit / length) : v;
}

/* Without torques a body keeps its world angular momentum L = I w while its inertia turns
   with it: carrying L across the rotation update (and recovering w from the new inertia)
   gives the gyroscopic motion of a tumbling body without the energy gain of an explicit
   gyroscopic torque. before and after are the two rotations normalised (xform.h): the vectors
   are turned as xform_vector and xform_inverse_vector would turn them. */
static vec3s keep_angular_momentum(const body *b, versors before, versors after, vec3s w)
{
    vec3s momentum = xform_rotate_normalized(
        before,
        glms_mat3_mulv(b->inertia_local, xform_rotate_normalized(glms_quat_conjugate(before), w)));
    return xform_rotate_normalized(
        after, glms_mat3_mulv(b->inverse_inertia_local,
                              xform_rotate_normalized(glms_quat_conjugate(after), momentum)));
}

void velocities_load(const cairn_world *world, body_velocity *velocities)
{
    for (int k = 0; k < world->awake.count; ++k) {
        uint32_t i = world->awake.data[k];
        const body *b = &world->bodies.data[i];
        velocities[i] = (body_velocity){
            .linear = b->linear_velocity,
            .inverse_mass = b->inverse_mass,
            .angular = b->angular_velocity,
            .locked_translation = (float)body_translation_lock(b),
        };
    }
}

void velocities_rest(body_velocity *velocities, uint32_t index)
{
    velocities[index] = (body_velocity){.linear = glms_vec3_zero(), .angular = glms_vec3_zero()};
}

/* v with each zero made +0: a zero's sign can depend on which products were summed to it (a
   diagonal inertia's shortcut against the full product, say), which may differ with how the
   step is cut into groups, while every other value is the same to the bit. The stored state,
   which the state hash and the next step read, must not depend on it. */
static vec3s positive_zeros(vec3s v)
{
    return (vec3s){{v.x + 0.0f, v.y + 0.0f, v.z + 0.0f}};
}

static versors positive_zeros_quat(versors q)
{
    return (versors){{q.x + 0.0f, q.y + 0.0f, q.z + 0.0f, q.w + 0.0f}};
}

void velocities_store(cairn_world *world, const body_velocity *velocities)
{
    for (int k = 0; k < world->awake.count; ++k) {
        uint32_t i = world->awake.data[k];
        body *b = &world->bodies.data[i];
        b->linear_velocity = positive_zeros(velocities[i].linear);
        b->angular_velocity = positive_zeros(velocities[i].angular);
        b->transform.position = positive_zeros(b->transform.position);
        b->transform.rotation = positive_zeros_quat(b->transform.rotation);
        b->center = positive_zeros(b->center);
    }
}

/* The implicit decay's factor 1 / (1 + h c), which never reverses v whatever h c: the world's
   (given) for a body without damping of its own, which most are, without a division. */
static float damping_factor(float h, float world_rate, float world_factor, float body_rate)
{
    return body_rate == 0.0f ? world_factor : 1.0f / (1.0f + h * (world_rate + body_rate));
}

void integrate_velocities(cairn_world *world, float h, body_velocity *velocities,
                          const uint32_t *bodies, int start, int end)
{
    const cairn_world_def *def = &world->def;
    float world_linear = 1.0f / (1.0f + h * def->linear_damping);
    float world_angular = 1.0f / (1.0f + h * def->angular_damping);
    for (int k = start; k < end; ++k) {
        const body *b = &world->bodies.data[bodies[k]];
        if (b->type != CAIRN_DYNAMIC)
            continue;
        float linear_damping =
            damping_factor(h, def->linear_damping, world_linear, b->linear_damping);
        float angular_damping =
            damping_factor(h, def->angular_damping, world_angular, b->angular_damping);
        body_velocity *state = &velocities[bodies[k]];
        vec3s acceleration = glms_vec3_add(glms_vec3_scale(def->gravity, b->gravity_scale),
                                           glms_vec3_scale(b->force, b->inverse_mass));
        vec3s angular_acceleration = glms_mat3_mulv(b->inverse_inertia, b->torque);
        vec3s v = glms_vec3_add(state->linear, glms_vec3_scale(acceleration, h));
        vec3s w = glms_vec3_add(state->angular, glms_vec3_scale(angular_acceleration, h));
        state->linear = body_lock_linear(
            b, clamp_length(glms_vec3_scale(v, linear_damping), def->max_linear_speed));
        state->angular = clamp_length(glms_vec3_scale(w, angular_damping), def->max_angular_speed);
    }
}

/* q' = q + h/2 (w, 0) q, renormalised. */
static versors rotate(versors q, vec3s w, float h)
{
    versors spin = {{w.x, w.y, w.z, 0.0f}};
    versors dq = glms_quat_mul(spin, q);
    versors next = {{q.x + 0.5f * h * dq.x, q.y + 0.5f * h * dq.y, q.z + 0.5f * h * dq.z,
                     q.w + 0.5f * h * dq.w}};
    return glms_quat_normalize(next);
}

/* Kinematic bodies turn by the exact rotation exp(h w): over the substeps of a step they reach
   the pose a kinematic target asked for, however large the angle. */
static versors rotate_exact(versors q, vec3s w, float h)
{
    float speed = glms_vec3_norm(w);
    if (speed * h < 1e-6f)
        return rotate(q, w, h);
    float half = 0.5f * speed * h, s = sinf(half) / speed;
    versors turn = {{w.x * s, w.y * s, w.z * s, cosf(half)}};
    return glms_quat_normalize(glms_quat_mul(turn, q));
}

/* Whether a substep reads the body's world inverse inertia (the contacts hold theirs fixed over
   the step, from its start): its joints do at every substep, and its torque's integration. */
static bool inertia_read_next_substep(const body *b)
{
    return b->joint_edges >= 0 || b->torque.x != 0.0f || b->torque.y != 0.0f || b->torque.z != 0.0f;
}

/* One body of any type. */
static void move_one(cairn_world *world, float h, body_velocity *velocities,
                     const motion_offset *offsets, bool last, uint32_t i)
{
    body *b = &world->bodies.data[i];
    vec3s v = velocities[i].linear, w = velocities[i].angular;
    if (offsets) {
        v = glms_vec3_add(v, offsets[i].linear);
        w = glms_vec3_add(w, offsets[i].angular);
    }
    b->center = glms_vec3_add(b->center, glms_vec3_scale(v, h));
    versors before = b->transform.rotation;
    b->transform.rotation =
        b->type == CAIRN_KINEMATIC ? rotate_exact(before, w, h) : rotate(before, w, h);
    /* one normalisation of each rotation for the five vectors turned below (each
       xform_vector call would normalise again) */
    versors after = glms_quat_normalize(b->transform.rotation);
    /* a locked body turns about fixed world axes: no gyroscopic coupling (about one free axis
       its inertia does not change as it turns, and w is constant without torque) */
    if (body_rotation_locked(b))
        velocities[i].angular = body_lock_angular(b, velocities[i].angular);
    else if (b->type == CAIRN_DYNAMIC)
        velocities[i].angular =
            keep_angular_momentum(b, glms_quat_normalize(before), after, velocities[i].angular);
    vec3s offset = xform_rotate_normalized(after, b->local_center);
    b->transform.position = glms_vec3_sub(b->center, offset);
    /* body_sync, with the offset it would turn again */
    b->center = glms_vec3_add(offset, b->transform.position);
    if (last || inertia_read_next_substep(b))
        body_sync_inertia(b);
}

void integrate_shift_pose(body *b, vec3s linear, vec3s angular, float h)
{
    b->center = glms_vec3_add(b->center, glms_vec3_scale(linear, h));
    b->transform.rotation = rotate(b->transform.rotation, angular, h);
    vec3s offset =
        xform_rotate_normalized(glms_quat_normalize(b->transform.rotation), b->local_center);
    b->transform.position = glms_vec3_sub(b->center, offset);
    /* body_sync's centre, to the bit (as integrate_position keeps it): a snapshot holds the
       transform, and the restore works the centre out from it */
    b->center = glms_vec3_add(offset, b->transform.position);
}

#if INTEGRATE_LANES > 1
void integrate_sync_jointed(cairn_world *world, const uint32_t *bodies, int start, int end)
{
    uint32_t group[INTEGRATE_LANES];
    bool sync[INTEGRATE_LANES];
    int count = 0;
    for (int k = start; k < end; ++k) {
        if (world->bodies.data[bodies[k]].joint_edges < 0)
            continue;
        group[count] = bodies[k];
        sync[count++] = true;
        if (count == INTEGRATE_LANES) {
            integrate_lanes_inertia(world, group, count, sync);
            count = 0;
        }
    }
    if (count > 0)
        integrate_lanes_inertia(world, group, count, sync);
}
#else
void integrate_sync_jointed(cairn_world *world, const uint32_t *bodies, int start, int end)
{
    for (int k = start; k < end; ++k)
        if (world->bodies.data[bodies[k]].joint_edges >= 0)
            body_sync_inertia(&world->bodies.data[bodies[k]]);
}
#endif

#if INTEGRATE_LANES > 1
static void move_dynamic_lanes(cairn_world *world, float h, body_velocity *velocities,
                               const motion_offset *offsets, bool last, const uint32_t *group,
                               int count)
{
    integrate_lanes(world, h, velocities, offsets, group, count);
    bool sync[INTEGRATE_LANES];
    for (int l = 0; l < count; ++l)
        sync[l] = last || inertia_read_next_substep(&world->bodies.data[group[l]]);
    integrate_lanes_inertia(world, group, count, sync);
}
#endif

void integrate_positions(cairn_world *world, float h, body_velocity *velocities,
                         const motion_offset *offsets, bool last, const uint32_t *bodies, int start,
                         int end)
{
#if INTEGRATE_LANES > 1
    uint32_t group[INTEGRATE_LANES];
    int count = 0;
    for (int k = start; k < end; ++k) {
        uint32_t i = bodies[k];
        const body *b = &world->bodies.data[i];
        if (b->type != CAIRN_DYNAMIC || body_rotation_locked(b)) {
            move_one(world, h, velocities, offsets, last, i);
            continue;
        }
        group[count++] = i;
        if (count == INTEGRATE_LANES) {
            move_dynamic_lanes(world, h, velocities, offsets, last, group, count);
            count = 0;
        }
    }
    if (count > 0)
        move_dynamic_lanes(world, h, velocities, offsets, last, group, count);
#else
    for (int k = start; k < end; ++k)
        move_one(world, h, velocities, offsets, last, bodies[k]);
#endif
}
