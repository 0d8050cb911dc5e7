/* The mesh debug layers (CAIRN_DEBUG_DRAW_MESH_EDGES, CAIRN_DEBUG_DRAW_MESH_BVH) against counts
   derived from the grid: active and inactive edge lines of a flat grid, of a 30-degree fold and
   of a heightfield; one box per BVH node, each equal to its node and every leaf containing its
   triangles' corners; and no mesh lines at all with the layers off. */
#include <criterion/criterion.h>

#include "dynamics/scene_helpers.h"
#include "geometry/shape.h"
#include "mesh/mesh_helpers.h"

#define MAX_LINES 65536
#define BOX_LINES 12 /* a box is drawn as its 12 edges */

typedef struct line_log {
    int count;
    vec3s from[MAX_LINES], to[MAX_LINES];
    vec4s colour[MAX_LINES];
} line_log;

static line_log lines;

static void on_line(void *context, vec3s from, vec3s to, vec4s colour)
{
    line_log *log = context;
    cr_assert_lt(log->count, MAX_LINES);
    log->from[log->count] = from;
    log->to[log->count] = to;
    log->colour[log->count++] = colour;
}

static int draw_world(const cairn_world *world, uint32_t flags)
{
    lines.count = 0;
    cairn_debug_draw draw = {.line = on_line, .context = &lines};
    cr_assert(cairn_world_debug_draw(world, &draw, flags), "%s", cairn_last_error());
    return lines.count;
}

/* A cells x cells grid of unit squares in the XZ plane, each split along the same diagonal, facing
   +Y. Columns of vertices from x = fold_column on are bent down by fold_radians about the line
   x = fold_column (0 radians: flat). */
static cairn_shape *grid_mesh(int cells, int fold_column, float fold_radians)
{
    int n = cells + 1;
    vec3s *v = malloc((size_t)(n * n) * sizeof *v);
    int *idx = malloc((size_t)(cells * cells * 6) * sizeof *idx);
    for (int z = 0; z < n; ++z)
        for (int x = 0; x < n; ++x) {
            float beyond = x > fold_column ? (float)(x - fold_column) : 0.0f;
            v[z * n + x] =
                (vec3s){{(float)(x < fold_column ? x : fold_column) + beyond * cosf(fold_radians),
                         -beyond * sinf(fold_radians), (float)z}};
        }
    int k = 0;
    for (int z = 0; z < cells; ++z)
        for (int x = 0; x < cells; ++x) {
            int a = z * n + x, b = a + 1, d = a + n, e = d + 1;
            int t[6] = {a, d, e, a, e, b};
            for (int i = 0; i < 6; ++i)
                idx[k++] = t[i];
        }
    cairn_shape *shape = cairn_shape_mesh(v, n * n, idx, cells * cells * 2);
    free(v);
    free(idx);
    return shape;
}

/* Active edges are drawn red, inactive ones blue. */
static void count_edge_colours(int *active, int *inactive)
{
    *active = *inactive = 0;
    for (int i = 0; i < lines.count; ++i) {
        if (lines.colour[i].x > lines.colour[i].z)
            ++*active;
        else
            ++*inactive;
    }
}

/* Each triangle draws its three edges. On a cells x cells grid of 2 cells^2 triangles, the
   border has 4 * cells segments, each in one triangle; every other triangle edge is one side of
   an interior edge shared by two triangles. So 3 * 2 cells^2 edge lines, 4 cells of them border
   (active), the rest shared. Flat: every shared edge is inactive. */
static void grid_edge_counts(int cells, int *lines_total, int *border)
{
    int triangles = 2 * cells * cells;
    *lines_total = 3 * triangles;
    *border = 4 * cells;
    /* Cross-check against the distinct edges of the grid: (cells + 1) lines of cells segments
       per direction plus one diagonal per square, border edges counted once and shared twice. */
    int distinct = 2 * (cells + 1) * cells + cells * cells;
    cr_assert_eq(distinct, *border + (*lines_total - *border) / 2);
}

