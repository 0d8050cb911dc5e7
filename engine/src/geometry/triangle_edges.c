/* Active edges: which triangle edges may push a body along anything but the triangle's face
   normal. An edge shared with a neighbour in the same plane (or folding inwards, concave) is
   inactive: a body sliding across it touches the neighbour's face too, and a contact normal
   through the edge would be a ghost bump. Boundary edges, non-manifold edges and convex folds of
   more than about 5 degrees are active. Meshes decide this once at build time from shared vertex
   indices; heightfields from their implicit neighbours at query time, where a neighbouring cell
   removed by a hole makes the edge a border. */
#include "geometry/triangles.h"

#include "core/alloc.h"
#include "core/sort.h"

#include <math.h>
#include <string.h>

/* Folds flatter than this (cosine between the face normals) count as flat. */
static const float flat_cosine = 0.9962f; /* 5 degrees */

bool edge_is_active(const vec3s corners[3], int edge, vec3s opposite)
{
    vec3s n = triangle_normal(corners);
    vec3s a = corners[edge], b = corners[(edge + 1) % 3];
    /* The neighbour runs b -> a (consistent winding), with `opposite` as its third corner. */
    vec3s neighbour[3] = {b, a, opposite};
    vec3s m = triangle_normal(neighbour);
    float height = glms_vec3_dot(n, glms_vec3_sub(opposite, a));
    bool convex = height < 0.0f;
    return convex && glms_vec3_dot(n, m) < flat_cosine;
}

typedef struct edge_record {
    int lo, hi;   /* vertex indices, lo < hi */
    int triangle; /* kept index */
    int edge;     /* 0..2: from corner edge to corner edge + 1 */
} edge_record;

/* Within a bucket (one lower vertex): by upper vertex, then triangle (a strict total order: a
   kept triangle has three distinct corners). */
static bool edge_before(const edge_record *a, const edge_record *b)
{
    return a->hi != b->hi ? a->hi < b->hi : a->triangle < b->triangle;
}

SORT_DEFINE(sort_bucket, edge_record, edge_before)

/* The records sorted by (lo, hi, triangle) into `out`: counted into one bucket per lower vertex
   (in triangle order), each bucket, a vertex's few edges, then sorted on its own (core/sort.h).
   One qsort of them all took 15% of building a 1M-triangle mesh. first: vertex_count + 1
   counters. */
static void sort_edges(const edge_record *records, size_t count, int vertex_count, size_t *first,
                       edge_record *out)
{
    memset(first, 0, ((size_t)vertex_count + 1) * sizeof *first);
    for (size_t i = 0; i < count; ++i)
        first[records[i].lo + 1]++;
    for (int v = 0; v < vertex_count; ++v)
        first[v + 1] += first[v];
    for (size_t i = 0; i < count; ++i)
        out[first[records[i].lo]++] = records[i];
    /* first[v] is now the end of bucket v, the start of bucket v + 1 */
    size_t start = 0;
    for (int v = 0; v < vertex_count; ++v) {
        sort_bucket(out + start, (int)(first[v] - start));
        start = first[v];
    }
}

/* A pair of edge records from two triangles running opposite ways: neighbours. */
static void mark_pair(mesh_data *m, const edge_record *e, const edge_record *f)
{
    const int *te = m->triangles[e->triangle], *tf = m->triangles[f->triangle];
    bool opposite = te[e->edge] == tf[(f->edge + 1) % 3];
    if (!opposite)
        return; /* inconsistent winding: both stay active */
    vec3s ce[3], cf[3];
    mesh_corners_of(m, e->triangle, ce);
    mesh_corners_of(m, f->triangle, cf);
    if (!edge_is_active(ce, e->edge, cf[(f->edge + 2) % 3]))
        m->edge_flags[e->triangle] &= (unsigned char)~(1u << e->edge);
    if (!edge_is_active(cf, f->edge, ce[(e->edge + 2) % 3]))
        m->edge_flags[f->triangle] &= (unsigned char)~(1u << f->edge);
}

