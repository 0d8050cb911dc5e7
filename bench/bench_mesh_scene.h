/* Jolt's ConvexVsMesh scene as plain arrays for bench_mesh.c (header only), given the same way to
   Cairn and to Bullet: a grid terrain of sine hills, and the falling bodies' kinds and places.
   The same scene as the `terrain` generator of scene files (engine/io/gen_terrain.c). */
#ifndef CAIRN_BENCH_MESH_SCENE_H
#define CAIRN_BENCH_MESH_SCENE_H

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

/* A square grid of cells x cells cells of cell_size, centred on the origin: vertex (i, j) at
   (cell i - centre, height (1 + sin(50 i / cells) cos(50 j / cells)), cell j - centre), two
   counter-clockwise triangles per cell seen from above, split along the diagonal from (i + 1, j)
   to (i, j + 1) (Jolt's triangulation). */
typedef struct mesh_grid {
    int cells;
    float cell_size, height;
    float *vertices; /* 3 per vertex, (cells + 1)^2 vertices, row j after row j - 1 */
    int *indices;    /* 3 per triangle, 2 cells^2 triangles */
    int vertex_count, triangle_count;
} mesh_grid;

static inline float mesh_grid_vertex_height(const mesh_grid *g, int i, int j)
{
    float n = (float)g->cells;
    return g->height * (1.0f + sinf((float)i * 50.0f / n) * cosf((float)j * 50.0f / n));
}

/* Fills g's arrays (malloc'd; false when out of memory). */
static inline bool mesh_grid_build(mesh_grid *g, int cells, float cell_size, float height)
{
    int side = cells + 1;
    g->cells = cells;
    g->cell_size = cell_size;
    g->height = height;
    g->vertex_count = side * side;
    g->triangle_count = 2 * cells * cells;
    g->vertices = malloc((size_t)g->vertex_count * 3 * sizeof(float));
    g->indices = malloc((size_t)g->triangle_count * 3 * sizeof(int));
    if (!g->vertices || !g->indices)
        return false;
    float centre = 0.5f * (float)cells * cell_size;
    for (int j = 0; j < side; ++j)
        for (int i = 0; i < side; ++i) {
            float *v = &g->vertices[3 * (j * side + i)];
            v[0] = (float)i * cell_size - centre;
            v[1] = mesh_grid_vertex_height(g, i, j);
            v[2] = (float)j * cell_size - centre;
        }
    int *t = g->indices;
    for (int j = 0; j < cells; ++j)
        for (int i = 0; i < cells; ++i) {
            int corner = j * side + i;
            int cell[6] = {corner,     corner + side, corner + 1,
                           corner + 1, corner + side, corner + side + 1};
            for (int k = 0; k < 6; ++k)
                *t++ = cell[k];
        }
    return true;
}

static inline void mesh_grid_free(mesh_grid *g)
{
    free(g->vertices);
    free(g->indices);
    g->vertices = NULL;
    g->indices = NULL;
}

/* The mesh's own surface height over (x, z) (flat triangles, not the sine), clamped to the grid. */
static inline float mesh_grid_surface(const mesh_grid *g, float x, float z)
{
    float centre = 0.5f * (float)g->cells * g->cell_size;
    float u = (x + centre) / g->cell_size, v = (z + centre) / g->cell_size;
    int i = (int)floorf(u), j = (int)floorf(v);
    i = i < 0 ? 0 : i > g->cells - 1 ? g->cells - 1 : i;
    j = j < 0 ? 0 : j > g->cells - 1 ? g->cells - 1 : j;
    float a = u - (float)i, b = v - (float)j;
    float h00 = mesh_grid_vertex_height(g, i, j), h10 = mesh_grid_vertex_height(g, i + 1, j);
    float h01 = mesh_grid_vertex_height(g, i, j + 1),
          h11 = mesh_grid_vertex_height(g, i + 1, j + 1);
    if (a + b <= 1.0f)
        return h00 + a * (h10 - h00) + b * (h01 - h00);
    return h11 + (1.0f - a) * (h01 - h11) + (1.0f - b) * (h10 - h11);
}

/* The falling bodies: COLUMNS x COLUMNS columns 7.5 m apart, each a box, a sphere, a capsule and
   the pyramid hull from 15 m up, 2 m apart, in Jolt's order (x, then the shape, then z). */
enum { MESH_SCENE_COLUMNS = 21, MESH_SCENE_KINDS = 4 };
enum { MESH_SCENE_BODIES = MESH_SCENE_COLUMNS * MESH_SCENE_COLUMNS * MESH_SCENE_KINDS };

typedef struct mesh_scene_body {
    int kind; /* 0 box, 1 sphere, 2 capsule, 3 hull */
    float position[3];
} mesh_scene_body;

static inline void mesh_scene_bodies(mesh_scene_body *out)
{
    int n = 0, half = MESH_SCENE_COLUMNS / 2;
    for (int x = -half; x <= half; ++x)
        for (int kind = 0; kind < MESH_SCENE_KINDS; ++kind)
            for (int z = -half; z <= half; ++z, ++n) {
                out[n].kind = kind;
                out[n].position[0] = 7.5f * (float)x;
                out[n].position[1] = 15.0f + 2.0f * (float)kind;
                out[n].position[2] = 7.5f * (float)z;
            }
}

/* Jolt's five hull points: a square pyramid 2 m across its base (at y = 0), 1 m high. */
static const float mesh_scene_hull[5][3] = {
    {0, 1, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}};

#endif
