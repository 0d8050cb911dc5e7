/* The body API that moves bodies: teleports, velocities, forces and torques for the next step,
   angular impulses, kinematic targets, gravity scale, damping and locked rotation and translation
   axes. */
#include "dynamics/world_state.h"

#include "core/error.h"
#include "core/validate.h"
#include "core/xform.h"

#include <math.h>

static const float max_position = 1e6f, max_speed = 1e4f, max_gravity_scale = 100.0f;

static bool check_finite(const char *function, const char *name, vec3s v)
{
    if (!is_finite_vec3(v))
        return error_set("%s: %s (%g, %g, %g) is not finite", function, name, (double)v.x,
                         (double)v.y, (double)v.z);
    return true;
}

static bool check_length(const char *function, const char *name, vec3s v, float limit)
{
    if (!check_finite(function, name, v))
        return false;
    if (glms_vec3_norm(v) > limit)
        return error_set("%s: |%s| = %g is above %g", function, name, (double)glms_vec3_norm(v),
                         (double)limit);
    return true;
}

static bool check_transform(const char *function, cairn_transform xf)
{
    if (!check_length(function, "position", xf.position, max_position))
        return false;
    if (!is_unit_quat(xf.rotation))
        return error_set("%s: rotation (%g, %g, %g, %g) is not a finite unit quaternion", function,
                         (double)xf.rotation.x, (double)xf.rotation.y, (double)xf.rotation.z,
                         (double)xf.rotation.w);
    return true;
}

/* Moves the proxy to the new tight bounds grown by the broadphase margin, at once. */
static bool move_proxy_now(cairn_world *world, const body *b)
{
    if (b->proxy < 0)
        return true;
    cairn_aabb fat = body_bounds(b);
    fat.min = glms_vec3_subs(fat.min, BROADPHASE_MARGIN);
    fat.max = glms_vec3_adds(fat.max, BROADPHASE_MARGIN);
    return broadphase_set_fat_aabb(&world->broadphase, b->proxy, fat);
}

bool cairn_body_set_transform(cairn_world *world, cairn_body_id id, cairn_transform transform)
{
    if (!world_unlocked(world, "cairn_body_set_transform"))
        return false;
    const char *function = "cairn_body_set_transform";
    body *b = world_body(world, id, function);
    if (b == NULL || !check_transform(function, transform))
        return false;
    body before = *b;
    b->transform.position = transform.position;
    b->transform.rotation = glms_quat_normalize(transform.rotation);
    body_sync(b);
    if (!move_proxy_now(world, b)) {
        *b = before;
        return false; /* error set by the broadphase */
    }
    /* Bodies resting on the old place must notice that it moved, and sensors where it is. */
    islands_wake_touching(world, id.index);
    sensors_mark_stale(world, id.index);
    islands_wake(world, id.index);
    return true;
}

/* The body behind id if it may be given a velocity. */
static body *movable_body(cairn_world *world, cairn_body_id id, const char *function)
{
    body *b = world_body(world, id, function);
    if (b != NULL && b->type == CAIRN_STATIC) {
        error_set("%s: body {%u, %u} is static and cannot move", function, id.index, id.generation);
        return NULL;
    }
    return b;
}

bool cairn_body_set_linear_velocity(cairn_world *world, cairn_body_id id, vec3s velocity)
{
    if (!world_unlocked(world, "cairn_body_set_linear_velocity"))
        return false;
    const char *function = "cairn_body_set_linear_velocity";
    body *b = movable_body(world, id, function);
    if (b == NULL || !check_length(function, "velocity", velocity, max_speed))
        return false;
    b->linear_velocity = body_lock_linear(b, velocity);
    islands_wake(world, id.index);
    return true;
}

bool cairn_body_set_angular_velocity(cairn_world *world, cairn_body_id id, vec3s velocity)
{
    if (!world_unlocked(world, "cairn_body_set_angular_velocity"))
        return false;
    const char *function = "cairn_body_set_angular_velocity";
    body *b = movable_body(world, id, function);
    if (b == NULL || !check_length(function, "velocity", velocity, max_speed))
        return false;
    b->angular_velocity = body_lock_angular(b, velocity);
    islands_wake(world, id.index);
    return true;
}