bool mesh_build_edge_flags(mesh_data *m)
{
    size_t count = 3 * (size_t)m->triangle_count;
    size_t buckets = (size_t)m->vertex_count + 1;
    edge_record *records = mem_alloc(2 * count * sizeof *records);
    size_t *first = mem_alloc(buckets * sizeof *first);
    m->edge_flags = mem_alloc((size_t)m->input_count); /* sized like the other arrays */
    if (records == NULL || first == NULL || m->edge_flags == NULL) {
        mem_free(records, 2 * count * sizeof *records);
        mem_free(first, buckets * sizeof *first);
        return false;
    }
    for (int t = 0; t < m->triangle_count; ++t) {
        m->edge_flags[t] = 7; /* all active until a flat or concave neighbour is found */
        for (int e = 0; e < 3; ++e) {
            int a = m->triangles[t][e], b = m->triangles[t][(e + 1) % 3];
            records[3 * t + e] = (edge_record){a < b ? a : b, a < b ? b : a, t, e};
        }
    }
    edge_record *sorted = records + count;
    sort_edges(records, count, m->vertex_count, first, sorted);
    for (size_t i = 0; i < count;) {
        size_t j = i + 1;
        while (j < count && sorted[j].lo == sorted[i].lo && sorted[j].hi == sorted[i].hi)
            ++j;
        if (j - i == 2) /* manifold edge; more than two triangles: left active */
            mark_pair(m, &sorted[i], &sorted[i + 1]);
        i = j;
    }
    mem_free(records, 2 * count * sizeof *records);
    mem_free(first, buckets * sizeof *first);
    return true;
}

/* Heightfield neighbours across each edge of triangle 2 * cell + k (corners as in
   heightfield_corners): the neighbour's third sample, or false at the grid's border or when the
   neighbour's cell is a hole (the edge is then a border too). */
static bool heightfield_opposite(const cairn_shape *shape, int triangle, int edge, vec3s *out)
{
    const heightfield_data *h = &shape->heightfield;
    int cell = triangle / 2, k = triangle % 2;
    int x = cell % (h->count_x - 1), z = cell / (h->count_x - 1);
    /* (dx, dz) of the opposite sample relative to (x, z), per triangle kind and edge; the
       diagonal (edge 2 of kind 0, edge 0 of kind 1) faces the cell's other triangle. */
    static const int offsets[2][3][2] = {
        {{-1, 0}, {1, 2}, {1, 0}}, /* kind 0: (x,z)-(x,z+1), (x,z+1)-(x+1,z+1), diagonal */
        {{0, 1}, {2, 1}, {0, -1}}, /* kind 1: diagonal, (x+1,z+1)-(x+1,z), (x+1,z)-(x,z) */
    };
    /* The cell holding that neighbour: (dx, dz) of it relative to (x, z). */
    static const int cells[2][3][2] = {
        {{-1, 0}, {0, 1}, {0, 0}},
        {{0, 0}, {1, 0}, {0, -1}},
    };
    int sx = x + offsets[k][edge][0], sz = z + offsets[k][edge][1];
    if (sx < 0 || sz < 0 || sx >= h->count_x || sz >= h->count_z)
        return false;
    if (heightfield_cell_is_hole(h, x + cells[k][edge][0], z + cells[k][edge][1]))
        return false;
    *out = (vec3s){{(float)sx * h->scale.x, h->heights[sz * h->count_x + sx] * h->scale.y,
                    (float)sz * h->scale.z}};
    return true;
}

bool triangles_edge_active(const cairn_shape *shape, int triangle, int edge)
{
    if (shape->type == CAIRN_SHAPE_MESH)
        return (shape->mesh.edge_flags[shape->mesh.slot[triangle]] >> edge) & 1u;
    vec3s corners[3], opposite;
    heightfield_corners(shape, triangle, corners);
    if (!heightfield_opposite(shape, triangle, edge, &opposite))
        return true;
    return edge_is_active(corners, edge, opposite);
}
