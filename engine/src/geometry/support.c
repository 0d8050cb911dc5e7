/* Support mappings of every shape (core and full), and world bounds built from them. */
#include "geometry/shape.h"

#include "core/xform.h"

#include <math.h>

/* +1 for a non-negative component: a zero component may pick either side, both are supports. */
static float sign_of(float value)
{
    return value >= 0.0f ? 1.0f : -1.0f;
}

static vec3s box_core_support(vec3s core_half, vec3s d)
{
    return (vec3s){
        {sign_of(d.x) * core_half.x, sign_of(d.y) * core_half.y, sign_of(d.z) * core_half.z}};
}

/* A disk of radius `radius` in the XZ plane at height y, then the segment's end along d. */
static vec3s cylinder_core_support(float half_height, float radius, vec3s d)
{
    float radial = sqrtf(d.x * d.x + d.z * d.z);
    vec3s point = {{0.0f, sign_of(d.y) * half_height, 0.0f}};
    if (radial > 0.0f) {
        point.x = radius * d.x / radial;
        point.z = radius * d.z / radial;
    }
    return point;
}

static vec3s hull_core_support(const convex_hull *core, vec3s d)
{
    int vertex = core->vertex_count >= HULL_CLIMB_MIN_VERTICES ? hull_support_climb(core, d, 0)
                                                               : hull_support_scan(core, d);
    return core->vertices[vertex];
}

static vec3s box_extent(vec3s core_half, mat3s rotation);

/* The corner of the box farthest along d: meshes and heightfields answer support queries with
   their bounds (conservative; nothing in the narrow phase runs GJK on a whole mesh). */
static vec3s box_corner_support(cairn_aabb box, vec3s d)
{
    return (vec3s){{d.x >= 0.0f ? box.max.x : box.min.x, d.y >= 0.0f ? box.max.y : box.min.y,
                    d.z >= 0.0f ? box.max.z : box.min.z}};
}

/* The bounds of the transformed local box (no volume of their own to measure tighter). */
static cairn_aabb box_bounds(cairn_aabb local, cairn_transform xf)
{
    vec3s center = glms_vec3_scale(glms_vec3_add(local.min, local.max), 0.5f);
    vec3s half = glms_vec3_scale(glms_vec3_sub(local.max, local.min), 0.5f);
    vec3s extent = box_extent(half, xform_rotation_matrix(xf));
    vec3s c = xform_point(xf, center);
    return (cairn_aabb){glms_vec3_sub(c, extent), glms_vec3_add(c, extent)};
}

vec3s cairn_shape_core_support(const cairn_shape *shape, vec3s d)
{
    switch (shape->type) {
    case CAIRN_SHAPE_MESH:
    case CAIRN_SHAPE_HEIGHTFIELD:
        return box_corner_support(shape->local_bounds, d);
    case CAIRN_SHAPE_COMPOUND: /* no convex radius of its own: core == full shape */
        return compound_support(shape, d);
    case CAIRN_SHAPE_SPHERE:
        return glms_vec3_zero();
    case CAIRN_SHAPE_BOX:
        return box_core_support(shape->box.core_half, d);
    case CAIRN_SHAPE_CAPSULE:
        return (vec3s){{0.0f, sign_of(d.y) * shape->capsule.half_height, 0.0f}};
    case CAIRN_SHAPE_CYLINDER:
        return cylinder_core_support(shape->cylinder.core_half_height, shape->cylinder.core_radius,
                                     d);
    case CAIRN_SHAPE_HULL:
        return hull_core_support(&shape->hull.core, d);
    }
    return glms_vec3_zero();
}

vec3s cairn_shape_support(const cairn_shape *shape, vec3s d)
{
    vec3s core = cairn_shape_core_support(shape, d);
    float length = glms_vec3_norm(d);
    if (length == 0.0f || shape->convex_radius == 0.0f)
        return core;
    return glms_vec3_add(core, glms_vec3_scale(d, shape->convex_radius / length));
}

/* Half-size along each world axis of the core cylinder: its segment plus its disk, whose extent
   along axis i is radius * sqrt(1 - a_i^2) for the unit axis a. */
static vec3s cylinder_extent(float half_height, float radius, vec3s axis)
{
    vec3s extent;
    for (int i = 0; i < 3; ++i) {
        float a = axis.raw[i];
        extent.raw[i] = fabsf(a) * half_height + radius * sqrtf(fmaxf(0.0f, 1.0f - a * a));
    }
    return extent;
}

/* Half-size of the rotated core box: |R| times its half extents. */
static vec3s box_extent(vec3s core_half, mat3s rotation)
{
    vec3s extent;
    for (int i = 0; i < 3; ++i) {
        float sum = 0.0f;
        for (int column = 0; column < 3; ++column)
            sum += fabsf(rotation.raw[column][i]) * core_half.raw[column];
        extent.raw[i] = sum;
    }
    return extent;
}

/* The core's extent along each world axis, measured by world-space support calls; the
   rotation normalised once for the twelve turns (xform_unit: the same bits). */
static cairn_aabb hull_core_bounds(const cairn_shape *shape, cairn_transform xf)
{
    cairn_aabb bounds;
    xf = xform_unit(xf);
    for (int axis = 0; axis < 3; ++axis) {
        vec3s direction = glms_vec3_zero();
        direction.raw[axis] = 1.0f;
        vec3s up = cairn_shape_core_support(shape, xform_unit_inverse_vector(xf, direction));
        direction.raw[axis] = -1.0f;
        vec3s down = cairn_shape_core_support(shape, xform_unit_inverse_vector(xf, direction));
        bounds.max.raw[axis] = xform_unit_point(xf, up).raw[axis];
        bounds.min.raw[axis] = xform_unit_point(xf, down).raw[axis];
    }
    return bounds;
}

cairn_aabb cairn_shape_bounds(const cairn_shape *shape, cairn_transform xf)
{
    if (!shape_given(shape, "cairn_shape_bounds"))
        return (cairn_aabb){glms_vec3_zero(), glms_vec3_zero()};
    cairn_aabb core;
    vec3s extent = glms_vec3_zero();
    switch (shape->type) {
    case CAIRN_SHAPE_COMPOUND:
        return compound_bounds(shape, xf);
    case CAIRN_SHAPE_MESH:
    case CAIRN_SHAPE_HEIGHTFIELD:
        return box_bounds(shape->local_bounds, xf);
    case CAIRN_SHAPE_SPHERE:
        break;
    case CAIRN_SHAPE_BOX:
        extent = box_extent(shape->box.core_half, xform_rotation_matrix(xf));
        break;
    case CAIRN_SHAPE_CAPSULE:
        extent = cylinder_extent(shape->capsule.half_height, 0.0f,
                                 xform_vector(xf, (vec3s){{0.0f, 1.0f, 0.0f}}));
        break;
    case CAIRN_SHAPE_CYLINDER:
        extent = cylinder_extent(shape->cylinder.core_half_height, shape->cylinder.core_radius,
                                 xform_vector(xf, (vec3s){{0.0f, 1.0f, 0.0f}}));
        break;
    case CAIRN_SHAPE_HULL:
        core = hull_core_bounds(shape, xf);
        return (cairn_aabb){glms_vec3_subs(core.min, shape->convex_radius),
                            glms_vec3_adds(core.max, shape->convex_radius)};
    }
    extent = glms_vec3_adds(extent, shape->convex_radius);
    return (cairn_aabb){glms_vec3_sub(xf.position, extent), glms_vec3_add(xf.position, extent)};
}
