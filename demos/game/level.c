/* The level designs: a tower (2 x 2 cubes, 5 high), a brick wall in running bond and a square
   pyramid of cubes to shoot at, and crates to push with the walking character. Blocks in a layer
   keep a small gap so that only stacked blocks touch. */
#include "level.h"

#include "walker.h"

#define CUBE_HALF 0.3f  /* m, half the side of the tower's and the pyramid's cubes */
#define GAP       0.01f /* m, between neighbours in a layer */

typedef bool (*level_fill)(level_layout *out);

static bool add_block_of(level_layout *out, vec3s centre, vec3s half_extents, float density)
{
    if (out->block_count >= LEVEL_MAX_BLOCKS) {
        return false;
    }
    out->blocks[out->block_count++] = (level_block){centre, half_extents, density};
    return true;
}

static bool add_block(level_layout *out, vec3s centre, vec3s half_extents)
{
    return add_block_of(out, centre, half_extents, LEVEL_BLOCK_DENSITY);
}

/* Height of the centre of a block of half height h in layer k (0 = on the platform). */
static float layer_y(int k, float h)
{
    return LEVEL_PLATFORM_TOP + h + 2.0f * h * (float)k;
}

/* A square layer of n x n cubes centred on the Y axis. */
static bool add_square_layer(level_layout *out, int n, int k)
{
    float pitch = 2.0f * CUBE_HALF + GAP;
    float first = -0.5f * pitch * (float)(n - 1);
    vec3s half = {{CUBE_HALF, CUBE_HALF, CUBE_HALF}};
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            vec3s c = {{first + pitch * (float)i, layer_y(k, CUBE_HALF), first + pitch * (float)j}};
            if (!add_block(out, c, half)) {
                return false;
            }
        }
    }
    return true;
}

static bool fill_tower(level_layout *out)
{
    out->name = "tower";
    out->platform_half_extents = (vec3s){{1.2f, 0.5f, 1.2f}};
    out->shots = 3;
    for (int k = 0; k < 5; ++k) {
        if (!add_square_layer(out, 2, k)) {
            return false;
        }
    }
    return true;
}

/* Running bond: rows of 5 and 4 bricks alternate, each joint over the middle of a brick. */
static bool fill_wall(level_layout *out)
{
    out->name = "wall";
    out->platform_half_extents = (vec3s){{2.5f, 0.5f, 1.0f}};
    out->shots = 4;
    vec3s half = {{0.4f, 0.2f, 0.2f}};
    float pitch = 2.0f * half.x + GAP;
    for (int k = 0; k < 6; ++k) {
        int n = k % 2 == 0 ? 5 : 4;
        float first = -0.5f * pitch * (float)(n - 1);
        for (int i = 0; i < n; ++i) {
            vec3s c = {{first + pitch * (float)i, layer_y(k, half.y), 0.0f}};
            if (!add_block(out, c, half)) {
                return false;
            }
        }
    }
    return true;
}

static bool fill_pyramid(level_layout *out)
{
    out->name = "pyramid";
    out->platform_half_extents = (vec3s){{1.8f, 0.5f, 1.8f}};
    out->shots = 4;
    for (int k = 0; k < 4; ++k) {
        if (!add_square_layer(out, 4 - k, k)) {
            return false;
        }
    }
    return true;
}

/* Crates of one size at (x, z) on the platform, all of one density. */
static bool add_crates(level_layout *out, const float (*at)[2], int count, float density)
{
    vec3s half = {{0.4f, 0.3f, 0.4f}};
    for (int i = 0; i < count; ++i) {
        vec3s c = {{at[i][0], layer_y(0, half.y), at[i][1]}};
        if (!add_block_of(out, c, half, density)) {
            return false;
        }
    }
    return true;
}

/* Three light crates, each with a straight push to an edge, and two stone ones; one stone crate
   stands between a light crate and the nearest edge, so that crate goes off another side. The
   light crates sit 1.5 m from the centre, where the character starts. */
static bool fill_crates(level_layout *out)
{
    static const float light[][2] = {{0.0f, -1.5f}, {1.5f, 0.0f}, {-1.5f, 1.5f}};
    static const float stone[][2] = {{-2.5f, 1.5f}, {1.5f, -1.5f}};
    out->name = "crates";
    out->kind = LEVEL_WALK;
    out->platform_half_extents = (vec3s){{3.0f, 0.5f, 3.0f}};
    out->shots = 0;
    out->goal = (int)(sizeof light / sizeof light[0]);
    /* 5 cm up: a capsule created exactly touching the platform's top never moves (found
       here, reported); it drops onto it in the first steps */
    out->walker_start =
        (vec3s){{0.0f, LEVEL_PLATFORM_TOP + WALK_HALF_HEIGHT + WALK_RADIUS + 0.05f, 0.0f}};
    return add_crates(out, light, out->goal, LEVEL_LIGHT_CRATE_DENSITY) &&
           add_crates(out, stone, (int)(sizeof stone / sizeof stone[0]), LEVEL_HEAVY_CRATE_DENSITY);
}

static const level_fill levels[] = {fill_tower, fill_wall, fill_pyramid, fill_crates};

int level_count(void)
{
    return (int)(sizeof levels / sizeof levels[0]);
}

bool level_build(int level, level_layout *out)
{
    if (level < 1 || level > level_count()) {
        return false;
    }
    *out = (level_layout){0};
    out->launcher = (vec3s){{0.0f, LEVEL_PLATFORM_TOP + 1.5f, 14.0f}};
    out->default_speed = 25.0f;
    if (!levels[level - 1](out)) {
        return false;
    }
    if (out->kind == LEVEL_SHOOT) {
        out->goal = out->block_count;
    }
    out->platform_centre = (vec3s){{0.0f, LEVEL_PLATFORM_TOP - out->platform_half_extents.y, 0.0f}};
    return true;
}
