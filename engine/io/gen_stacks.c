/* Generators of ordered stacks: pyramid (Jolt's 3D box pyramid), wall, stack, tower (Jenga),
   ramp (an inclined static box) and stairs (static blocks). Positions are relative to the
   generator's origin, y up. */
#include "generators.h"

#include <math.h>

static cairn_shape *default_unit_box(void)
{
    return cairn_shape_box((vec3s){{0.5f, 0.5f, 0.5f}}, io_default_convex_radius(0.5f));
}

/* Layer i (from 0) has levels - i boxes per side; odd layers sit half a pitch over, so every box
   rests on four. With levels 15, half_extent 1, gap 0.5 this is exactly Jolt's 1240-box
   pyramid: x = -15 + 2j + (i odd), y = 1 + 2.5 i, z likewise. */
bool io_gen_pyramid(io_gen *gen)
{
    static const char *const keys[] = {"levels", "half_extent", "gap", "spacing"};
    int levels;
    float half, gap, spacing;
    if (!io_gen_check_keys(gen, keys, 4) || !io_gen_int(gen, "levels", 1, 100, 15, &levels) ||
        !io_gen_float(gen, "half_extent", CAIRN_MIN_SIZE, CAIRN_MAX_SIZE, 1.0f, &half) ||
        !io_gen_float(gen, "gap", 0.0f, CAIRN_MAX_SIZE, 0.5f, &gap) ||
        !io_gen_float(gen, "spacing", 0.0f, CAIRN_MAX_SIZE, 2.0f * half, &spacing))
        return false;
    cairn_shape *box;
    if (!io_gen_box(gen, (vec3s){{half, half, half}}, &box))
        return false;
    bool ok = true;
    for (int i = 0; i < levels && ok; ++i) {
        float shift = (i % 2) ? 0.5f * spacing : 0.0f;
        float y = half + (2.0f * half + gap) * (float)i;
        for (int j = i / 2; j < levels - (i + 1) / 2 && ok; ++j) {
            for (int k = i / 2; k < levels - (i + 1) / 2 && ok; ++k) {
                float x = -0.5f * spacing * (float)levels + spacing * (float)j + shift;
                float z = -0.5f * spacing * (float)levels + spacing * (float)k + shift;
                ok = io_gen_emit(gen, box, (vec3s){{x, y, z}}, glms_quat_identity());
            }
        }
    }
    cairn_shape_release(box);
    return ok;
}

/* One row of a wall as emitted: each brick's id and x. */
typedef struct wall_row {
    cairn_body_id ids[1000];
    float x[1000];
    int count;
} wall_row;

/* Fixed joints from each brick of row to its left neighbour and to every brick below it that
   it overlaps along x, each at the middle of the touching faces. */
static bool weld_row(io_gen *gen, const wall_row *row, const wall_row *below, float y, vec3s brick,
                     float pitch, float break_force)
{
    for (int c = 0; c < row->count; ++c) {
        cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_FIXED);
        def.body_b = row->ids[c];
        def.break_force = break_force;
        if (c > 0) {
            def.body_a = row->ids[c - 1];
            def.anchor_a = def.anchor_b = (vec3s){{row->x[c] - 0.5f * pitch, y, 0.0f}};
            if (!io_gen_joint(gen, &def))
                return false;
        }
        for (int k = 0; below != NULL && k < below->count; ++k) {
            if (fabsf(below->x[k] - row->x[c]) >= 2.0f * brick.x - 1e-4f)
                continue;
            def.body_a = below->ids[k];
            vec3s middle = {{0.5f * (below->x[k] + row->x[c]), y - brick.y, 0.0f}};
            def.anchor_a = def.anchor_b = middle;
            if (!io_gen_joint(gen, &def))
                return false;
        }
    }
    return true;
}

/* Bricks along x in the x-y plane. running_bond: every odd row shifted by half a brick;
   triangular: each row one brick shorter, centred. weld: every brick is held to its neighbour
   in the row and to the bricks under it by fixed joints that break above break_force (N; 0:
   never), so the wall breaks into chunks rather than bricks. */
