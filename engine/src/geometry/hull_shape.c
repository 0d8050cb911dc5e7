/* A hull shape's core: the hull of the points shrunk by the convex radius, so the rounded shape
   stays inside the given hull; and the public read access to hull topology. */
#include "geometry/shape.h"

#include "core/alloc.h"
#include "core/error.h"

#include <float.h>
#include <math.h>
#include <string.h>

enum { MAX_VERTEX_FACES = 64 };

/* Unit normals of the faces around vertex v (walking its outgoing half-edges). */
static int vertex_face_normals(const convex_hull *hull, int v, vec3s *normals)
{
    int count = 0;
    int first = hull->vertex_edge[v];
    int edge = first;
    do {
        if (count < MAX_VERTEX_FACES)
            normals[count++] = hull->faces[hull->edges[edge].face].normal;
        edge = hull->edges[hull->edges[edge].twin].next;
    } while (edge != first);
    return count;
}

/* The direction delta with dot(n_i, delta) >= 1 for every face i around the vertex, equality
   for the tightest: moving the vertex by -r * delta keeps it r inside each adjacent face.
   Least squares over the faces (exact when three meet), then scaled to the tightest face.
   False for a vertex whose face normals are too close to span space (no room to shrink). */
static bool vertex_offset(const vec3s *normals, int count, vec3s *out)
{
    mat3s normal_matrix = glms_mat3_zero();
    vec3s rhs = glms_vec3_zero();
    for (int i = 0; i < count; ++i) {
        for (int column = 0; column < 3; ++column)
            for (int row = 0; row < 3; ++row)
                normal_matrix.raw[column][row] += normals[i].raw[row] * normals[i].raw[column];
        rhs = glms_vec3_add(rhs, normals[i]);
    }
    if (fabsf(glms_mat3_det(normal_matrix)) < 1e-9f)
        return false;
    vec3s delta = glms_mat3_mulv(glms_mat3_inv(normal_matrix), rhs);
    float tightest = FLT_MAX;
    for (int i = 0; i < count; ++i)
        tightest = fminf(tightest, glms_vec3_dot(normals[i], delta));
    if (!(tightest > 1e-6f))
        return false;
    *out = glms_vec3_scale(delta, 1.0f / tightest);
    return true;
}

/* Largest radius for which vertex v moved by -r * delta stays r inside every face plane. */
static float vertex_radius_limit(const convex_hull *hull, vec3s vertex, vec3s delta)
{
    float limit = FLT_MAX;
    for (int f = 0; f < hull->face_count; ++f) {
        const hull_face *face = &hull->faces[f];
        float approach = 1.0f - glms_vec3_dot(face->normal, delta);
        float room = face->offset - glms_vec3_dot(face->normal, vertex);
        if (approach > 1e-6f)
            limit = fminf(limit, fmaxf(room, 0.0f) / approach);
    }
    return limit;
}

bool hull_shape_build_core(hull_data *hull, float *convex_radius)
{
    const convex_hull *outer = &hull->outer;
    hull->core = hull->outer;
    hull->core_is_outer = true;
    if (*convex_radius == 0.0f)
        return true;
    int count = outer->vertex_count;
    size_t bytes = (size_t)count * sizeof(vec3s);
    vec3s *deltas = mem_alloc(bytes);
    vec3s *shrunk = mem_alloc(bytes);
    if (deltas == NULL || shrunk == NULL) {
        mem_free(deltas, bytes);
        mem_free(shrunk, bytes);
        return false;
    }
    vec3s normals[MAX_VERTEX_FACES];
    float limit = FLT_MAX;
    for (int v = 0; v < count && limit > 0.0f; ++v) {
        if (!vertex_offset(normals, vertex_face_normals(outer, v, normals), &deltas[v]))
            limit = 0.0f;
        else
            limit = fminf(limit, vertex_radius_limit(outer, outer->vertices[v], deltas[v]));
    }
    /* At the full limit the core would be flat (no hull to climb on): keep it a solid. */
    limit = fminf(*convex_radius, 0.9f * limit);
    *convex_radius = 0.0f;
    for (int v = 0; v < count && limit > 0.0f; ++v)
        shrunk[v] = glms_vec3_sub(outer->vertices[v], glms_vec3_scale(deltas[v], limit));
    /* The shrunk points get their own hull: its adjacency is what hill-climbing needs. A core
       too thin for a hull keeps the outer topology and the radius 0. */
    convex_hull core;
    if (limit > 0.0f && hull_build(shrunk, count, &core)) {
        *convex_radius = limit;
        hull->core = core;
        hull->core_is_outer = false;
    }
    mem_free(deltas, bytes);
    mem_free(shrunk, bytes);
    cairn_clear_error();
    return true;
}

void hull_shape_destroy(hull_data *hull)
{
    if (!hull->core_is_outer)
        hull_destroy(&hull->core);
    hull_destroy(&hull->outer);
}

static const convex_hull *outer_hull(const cairn_shape *shape)
{
    return shape->type == CAIRN_SHAPE_HULL ? &shape->hull.outer : NULL;
}

int cairn_hull_vertex_count(const cairn_shape *shape)
{
    const convex_hull *hull = outer_hull(shape);
    return hull ? hull->vertex_count : 0;
}

vec3s cairn_hull_vertex(const cairn_shape *shape, int vertex)
{
    const convex_hull *hull = outer_hull(shape);
    if (hull == NULL || vertex < 0 || vertex >= hull->vertex_count)
        return glms_vec3_zero();
    return hull->vertices[vertex];
}

int cairn_hull_face_count(const cairn_shape *shape)
{
    const convex_hull *hull = outer_hull(shape);
    return hull ? hull->face_count : 0;
}

int cairn_hull_face_vertices(const cairn_shape *shape, int face, int *indices, int capacity)
{
    const convex_hull *hull = outer_hull(shape);
    if (hull == NULL || face < 0 || face >= hull->face_count)
        return 0;
    const hull_face *polygon = &hull->faces[face];
    int edge = polygon->first_edge;
    for (int n = 0; n < polygon->edge_count; ++n, edge = hull->edges[edge].next)
        if (n < capacity)
            indices[n] = hull->edges[edge].origin;
    return polygon->edge_count;
}

vec3s cairn_hull_face_normal(const cairn_shape *shape, int face, float *offset)
{
    const convex_hull *hull = outer_hull(shape);
    if (hull == NULL || face < 0 || face >= hull->face_count) {
        if (offset)
            *offset = 0.0f;
        return glms_vec3_zero();
    }
    if (offset)
        *offset = hull->faces[face].offset;
    return hull->faces[face].normal;
}
