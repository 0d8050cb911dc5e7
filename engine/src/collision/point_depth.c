/* Where a point lies against a shape's core, in closed form: a sphere against a box or cylinder
   needs neither GJK nor EPA (the nearest point of the core is a clamp), and a sphere's centre
   inside a hull is as deep as its nearest face. EPA on a cylinder's round side converges slowly,
   and GJK's normal is only as good as float support points allow when the centre is within a
   few micrometres of a thin core. */
#include "collision/query.h"

#include "geometry/shape.h"

#include <math.h>

static double sign_of(double value)
{
    return value >= 0.0 ? 1.0 : -1.0;
}

static dvec3 unit_from_to(dvec3 from, dvec3 to, double *length)
{
    dvec3 d = dvec3_sub(to, from);
    *length = sqrt(dvec3_length_sq(d));
    return *length > 0.0 ? dvec3_scale(d, 1.0 / *length) : d;
}

static double clamp(double value, double limit)
{
    return fmin(fmax(value, -limit), limit);
}

/* Outside: from the nearest point of the core to p. Inside (or on it): minus the depth, out
   through the nearest face. */
static bool box_query(vec3s half, dvec3 p, double *distance, dvec3 *normal)
{
    dvec3 nearest = dvec3_make(clamp(p.x, half.x), clamp(p.y, half.y), clamp(p.z, half.z));
    double length;
    dvec3 out = unit_from_to(nearest, p, &length);
    if (length > 0.0) {
        *distance = length;
        *normal = out;
        return true;
    }
    double room[3] = {half.x - fabs(p.x), half.y - fabs(p.y), half.z - fabs(p.z)};
    double coordinate[3] = {p.x, p.y, p.z};
    int k = room[0] <= room[1] && room[0] <= room[2] ? 0 : room[1] <= room[2] ? 1 : 2;
    double axis[3] = {0, 0, 0};
    axis[k] = sign_of(coordinate[k]);
    *distance = -room[k];
    *normal = dvec3_make(axis[0], axis[1], axis[2]);
    return true;
}

/* A cylinder's core. Outside: from the nearest point (the radial distance and the height
   clamped). Inside: through the nearer of its caps or its side (any side direction on the
   axis). */
static bool cylinder_query(double half_height, double radius, dvec3 p, double *distance,
                           dvec3 *normal)
{
    double radial = sqrt(p.x * p.x + p.z * p.z);
    double shrink = radial > radius ? radius / radial : 1.0;
    dvec3 nearest = dvec3_make(p.x * shrink, clamp(p.y, half_height), p.z * shrink);
    double length;
    dvec3 out = unit_from_to(nearest, p, &length);
    if (length > 0.0) {
        *distance = length;
        *normal = out;
        return true;
    }
    double to_side = radius - radial, to_cap = half_height - fabs(p.y);
    if (to_cap <= to_side) {
        *distance = -to_cap;
        *normal = dvec3_make(0, sign_of(p.y), 0);
    } else {
        *distance = -to_side;
        *normal = radial > 0.0 ? dvec3_make(p.x / radial, 0, p.z / radial) : dvec3_make(1, 0, 0);
    }
    return true;
}

/* Inside only: outside a polytope the nearest point may be on an edge or corner (GJK's job). */
static bool hull_query(const convex_hull *core, dvec3 p, double *distance, dvec3 *normal)
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
    *distance = nearest;
    return core->face_count > 0 && nearest <= 0.0;
}

bool core_point_query(const cairn_shape *shape, dvec3 p, double *distance, dvec3 *normal)
{
    switch (cairn_shape_get_type(shape)) {
    case CAIRN_SHAPE_BOX:
        return box_query(shape->box.core_half, p, distance, normal);
    case CAIRN_SHAPE_CYLINDER:
        return cylinder_query(shape->cylinder.core_half_height, shape->cylinder.core_radius, p,
                              distance, normal);
    case CAIRN_SHAPE_HULL:
        return hull_query(&shape->hull.core, p, distance, normal);
    default:
        return false; /* points and segments: collide_round */
    }
}