bool io_gen_wall(io_gen *gen)
{
    static const char *const keys[] = {"rows",    "columns", "brick",      "gap",
                                       "pattern", "weld",    "break_force"};
    static const char *const patterns[] = {"running_bond", "triangular"};
    int rows, columns, pattern;
    float gap, break_force;
    bool weld;
    vec3s brick;
    if (!io_gen_check_keys(gen, keys, 7) || !io_gen_int(gen, "rows", 1, 1000, 10, &rows) ||
        !io_gen_int(gen, "columns", 1, 1000, 10, &columns) ||
        !io_gen_vec3(gen, "brick", CAIRN_MIN_SIZE, CAIRN_MAX_SIZE, (vec3s){{0.5f, 0.25f, 0.25f}},
                     &brick) ||
        !io_gen_float(gen, "gap", 0.0f, CAIRN_MAX_SIZE, 0.0f, &gap) ||
        !io_gen_enum(gen, "pattern", patterns, 2, 0, &pattern) ||
        !io_gen_bool(gen, "weld", false, &weld) ||
        !io_gen_float(gen, "break_force", 0.0f, IO_MAX_FORCE, 0.0f, &break_force))
        return false;
    if (!weld && io_gen_has(gen, "break_force"))
        return io_fail(gen->reader, io_lookup(gen->params, "break_force"),
                       "%s.break_force is for welded walls: add weld: true", gen->what);
    cairn_shape *box;
    if (!io_gen_box(gen, brick, &box))
        return false;
    float pitch = 2.0f * brick.x + gap;
    float left = -0.5f * pitch * (float)(columns - 1);
    wall_row rows_kept[2]; /* this row and the one below */
    rows_kept[0].count = rows_kept[1].count = 0;
    bool ok = true;
    for (int row = 0; row < rows && ok; ++row) {
        wall_row *current = &rows_kept[row % 2], *below = &rows_kept[(row + 1) % 2];
        int count = pattern == 0 ? columns : columns - row;
        float shift = pattern == 0 ? ((row % 2) ? 0.5f * pitch : 0.0f) : 0.5f * pitch * (float)row;
        float y = brick.y + (2.0f * brick.y + gap) * (float)row;
        current->count = 0;
        for (int c = 0; c < count && ok; ++c) {
            float x = left + shift + pitch * (float)c;
            current->x[c] = x;
            ok = io_gen_emit_id(gen, box, (vec3s){{x, y, 0.0f}}, glms_quat_identity(),
                                &current->ids[c]);
            current->count = c + 1;
        }
        if (ok && weld)
            ok = weld_row(gen, current, row > 0 ? below : NULL, y, brick, pitch, break_force);
    }
    cairn_shape_release(box);
    return ok;
}

/* count copies of one shape straight up, resting on each other (gap between them). */
bool io_gen_stack(io_gen *gen)
{
    static const char *const keys[] = {"count", "shape", "gap"};
    int count;
    float gap;
    cairn_shape *shape;
    if (!io_gen_check_keys(gen, keys, 3) || !io_gen_int(gen, "count", 1, 10000, 10, &count) ||
        !io_gen_float(gen, "gap", 0.0f, CAIRN_MAX_SIZE, 0.0f, &gap) ||
        !io_gen_shape(gen, "shape", default_unit_box, &shape))
        return false;
    cairn_aabb bounds = cairn_shape_local_bounds(shape);
    float height = bounds.max.y - bounds.min.y;
    bool ok = true;
    for (int i = 0; i < count && ok; ++i) {
        float y = -bounds.min.y + (height + gap) * (float)i;
        ok = io_gen_emit(gen, shape, (vec3s){{0.0f, y, 0.0f}}, glms_quat_identity());
    }
    cairn_shape_release(shape);
    return ok;
}

