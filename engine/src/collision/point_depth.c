/* How deep a point lies inside a shape's core, in closed form: a sphere's centre inside a box,
   cylinder or hull needs no EPA (the depth of a point in a convex core is its distance to the
   nearest face, cap or side), and EPA on a cylinder's round side converges slowly. */
#include "collision/query.h"

#include "geometry/shape.h"

#include <math.h>

static double sign_of(double value)
{
    return value >= 0.0 ? 1.0 : -1.0;
}

static bool box_depth(vec3s half, dvec3 p, double *depth, dvec3 *normal)
{
    double room[3] = {half.x - fabs(p.x), half.y - fabs(p.y), half.z - fabs(p.z)};
    double coordinate[3] = {p.x, p.y, p.z};
    int k = room[0] <= room[1] && room[0] <= room[2] ? 0 : room[1] <= room[2] ? 1 : 2;
    double axis[3] = {0, 0, 0};
    axis[k] = sign_of(coordinate[k]);
    *depth = room[k];
    *normal = dvec3_make(axis[0], axis[1], axis[2]);
    return true;
}

/* A cylinder's core: through the nearer of its caps or its side (any side direction on its
   axis). */
static bool cylinder_depth(double half_height, double radius, dvec3 p, double *depth, dvec3 *normal)
{
    double radial = sqrt(p.x * p.x + p.z * p.z);
    double to_side = radius - radial, to_cap = half_height - fabs(p.y);
    if (to_cap <= to_side) {
        *depth = to_cap;
        *normal = dvec3_make(0, sign_of(p.y), 0);
    } else {
        *depth = to_side;
        *normal = radial > 0.0 ? dvec3_make(p.x / radial, 0, p.z / radial) : dvec3_make(1, 0, 0);
    }
    return true;
}

static bool hull_depth(const convex_hull *core, dvec3 p, double *depth, dvec3 *normal)
{
    double nearest = -INFINITY;
    for (int f = 0; f < core->face_count; ++f) {
        const hull_face *face = &core->faces[f];
        dvec3 n = dvec3_from(face->normal);
        double height = dvec3_dot(n, p) - face->offset;
        if (height > nearest) {
            nearest = height;
            *normal = n;
        }
    }
    *depth = -nearest;
    return core->face_count > 0;
}

bool core_point_depth(const cairn_shape *shape, dvec3 p, double *depth, dvec3 *normal)
{
    switch (cairn_shape_get_type(shape)) {
    case CAIRN_SHAPE_BOX:
        return box_depth(shape->box.core_half, p, depth, normal);
    case CAIRN_SHAPE_CYLINDER:
        return cylinder_depth(shape->cylinder.core_half_height, shape->cylinder.core_radius, p,
                              depth, normal);
    case CAIRN_SHAPE_HULL:
        return hull_depth(&shape->hull.core, p, depth, normal);
    default:
        return false; /* a point's or a segment's core has no inside */
    }
}
