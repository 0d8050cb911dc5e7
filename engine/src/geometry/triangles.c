/* The triangle interface shared by meshes and heightfields (dispatch by shape type), the public
   triangle accessors, and the ray-triangle test both use. */
#include "geometry/triangles.h"

#include <math.h>

void triangles_query_box(const cairn_shape *shape, cairn_aabb box, triangle_fn *visit,
                         void *context)
{
    if (shape->type == CAIRN_SHAPE_MESH)
        mesh_query_box(shape, box, visit, context);
    else if (shape->type == CAIRN_SHAPE_HEIGHTFIELD)
        heightfield_query_box(shape, box, visit, context);
}

bool triangles_raycast(const cairn_shape *shape, vec3s origin, vec3s d, float max_fraction,
                       triangle_hit *hit)
{
    if (shape->type == CAIRN_SHAPE_MESH)
        return mesh_raycast(shape, origin, d, max_fraction, hit);
    if (shape->type == CAIRN_SHAPE_HEIGHTFIELD)
        return heightfield_raycast(shape, origin, d, max_fraction, hit);
    return false;
}

void triangles_corners(const cairn_shape *shape, int triangle, vec3s corners[3])
{
    if (shape->type == CAIRN_SHAPE_MESH)
        mesh_corners(shape, shape->mesh.slot[triangle], corners);
    else
        heightfield_corners(shape, triangle, corners);
}

int cairn_shape_triangle_count(const cairn_shape *shape)
{
    if (shape == NULL)
        return 0;
    if (shape->type == CAIRN_SHAPE_MESH)
        return shape->mesh.input_count;
    if (shape->type == CAIRN_SHAPE_HEIGHTFIELD)
        return 2 * (shape->heightfield.count_x - 1) * (shape->heightfield.count_z - 1);
    return 0;
}

bool cairn_shape_triangle(const cairn_shape *shape, int triangle, vec3s corners[3])
{
    if (shape == NULL || corners == NULL || triangle < 0 ||
        triangle >= cairn_shape_triangle_count(shape))
        return false;
    if (shape->type == CAIRN_SHAPE_MESH && shape->mesh.slot[triangle] < 0)
        return false; /* dropped as degenerate */
    if (shape->type == CAIRN_SHAPE_HEIGHTFIELD && !heightfield_has_triangle(shape, triangle))
        return false; /* its cell touches a hole */
    triangles_corners(shape, triangle, corners);
    return true;
}

int cairn_mesh_dropped_count(const cairn_shape *shape)
{
    return shape != NULL && shape->type == CAIRN_SHAPE_MESH ? shape->mesh.dropped : 0;
}

vec3s triangle_normal(const vec3s corners[3])
{
    vec3s n = glms_vec3_cross(glms_vec3_sub(corners[1], corners[0]),
                              glms_vec3_sub(corners[2], corners[0]));
    float length = glms_vec3_norm(n);
    return length > 0.0f ? glms_vec3_scale(n, 1.0f / length) : (vec3s){{0.0f, 1.0f, 0.0f}};
}

/* Moller-Trumbore in double, both sides; edges count as inside (a closed test, so a ray through
   a shared edge hits both triangles). */
bool triangle_ray(const vec3s corners[3], vec3s origin, vec3s d, float max_t, float *t)
{
    double p0[3], e1[3], e2[3], dir[3], o[3];
    for (int k = 0; k < 3; ++k) {
        p0[k] = corners[0].raw[k];
        e1[k] = (double)corners[1].raw[k] - p0[k];
        e2[k] = (double)corners[2].raw[k] - p0[k];
        dir[k] = d.raw[k];
        o[k] = (double)origin.raw[k] - p0[k];
    }
    double p[3] = {dir[1] * e2[2] - dir[2] * e2[1], dir[2] * e2[0] - dir[0] * e2[2],
                   dir[0] * e2[1] - dir[1] * e2[0]};
    double det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
    if (det == 0.0)
        return false; /* the ray is parallel to the plane: grazing rays do not count */
    double inv = 1.0 / det;
    double u = (o[0] * p[0] + o[1] * p[1] + o[2] * p[2]) * inv;
    if (u < 0.0 || u > 1.0)
        return false;
    double q[3] = {o[1] * e1[2] - o[2] * e1[1], o[2] * e1[0] - o[0] * e1[2],
                   o[0] * e1[1] - o[1] * e1[0]};
    double v = (dir[0] * q[0] + dir[1] * q[1] + dir[2] * q[2]) * inv;
    if (v < 0.0 || u + v > 1.0)
        return false;
    double hit = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) * inv;
    if (hit < 0.0 || hit > (double)max_t)
        return false;
    *t = (float)hit;
    return *t <= max_t;
}
