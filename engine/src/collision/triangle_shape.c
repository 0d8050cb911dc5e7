/* Triangles as flat hulls for the narrow phase, and the closest point on a triangle. */
#include "collision/triangle_shape.h"

#include <math.h>
#include <string.h>

/* Half-edges: 0-2 the front face (0->1->2), 3-5 the back (0->2->1); twins pair opposite
   directions of the same side. */
static const hull_half_edge triangle_edges[6] = {
    {0, 5, 1, 0}, {1, 4, 2, 0}, {2, 3, 0, 0}, {0, 2, 4, 1}, {2, 1, 5, 1}, {1, 0, 3, 1},
};

void triangle_shape_make(triangle_shape *t, const vec3s corners[3])
{
    memset(&t->shape, 0, sizeof t->shape);
    memcpy(t->edges, triangle_edges, sizeof t->edges);
    static const int start[4] = {0, 2, 4, 6}, adjacency[6] = {1, 2, 0, 2, 0, 1};
    memcpy(t->adjacency_start, start, sizeof start);
    memcpy(t->adjacency, adjacency, sizeof adjacency);
    for (int v = 0; v < 3; ++v)
        t->vertex_edge[v] = v;
    t->faces[0] = (hull_face){.first_edge = 0, .edge_count = 3};
    t->faces[1] = (hull_face){.first_edge = 3, .edge_count = 3};
    convex_hull hull = {
        .vertex_count = 3,
        .face_count = 2,
        .edge_count = 6,
        .vertices = t->vertices,
        .faces = t->faces,
        .edges = t->edges,
        .vertex_edge = t->vertex_edge,
        .adjacency_start = t->adjacency_start,
        .adjacency = t->adjacency,
        .tolerance = 1e-6f,
    };
    t->shape.type = CAIRN_SHAPE_HULL;
    atomic_init(&t->shape.ref_count, 1);
    t->shape.hull.outer = hull;
    t->shape.hull.core = hull;
    t->shape.hull.core_is_outer = true;
    triangle_shape_move(t, corners);
}

void triangle_shape_move(triangle_shape *t, const vec3s corners[3])
{
    memcpy(t->vertices, corners, sizeof t->vertices);
    vec3s n = glms_vec3_cross(glms_vec3_sub(corners[1], corners[0]),
                              glms_vec3_sub(corners[2], corners[0]));
    float length = glms_vec3_norm(n);
    n = length > 0.0f ? glms_vec3_scale(n, 1.0f / length) : (vec3s){{0.0f, 1.0f, 0.0f}};
    float offset = glms_vec3_dot(n, corners[0]);
    t->faces[0].normal = n;
    t->faces[0].offset = offset;
    t->faces[1].normal = glms_vec3_negate(n);
    t->faces[1].offset = -offset;
    vec3s interior = glms_vec3_scale(
        glms_vec3_add(corners[0], glms_vec3_add(corners[1], corners[2])), 1.0f / 3.0f);
    t->shape.hull.outer.interior = interior;
    t->shape.hull.core.interior = interior;
    t->shape.local_bounds =
        (cairn_aabb){glms_vec3_minv(corners[0], glms_vec3_minv(corners[1], corners[2])),
                     glms_vec3_maxv(corners[0], glms_vec3_maxv(corners[1], corners[2]))};
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void combine(const double c[3][3], double u, double v, double w, double out[3])
{
    for (int k = 0; k < 3; ++k)
        out[k] = u * c[0][k] + v * c[1][k] + w * c[2][k];
}

/* Voronoi regions of the vertices, then the edges, then the face (Ericson, Real-Time Collision
   Detection 5.1.5, written out from the region conditions). */
void triangle_closest_point(const double c[3][3], const double p[3], double out[3])
{
    double ab[3], ac[3], ap[3], bp[3], cp[3];
    for (int k = 0; k < 3; ++k) {
        ab[k] = c[1][k] - c[0][k], ac[k] = c[2][k] - c[0][k];
        ap[k] = p[k] - c[0][k], bp[k] = p[k] - c[1][k], cp[k] = p[k] - c[2][k];
    }
    double d1 = dot3(ab, ap), d2 = dot3(ac, ap);
    if (d1 <= 0.0 && d2 <= 0.0)
        return combine(c, 1, 0, 0, out);
    double d3 = dot3(ab, bp), d4 = dot3(ac, bp);
    if (d3 >= 0.0 && d4 <= d3)
        return combine(c, 0, 1, 0, out);
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
        double v = d1 / (d1 - d3);
        return combine(c, 1 - v, v, 0, out);
    }
    double d5 = dot3(ab, cp), d6 = dot3(ac, cp);
    if (d6 >= 0.0 && d5 <= d6)
        return combine(c, 0, 0, 1, out);
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
        double w = d2 / (d2 - d6);
        return combine(c, 1 - w, 0, w, out);
    }
    double va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0) {
        double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return combine(c, 0, 1 - w, w, out);
    }
    double denominator = va + vb + vc;
    double v = vb / denominator, w = vc / denominator;
    combine(c, 1 - v - w, v, w, out);
}