static void expect_edges(cairn_shape *shape, int expected_active, int expected_inactive)
{
    cairn_world *world = scene_default_world();
    scene_body(world, shape, CAIRN_STATIC, scene_at(v3(1, 2, 3)), 1000, 0.5f, 0);
    draw_world(world, CAIRN_DEBUG_DRAW_MESH_EDGES);
    int active, inactive;
    count_edge_colours(&active, &inactive);
    cr_expect_eq(active, expected_active);
    cr_expect_eq(inactive, expected_inactive);
    cairn_world_destroy(world);
}

Test(mesh_debug_draw, flat_grid_border_active_inner_inactive)
{
    for (int cells = 1; cells <= 4; ++cells) {
        int total, border;
        grid_edge_counts(cells, &total, &border);
        expect_edges(grid_mesh(cells, cells, 0.0f), border, total - border);
    }
}

/* A fold along the interior grid line x = 1 of a 2 x 2 grid: that line is cells = 2 segments,
   each shared by two triangles, so 2 * 2 more active edge lines. 30 degrees is convex (the far
   half bends down) and well past the 5-degree flat limit; 3 degrees is within it. */
Test(mesh_debug_draw, fold_of_30_degrees_makes_the_seam_active)
{
    const int cells = 2, seam_lines = 2 * cells;
    int total, border;
    grid_edge_counts(cells, &total, &border);
    expect_edges(grid_mesh(cells, 1, 30.0f * 3.14159265f / 180.0f), border + seam_lines,
                 total - border - seam_lines);
    expect_edges(grid_mesh(cells, 1, 3.0f * 3.14159265f / 180.0f), border, total - border);
}

/* A flat heightfield of (cells + 1)^2 samples is the same grid: the same counts. */
Test(mesh_debug_draw, heightfield_edges_and_block)
{
    const int cells = 2, n = cells + 1;
    float heights[9] = {0};
    int total, border;
    grid_edge_counts(cells, &total, &border);
    expect_edges(cairn_shape_heightfield(heights, n, n, v3(1, 1, 1)), border, total - border);

    /* Fewer cells than a block: one block box, spanning the whole field at height 0. */
    cairn_world *world = scene_default_world();
    scene_body(world, cairn_shape_heightfield(heights, n, n, v3(1, 1, 1)), CAIRN_STATIC,
               scene_at(v3(0, 0, 0)), 1000, 0.5f, 0);
    cr_assert_eq(draw_world(world, CAIRN_DEBUG_DRAW_MESH_BVH), BOX_LINES);
    for (int i = 0; i < lines.count; ++i)
        for (int axis = 0; axis < 3; ++axis) {
            float hi = axis == 1 ? 0.0f : (float)cells;
            cr_expect(lines.from[i].raw[axis] >= 0.0f && lines.from[i].raw[axis] <= hi);
            cr_expect(lines.to[i].raw[axis] >= 0.0f && lines.to[i].raw[axis] <= hi);
        }
    cairn_world_destroy(world);
}

/* The box spanned by the 12 lines of box `box` (drawn one after the other). */
static cairn_aabb drawn_box(int box)
{
    cairn_aabb b = {lines.from[box * BOX_LINES], lines.from[box * BOX_LINES]};
    for (int i = box * BOX_LINES; i < (box + 1) * BOX_LINES; ++i) {
        b.min = glms_vec3_minv(b.min, glms_vec3_minv(lines.from[i], lines.to[i]));
        b.max = glms_vec3_maxv(b.max, glms_vec3_maxv(lines.from[i], lines.to[i]));
    }
    return b;
}

static void expect_contains(cairn_aabb box, vec3s p)
{
    const float eps = 1e-4f;
    for (int axis = 0; axis < 3; ++axis)
        cr_expect(p.raw[axis] >= box.min.raw[axis] - eps && p.raw[axis] <= box.max.raw[axis] + eps,
                  "corner %g outside [%g, %g] on axis %d", (double)p.raw[axis],
                  (double)box.min.raw[axis], (double)box.max.raw[axis], axis);
}

