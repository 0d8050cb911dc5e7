/* Shape construction with validation at the API boundary, reference counting, and accessors. */
#include "geometry/shape.h"

#include "core/alloc.h"
#include "core/error.h"
#include "core/fnv.h"
#include "core/validate.h"

#include <math.h>
#include <string.h>

static bool check_size(const char *function, const char *name, float value)
{
    if (!is_finite_float(value))
        return error_set("%s: %s is not finite", function, name);
    if (value < CAIRN_MIN_SIZE || value > CAIRN_MAX_SIZE)
        return error_set("%s: %s = %g is outside [%g, %g] m", function, name, (double)value,
                         (double)CAIRN_MIN_SIZE, (double)CAIRN_MAX_SIZE);
    return true;
}

/* A convex radius is valid in [0, limit]; limit is the half of the smallest dimension. */
static bool check_convex_radius(const char *function, float convex_radius, float limit)
{
    if (!is_finite_float(convex_radius))
        return error_set("%s: convex_radius is not finite", function);
    if (convex_radius < 0.0f)
        return error_set("%s: convex_radius = %g is negative", function, (double)convex_radius);
    if (convex_radius > limit)
        return error_set("%s: convex_radius = %g is larger than the shape allows (%g)", function,
                         (double)convex_radius, (double)limit);
    return true;
}

static cairn_shape *shape_new(cairn_shape_type type, float convex_radius)
{
    cairn_shape *shape = mem_calloc(1, sizeof *shape);
    if (shape == NULL)
        return NULL;
    shape->type = type;
    atomic_init(&shape->ref_count, 1);
    shape->convex_radius = convex_radius;
    return shape;
}

/* Local bounds from the support mapping along the six axes: exact for every shape type. */
static void shape_finish(cairn_shape *shape)
{
    for (int axis = 0; axis < 3; ++axis) {
        vec3s direction = glms_vec3_zero();
        direction.raw[axis] = 1.0f;
        shape->local_bounds.max.raw[axis] = cairn_shape_support(shape, direction).raw[axis];
        direction.raw[axis] = -1.0f;
        shape->local_bounds.min.raw[axis] = cairn_shape_support(shape, direction).raw[axis];
    }
}

cairn_shape *cairn_shape_sphere(float radius)
{
    if (!check_size("cairn_shape_sphere", "radius", radius))
        return NULL;
    cairn_shape *shape = shape_new(CAIRN_SHAPE_SPHERE, radius);
    if (shape)
        shape_finish(shape);
    return shape;
}

cairn_shape *cairn_shape_box(vec3s half_extents, float convex_radius)
{
    static const char *const names[3] = {"half_extents.x", "half_extents.y", "half_extents.z"};
    for (int axis = 0; axis < 3; ++axis)
        if (!check_size("cairn_shape_box", names[axis], half_extents.raw[axis]))
            return NULL;
    float smallest = glm_min(half_extents.x, glm_min(half_extents.y, half_extents.z));
    if (!check_convex_radius("cairn_shape_box", convex_radius, smallest))
        return NULL;
    cairn_shape *shape = shape_new(CAIRN_SHAPE_BOX, convex_radius);
    if (shape == NULL)
        return NULL;
    shape->box.half_extents = half_extents;
    shape->box.core_half = glms_vec3_subs(half_extents, convex_radius);
    vec3s corners[8];
    for (int i = 0; i < 8; ++i)
        corners[i] = (vec3s){{(i & 1 ? 1.0f : -1.0f) * half_extents.x,
                              (i & 2 ? 1.0f : -1.0f) * half_extents.y,
                              (i & 4 ? 1.0f : -1.0f) * half_extents.z}};
    if (!hull_build(corners, 8, &shape->box.outer)) {
        mem_free(shape, sizeof *shape);
        return NULL;
    }
    shape_finish(shape);
    return shape;
}

void box_core_corners(const cairn_shape *box, vec3s corners[8])
{
    const convex_hull *hull = &box->box.outer;
    float r = box->convex_radius;
    for (int v = 0; v < hull->vertex_count && v < 8; ++v)
        for (int k = 0; k < 3; ++k) {
            float outer = hull->vertices[v].raw[k];
            corners[v].raw[k] = outer - (outer > 0.0f ? r : -r);
        }
}

