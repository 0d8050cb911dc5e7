/* Tessellation of every shape type: boxes by faces, round shapes by revolving a profile about
   +Y, hulls by fanning their faces. Boxes keep sharp edges (convex radius ignored for now). */
#include "mesh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUND_SLICES 48 /* segments around +Y */
#define ROUND_ARC    12 /* segments per quarter circle */

/* One point of a profile in the (radius, y) half plane with its normal there. */
typedef struct profile_point {
    float r, y, nr, ny;
} profile_point;

#define MAX_PROFILE (4 * ROUND_ARC + 8)

typedef struct profile {
    profile_point points[MAX_PROFILE];
    int count;
} profile;

static bool grow(void **data, int *capacity, int needed, size_t item)
{
    if (needed <= *capacity) {
        return true;
    }
    int cap = *capacity ? *capacity : 64;
    while (cap < needed) {
        cap *= 2;
    }
    void *bigger = realloc(*data, (size_t)cap * item);
    if (!bigger) {
        return false;
    }
    *data = bigger;
    *capacity = cap;
    return true;
}

static uint32_t add_vertex(mesh *m, vec3s p, vec3s n)
{
    if (m->failed || !grow((void **)&m->vertices, &m->vertex_capacity, m->vertex_count + 1,
                           sizeof *m->vertices)) {
        m->failed = true;
        return 0;
    }
    m->vertices[m->vertex_count] = (mesh_vertex){{p.x, p.y, p.z}, {n.x, n.y, n.z}};
    return (uint32_t)m->vertex_count++;
}

static void add_triangle(mesh *m, uint32_t a, uint32_t b, uint32_t c)
{
    if (m->failed ||
        !grow((void **)&m->indices, &m->index_capacity, m->index_count + 3, sizeof *m->indices)) {
        m->failed = true;
        return;
    }
    m->indices[m->index_count++] = a;
    m->indices[m->index_count++] = b;
    m->indices[m->index_count++] = c;
}

static void build_box(mesh *m, vec3s half)
{
    /* Corner order (u, v) = (-,-), (+,-), (+,+), (-,+) is counter-clockwise about +axis when
       (axis, u, v) is a cyclic permutation of (x, y, z); the -axis face reverses it. */
    static const float us[4] = {-1, 1, 1, -1}, vs[4] = {-1, -1, 1, 1};
    for (int axis = 0; axis < 3; ++axis) {
        int u = (axis + 1) % 3, v = (axis + 2) % 3;
        for (int sign = -1; sign <= 1; sign += 2) {
            vec3s n = GLMS_VEC3_ZERO_INIT;
            n.raw[axis] = (float)sign;
            uint32_t first = (uint32_t)m->vertex_count;
            for (int k = 0; k < 4; ++k) {
                int c = sign > 0 ? k : 3 - k;
                vec3s p;
                p.raw[axis] = (float)sign * half.raw[axis];
                p.raw[u] = us[c] * half.raw[u];
                p.raw[v] = vs[c] * half.raw[v];
                add_vertex(m, p, n);
            }
            add_triangle(m, first, first + 1, first + 2);
            add_triangle(m, first, first + 2, first + 3);
        }
    }
}

/* A quarter (or any) arc of the profile: centre (cr, cy), radius, angles from a0 to a1. */
static void profile_arc(profile *pr, float cr, float cy, float radius, float a0, float a1)
{
    for (int i = 0; i <= ROUND_ARC && pr->count < MAX_PROFILE; ++i) {
        float a = a0 + (a1 - a0) * (float)i / ROUND_ARC;
        float c = cosf(a), s = sinf(a);
        pr->points[pr->count++] = (profile_point){cr + radius * c, cy + radius * s, c, s};
    }
}

static void profile_add(profile *pr, float r, float y, float nr, float ny)
{
    if (pr->count < MAX_PROFILE) {
        pr->points[pr->count++] = (profile_point){r, y, nr, ny};
    }
}

/* Revolves a top-to-bottom profile about +Y. Neighbouring points at the same position (a
   crease: same place, two normals) get no band between them, which keeps edges sharp. */
static void build_lathe(mesh *m, const profile *pr)
{
    uint32_t first = (uint32_t)m->vertex_count;
    for (int i = 0; i < pr->count; ++i) {
        const profile_point *p = &pr->points[i];
        for (int j = 0; j <= ROUND_SLICES; ++j) {
            float a = 2.0f * GLM_PIf * (float)j / ROUND_SLICES;
            float s = sinf(a), c = cosf(a);
            add_vertex(m, (vec3s){{p->r * s, p->y, p->r * c}},
                       (vec3s){{p->nr * s, p->ny, p->nr * c}});
        }
    }
    const uint32_t ring = ROUND_SLICES + 1;
    for (int i = 0; i + 1 < pr->count; ++i) {
        const profile_point *p = &pr->points[i], *q = &pr->points[i + 1];
        if (p->r == q->r && p->y == q->y) {
            continue;
        }
        for (uint32_t j = 0; j < ROUND_SLICES; ++j) {
            uint32_t a = first + (uint32_t)i * ring + j, b = a + ring;
            add_triangle(m, a, b, b + 1);
            add_triangle(m, a, b + 1, a + 1);
        }
    }
}

/* Sphere (half_height 0) or capsule: two hemispheres joined by the cylinder between their
   equators. */
static void build_capsule(mesh *m, float half_height, float radius)
{
    profile pr = {.count = 0};
    profile_arc(&pr, 0.0f, half_height, radius, GLM_PI_2f, 0.0f);
    profile_arc(&pr, 0.0f, -half_height, radius, 0.0f, -GLM_PI_2f);
    build_lathe(m, &pr);
}