bool cairn_body_apply_force(cairn_world *world, cairn_body_id id, vec3s force, vec3s world_point)
{
    if (!world_unlocked(world, "cairn_body_apply_force"))
        return false;
    const char *function = "cairn_body_apply_force";
    body *b = world_body(world, id, function);
    if (b == NULL || !check_finite(function, "force", force) ||
        !check_finite(function, "world_point", world_point))
        return false;
    if (b->type != CAIRN_DYNAMIC || !b->enabled)
        return true; /* a disabled body does not step: a force would wait for the re-enable */
    vec3s arm = glms_vec3_sub(world_point, b->center);
    b->force = glms_vec3_add(b->force, force);
    b->torque = glms_vec3_add(b->torque, glms_vec3_cross(arm, force));
    islands_wake(world, id.index);
    return true;
}

bool cairn_body_apply_torque(cairn_world *world, cairn_body_id id, vec3s torque)
{
    if (!world_unlocked(world, "cairn_body_apply_torque"))
        return false;
    const char *function = "cairn_body_apply_torque";
    body *b = world_body(world, id, function);
    if (b == NULL || !check_finite(function, "torque", torque))
        return false;
    if (b->type != CAIRN_DYNAMIC || !b->enabled)
        return true;
    b->torque = glms_vec3_add(b->torque, torque);
    islands_wake(world, id.index);
    return true;
}

bool cairn_body_apply_angular_impulse(cairn_world *world, cairn_body_id id, vec3s impulse)
{
    if (!world_unlocked(world, "cairn_body_apply_angular_impulse"))
        return false;
    const char *function = "cairn_body_apply_angular_impulse";
    body *b = world_body(world, id, function);
    if (b == NULL || !check_finite(function, "impulse", impulse))
        return false;
    if (b->type != CAIRN_DYNAMIC || !b->enabled)
        return true; /* as forces: a disabled body would keep the push for its re-enable */
    islands_wake(world, id.index);
    b->angular_velocity =
        glms_vec3_add(b->angular_velocity, glms_mat3_mulv(b->inverse_inertia, impulse));
    return true;
}

void bodies_clear_forces(cairn_world *world)
{
    for (int k = 0; k < world->awake.count; ++k) {
        body *b = &world->bodies.data[world->awake.data[k]];
        b->force = glms_vec3_zero();
        b->torque = glms_vec3_zero();
    }
}

/* The rotation vector (axis times angle, the short way round) that turns `from` into `to`. */
static vec3s rotation_between(versors from, versors to)
{
    versors delta = glms_quat_mul(to, glms_quat_conjugate(from));
    if (delta.w < 0.0f)
        delta = (versors){{-delta.x, -delta.y, -delta.z, -delta.w}};
    vec3s axis = {{delta.x, delta.y, delta.z}};
    float sine = glms_vec3_norm(axis);
    if (sine < 1e-9f)
        return glms_vec3_scale(axis, 2.0f); /* small angle: sin(a/2) ~ a/2 */
    float angle = 2.0f * atan2f(sine, delta.w);
    return glms_vec3_scale(axis, angle / sine);
}

bool cairn_body_set_kinematic_target(cairn_world *world, cairn_body_id id, cairn_transform target,
                                     float dt)
{
    if (!world_unlocked(world, "cairn_body_set_kinematic_target"))
        return false;
    const char *function = "cairn_body_set_kinematic_target";
    body *b = world_body(world, id, function);
    if (b == NULL || !check_transform(function, target))
        return false;
    if (b->type != CAIRN_KINEMATIC)
        return error_set("%s: body {%u, %u} is not kinematic", function, id.index, id.generation);
    if (!is_finite_float(dt) || dt <= 0.0f)
        return error_set("%s: dt = %g must be finite and > 0", function, (double)dt);
    target.rotation = glms_quat_normalize(target.rotation);
    /* The centre of mass travels in a straight line while the body turns about it. */
    vec3s target_center = xform_point(target, b->local_center);
    vec3s v = glms_vec3_scale(glms_vec3_sub(target_center, b->center), 1.0f / dt);
    vec3s w = glms_vec3_scale(rotation_between(b->transform.rotation, target.rotation), 1.0f / dt);
    if (!check_length(function, "linear velocity to the target", v, max_speed) ||
        !check_length(function, "angular velocity to the target", w, max_speed))
        return false;
    b->linear_velocity = v;
    b->angular_velocity = w;
    islands_wake(world, id.index);
    return true;
}