cairn_shape *cairn_shape_capsule(float half_height, float radius)
{
    if (!is_finite_float(half_height) || half_height < 0.0f || half_height > CAIRN_MAX_SIZE) {
        error_set("cairn_shape_capsule: half_height = %g is outside [0, %g] m", (double)half_height,
                  (double)CAIRN_MAX_SIZE);
        return NULL;
    }
    if (!check_size("cairn_shape_capsule", "radius", radius))
        return NULL;
    cairn_shape *shape = shape_new(CAIRN_SHAPE_CAPSULE, radius);
    if (shape == NULL)
        return NULL;
    shape->capsule.half_height = half_height;
    shape_finish(shape);
    return shape;
}

cairn_shape *cairn_shape_cylinder(float half_height, float radius, float convex_radius)
{
    if (!check_size("cairn_shape_cylinder", "half_height", half_height) ||
        !check_size("cairn_shape_cylinder", "radius", radius) ||
        !check_convex_radius("cairn_shape_cylinder", convex_radius, glm_min(half_height, radius)))
        return NULL;
    cairn_shape *shape = shape_new(CAIRN_SHAPE_CYLINDER, convex_radius);
    if (shape == NULL)
        return NULL;
    shape->cylinder.half_height = half_height;
    shape->cylinder.radius = radius;
    shape->cylinder.core_half_height = half_height - convex_radius;
    shape->cylinder.core_radius = radius - convex_radius;
    shape_finish(shape);
    return shape;
}

static bool check_hull_points(const vec3s *points, int count)
{
    if (points == NULL)
        return error_set("cairn_shape_hull: points is NULL");
    if (count < 4)
        return error_set("cairn_shape_hull: %d points given, a hull needs at least 4", count);
    for (int i = 0; i < count; ++i) {
        if (!is_finite_vec3(points[i]))
            return error_set("cairn_shape_hull: point %d is not finite", i);
        for (int axis = 0; axis < 3; ++axis)
            if (fabsf(points[i].raw[axis]) > CAIRN_MAX_SIZE)
                return error_set("cairn_shape_hull: point %d is farther than %g m from the origin",
                                 i, (double)CAIRN_MAX_SIZE);
    }
    return true;
}

cairn_shape *cairn_shape_hull(const vec3s *points, int count, float convex_radius)
{
    if (!check_hull_points(points, count) ||
        !check_convex_radius("cairn_shape_hull", convex_radius, CAIRN_MAX_SIZE))
        return NULL;
    cairn_shape *shape = shape_new(CAIRN_SHAPE_HULL, convex_radius);
    if (shape == NULL)
        return NULL;
    if (!hull_build(points, count, &shape->hull.outer)) {
        char reason[256];
        snprintf(reason, sizeof reason, "%s", cairn_last_error());
        error_set("cairn_shape_hull: %s", reason);
        mem_free(shape, sizeof *shape);
        return NULL;
    }
    if (!hull_shape_build_core(&shape->hull, &shape->convex_radius)) {
        hull_destroy(&shape->hull.outer);
        mem_free(shape, sizeof *shape);
        return NULL;
    }
    shape_finish(shape);
    return shape;
}

void cairn_shape_retain(cairn_shape *shape)
{
    if (shape)
        atomic_fetch_add(&shape->ref_count, 1);
}

void cairn_shape_release(cairn_shape *shape)
{
    if (shape == NULL || atomic_fetch_sub(&shape->ref_count, 1) != 1)
        return;
    if (shape->type == CAIRN_SHAPE_HULL)
        hull_shape_destroy(&shape->hull);
    if (shape->type == CAIRN_SHAPE_BOX)
        hull_destroy(&shape->box.outer);
    if (shape_is_compound(shape))
        compound_destroy(shape);
    if (shape->type == CAIRN_SHAPE_MESH)
        mesh_destroy(shape);
    if (shape->type == CAIRN_SHAPE_HEIGHTFIELD)
        heightfield_destroy(shape);
    mem_free(shape, sizeof *shape);
}

