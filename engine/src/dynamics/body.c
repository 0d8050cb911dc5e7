/* The body part of the public API: creation with validation, destruction, accessors. */
#include "dynamics/world_state.h"

#include "core/error.h"
#include "geometry/shape.h"
#include "core/validate.h"

#include <math.h>
#include <string.h>

static const float max_position = 1e6f, max_speed = 1e4f, max_gravity_scale = 100.0f;

body *world_body(const cairn_world *world, cairn_body_id id, const char *function)
{
    if (world == NULL) {
        error_set("%s: world is NULL", function);
        return NULL;
    }
    if (!id_pool_is_valid(&world->ids, id.index, id.generation)) {
        error_set("%s: body id {%u, %u} is null, stale or unknown", function, id.index,
                  id.generation);
        return NULL;
    }
    return &world->bodies.data[id.index];
}

bool body_create_proxy(cairn_world *world, body *b, uint32_t index)
{
    b->proxy = broadphase_create_proxy(&world->broadphase, body_bounds(b), index, b->layer, b->mask,
                                       b->type == CAIRN_STATIC);
    return b->proxy >= 0;
}

bool body_type_valid(cairn_body_type type)
{
    return type == CAIRN_STATIC || type == CAIRN_KINEMATIC || type == CAIRN_DYNAMIC;
}

bool body_shape_allowed(const char *function, const cairn_shape *shape, cairn_body_type type)
{
    if (type == CAIRN_DYNAMIC && shape_is_triangles(shape))
        return error_set("%s: a %s cannot be the shape of a dynamic body (static and kinematic "
                         "only): use a hull or a compound of hulls",
                         function, shape->type == CAIRN_SHAPE_MESH ? "mesh" : "heightfield");
    return true;
}

static bool check_vector(const char *name, vec3s v, float limit)
{
    if (!is_finite_vec3(v))
        return error_set("cairn_body_create: %s is not finite", name);
    if (glms_vec3_norm(v) > limit)
        return error_set("cairn_body_create: |%s| = %g is above %g", name,
                         (double)glms_vec3_norm(v), (double)limit);
    return true;
}

static bool check_body_def(const cairn_body_def *def)
{
    if (def == NULL)
        return error_set("cairn_body_create: def is NULL");
    if (def->shape == NULL)
        return error_set("cairn_body_create: def->shape is NULL");
    if (!body_type_valid(def->type))
        return error_set("cairn_body_create: type %d is not a body type", (int)def->type);
    if (!body_shape_allowed("cairn_body_create", def->shape, def->type))
        return false;
    if (!check_vector("transform.position", def->transform.position, max_position) ||
        !check_vector("linear_velocity", def->linear_velocity, max_speed) ||
        !check_vector("angular_velocity", def->angular_velocity, max_speed))
        return false;
    if (!is_unit_quat(def->transform.rotation))
        return error_set("cairn_body_create: transform.rotation is not a finite unit quaternion");
    if (!is_finite_float(def->density) || def->density <= 0.0f)
        return error_set("cairn_body_create: density = %g must be finite and positive",
                         (double)def->density);
    if (!is_finite_float(def->friction) || def->friction < 0.0f)
        return error_set("cairn_body_create: friction = %g must be finite and >= 0",
                         (double)def->friction);
    if (!is_finite_float(def->restitution) || def->restitution < 0.0f || def->restitution > 1.0f)
        return error_set("cairn_body_create: restitution = %g is outside [0, 1]",
                         (double)def->restitution);
    if (!body_rolling_resistance_valid(def->rolling_resistance))
        return error_set("cairn_body_create: rolling_resistance = %g is outside [0, 1]",
                         (double)def->rolling_resistance);
    if (!is_finite_float(def->gravity_scale) || fabsf(def->gravity_scale) > max_gravity_scale)
        return error_set("cairn_body_create: gravity_scale = %g is outside [-%g, %g]",
                         (double)def->gravity_scale, (double)max_gravity_scale,
                         (double)max_gravity_scale);
    if (def->locked_rotation > CAIRN_LOCK_ROTATION_ALL)
        return error_set("cairn_body_create: locked_rotation = 0x%x has bits beyond "
                         "CAIRN_LOCK_ROTATION_ALL (0x7)",
                         (unsigned)def->locked_rotation);
    if (def->locked_translation > CAIRN_LOCK_TRANSLATION_ALL)
        return error_set("cairn_body_create: locked_translation = 0x%x has bits beyond "
                         "CAIRN_LOCK_TRANSLATION_ALL (0x7)",
                         (unsigned)def->locked_translation);
    if (!body_damping_valid(def->linear_damping) || !body_damping_valid(def->angular_damping))
        return error_set("cairn_body_create: linear_damping = %g, angular_damping = %g: each "
                         "must be in [0, %g]",
                         (double)def->linear_damping, (double)def->angular_damping,
                         (double)BODY_MAX_DAMPING);
    return true;
}

