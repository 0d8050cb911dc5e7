/* A box resting across a convex fold of the ground: a ridge where two slopes of a few degrees
   meet, as everywhere on a terrain. With friction 0.6 (it holds on slopes up to 31 degrees) the
   box tips onto one slope, or balances on the ridge, and rests: the independent answer is
   statics. Before, the points merged from the two triangles were reduced to the ridge's deepest
   end and the farthest corners, one of them in the air: the box stood on too few points around
   its centre of mass, rocked, and walked along the ridge (85 of 120 such poses never fell asleep
   in 30 s; up to 22 cm crept). Each pose here, on a heightfield and on a triangle mesh of the
   same ridge, must fall asleep within 3 s and not move after. */
#include <criterion/criterion.h>
#include <math.h>

#include "dynamics/scene_helpers.h"

enum { GRID = 21 };
static const float cell = 0.5f;

/* Ground height at x: slopes of left_deg (x < 0) and right_deg (x > 0) falling from the ridge
   along z at x = 0. */
static float ridge_height(float x, float left_deg, float right_deg)
{
    float slope = x < 0.0f ? left_deg : right_deg;
    return -fabsf(x) * tanf(slope * (float)SCENE_PI / 180.0f);
}

static cairn_shape *ridge_heightfield(float left_deg, float right_deg)
{
    float heights[GRID * GRID];
    for (int z = 0; z < GRID; ++z)
        for (int x = 0; x < GRID; ++x)
            heights[z * GRID + x] = ridge_height((float)(x - GRID / 2) * cell, left_deg, right_deg);
    return cairn_shape_heightfield(heights, GRID, GRID, v3(cell, 1.0f, cell));
}

/* The same ground as a mesh: each cell two triangles, split the other way from the
   heightfield's (the ridge's triangles differ, the ridge does not). */
static cairn_shape *ridge_mesh(float left_deg, float right_deg)
{
    vec3s vertices[GRID * GRID];
    int indices[(GRID - 1) * (GRID - 1) * 6], n = 0;
    for (int z = 0; z < GRID; ++z)
        for (int x = 0; x < GRID; ++x) {
            float px = (float)(x - GRID / 2) * cell;
            vertices[z * GRID + x] = v3(px, ridge_height(px, left_deg, right_deg), (float)z * cell);
        }
    for (int z = 0; z + 1 < GRID; ++z)
        for (int x = 0; x + 1 < GRID; ++x) {
            int a = z * GRID + x, b = a + 1, c = a + GRID, d = c + 1;
            /* counter-clockwise seen from above (+y): a, c, b and b, c, d */
            const int split[6] = {a, c, b, b, c, d};
            for (int k = 0; k < 6; ++k)
                indices[n++] = split[k];
        }
    return cairn_shape_mesh(vertices, GRID * GRID, indices, n / 3);
}

/* Drops a 0.6 x 0.4 x 0.5 m box 5 cm over the ridge, `offset` across it, turned `yaw_deg`
   about the vertical. Returns the step it fell asleep at (-1: never) and how far it moved
   between 2 s and 10 s. */
static int rest_on_ridge(bool mesh, float left_deg, float right_deg, float offset, float yaw_deg,
                         float *moved)
{
    cairn_world *world = scene_default_world();
    cairn_shape *ground =
        mesh ? ridge_mesh(left_deg, right_deg) : ridge_heightfield(left_deg, right_deg);
    cr_assert_not_null(ground, "%s", cairn_last_error());
    scene_body(world, ground, CAIRN_STATIC,
               scene_at(v3(mesh ? 0.0f : -(float)(GRID / 2) * cell, 0.0f, -5.0f)), 1000.0f, 0.6f,
               0.0f);
    cairn_transform at = scene_at(v3(offset, 0.25f, 0.1f));
    at.rotation = glms_quatv(yaw_deg * (float)SCENE_PI / 180.0f, v3(0, 1, 0));
    cairn_body_id box = scene_body(world, cairn_shape_box(v3(0.3f, 0.2f, 0.25f), 0.02f),
                                   CAIRN_DYNAMIC, at, 1000.0f, 0.6f, 0.0f);
    int asleep = -1;
    vec3s at_2s = v3(0, 0, 0);
    for (int step = 1; step <= 600; ++step) {
        cairn_world_step(world, 1.0f / 60.0f);
        if (asleep < 0 && !cairn_body_is_awake(world, box))
            asleep = step;
        if (step == 120)
            at_2s = scene_position(world, box);
    }
    *moved = (float)scene_distance(scene_position(world, box), at_2s);
    cairn_world_destroy(world);
    return asleep;
}

Test(fold_rest, a_box_across_a_convex_fold_comes_to_rest)
{
    const float folds[5][2] = {{2, 2}, {1, 4}, {3, 3}, {5, 1}, {8, 8}};
    const float offsets[3] = {0.05f, 0.1f, -0.1f};
    const float yaws[3] = {0.0f, 20.0f, 80.0f};
    for (int mesh = 0; mesh < 2; ++mesh)
        for (int f = 0; f < 5; ++f)
            for (int o = 0; o < 3; ++o)
                for (int y = 0; y < 3; ++y) {
                    float moved;
                    int asleep =
                        rest_on_ridge(mesh, folds[f][0], folds[f][1], offsets[o], yaws[y], &moved);
                    cr_expect(asleep > 0 && asleep <= 180 && moved < 1e-3f,
                              "%s, fold %g/%g degrees, %.2f m across, yaw %g: asleep at step %d, "
                              "moved %.1f mm from 2 s to 10 s",
                              mesh ? "mesh" : "heightfield", (double)folds[f][0],
                              (double)folds[f][1], (double)offsets[o], (double)yaws[y], asleep,
                              1e3 * (double)moved);
                }
}
