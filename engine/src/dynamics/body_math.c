/* Per-body math: mass from the shape, world inertia, point velocities. */
#include "dynamics/body.h"

#include "core/xform.h"

static mat3s inverse_or_zero(mat3s m)
{
    float det = glms_mat3_det(m);
    return det > 0.0f ? glms_mat3_inv(m) : glms_mat3_zero();
}

bool body_set_mass(body *b, float density)
{
    b->inverse_mass = 0.0f;
    b->inverse_inertia_local = glms_mat3_zero();
    b->inertia_local = glms_mat3_zero();
    b->local_center = glms_vec3_zero();
    if (b->type != CAIRN_DYNAMIC) {
        cairn_mass_properties mass;
        if (!cairn_shape_mass_properties(b->shape, 1.0f, &mass))
            return false;
        b->local_center = mass.center;
        return true;
    }
    cairn_mass_properties mass;
    if (!cairn_shape_mass_properties(b->shape, density, &mass))
        return false;
    body_set_mass_properties(b, &mass);
    return true;
}

void body_set_mass_properties(body *b, const cairn_mass_properties *mass)
{
    b->inverse_mass = 1.0f / mass->mass;
    b->local_center = mass->center;
    b->inertia_local = mass->inertia;
    b->inverse_inertia_local = inverse_or_zero(mass->inertia);
}

void body_sync(body *b)
{
    b->center = xform_point(b->transform, b->local_center);
    body_sync_inertia(b);
}

bool body_inertia_is_diagonal(const body *b)
{
    const mat3s *m = &b->inverse_inertia_local;
    return m->raw[0][1] == 0.0f && m->raw[0][2] == 0.0f && m->raw[1][0] == 0.0f &&
           m->raw[1][2] == 0.0f && m->raw[2][0] == 0.0f && m->raw[2][1] == 0.0f;
}

bool body_rotation_locked(const body *b)
{
    return b->type == CAIRN_DYNAMIC && b->locked_rotation != 0;
}

vec3s body_lock_angular(const body *b, vec3s w)
{
    if (!body_rotation_locked(b))
        return w;
    for (int k = 0; k < 3; ++k)
        if (b->locked_rotation & (1u << k))
            w.raw[k] = 0.0f;
    return w;
}

uint32_t body_translation_lock(const body *b)
{
    return b->type == CAIRN_DYNAMIC ? b->locked_translation : 0u;
}

vec3s body_lock_linear(const body *b, vec3s v)
{
    uint32_t locked = body_translation_lock(b);
    for (int k = 0; k < 3; ++k)
        if (locked & (1u << k))
            v.raw[k] = 0.0f;
    return v;
}

/* A locked axis is a joint of infinite stiffness: about the free axes the body answers with the
   inverse of its world inertia's free block (I_yy alone for a yaw-only body), not with the free
   block of its free inverse inertia, which would let a tilted body turn too easily. The locked
   rows and columns are set to the identity's for the inversion (the block diagonal then inverts
   block by block) and zeroed after, so every product with them is an exact zero. */
static mat3s locked_inverse_inertia(const body *b, mat3s rotation)
{
    mat3s inertia =
        glms_mat3_mul(glms_mat3_mul(rotation, b->inertia_local), glms_mat3_transpose(rotation));
    for (int k = 0; k < 3; ++k) {
        if (!(b->locked_rotation & (1u << k)))
            continue;
        for (int j = 0; j < 3; ++j)
            inertia.raw[k][j] = inertia.raw[j][k] = 0.0f;
        inertia.raw[k][k] = 1.0f;
    }
    mat3s inverse = inverse_or_zero(inertia);
    for (int k = 0; k < 3; ++k)
        if (b->locked_rotation & (1u << k))
            for (int j = 0; j < 3; ++j)
                inverse.raw[k][j] = inverse.raw[j][k] = 0.0f;
    return inverse;
}

/* R I^-1 R^T. Most shapes' inertia is diagonal in the body frame (spheres, boxes, capsules,
   cylinders): R I^-1 is then R's columns scaled, each entry the one product that is not a
   product by zero, so the same as the full product's. This runs for every body at every
   substep. */
void body_sync_inertia(body *b)
{
    mat3s rotation = xform_rotation_matrix(b->transform);
    if (body_rotation_locked(b)) {
        b->inverse_inertia = locked_inverse_inertia(b, rotation);
        return;
    }
    mat3s scaled;
    if (body_inertia_is_diagonal(b))
        for (int c = 0; c < 3; ++c)
            scaled.col[c] = glms_vec3_scale(rotation.col[c], b->inverse_inertia_local.raw[c][c]);
    else
        scaled = glms_mat3_mul(rotation, b->inverse_inertia_local);
    b->inverse_inertia = glms_mat3_mul(scaled, glms_mat3_transpose(rotation));
}

cairn_aabb body_bounds(const body *b)
{
    return cairn_shape_bounds(b->shape, b->transform);
}

vec3s body_point_velocity(const body *b, vec3s world_point)
{
    vec3s r = glms_vec3_sub(world_point, b->center);
    return glms_vec3_add(b->linear_velocity, glms_vec3_cross(b->angular_velocity, r));
}