static void build_cylinder(mesh *m, float half_height, float radius, float rounding)
{
    profile pr = {.count = 0};
    float inner = radius - rounding;
    profile_add(&pr, 0.0f, half_height, 0.0f, 1.0f);
    profile_arc(&pr, inner, half_height - rounding, rounding, GLM_PI_2f, 0.0f);
    profile_arc(&pr, inner, -half_height + rounding, rounding, 0.0f, -GLM_PI_2f);
    profile_add(&pr, 0.0f, -half_height, 0.0f, -1.0f);
    build_lathe(m, &pr);
}

static void build_hull_face(mesh *m, const cairn_shape *shape, int face, int *indices, int count)
{
    float offset;
    vec3s n = cairn_hull_face_normal(shape, face, &offset);
    uint32_t first = (uint32_t)m->vertex_count;
    for (int k = 0; k < count; ++k) {
        add_vertex(m, cairn_hull_vertex(shape, indices[k]), n);
    }
    for (int k = 1; k + 1 < count; ++k) {
        add_triangle(m, first, first + (uint32_t)k, first + (uint32_t)k + 1);
    }
}

/* Flat shaded: every face gets its own vertices. */
static void build_hull(mesh *m, const cairn_shape *shape)
{
    int capacity = 32;
    int *indices = malloc((size_t)capacity * sizeof *indices);
    int faces = cairn_hull_face_count(shape);
    for (int f = 0; f < faces && indices && !m->failed; ++f) {
        int count = cairn_hull_face_vertices(shape, f, indices, capacity);
        if (count > capacity) {
            int *bigger = realloc(indices, (size_t)count * sizeof *indices);
            if (!bigger) {
                break;
            }
            indices = bigger;
            capacity = count;
            count = cairn_hull_face_vertices(shape, f, indices, capacity);
        }
        build_hull_face(m, shape, f, indices, count);
    }
    if (!indices) {
        m->failed = true;
    }
    free(indices);
}

/* Meshes and heightfields, flat shaded: every triangle gets its own three vertices. */
static void build_triangles(mesh *m, const cairn_shape *shape)
{
    int count = cairn_shape_triangle_count(shape);
    for (int t = 0; t < count && !m->failed; ++t) {
        vec3s c[3];
        if (!cairn_shape_triangle(shape, t, c)) {
            continue; /* dropped as degenerate, or a heightfield cell removed by a hole */
        }
        vec3s n = glms_vec3_normalize(
            glms_vec3_cross(glms_vec3_sub(c[1], c[0]), glms_vec3_sub(c[2], c[0])));
        uint32_t first = (uint32_t)m->vertex_count;
        for (int k = 0; k < 3; ++k) {
            add_vertex(m, c[k], n);
        }
        add_triangle(m, first, first + 1, first + 2);
    }
}

/* Appends the mesh of every child, moved by the child's transform. */
static void build_compound(mesh *m, const cairn_shape *shape)
{
    int count = cairn_compound_child_count(shape);
    for (int c = 0; c < count && !m->failed; ++c) {
        cairn_transform xf;
        const cairn_shape *child = cairn_compound_child(shape, c, &xf);
        mesh part;
        if (!child || !mesh_from_shape(child, &part)) {
            mesh_free(&part);
            m->failed = true;
            return;
        }
        uint32_t first = (uint32_t)m->vertex_count;
        for (int v = 0; v < part.vertex_count; ++v) {
            const mesh_vertex *pv = &part.vertices[v];
            vec3s p = {{pv->position[0], pv->position[1], pv->position[2]}};
            vec3s n = {{pv->normal[0], pv->normal[1], pv->normal[2]}};
            add_vertex(m, glms_vec3_add(glms_quat_rotatev(xf.rotation, p), xf.position),
                       glms_quat_rotatev(xf.rotation, n));
        }
        for (int i = 0; i + 2 < part.index_count; i += 3) {
            add_triangle(m, first + part.indices[i], first + part.indices[i + 1],
                         first + part.indices[i + 2]);
        }
        mesh_free(&part);
    }
}

bool mesh_from_shape(const cairn_shape *shape, mesh *out)
{
    memset(out, 0, sizeof *out);
    cairn_shape_params p = cairn_shape_get_params(shape);
    switch (p.type) {
    case CAIRN_SHAPE_BOX:
        build_box(out, p.half_extents);
        break;
    case CAIRN_SHAPE_SPHERE:
        build_capsule(out, 0.0f, p.radius);
        break;
    case CAIRN_SHAPE_CAPSULE:
        build_capsule(out, p.half_height, p.radius);
        break;
    case CAIRN_SHAPE_CYLINDER:
        build_cylinder(out, p.half_height, p.radius, p.convex_radius);
        break;
    case CAIRN_SHAPE_HULL:
        build_hull(out, shape);
        break;
    case CAIRN_SHAPE_COMPOUND:
        build_compound(out, shape);
        break;
    case CAIRN_SHAPE_MESH:
    case CAIRN_SHAPE_HEIGHTFIELD:
        build_triangles(out, shape);
        break;
    default:
        fprintf(stderr, "cairn-demo: no mesh for shape type %d\n", (int)p.type);
        return false;
    }
    if (out->failed || out->index_count == 0) {
        fprintf(stderr, "cairn-demo: cannot build the mesh of a shape of type %d\n", (int)p.type);
        return false;
    }
    return true;
}

void mesh_free(mesh *m)
{
    free(m->vertices);
    free(m->indices);
    memset(m, 0, sizeof *m);
}
