/* The terrain generator: Jolt's PerformanceTest "ConvexVsMesh" scene, a static triangle-mesh
   terrain of rolling hills with columns of convex shapes dropped onto it. Positions are relative
   to the generator's origin, y up. */
#include "generators.h"

#include <math.h>
#include <stdlib.h>

/* The terrain's shape, as read from the parameters. */
typedef struct terrain_params {
    int cells;       /* per side */
    float cell_size; /* m */
    float height;    /* m: amplitude of the hills, and the lift of the whole mesh */
} terrain_params;

/* Jolt's hills: vertex (i, j) of the grid is lifted by height * (1 + sin(50 i / n) cos(50 j / n)),
   so the surface stays between 0 and 2 height above the origin. The frequency is per grid index,
   not per metre, so the number of hills stays the same whatever the cell size. */
static float terrain_vertex_height(const terrain_params *p, int i, int j)
{
    float n = (float)p->cells;
    return p->height * (1.0f + sinf((float)i * 50.0f / n) * cosf((float)j * 50.0f / n));
}

/* (cells + 1)^2 vertices centred on the origin; two counter-clockwise triangles per cell seen
   from above (+Y), split along the diagonal from (i + 1, j) to (i, j + 1) as Jolt splits it. */
static cairn_shape *terrain_mesh(const terrain_params *p)
{
    int side = p->cells + 1, triangles = 2 * p->cells * p->cells;
    vec3s *vertices = malloc((size_t)side * (size_t)side * sizeof *vertices);
    int *indices = malloc((size_t)triangles * 3 * sizeof *indices);
    if (vertices == NULL || indices == NULL) {
        free(vertices);
        free(indices);
        return NULL;
    }
    float centre = 0.5f * (float)p->cells * p->cell_size;
    for (int j = 0; j < side; ++j)
        for (int i = 0; i < side; ++i)
            vertices[j * side + i] =
                (vec3s){{(float)i * p->cell_size - centre, terrain_vertex_height(p, i, j),
                         (float)j * p->cell_size - centre}};
    int *next = indices;
    for (int j = 0; j < p->cells; ++j)
        for (int i = 0; i < p->cells; ++i) {
            int corner = j * side + i; /* (i, j); +1 is (i + 1, j), +side is (i, j + 1) */
            int cell[6] = {corner,     corner + side, corner + 1,
                           corner + 1, corner + side, corner + side + 1};
            for (int k = 0; k < 6; ++k)
                *next++ = cell[k];
        }
    cairn_shape *mesh = cairn_shape_mesh(vertices, side * side, indices, triangles);
    free(vertices);
    free(indices);
    return mesh;
}

enum { TERRAIN_SHAPES = 4 };

/* Jolt's four falling shapes: a box (0.5, 0.75, 1), a sphere of 0.5, a capsule (half height
   0.75, radius 0.5) and a square pyramid of 5 points, 2 m across its base and 1 m high. */
static bool terrain_shapes(io_gen *gen, cairn_shape *shapes[TERRAIN_SHAPES])
{
    static const vec3s pyramid[5] = {
        {{0, 1, 0}}, {{1, 0, 0}}, {{-1, 0, 0}}, {{0, 0, 1}}, {{0, 0, -1}}};
    return io_gen_box(gen, (vec3s){{0.5f, 0.75f, 1.0f}}, &shapes[0]) &&
           io_shape_made(gen->reader, gen->params, gen->what, cairn_shape_sphere(0.5f),
                         &shapes[1]) &&
           io_shape_made(gen->reader, gen->params, gen->what, cairn_shape_capsule(0.75f, 0.5f),
                         &shapes[2]) &&
           io_shape_made(gen->reader, gen->params, gen->what,
                         cairn_shape_hull(pyramid, 5, io_default_convex_radius(1.0f)), &shapes[3]);
}

