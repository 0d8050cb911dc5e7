/* Changing what a body is after its creation: its type (static, kinematic, dynamic), its mass
   properties and its shape. Changes a game makes between steps: a platform that starts to fall,
   a picked-up crate that turns kinematic, a car's lowered centre of mass, a crouching capsule. */
#include "dynamics/world_state.h"

#include "core/error.h"
#include "core/validate.h"

#include <math.h>

static const float max_center_offset = 1e6f;

/* Which of the body's pairs have a contact depends on its type and shape: decided again now
   for an enabled body (its pairs in the pair set; pairs the next step adds are decided as they
   come). A disabled body's contacts are left to end at the next step, but an enable before it
   would keep its pairs: then every pair is decided again at the next step. */
static void refilter(cairn_world *world, const body *b, uint32_t index)
{
    if (b->enabled)
        contacts_refilter_body(world, index);
    else
        world->refilter_pending = true;
}

/* Wakes what the body touches or is jointed to, and the body's own island: the change may
   take away a support or start a push. */
static void wake_around(cairn_world *world, uint32_t index)
{
    islands_wake(world, index);
    islands_wake_touching(world, index);
}

/* The static flag of a broadphase proxy is fixed at its creation (static proxies are not
   paired with each other): a new type needs a new proxy, made before the old one goes so that
   the two differ. The broadphase keeps the body's pairs that the new proxy still has, drops
   those between two static proxies and adds those with static ones at the next step. */
static bool replace_proxy(cairn_world *world, body *b, uint32_t index)
{
    int old_proxy = b->proxy;
    if (!body_create_proxy(world, b, index)) {
        b->proxy = old_proxy;
        return false; /* error set by the broadphase */
    }
    broadphase_destroy_proxy(&world->broadphase, old_proxy);
    return true;
}

bool cairn_body_set_type(cairn_world *world, cairn_body_id id, cairn_body_type type)
{
    const char *function = "cairn_body_set_type";
    if (!world_unlocked(world, function))
        return false;
    body *b = world_body(world, id, function);
    if (b == NULL)
        return false;
    if (!body_type_valid(type))
        return error_set("%s: type %d is not a body type", function, (int)type);
    if (!body_shape_allowed(function, b->shape, type))
        return false;
    if (b->type == type)
        return true;
    if (b->enabled)
        wake_around(world, id.index); /* by the old type: a sleeping dynamic body's island */
    body before = *b;
    b->type = type;
    if (!body_set_mass(b, b->density) || (b->enabled && !replace_proxy(world, b, id.index))) {
        *b = before;
        return false;
    }
    body_set_awake(world, id.index, false);
    if (type != CAIRN_DYNAMIC) { /* forces act on dynamic bodies only */
        b->force = glms_vec3_zero();
        b->torque = glms_vec3_zero();
    }
    if (type == CAIRN_STATIC) {
        b->linear_velocity = glms_vec3_zero();
        b->angular_velocity = glms_vec3_zero();
    }
    b->angular_velocity = body_lock_angular(b, b->angular_velocity);
    b->linear_velocity = body_lock_linear(b, b->linear_velocity);
    body_sync(b);
    b->sleep_time = 0.0f;
    refilter(world, b, id.index);
    if (b->enabled) {
        sensors_mark_stale(world, id.index);
        body_set_awake(world, id.index, true);
    }
    return true;
}

/* The centre of mass moved from old_center: the body keeps its motion, so the new centre moves
   with the velocity the old motion gives that point. */
static void keep_motion(body *b, vec3s old_center)
{
    b->linear_velocity = body_lock_linear(
        b,
        glms_vec3_add(b->linear_velocity,
                      glms_vec3_cross(b->angular_velocity, glms_vec3_sub(b->center, old_center))));
}

bool cairn_body_set_shape(cairn_world *world, cairn_body_id id, const cairn_shape *shape)
{
    const char *function = "cairn_body_set_shape";
    if (!world_unlocked(world, function))
        return false;
    body *b = world_body(world, id, function);
    if (b == NULL)
        return false;
    if (shape == NULL)
        return error_set("%s: shape is NULL", function);
    if (!body_shape_allowed(function, shape, b->type))
        return false;
    if (shape == b->shape)
        return true;
    body before = *b;
    b->shape = (cairn_shape *)shape;
    if (!body_set_mass(b, b->density)) {
        *b = before;
        return false;
    }
    body_sync(b);
    if (b->enabled && !replace_proxy(world, b, id.index)) {
        *b = before;
        return false;
    }
    cairn_shape_retain(b->shape);
    cairn_shape_release(before.shape);
    keep_motion(b, before.center);
    if (b->enabled) {
        wake_around(world, id.index);
        sensors_mark_stale(world, id.index);
    }
    /* The contacts' caches name the old shape's features: its touches end now (their events
       readable until the next step), and its pairs get fresh contacts. */
    contacts_remove_body(world, id.index);
    refilter(world, b, id.index);
    return true;
}

/* Symmetric (to float rounding) and positive definite, by its leading minors in double. */
static bool is_inertia_tensor(mat3s m)
{
    double a[3][3];
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
            if (!isfinite(m.raw[c][r]))
                return false;
            a[r][c] = (double)m.raw[c][r];
        }
    double scale = fabs(a[0][0]) + fabs(a[1][1]) + fabs(a[2][2]);
    for (int r = 0; r < 3; ++r)
        for (int c = r + 1; c < 3; ++c)
            if (fabs(a[r][c] - a[c][r]) > 1e-6 * scale)
                return false;
    double minor2 = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    double det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                 a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                 a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
    /* relative to the scale: a tensor whose float inverse would overflow is not definite */
    return a[0][0] > 0.0 && minor2 > 1e-12 * scale * scale && det > 1e-18 * scale * scale * scale;
}

static bool check_mass_properties(const char *function, const cairn_mass_properties *mass)
{
    if (mass == NULL)
        return error_set("%s: mass is NULL", function);
    if (!is_finite_float(mass->mass) || mass->mass <= 0.0f)
        return error_set("%s: mass = %g must be finite and positive", function, (double)mass->mass);
    if (!is_finite_vec3(mass->center) || glms_vec3_norm(mass->center) > max_center_offset)
        return error_set("%s: center must be finite and within %g m of the body origin", function,
                         (double)max_center_offset);
    if (!is_inertia_tensor(mass->inertia))
        return error_set("%s: inertia must be a finite, symmetric, positive definite tensor",
                         function);
    return true;
}

bool cairn_body_set_mass_properties(cairn_world *world, cairn_body_id id,
                                    const cairn_mass_properties *mass)
{
    const char *function = "cairn_body_set_mass_properties";
    if (!world_unlocked(world, function))
        return false;
    body *b = world_body(world, id, function);
    if (b == NULL || !check_mass_properties(function, mass))
        return false;
    if (b->type != CAIRN_DYNAMIC)
        return error_set("%s: body {%u, %u} is not dynamic (static and kinematic bodies have no "
                         "mass; change the type first)",
                         function, id.index, id.generation);
    vec3s old_center = b->center;
    body_set_mass_properties(b, mass);
    body_sync(b);
    keep_motion(b, old_center);
    islands_wake(world, id.index);
    return true;
}
