/* The body API that changes what a body is rather than how it moves: enable/disable, sleep
   control, materials, collision filter bits, user data, and the mass getters. */
#include "dynamics/world_state.h"

#include "core/error.h"
#include "core/validate.h"

void body_disable(cairn_world *world, uint32_t index)
{
    body *b = &world->bodies.data[index];
    /* Whatever rests on the body must fall once it is gone; its contacts end at the next step,
       when the broadphase reports the pairs of the destroyed proxy as removed. */
    islands_wake_touching(world, index);
    broadphase_destroy_proxy(&world->broadphase, b->proxy);
    b->proxy = -1;
    body_set_awake(world, index, false);
    b->enabled = false;
}

bool cairn_body_set_enabled(cairn_world *world, cairn_body_id id, bool enabled)
{
    if (!world_unlocked(world, "cairn_body_set_enabled"))
        return false;
    body *b = world_body(world, id, "cairn_body_set_enabled");
    if (b == NULL)
        return false;
    if (b->enabled == enabled)
        return true;
    if (!enabled) {
        body_disable(world, id.index);
        return true;
    }
    if (!body_create_proxy(world, b, id.index))
        return false; /* error set by the broadphase */
    b->enabled = true;
    body_set_awake(world, id.index, true);
    b->sleep_time = 0.0f;
    return true;
}

bool cairn_body_is_enabled(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_is_enabled");
    return b ? b->enabled : false;
}

bool cairn_body_set_allow_sleep(cairn_world *world, cairn_body_id id, bool allow)
{
    if (!world_unlocked(world, "cairn_body_set_allow_sleep"))
        return false;
    body *b = world_body(world, id, "cairn_body_set_allow_sleep");
    if (b == NULL)
        return false;
    b->allow_sleep = allow;
    if (!allow)
        islands_wake(world, id.index);
    return true;
}

bool cairn_body_is_sleep_allowed(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_is_sleep_allowed");
    return b ? b->allow_sleep : false;
}

bool cairn_body_set_awake(cairn_world *world, cairn_body_id id, bool awake)
{
    if (!world_unlocked(world, "cairn_body_set_awake"))
        return false;
    const char *function = "cairn_body_set_awake";
    body *b = world_body(world, id, function);
    if (b == NULL)
        return false;
    if (b->type != CAIRN_DYNAMIC)
        return error_set("%s: body {%u, %u} is not dynamic (only dynamic bodies sleep)", function,
                         id.index, id.generation);
    if (!b->enabled)
        return error_set("%s: body {%u, %u} is disabled", function, id.index, id.generation);
    if (awake)
        islands_wake(world, id.index);
    else
        islands_sleep(world, id.index);
    return true;
}

bool cairn_body_set_friction(cairn_world *world, cairn_body_id id, float friction)
{
    if (!world_unlocked(world, "cairn_body_set_friction"))
        return false;
    body *b = world_body(world, id, "cairn_body_set_friction");
    if (b == NULL)
        return false;
    if (!is_finite_float(friction) || friction < 0.0f)
        return error_set("cairn_body_set_friction: friction = %g must be finite and >= 0",
                         (double)friction);
    b->friction = friction;
    contacts_refresh_material(world, id.index);
    return true;
}

bool cairn_body_set_restitution(cairn_world *world, cairn_body_id id, float restitution)
{
    if (!world_unlocked(world, "cairn_body_set_restitution"))
        return false;
    body *b = world_body(world, id, "cairn_body_set_restitution");
    if (b == NULL)
        return false;
    if (!is_finite_float(restitution) || restitution < 0.0f || restitution > 1.0f)
        return error_set("cairn_body_set_restitution: restitution = %g is outside [0, 1]",
                         (double)restitution);
    b->restitution = restitution;
    contacts_refresh_material(world, id.index);
    return true;
}

bool cairn_body_set_rolling_resistance(cairn_world *world, cairn_body_id id,
                                       float rolling_resistance)
{
    if (!world_unlocked(world, "cairn_body_set_rolling_resistance"))
        return false;
    body *b = world_body(world, id, "cairn_body_set_rolling_resistance");
    if (b == NULL)
        return false;
    if (!body_rolling_resistance_valid(rolling_resistance))
        return error_set("cairn_body_set_rolling_resistance: rolling_resistance = %g is outside "
                         "[0, 1]",
                         (double)rolling_resistance);
    b->rolling_resistance = rolling_resistance;
    contacts_refresh_material(world, id.index);
    return true;
}

float cairn_body_rolling_resistance(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_rolling_resistance");
    return b ? b->rolling_resistance : 0.0f;
}

float cairn_body_friction(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_friction");
    return b ? b->friction : 0.0f;
}

float cairn_body_restitution(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_restitution");
    return b ? b->restitution : 0.0f;
}

bool cairn_body_set_user_data(cairn_world *world, cairn_body_id id, void *user_data)
{
    body *b = world_body(world, id, "cairn_body_set_user_data");
    if (b == NULL)
        return false;
    b->user_data = user_data;
    return true;
}

/* The broadphase applies the bits when pairs form, so the proxy is made anew: at the next
   update its pairs are found again under the new bits, and pairs that keep overlapping and
   pass both times are neither removed nor added (their contacts carry on). The new proxy is
   made before the old one goes, so a failure leaves everything as it was; the two never meet
   an update together. */
bool cairn_body_set_filter(cairn_world *world, cairn_body_id id, uint32_t layer, uint32_t mask)
{
    if (!world_unlocked(world, "cairn_body_set_filter"))
        return false;
    body *b = world_body(world, id, "cairn_body_set_filter");
    if (b == NULL)
        return false;
    uint32_t old_layer = b->layer, old_mask = b->mask;
    b->layer = layer;
    b->mask = mask;
    if (b->proxy < 0)
        return true;
    int old_proxy = b->proxy;
    if (!body_create_proxy(world, b, id.index)) {
        b->proxy = old_proxy;
        b->layer = old_layer;
        b->mask = old_mask;
        return false; /* error set by the broadphase */
    }
    broadphase_destroy_proxy(&world->broadphase, old_proxy);
    islands_wake(world, id.index);
    return true;
}

uint32_t cairn_body_layer(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_layer");
    return b ? b->layer : 0u;
}

uint32_t cairn_body_mask(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_mask");
    return b ? b->mask : 0u;
}

bool cairn_body_is_sensor(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_is_sensor");
    return b ? b->is_sensor : false;
}

float cairn_body_mass(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_mass");
    return b && b->inverse_mass > 0.0f ? 1.0f / b->inverse_mass : 0.0f;
}

mat3s cairn_body_inertia(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_inertia");
    return b ? b->inertia_local : glms_mat3_zero();
}

vec3s cairn_body_center_of_mass(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_center_of_mass");
    return b ? b->center : glms_vec3_zero();
}
