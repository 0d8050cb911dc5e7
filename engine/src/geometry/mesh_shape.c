/* Triangle mesh shapes: validation at the API boundary, dropping degenerate triangles, the BVH
   build, and the mesh halves of the triangle queries (geometry/triangles.h). */
#include "geometry/triangles.h"

#include "core/alloc.h"
#include "core/error.h"
#include "core/validate.h"

#include <math.h>
#include <string.h>

static const char *const function = "cairn_shape_mesh";
static const float max_coordinate = 1e6f;

static bool check_vertices(const vec3s *vertices, int vertex_count)
{
    if (vertices == NULL)
        return error_set("%s: vertices is NULL", function);
    if (vertex_count < 3)
        return error_set("%s: vertex_count = %d, a mesh needs at least 3 vertices", function,
                         vertex_count);
    for (int i = 0; i < vertex_count; ++i) {
        if (!is_finite_vec3(vertices[i]))
            return error_set("%s: vertex %d is not finite", function, i);
        for (int k = 0; k < 3; ++k)
            if (fabsf(vertices[i].raw[k]) > max_coordinate)
                return error_set("%s: vertex %d is farther than %g m from the origin", function, i,
                                 (double)max_coordinate);
    }
    return true;
}

static bool check_indices(const int *indices, int triangle_count, int vertex_count)
{
    if (indices == NULL)
        return error_set("%s: indices is NULL", function);
    if (triangle_count < 1)
        return error_set("%s: triangle_count = %d, a mesh needs at least 1 triangle", function,
                         triangle_count);
    if (triangle_count > (1 << 26))
        return error_set("%s: triangle_count = %d is above %d", function, triangle_count, 1 << 26);
    for (int i = 0; i < 3 * triangle_count; ++i) {
        if (indices[i] < 0)
            return error_set("%s: index %d (triangle %d) is negative (%d)", function, i, i / 3,
                             indices[i]);
        if (indices[i] >= vertex_count)
            return error_set("%s: index %d (triangle %d) = %d is out of range (vertex_count %d)",
                             function, i, i / 3, indices[i], vertex_count);
    }
    return true;
}

/* Repeated corners, or an area that is zero within float precision (the cross product below a
   relative 1e-6 of the longest edge squared): no normal to push along. */
static bool is_degenerate(const vec3s *vertices, const int *t)
{
    if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2])
        return true;
    double p[3][3];
    for (int c = 0; c < 3; ++c)
        for (int k = 0; k < 3; ++k)
            p[c][k] = vertices[t[c]].raw[k];
    double e1[3], e2[3], e3[3];
    for (int k = 0; k < 3; ++k)
        e1[k] = p[1][k] - p[0][k], e2[k] = p[2][k] - p[0][k], e3[k] = p[2][k] - p[1][k];
    double cx = e1[1] * e2[2] - e1[2] * e2[1], cy = e1[2] * e2[0] - e1[0] * e2[2],
           cz = e1[0] * e2[1] - e1[1] * e2[0];
    double longest = fmax(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2],
                          fmax(e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2],
                               e3[0] * e3[0] + e3[1] * e3[1] + e3[2] * e3[2]));
    return sqrt(cx * cx + cy * cy + cz * cz) <= 1e-6 * longest;
}

static void mesh_free_arrays(mesh_data *m)
{
    mem_free(m->vertices, (size_t)m->vertex_count * sizeof(vec3s));
    mem_free(m->triangles, (size_t)m->input_count * sizeof(int[3]));
    mem_free(m->source, (size_t)m->input_count * sizeof(int));
    mem_free(m->slot, (size_t)m->input_count * sizeof(int));
    mem_free(m->edge_flags, (size_t)m->input_count);
    material_table_free(&m->materials);
}

void mesh_destroy(cairn_shape *shape)
{
    bvh_destroy(&shape->mesh.bvh);
    mesh_free_arrays(&shape->mesh);
}

/* Keeps the non-degenerate triangles (arrays sized for all of them). */
static void mesh_keep_triangles(mesh_data *m, const int *indices)
{
    m->triangle_count = 0;
    for (int i = 0; i < m->input_count; ++i) {
        if (is_degenerate(m->vertices, &indices[3 * i])) {
            m->dropped++;
            continue;
        }
        memcpy(m->triangles[m->triangle_count], &indices[3 * i], sizeof(int[3]));
        m->source[m->triangle_count++] = i;
    }
}

static cairn_aabb mesh_bounds(const mesh_data *m)
{
    cairn_aabb box = {m->vertices[m->triangles[0][0]], m->vertices[m->triangles[0][0]]};
    for (int i = 0; i < m->triangle_count; ++i)
        for (int c = 0; c < 3; ++c) {
            box.min = glms_vec3_minv(box.min, m->vertices[m->triangles[i][c]]);
            box.max = glms_vec3_maxv(box.max, m->vertices[m->triangles[i][c]]);
        }
    return box;
}