/* Jenga: layers of blocks_per_layer blocks side by side, each layer turned 90 degrees about y. */
bool io_gen_tower(io_gen *gen)
{
    static const char *const keys[] = {"levels", "blocks_per_layer", "block", "gap"};
    int levels, per_layer;
    float gap;
    vec3s block;
    if (!io_gen_check_keys(gen, keys, 4) || !io_gen_int(gen, "levels", 1, 1000, 18, &levels) ||
        !io_gen_int(gen, "blocks_per_layer", 1, 100, 3, &per_layer) ||
        !io_gen_vec3(gen, "block", CAIRN_MIN_SIZE, CAIRN_MAX_SIZE, (vec3s){{0.75f, 0.15f, 0.25f}},
                     &block) ||
        !io_gen_float(gen, "gap", 0.0f, CAIRN_MAX_SIZE, 0.0f, &gap))
        return false;
    cairn_shape *box;
    if (!io_gen_box(gen, block, &box))
        return false;
    versors turned = io_rotation((vec3s){{0, 1, 0}}, 0.5f * IO_PI);
    float pitch = 2.0f * block.z + gap;
    bool ok = true;
    for (int level = 0; level < levels && ok; ++level) {
        float y = block.y + 2.0f * block.y * (float)level;
        for (int b = 0; b < per_layer && ok; ++b) {
            float across = pitch * ((float)b - 0.5f * (float)(per_layer - 1));
            if (level % 2 == 0)
                ok = io_gen_emit(gen, box, (vec3s){{0.0f, y, across}}, glms_quat_identity());
            else
                ok = io_gen_emit(gen, box, (vec3s){{across, y, 0.0f}}, turned);
        }
    }
    cairn_shape_release(box);
    return ok;
}

/* A static box centred on the origin, tilted by angle_degrees about z (positive: the +x end
   rises). */
bool io_gen_ramp(io_gen *gen)
{
    static const char *const keys[] = {"half_extents", "angle_degrees"};
    vec3s half;
    float angle;
    if (!io_gen_check_keys(gen, keys, 2) ||
        !io_gen_vec3(gen, "half_extents", CAIRN_MIN_SIZE, CAIRN_MAX_SIZE,
                     (vec3s){{5.0f, 0.25f, 3.0f}}, &half) ||
        !io_gen_float(gen, "angle_degrees", -89.0f, 89.0f, 20.0f, &angle))
        return false;
    cairn_shape *box;
    if (!io_gen_box(gen, half, &box))
        return false;
    gen->body.type = CAIRN_STATIC;
    bool ok = io_gen_emit(gen, box, glms_vec3_zero(),
                          io_rotation((vec3s){{0, 0, 1}}, angle * IO_PI / 180.0f));
    cairn_shape_release(box);
    return ok;
}

/* A static staircase going down towards +x: steps solid blocks, the top one (rise * steps high)
   from x = 0 to run, each next one rise lower and run further; width across z, centred. */
bool io_gen_stairs(io_gen *gen)
{
    static const char *const keys[] = {"steps", "run", "rise", "width"};
    int steps;
    float run, rise, width;
    if (!io_gen_check_keys(gen, keys, 4) || !io_gen_int(gen, "steps", 1, 1000, 10, &steps) ||
        !io_gen_float(gen, "run", CAIRN_MIN_SIZE, CAIRN_MAX_SIZE, 0.5f, &run) ||
        !io_gen_float(gen, "rise", CAIRN_MIN_SIZE, CAIRN_MAX_SIZE, 0.25f, &rise) ||
        !io_gen_float(gen, "width", CAIRN_MIN_SIZE, CAIRN_MAX_SIZE, 4.0f, &width))
        return false;
    gen->body.type = CAIRN_STATIC;
    bool ok = true;
    for (int k = 0; k < steps && ok; ++k) {
        float top = rise * (float)(steps - k);
        cairn_shape *box;
        if (!io_gen_box(gen, (vec3s){{0.5f * run, 0.5f * top, 0.5f * width}}, &box))
            return false;
        ok = io_gen_emit(gen, box, (vec3s){{run * ((float)k + 0.5f), 0.5f * top, 0.0f}},
                         glms_quat_identity());
        cairn_shape_release(box);
    }
    return ok;
}