bool cairn_body_set_gravity_scale(cairn_world *world, cairn_body_id id, float scale)
{
    if (!world_unlocked(world, "cairn_body_set_gravity_scale"))
        return false;
    const char *function = "cairn_body_set_gravity_scale";
    body *b = world_body(world, id, function);
    if (b == NULL)
        return false;
    if (!is_finite_float(scale) || fabsf(scale) > max_gravity_scale)
        return error_set("%s: scale = %g is outside [-%g, %g]", function, (double)scale,
                         (double)max_gravity_scale, (double)max_gravity_scale);
    b->gravity_scale = scale;
    islands_wake(world, id.index);
    return true;
}

float cairn_body_gravity_scale(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_gravity_scale");
    return b ? b->gravity_scale : 0.0f;
}

/* Sets the body's linear or angular damping (false and an error on a bad call). */
static bool set_damping(cairn_world *world, cairn_body_id id, float damping, bool angular,
                        const char *function)
{
    if (!world_unlocked(world, function))
        return false;
    body *b = world_body(world, id, function);
    if (b == NULL)
        return false;
    if (!body_damping_valid(damping))
        return error_set("%s: damping = %g is outside [0, %g]", function, (double)damping,
                         (double)BODY_MAX_DAMPING);
    *(angular ? &b->angular_damping : &b->linear_damping) = damping;
    islands_wake(world, id.index);
    return true;
}

bool cairn_body_set_linear_damping(cairn_world *world, cairn_body_id id, float damping)
{
    return set_damping(world, id, damping, false, "cairn_body_set_linear_damping");
}

float cairn_body_linear_damping(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_linear_damping");
    return b ? b->linear_damping : 0.0f;
}

bool cairn_body_set_angular_damping(cairn_world *world, cairn_body_id id, float damping)
{
    return set_damping(world, id, damping, true, "cairn_body_set_angular_damping");
}

float cairn_body_angular_damping(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_angular_damping");
    return b ? b->angular_damping : 0.0f;
}

bool cairn_body_set_locked_rotation(cairn_world *world, cairn_body_id id, uint32_t axes)
{
    const char *function = "cairn_body_set_locked_rotation";
    if (!world_unlocked(world, function))
        return false;
    body *b = world_body(world, id, function);
    if (b == NULL)
        return false;
    if (axes > CAIRN_LOCK_ROTATION_ALL)
        return error_set("%s: axes = 0x%x has bits beyond CAIRN_LOCK_ROTATION_ALL (0x7)", function,
                         (unsigned)axes);
    b->locked_rotation = (uint8_t)axes;
    b->angular_velocity = body_lock_angular(b, b->angular_velocity);
    body_sync_inertia(b);
    islands_wake(world, id.index);
    return true;
}

uint32_t cairn_body_locked_rotation(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_locked_rotation");
    return b ? b->locked_rotation : 0u;
}

bool cairn_body_set_locked_translation(cairn_world *world, cairn_body_id id, uint32_t axes)
{
    const char *function = "cairn_body_set_locked_translation";
    if (!world_unlocked(world, function))
        return false;
    body *b = world_body(world, id, function);
    if (b == NULL)
        return false;
    if (axes > CAIRN_LOCK_TRANSLATION_ALL)
        return error_set("%s: axes = 0x%x has bits beyond CAIRN_LOCK_TRANSLATION_ALL (0x7)",
                         function, (unsigned)axes);
    b->locked_translation = (uint8_t)axes;
    b->linear_velocity = body_lock_linear(b, b->linear_velocity);
    islands_wake(world, id.index);
    return true;
}

uint32_t cairn_body_locked_translation(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_locked_translation");
    return b ? b->locked_translation : 0u;
}