static bool mesh_build(mesh_data *m, const vec3s *vertices, const int *indices)
{
    size_t n = (size_t)m->input_count;
    m->vertices = mem_alloc((size_t)m->vertex_count * sizeof(vec3s));
    m->triangles = mem_alloc(n * sizeof(int[3]));
    m->source = mem_alloc(n * sizeof(int));
    m->slot = mem_alloc(n * sizeof(int));
    if (!m->vertices || !m->triangles || !m->source || !m->slot)
        return false;
    memcpy(m->vertices, vertices, (size_t)m->vertex_count * sizeof(vec3s));
    mesh_keep_triangles(m, indices);
    if (m->triangle_count == 0)
        return error_set("%s: all %d triangles are degenerate (repeated indices or zero area)",
                         function, m->input_count);
    if (!bvh_build(&m->bvh, m->vertices, m->triangles, m->source, m->triangle_count))
        return false;
    if (!mesh_build_edge_flags(m))
        return false;
    for (int i = 0; i < m->input_count; ++i)
        m->slot[i] = -1;
    for (int i = 0; i < m->triangle_count; ++i)
        m->slot[m->source[i]] = i;
    return true;
}

cairn_shape *cairn_shape_mesh(const vec3s *vertices, int vertex_count, const int *indices,
                              int triangle_count)
{
    return cairn_shape_mesh_with_materials(vertices, vertex_count, indices, triangle_count, NULL,
                                           NULL, 0);
}

/* Materials are kept by input triangle index (messages name it too), so dropping degenerate
   triangles never shifts a material. */
static const material_element_name material_names = {"cairn_shape_mesh_with_materials", "triangle",
                                                     0};

cairn_shape *cairn_shape_mesh_with_materials(const vec3s *vertices, int vertex_count,
                                             const int *indices, int triangle_count,
                                             const int *material_indices,
                                             const cairn_surface_material *materials,
                                             int material_count)
{
    if (!check_vertices(vertices, vertex_count) ||
        !check_indices(indices, triangle_count, vertex_count) ||
        !materials_check(&material_names, material_indices, triangle_count, materials,
                         material_count))
        return NULL;
    cairn_shape *shape = mem_calloc(1, sizeof *shape);
    if (shape == NULL)
        return NULL;
    shape->type = CAIRN_SHAPE_MESH;
    atomic_init(&shape->ref_count, 1);
    shape->mesh.vertex_count = vertex_count;
    shape->mesh.input_count = triangle_count;
    if (!mesh_build(&shape->mesh, vertices, indices) ||
        !material_table_init(&shape->mesh.materials, material_indices, triangle_count, materials,
                             material_count)) {
        mesh_destroy(shape);
        mem_free(shape, sizeof *shape);
        return NULL;
    }
    shape->local_bounds = mesh_bounds(&shape->mesh);
    return shape;
}

void mesh_corners(const cairn_shape *shape, int kept, vec3s corners[3])
{
    mesh_corners_of(&shape->mesh, kept, corners);
}

typedef struct box_visit {
    const cairn_shape *shape;
    cairn_aabb box;
    triangle_fn *visit;
    void *context;
} box_visit;

static bool visit_leaf_box(void *context, int first, int count)
{
    box_visit *q = context;
    for (int i = first; i < first + count; ++i) {
        vec3s corners[3];
        mesh_corners(q->shape, i, corners);
        vec3s lo = glms_vec3_minv(corners[0], glms_vec3_minv(corners[1], corners[2]));
        vec3s hi = glms_vec3_maxv(corners[0], glms_vec3_maxv(corners[1], corners[2]));
        if (lo.x > q->box.max.x || lo.y > q->box.max.y || lo.z > q->box.max.z ||
            q->box.min.x > hi.x || q->box.min.y > hi.y || q->box.min.z > hi.z)
            continue;
        if (!q->visit(q->context, q->shape->mesh.source[i], corners))
            return false;
    }
    return true;
}

void mesh_query_box(const cairn_shape *shape, cairn_aabb box, triangle_fn *visit, void *context)
{
    box_visit q = {shape, box, visit, context};
    bvh_query_box(&shape->mesh.bvh, box, visit_leaf_box, &q);
}

typedef struct ray_visit {
    const cairn_shape *shape;
    vec3s origin, d;
    triangle_hit *hit;
    bool found;
} ray_visit;

static void visit_leaf_ray(void *context, int first, int count, float *max_t)
{
    ray_visit *q = context;
    for (int i = first; i < first + count; ++i) {
        vec3s corners[3];
        mesh_corners(q->shape, i, corners);
        float t;
        int source = q->shape->mesh.source[i];
        if (!triangle_ray(corners, q->origin, q->d, *max_t, &t))
            continue;
        /* Equal fractions: the lower triangle index wins, so the answer is unique. */
        if (q->found && t == *max_t && source > q->hit->triangle)
            continue;
        *max_t = t;
        q->found = true;
        q->hit->fraction = t;
        q->hit->triangle = source;
        vec3s n = triangle_normal(corners);
        q->hit->normal = glms_vec3_dot(n, q->d) > 0.0f ? glms_vec3_negate(n) : n;
    }
}

bool mesh_raycast(const cairn_shape *shape, vec3s origin, vec3s d, float max_fraction,
                  triangle_hit *hit)
{
    ray_visit q = {shape, origin, d, hit, false};
    float max_t = max_fraction;
    bvh_query_ray(&shape->mesh.bvh, origin, d, &max_t, visit_leaf_ray, &q);
    return q.found;
}
