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

/* R I^-1 R^T. Most shapes' inertia is diagonal in the body frame (spheres, boxes, capsules,
   cylinders): R I^-1 is then R's columns scaled, each entry the one product that is not a
   product by zero, so the same as the full product's. This runs for every body at every
   substep. */
void body_sync_inertia(body *b)
{
    mat3s rotation = xform_rotation_matrix(b->transform);
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