static body body_from_def(const cairn_body_def *def)
{
    body b;
    memset(&b, 0, sizeof b);
    b.type = def->type;
    b.alive = true;
    b.enabled = def->enabled;
    b.awake = false; /* set through the awake set once the body is stored */
    b.awake_slot = -1;
    b.allow_sleep = def->allow_sleep;
    b.shape = (cairn_shape *)def->shape;
    b.transform = def->transform;
    b.transform.rotation = glms_quat_normalize(def->transform.rotation);
    b.linear_velocity = def->type == CAIRN_STATIC ? glms_vec3_zero() : def->linear_velocity;
    b.angular_velocity = def->type == CAIRN_STATIC ? glms_vec3_zero() : def->angular_velocity;
    b.friction = def->friction;
    b.restitution = def->restitution;
    b.rolling_resistance = def->rolling_resistance;
    b.proxy = -1;
    b.user_data = def->user_data;
    b.gravity_scale = def->gravity_scale;
    b.linear_damping = def->linear_damping;
    b.angular_damping = def->angular_damping;
    b.density = def->density;
    b.layer = def->layer;
    b.mask = def->mask;
    b.is_sensor = def->is_sensor;
    b.joint_edges = -1;
    b.locked_rotation = (uint8_t)def->locked_rotation;
    b.angular_velocity = body_lock_angular(&b, b.angular_velocity);
    b.locked_translation = (uint8_t)def->locked_translation;
    b.linear_velocity = body_lock_linear(&b, b.linear_velocity);
    return b;
}

cairn_body_id cairn_body_create(cairn_world *world, const cairn_body_def *def)
{
    if (!world_unlocked(world, "cairn_body_create"))
        return (cairn_body_id){0, 0};
    cairn_body_id null_id = {0, 0};
    if (world == NULL) {
        error_set("cairn_body_create: world is NULL");
        return null_id;
    }
    if (!check_body_def(def))
        return null_id;
    body b = body_from_def(def);
    if (!body_set_mass(&b, def->density))
        return null_id;
    body_sync(&b);
    cairn_body_id id;
    if (!id_pool_alloc(&world->ids, &id.index, &id.generation))
        return null_id;
    if (!array_grow(&world->bodies, (int)id.index + 1) ||
        !awake_set_reserve(world, world->bodies.capacity)) {
        id_pool_free(&world->ids, id.index, id.generation);
        return null_id;
    }
    while (world->bodies.count <= (int)id.index)
        world->bodies.data[world->bodies.count++].alive = false;
    b.generation = id.generation;
    if (b.enabled && !body_create_proxy(world, &b, id.index)) {
        id_pool_free(&world->ids, id.index, id.generation);
        return null_id;
    }
    cairn_shape_retain(b.shape);
    world->sensor_bodies += b.is_sensor;
    world->bodies.data[id.index] = b;
    body_set_awake(world, id.index, true);
    return id;
}

void cairn_body_destroy(cairn_world *world, cairn_body_id id)
{
    if (!world_unlocked(world, "cairn_body_destroy"))
        return;
    body *b = world_body(world, id, "cairn_body_destroy");
    if (b == NULL)
        return;
    islands_wake(world, id.index);
    joints_destroy_body(world, id.index);
    body_set_awake(world, id.index, false);
    contacts_remove_body(world, id.index);
    broadphase_forget_body(&world->broadphase, id.index, b->proxy);
    if (b->proxy >= 0)
        broadphase_destroy_proxy(&world->broadphase, b->proxy);
    cairn_shape_release(b->shape);
    world->sensor_bodies -= b->is_sensor;
    b->alive = false;
    b->shape = NULL;
    id_pool_free(&world->ids, id.index, id.generation);
}

bool cairn_body_is_valid(const cairn_world *world, cairn_body_id id)
{
    return world != NULL && id_pool_is_valid(&world->ids, id.index, id.generation);
}

bool cairn_body_id_equal(cairn_body_id a, cairn_body_id b)
{
    return a.index == b.index && a.generation == b.generation;
}

cairn_transform cairn_body_transform(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_transform");
    return b ? b->transform : cairn_transform_identity();
}

vec3s cairn_body_linear_velocity(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_linear_velocity");
    return b ? b->linear_velocity : glms_vec3_zero();
}

vec3s cairn_body_angular_velocity(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_angular_velocity");
    return b ? b->angular_velocity : glms_vec3_zero();
}

bool cairn_body_is_awake(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_is_awake");
    return b ? b->awake : false;
}

void cairn_body_apply_impulse(cairn_world *world, cairn_body_id id, vec3s impulse,
                              vec3s world_point)
{
    if (!world_unlocked(world, "cairn_body_apply_impulse"))
        return;
    body *b = world_body(world, id, "cairn_body_apply_impulse");
    if (b == NULL)
        return;
    if (!is_finite_vec3(impulse) || !is_finite_vec3(world_point)) {
        error_set("cairn_body_apply_impulse: impulse and point must be finite");
        return;
    }
    if (b->type != CAIRN_DYNAMIC || !b->enabled)
        return; /* as forces: a disabled body would keep the push for its re-enable */
    islands_wake(world, id.index);
    b->linear_velocity = body_lock_linear(
        b, glms_vec3_add(b->linear_velocity, glms_vec3_scale(impulse, b->inverse_mass)));
    vec3s r = glms_vec3_sub(world_point, b->center);
    b->angular_velocity = glms_vec3_add(
        b->angular_velocity, glms_mat3_mulv(b->inverse_inertia, glms_vec3_cross(r, impulse)));
}

int cairn_world_bodies(const cairn_world *world, cairn_body_id *ids, int capacity)
{
    int count = 0;
    for (int i = 0; world != NULL && i < world->bodies.count; ++i) {
        const body *b = &world->bodies.data[i];
        if (!b->alive)
            continue;
        if (ids != NULL && count < capacity)
            ids[count] = body_id_at(world, (uint32_t)i);
        ++count;
    }
    return count;
}

const cairn_shape *cairn_body_shape(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_shape");
    return b ? b->shape : NULL;
}

cairn_body_type cairn_body_get_type(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_get_type");
    return b ? b->type : CAIRN_STATIC;
}

void *cairn_body_user_data(const cairn_world *world, cairn_body_id id)
{
    const body *b = world_body(world, id, "cairn_body_user_data");
    return b ? b->user_data : NULL;
}