cairn_shape_type cairn_shape_get_type(const cairn_shape *shape)
{
    return shape_given(shape, "cairn_shape_get_type") ? shape->type : CAIRN_SHAPE_SPHERE;
}

float cairn_shape_convex_radius(const cairn_shape *shape)
{
    return shape_given(shape, "cairn_shape_convex_radius") ? shape->convex_radius : 0.0f;
}

cairn_aabb cairn_shape_local_bounds(const cairn_shape *shape)
{
    cairn_aabb none = {glms_vec3_zero(), glms_vec3_zero()};
    return shape_given(shape, "cairn_shape_local_bounds") ? shape->local_bounds : none;
}

float shape_reach(const cairn_shape *shape)
{
    cairn_aabb box = shape->local_bounds;
    vec3s far = {{fmaxf(fabsf(box.min.x), fabsf(box.max.x)),
                  fmaxf(fabsf(box.min.y), fabsf(box.max.y)),
                  fmaxf(fabsf(box.min.z), fabsf(box.max.z))}};
    return glms_vec3_norm(far);
}

uint64_t shape_signature(const cairn_shape *shape)
{
    int counts[4] = {0, 0, 0, 0};
    switch (shape->type) {
    case CAIRN_SHAPE_HULL:
        counts[0] = shape->hull.outer.vertex_count;
        counts[1] = shape->hull.outer.face_count;
        break;
    case CAIRN_SHAPE_COMPOUND:
        counts[0] = shape->compound.count;
        break;
    case CAIRN_SHAPE_MESH:
        counts[0] = shape->mesh.vertex_count;
        counts[1] = shape->mesh.input_count;
        counts[2] = shape->mesh.triangle_count;
        break;
    case CAIRN_SHAPE_HEIGHTFIELD:
        counts[0] = shape->heightfield.count_x;
        counts[1] = shape->heightfield.count_z;
        break;
    default:
        break;
    }
    float sizes[7] = {shape->convex_radius,      shape->local_bounds.min.x,
                      shape->local_bounds.min.y, shape->local_bounds.min.z,
                      shape->local_bounds.max.x, shape->local_bounds.max.y,
                      shape->local_bounds.max.z};
    int type = (int)shape->type;
    uint64_t hash = fnv1a(FNV_OFFSET, &type, sizeof type);
    hash = fnv1a(hash, counts, sizeof counts);
    hash = fnv1a(hash, sizes, sizeof sizes);
    for (int i = 0; shape_is_compound(shape) && i < shape->compound.count; ++i) {
        uint64_t child = shape_signature(shape->compound.children[i]);
        hash = fnv1a(hash, &child, sizeof child);
    }
    return hash;
}

cairn_shape_params cairn_shape_get_params(const cairn_shape *shape)
{
    cairn_shape_params params;
    memset(&params, 0, sizeof params);
    if (!shape_given(shape, "cairn_shape_get_params"))
        return params;
    params.type = shape->type;
    params.convex_radius = shape->convex_radius;
    switch (shape->type) {
    case CAIRN_SHAPE_MESH: /* the half size of its local bounds, like a hull */
    case CAIRN_SHAPE_HEIGHTFIELD:
    case CAIRN_SHAPE_COMPOUND:
        params.half_extents =
            glms_vec3_scale(glms_vec3_sub(shape->local_bounds.max, shape->local_bounds.min), 0.5f);
        break;
    case CAIRN_SHAPE_SPHERE:
        params.radius = shape->convex_radius;
        break;
    case CAIRN_SHAPE_BOX:
        params.half_extents = shape->box.half_extents;
        break;
    case CAIRN_SHAPE_CAPSULE:
        params.radius = shape->convex_radius;
        params.half_height = shape->capsule.half_height;
        break;
    case CAIRN_SHAPE_CYLINDER:
        params.radius = shape->cylinder.radius;
        params.half_height = shape->cylinder.half_height;
        break;
    case CAIRN_SHAPE_HULL:
        params.half_extents =
            glms_vec3_scale(glms_vec3_sub(shape->local_bounds.max, shape->local_bounds.min), 0.5f);
        break;
    }
    return params;
}