/* count x count columns, spacing apart and centred on the origin; each holds layers rounds of
   the four shapes, one above the other, 2 m apart from drop_height up. Emitted in Jolt's order
   (x, then the level, then z). */
static bool drop_columns(io_gen *gen, cairn_shape *const shapes[TERRAIN_SHAPES], int count,
                         int layers, float spacing, float drop_height)
{
    float first = -0.5f * spacing * (float)(count - 1);
    for (int x = 0; x < count; ++x)
        for (int level = 0; level < TERRAIN_SHAPES * layers; ++level)
            for (int z = 0; z < count; ++z) {
                vec3s p = {{first + spacing * (float)x, drop_height + 2.0f * (float)level,
                            first + spacing * (float)z}};
                if (!io_gen_emit(gen, shapes[level % TERRAIN_SHAPES], p, glms_quat_identity()))
                    return false;
            }
    return true;
}

/* Jolt's friction and restitution for every body of the scene unless `material` says otherwise
   (the common options read the material onto the engine's defaults; read it again onto Jolt's). */
static bool terrain_material(io_gen *gen)
{
    gen->body.friction = 0.5f;
    gen->body.restitution = 0.6f;
    struct fy_node *material = io_lookup(gen->params, "material");
    if (material == NULL)
        return true;
    char name[IO_WHAT_CAPACITY + 16];
    io_join(name, sizeof name, gen->what, "material", 8);
    return io_read_material(gen->reader, material, name, &gen->body);
}

/* With the defaults this is Jolt's ConvexVsMesh scene: 100 x 100 cells of 3 m (20,000
   triangles), hills 5 m high, 21 x 21 columns 7.5 m apart of the four shapes from 15 m up
   (1,764 bodies), friction 0.5 and restitution 0.6. The terrain is the generator's first body. */
bool io_gen_terrain(io_gen *gen)
{
    static const char *const keys[] = {"cells",  "cell_size", "height",     "count",
                                       "layers", "spacing",   "drop_height"};
    terrain_params p;
    int count, layers;
    float spacing, drop_height;
    if (!io_gen_check_keys(gen, keys, 7) || !io_gen_int(gen, "cells", 1, 1000, 100, &p.cells) ||
        !io_gen_float(gen, "cell_size", 0.01f, 1000.0f, 3.0f, &p.cell_size) ||
        !io_gen_float(gen, "height", 0.0f, 1000.0f, 5.0f, &p.height) ||
        !io_gen_int(gen, "count", 0, 400, 21, &count) ||
        !io_gen_int(gen, "layers", 1, 100, 1, &layers) ||
        !io_gen_float(gen, "spacing", CAIRN_MIN_SIZE, CAIRN_MAX_SIZE, 7.5f, &spacing) ||
        !io_gen_float(gen, "drop_height", -CAIRN_MAX_SIZE, CAIRN_MAX_SIZE, 15.0f, &drop_height) ||
        !terrain_material(gen))
        return false;
    if ((long)count * count * TERRAIN_SHAPES * layers >= IO_MAX_BODIES)
        return io_fail(gen->reader, gen->params,
                       "%s: count %d and layers %d make more than %d bodies", gen->what, count,
                       layers, IO_MAX_BODIES);
    cairn_shape *ground;
    if (!io_shape_made(gen->reader, gen->params, gen->what, terrain_mesh(&p), &ground))
        return false;
    cairn_body_def dynamic = gen->body;
    gen->body.type = CAIRN_STATIC;
    bool ok = io_gen_emit(gen, ground, glms_vec3_zero(), glms_quat_identity());
    cairn_shape_release(ground);
    gen->body = dynamic;
    cairn_shape *shapes[TERRAIN_SHAPES] = {NULL, NULL, NULL, NULL};
    ok = ok && terrain_shapes(gen, shapes) &&
         drop_columns(gen, shapes, count, layers, spacing, drop_height);
    for (int s = 0; s < TERRAIN_SHAPES; ++s)
        cairn_shape_release(shapes[s]);
    return ok;
}