static void expect_node_box(const bvh_node *node, cairn_aabb box, vec3s offset)
{
    for (int axis = 0; axis < 3; ++axis) {
        cr_expect_float_eq(box.min.raw[axis], node->min[axis] + offset.raw[axis], 1e-4f);
        cr_expect_float_eq(box.max.raw[axis], node->max[axis] + offset.raw[axis], 1e-4f);
    }
}

/* Every triangle of a leaf, moved by the body's translation, lies in the leaf's drawn box; and
   the leaves together hold every triangle once. */
static int check_leaf(const mesh_data *m, const bvh_node *node, cairn_aabb box, vec3s offset)
{
    for (int t = node->index; t < node->index + node->count; ++t)
        for (int c = 0; c < 3; ++c)
            expect_contains(box, glms_vec3_add(m->vertices[m->triangles[t][c]], offset));
    return node->count;
}

Test(mesh_debug_draw, one_box_per_bvh_node_and_leaves_hold_their_triangles)
{
    test_rng rng = {7};
    const int triangle_count = 300;
    vec3s *v = malloc(3 * (size_t)triangle_count * sizeof *v);
    int *idx = malloc(3 * (size_t)triangle_count * sizeof *idx);
    for (int i = 0; i < 3 * triangle_count; ++i) {
        v[i] = v3(rng_range(&rng, -5, 5), rng_range(&rng, -1, 1), rng_range(&rng, -5, 5));
        idx[i] = i;
    }
    cairn_shape *shape = cairn_shape_mesh(v, 3 * triangle_count, idx, triangle_count);
    free(v);
    free(idx);
    cr_assert_not_null(shape, "%s", cairn_last_error());
    const vec3s offset = v3(3, -1, 2);
    cairn_world *world = scene_default_world();
    scene_body(world, shape, CAIRN_STATIC, scene_at(offset), 1000, 0.5f, 0); /* the body keeps it */
    const mesh_data *m = &shape->mesh;

    cr_assert_eq(draw_world(world, CAIRN_DEBUG_DRAW_MESH_BVH), BOX_LINES * m->bvh.node_count);
    int covered = 0, leaves = 0;
    for (int i = 0; i < m->bvh.node_count; ++i) {
        const bvh_node *node = &m->bvh.nodes[i];
        expect_node_box(node, drawn_box(i), offset);
        bool leaf_colour = lines.colour[i * BOX_LINES].w == 1.0f; /* inner nodes are faint */
        cr_expect_eq(leaf_colour, node->count > 0, "node %d", i);
        if (node->count > 0) {
            covered += check_leaf(m, node, drawn_box(i), offset);
            ++leaves;
        }
    }
    cr_expect_eq(covered, m->triangle_count);
    cr_expect_gt(leaves, 1);
    cairn_world_destroy(world);
}

/* Layers off: no line for the mesh. ALL includes both layers: its lines are the other layers'
   plus the two mesh layers'. */
Test(mesh_debug_draw, layers_off_draw_nothing_for_meshes)
{
    cairn_world *world = scene_default_world();
    scene_body(world, grid_mesh(2, 2, 0.0f), CAIRN_STATIC, scene_at(v3(0, 0, 0)), 1000, 0.5f, 0);
    scene_sphere(world, v3(0, 0.45f, 0.5f), 0.5f, 1000, 0.5f, 0);
    cairn_world_step(world, SCENE_DT);
    const uint32_t mesh_layers = CAIRN_DEBUG_DRAW_MESH_BVH | CAIRN_DEBUG_DRAW_MESH_EDGES;
    cr_expect_eq(draw_world(world, 0), 0);
    int others = draw_world(world, CAIRN_DEBUG_DRAW_ALL & ~mesh_layers);
    int bvh = draw_world(world, CAIRN_DEBUG_DRAW_MESH_BVH);
    int edges = draw_world(world, CAIRN_DEBUG_DRAW_MESH_EDGES);
    cr_expect_gt(others, 0);
    cr_expect_gt(bvh, 0);
    cr_expect_gt(edges, 0);
    cr_expect_eq(draw_world(world, CAIRN_DEBUG_DRAW_ALL), others + bvh + edges);
    cairn_world_destroy(world);
}
