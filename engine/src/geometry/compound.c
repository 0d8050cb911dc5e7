/* Compound shapes: construction with validation, children's placement, bounds and the support of
   the children's union. Mass properties are in mass.c, ray casts and contacts in
   collision/compound.c. */
#include "geometry/shape.h"

#include "core/alloc.h"
#include "core/error.h"
#include "core/validate.h"
#include "core/xform.h"

#include <math.h>
#include <string.h>

static bool check_child(const cairn_shape *const *children, const cairn_transform *transforms,
                        int i)
{
    const char *function = "cairn_shape_compound";
    const cairn_shape *child = children[i];
    if (child == NULL)
        return error_set("%s: child %d is NULL", function, i);
    if (shape_is_compound(child))
        return error_set("%s: child %d is a compound (nesting is not supported)", function, i);
    if (shape_is_triangles(child))
        return error_set("%s: child %d is a mesh or heightfield (children must be convex)",
                         function, i);
    cairn_transform xf = transforms[i];
    if (!is_finite_vec3(xf.position))
        return error_set("%s: child_transforms[%d].position is not finite", function, i);
    for (int axis = 0; axis < 3; ++axis)
        if (fabsf(xf.position.raw[axis]) > CAIRN_MAX_SIZE)
            return error_set("%s: child_transforms[%d].position is farther than %g m from the "
                             "origin",
                             function, i, (double)CAIRN_MAX_SIZE);
    if (!is_unit_quat(xf.rotation))
        return error_set("%s: child_transforms[%d].rotation is not a finite unit quaternion",
                         function, i);
    return true;
}

static bool check_compound(const cairn_shape *const *children, const cairn_transform *transforms,
                           int count)
{
    if (children == NULL)
        return error_set("cairn_shape_compound: children is NULL");
    if (transforms == NULL)
        return error_set("cairn_shape_compound: child_transforms is NULL");
    if (count < 1 || count > CAIRN_MAX_COMPOUND_CHILDREN)
        return error_set("cairn_shape_compound: count = %d is outside [1, %d]", count,
                         CAIRN_MAX_COMPOUND_CHILDREN);
    for (int i = 0; i < count; ++i)
        if (!check_child(children, transforms, i))
            return false;
    return true;
}

static void free_arrays(cairn_shape *shape, int count)
{
    mem_free(shape->compound.children, (size_t)count * sizeof(cairn_shape *));
    mem_free(shape->compound.transforms, (size_t)count * sizeof(cairn_transform));
    mem_free(shape->compound.bounds, (size_t)count * sizeof(cairn_aabb));
}

static cairn_aabb aabb_union(cairn_aabb a, cairn_aabb b)
{
    return (cairn_aabb){glms_vec3_minv(a.min, b.min), glms_vec3_maxv(a.max, b.max)};
}

cairn_shape *cairn_shape_compound(const cairn_shape *const *children,
                                  const cairn_transform *child_transforms, int count)
{
    if (!check_compound(children, child_transforms, count))
        return NULL;
    cairn_shape *shape = mem_calloc(1, sizeof *shape);
    if (shape == NULL)
        return NULL;
    shape->type = CAIRN_SHAPE_COMPOUND;
    atomic_init(&shape->ref_count, 1);
    shape->compound.children = mem_alloc((size_t)count * sizeof(cairn_shape *));
    shape->compound.transforms = mem_alloc((size_t)count * sizeof(cairn_transform));
    shape->compound.bounds = mem_alloc((size_t)count * sizeof(cairn_aabb));
    if (!shape->compound.children || !shape->compound.transforms || !shape->compound.bounds) {
        free_arrays(shape, count);
        mem_free(shape, sizeof *shape);
        return NULL;
    }
    shape->compound.count = count;
    for (int i = 0; i < count; ++i) {
        cairn_transform xf = child_transforms[i];
        xf.rotation = glms_quat_normalize(xf.rotation);
        shape->compound.children[i] = (cairn_shape *)children[i];
        cairn_shape_retain(shape->compound.children[i]);
        shape->compound.transforms[i] = xf;
        shape->compound.bounds[i] = cairn_shape_bounds(children[i], xf);
        shape->local_bounds = i == 0 ? shape->compound.bounds[0]
                                     : aabb_union(shape->local_bounds, shape->compound.bounds[i]);
    }
    return shape;
}

void compound_destroy(cairn_shape *shape)
{
    for (int i = 0; i < shape->compound.count; ++i)
        cairn_shape_release(shape->compound.children[i]);
    free_arrays(shape, shape->compound.count);
}

int cairn_compound_child_count(const cairn_shape *shape)
{
    return shape != NULL && shape_is_compound(shape) ? shape->compound.count : 0;
}

const cairn_shape *cairn_compound_child(const cairn_shape *shape, int child,
                                        cairn_transform *transform)
{
    if (shape == NULL || !shape_is_compound(shape) || child < 0 || child >= shape->compound.count)
        return NULL;
    if (transform)
        *transform = shape->compound.transforms[child];
    return shape->compound.children[child];
}

cairn_transform compound_child_transform(const cairn_shape *shape, int child, cairn_transform xf)
{
    cairn_transform local = shape->compound.transforms[child];
    return (cairn_transform){xform_point(xf, local.position),
                             glms_quat_normalize(glms_quat_mul(xf.rotation, local.rotation))};
}

cairn_aabb compound_bounds(const cairn_shape *shape, cairn_transform xf)
{
    cairn_aabb bounds =
        cairn_shape_bounds(shape->compound.children[0], compound_child_transform(shape, 0, xf));
    for (int i = 1; i < shape->compound.count; ++i)
        bounds = aabb_union(bounds, cairn_shape_bounds(shape->compound.children[i],
                                                       compound_child_transform(shape, i, xf)));
    return bounds;
}

/* The farthest child support along d: the support of the union's convex hull. */
vec3s compound_support(const cairn_shape *shape, vec3s d)
{
    vec3s best = glms_vec3_zero();
    float best_dot = -INFINITY;
    for (int i = 0; i < shape->compound.count; ++i) {
        cairn_transform xf = shape->compound.transforms[i];
        vec3s local = cairn_shape_support(shape->compound.children[i], xform_inverse_vector(xf, d));
        vec3s p = xform_point(xf, local);
        float dot = glms_vec3_dot(p, d);
        if (dot > best_dot) {
            best_dot = dot;
            best = p;
        }
    }
    return best;
}
