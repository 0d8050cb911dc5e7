/* Per-cell materials on heightfields (cairn_shape_heightfield_with_materials) against analytic
   answers: a box sliding on the ice half and on the rough half of one heightfield stops at
   v^2 / (2 mu g) with mu = sqrt(f_cell * f_box); a ball dropped on cells of different restitution
   rises to e^2 h with e = max(e_cell, e_ball); both triangles of a cell report the cell's
   material, next to holes too; ray hits report it; bad input is refused with its message and
   nothing leaked. The heightfield body's own friction and restitution are set far from the
   cells' so using them fails the tests. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "dynamics/scene_helpers.h"
#include "mesh/mesh_helpers.h"

static const float field_body_friction = 0.5f, field_body_restitution = 0.5f;

/* A flat grid of `cell` m cells, count_x by count_z samples at height 0, placed with its corner
   at `corner`: cells with x < split_x get material 0, the others material 1. */
typedef struct split_field {
    int count_x, count_z, split_x;
    float cell;
    vec3s corner;
} split_field;

static cairn_shape *split_field_shape(const split_field *f,
                                      const cairn_surface_material materials[2])
{
    int cells_x = f->count_x - 1, cells = cells_x * (f->count_z - 1);
    float *heights = calloc((size_t)(f->count_x * f->count_z), sizeof *heights);
    int *material = malloc((size_t)cells * sizeof *material);
    for (int c = 0; c < cells; ++c)
        material[c] = c % cells_x < f->split_x ? 0 : 1;
    cairn_shape *shape = cairn_shape_heightfield_with_materials(
        heights, f->count_x, f->count_z, v3(f->cell, 1, f->cell), material, materials, 2);
    free(heights);
    free(material);
    return shape;
}

static void add_split_field(cairn_world *world, const split_field *f,
                            const cairn_surface_material materials[2])
{
    scene_body_ex(world, split_field_shape(f, materials), CAIRN_STATIC, scene_at(f->corner), 1000,
                  field_body_friction, field_body_restitution, true);
}

/* 0.5 m cells over x in [-6, 6], z in [-8, 8]: ice left of x = 0, rough right of it. */
Test(heightfield_materials, a_box_stops_at_v2_over_2_mu_g_on_ice_and_on_rough_cells)
{
    const cairn_surface_material materials[2] = {{0.05f, 0.0f}, {0.9f, 0.0f}};
    const split_field field = {25, 33, 12, 0.5f, v3(-6, 0, -8)};
    const float box_friction = 1.0f, speed = 5.0f, start = -7.0f;
    cairn_world *world = scene_default_world();
    add_split_field(world, &field, materials);
    cairn_body_id boxes[2] = {mesh_sliding_box(world, -3.0f, box_friction),
                              mesh_sliding_box(world, 3.0f, box_friction)};
    for (int i = 0; i < 300; ++i)
        cairn_world_step(world, SCENE_DT);
    const char *names[2] = {"ice", "rough"};
    for (int k = 0; k < 2; ++k) {
        double mu = sqrt((double)materials[k].friction * box_friction);
        double expected = (double)speed * speed / (2.0 * mu * SCENE_G);
        double distance = cairn_body_transform(world, boxes[k]).position.z - start;
        double error = fabs(distance - expected) / expected;
        printf("heightfield %s (mu %.4f): slid %.4f m, expected %.4f m (error %.2f%%)\n", names[k],
               mu, distance, expected, 100.0 * error);
        /* 4 %: the semi-implicit step stops about v dt / 2 = 4 cm short of the continuous
           answer, 3 % of the rough distance */
        cr_expect_lt(error, 0.04, "%s: slid %g m, expected %g m", names[k], distance, expected);
        cr_expect_lt(glms_vec3_norm(cairn_body_linear_velocity(world, boxes[k])), 0.01f,
                     "%s: still moving", names[k]);
    }
    cairn_world_destroy(world);
}

/* 1 m cells over x in [-4, 4]: cells left of x = 0 have restitution 0.9, right of it 0.1. The
   balls have restitution 0.5, so the left one rebounds with 0.9 and the right one with its own
   0.5 (restitution combines as the larger of the two). */
Test(heightfield_materials, a_ball_rises_to_e2_h_with_the_cell_restitution)
{
    const cairn_surface_material materials[2] = {{0.5f, 0.9f}, {0.5f, 0.1f}};
    const split_field field = {9, 5, 4, 1.0f, v3(-4, 0, -2)};
    const float radius = 0.5f, drop = 2.0f, ball_restitution = 0.5f;
    cairn_world *world = scene_default_world();
    add_split_field(world, &field, materials);
    cairn_body_id balls[2] = {
        scene_sphere(world, v3(-2.0f, radius + drop, 0), radius, 1000, 0.5f, ball_restitution),
        scene_sphere(world, v3(2.0f, radius + drop, 0), radius, 1000, 0.5f, ball_restitution)};
    float peak[2] = {0, 0};
    bool bounced[2] = {false, false}, fell_again[2] = {false, false};
    for (int i = 0; i < 150; ++i) { /* the first rebound's apex, about 1.2 s after the drop */
        cairn_world_step(world, SCENE_DT);
        for (int k = 0; k < 2; ++k) {
            float y = cairn_body_transform(world, balls[k]).position.y - radius;
            float vy = cairn_body_linear_velocity(world, balls[k]).y;
            fell_again[k] = fell_again[k] || (bounced[k] && vy < 0.0f);
            bounced[k] = bounced[k] || vy > 0.0f;
            if (bounced[k] && !fell_again[k])
                peak[k] = fmaxf(peak[k], y);
        }
    }
    const char *names[2] = {"bouncy cells", "dull cells"};
    for (int k = 0; k < 2; ++k) {
        double e = fmax((double)materials[k].restitution, (double)ball_restitution);
        double expected = e * e * drop;
        double error = fabs(peak[k] - expected) / expected;
        printf("heightfield %s (e %.2f): rose to %.4f m, expected %.4f m (error %.2f%%)\n",
               names[k], e, (double)peak[k], expected, 100.0 * error);
        cr_expect(bounced[k], "%s: the ball never went up", names[k]);
        cr_expect_lt(error, 0.05, "%s: rose to %g m, expected %g m", names[k], (double)peak[k],
                     expected);
    }
    cairn_world_destroy(world);
}

/* 6 x 5 samples of 1 m cells (5 x 4 cells), cell (x, z) of material (x + 2 z) % 3, a hole at
   sample (2, 2): cells (1..2, 1..2) have no triangles. */
enum { HX = 6, HZ = 5, HCELLS = (HX - 1) * (HZ - 1) };
static const cairn_surface_material three[3] = {{0.1f, 0.0f}, {0.4f, 0.2f}, {0.8f, 0.6f}};

static int cell_material(int cell)
{
    int x = cell % (HX - 1), z = cell / (HX - 1);
    return (x + 2 * z) % 3;
}

static cairn_shape *holed_field(void)
{
    float heights[HX * HZ] = {0};
    heights[2 * HX + 2] = CAIRN_HEIGHTFIELD_HOLE;
    int material[HCELLS];
    for (int c = 0; c < HCELLS; ++c)
        material[c] = cell_material(c);
    return cairn_shape_heightfield_with_materials(heights, HX, HZ, v3(1, 1, 1), material, three, 3);
}

static bool cell_is_hole(int cell)
{
    int x = cell % (HX - 1), z = cell / (HX - 1);
    return (x == 1 || x == 2) && (z == 1 || z == 2);
}

Test(heightfield_materials, both_triangles_of_a_cell_report_its_material_next_to_holes_too)
{
    cairn_shape *field = holed_field();
    cr_assert_not_null(field, "%s", cairn_last_error());
    cr_assert_eq(cairn_shape_triangle_count(field), 2 * HCELLS);
    int holes = 0;
    for (int t = 0; t < 2 * HCELLS; ++t) {
        int cell = t / 2;
        vec3s corners[3];
        cr_expect_eq(cairn_shape_triangle(field, t, corners), !cell_is_hole(cell),
                     "triangle %d: existence", t);
        holes += cell_is_hole(cell);
        /* a removed cell keeps its material, as a dropped mesh triangle does */
        cr_expect_eq(cairn_shape_triangle_material(field, t), cell_material(cell),
                     "triangle %d (cell %d): material %d, expected %d", t, cell,
                     cairn_shape_triangle_material(field, t), cell_material(cell));
    }
    cr_expect_eq(holes, 8, "4 cells around the hole, 2 triangles each");
    cr_expect_eq(cairn_shape_triangle_material(field, 2 * HCELLS), -1);
    cr_expect_eq(cairn_shape_triangle_material(field, -1), -1);
    cairn_surface_material m;
    cr_expect(cairn_shape_mesh_material(field, 2, &m) && m.friction == three[2].friction &&
              m.restitution == three[2].restitution);
    cr_expect(!cairn_shape_mesh_material(field, 3, &m));
    cr_expect(!cairn_shape_mesh_material(field, -1, &m));
    cairn_shape_release(field);

    float flat[4] = {0, 0, 0, 0};
    cairn_shape *plain = cairn_shape_heightfield(flat, 2, 2, v3(1, 1, 1));
    cr_expect_eq(cairn_shape_triangle_material(plain, 0), -1);
    cr_expect(!cairn_shape_mesh_material(plain, 0, &m));
    cairn_shape_release(plain);
}

/* Straight down through each cell's two triangles (one point on each side of the diagonal from
   (x, z) to (x+1, z+1)): the hit's material is the cell's; through the hole nothing is hit. */
Test(heightfield_materials, ray_hits_report_the_cell_material)
{
    cairn_world *world = scene_default_world();
    vec3s corner = v3(10, 1, -3);
    scene_body_ex(world, holed_field(), CAIRN_STATIC, scene_at(corner), 1000, 0.5f, 0, true);
    for (int cell = 0; cell < HCELLS; ++cell) {
        float x = corner.x + (float)(cell % (HX - 1)), z = corner.z + (float)(cell / (HX - 1));
        const vec3s offsets[2] = {v3(0.25f, 0, 0.7f), v3(0.7f, 0, 0.25f)};
        for (int k = 0; k < 2; ++k) {
            vec3s origin = v3(x + offsets[k].x, 5, z + offsets[k].z);
            cairn_ray_hit hit;
            bool found = cairn_world_raycast(world, origin, v3(0, -10, 0), &hit);
            cr_expect_eq(found, !cell_is_hole(cell), "cell %d side %d: hit %d", cell, k, found);
            if (!found)
                continue;
            cr_expect_float_eq(hit.point.y, corner.y, 1e-4f);
            cr_expect_eq(hit.material, cell_material(cell),
                         "cell %d side %d: material %d, "
                         "expected %d",
                         cell, k, hit.material, cell_material(cell));
            cairn_ray_hit all[2];
            cr_assert_eq(
                cairn_world_raycast_all(world, origin, v3(0, -10, 0), CAIRN_QUERY_ALL, all, 2), 1);
            cr_expect_eq(all[0].material, cell_material(cell), "raycast_all, cell %d", cell);
        }
    }
    cairn_world_destroy(world);
}

/* One byte per cell while the materials fit in a byte, two up to 65536 materials, four beyond:
   the shape costs the plain heightfield plus the index array plus the material table, nothing
   more, and every index reads back whole. */
Test(heightfield_materials, cell_indices_take_one_byte_two_or_four)
{
    enum { CX = 21, CZ = 11, CELLS = (CX - 1) * (CZ - 1), MANY = 70000 };
    float heights[CX * CZ] = {0};
    cairn_surface_material *materials = malloc(MANY * sizeof *materials);
    int indices[CELLS];
    for (int i = 0; i < MANY; ++i)
        materials[i] = (cairn_surface_material){0.001f * (float)i, 0.0f};
    const struct {
        int material_count, bytes_per_cell;
    } cases[3] = {{2, 1}, {300, 2}, {MANY, 4}};
    size_t before = cairn_allocated_bytes();
    cairn_shape *plain = cairn_shape_heightfield(heights, CX, CZ, v3(1, 1, 1));
    size_t plain_bytes = cairn_allocated_bytes() - before;
    cairn_shape_release(plain);
    for (int k = 0; k < 3; ++k) {
        for (int c = 0; c < CELLS; ++c) /* spread over the whole range */
            indices[c] = (int)((long long)c * 7919 * 41 % cases[k].material_count);
        before = cairn_allocated_bytes();
        cairn_shape *field = cairn_shape_heightfield_with_materials(
            heights, CX, CZ, v3(1, 1, 1), indices, materials, cases[k].material_count);
        cr_assert_not_null(field, "%s", cairn_last_error());
        size_t extra = cairn_allocated_bytes() - before - plain_bytes;
        size_t expected = (size_t)CELLS * (size_t)cases[k].bytes_per_cell +
                          (size_t)cases[k].material_count * sizeof(cairn_surface_material);
        cr_expect_eq(extra, expected, "%d materials: %zu extra bytes, expected %zu",
                     cases[k].material_count, extra, expected);
        for (int c = 0; c < CELLS; ++c)
            cr_expect_eq(cairn_shape_triangle_material(field, 2 * c + 1), indices[c]);
        cairn_shape_release(field);
    }
    free(materials);
}

Test(heightfield_materials, bad_material_input_is_refused_with_its_message)
{
    const float h[12] = {0}; /* 4 x 3 samples: 3 x 2 cells */
    const vec3s one = v3(1, 1, 1);
    const int good[6] = {0, 1, 0, 1, 0, 1}, high[6] = {0, 1, 0, 1, 0, 2};
    const int negative[6] = {0, 1, 0, -1, 0, 1};
    const cairn_surface_material ok[2] = {{0.5f, 0.5f}, {1.0f, 0.0f}};
    const cairn_surface_material neg_friction[2] = {{0.5f, 0.5f}, {-0.1f, 0.0f}};
    const cairn_surface_material nan_friction[2] = {{NAN, 0.5f}, {1.0f, 0.0f}};
    const cairn_surface_material inf_friction[2] = {{INFINITY, 0.5f}, {1.0f, 0.0f}};
    const cairn_surface_material high_rest[2] = {{0.5f, 1.5f}, {1.0f, 0.0f}};
    const cairn_surface_material neg_rest[2] = {{0.5f, -0.1f}, {1.0f, 0.0f}};
    const cairn_surface_material nan_rest[2] = {{0.5f, NAN}, {1.0f, 0.0f}};
    const cairn_surface_material inf_rest[2] = {{0.5f, 0.5f}, {1.0f, INFINITY}};
    const cairn_surface_material high_rolling[2] = {{0.5f, 0.5f, 0.0f}, {1.0f, 0.0f, 2.0f}};
    const cairn_surface_material inf_rolling[2] = {{0.5f, 0.5f, INFINITY}, {1.0f, 0.0f, 0.0f}};
#define FIELD(indices, materials, count)                                                           \
    cairn_shape_heightfield_with_materials(h, 4, 3, one, indices, materials, count)
    REJECT(FIELD(high, ok, 2), "cairn_shape_heightfield_with_materials: material index of cell 5 "
                               "(x 2, z 1) = 2 is outside [0, 2)");
    REJECT(FIELD(negative, ok, 2), "material index of cell 3 (x 0, z 1) = -1 is outside [0, 2)");
    REJECT(FIELD(good, neg_friction, 2), "material 1 friction -0.1 is not finite and >= 0");
    REJECT(FIELD(good, nan_friction, 2), "material 0 friction nan is not finite");
    REJECT(FIELD(good, inf_friction, 2), "material 0 friction inf is not finite");
    REJECT(FIELD(good, high_rest, 2), "material 0 restitution 1.5 is outside [0, 1]");
    REJECT(FIELD(good, neg_rest, 2), "material 0 restitution -0.1 is outside [0, 1]");
    REJECT(FIELD(good, nan_rest, 2), "material 0 restitution nan is outside [0, 1]");
    REJECT(FIELD(good, inf_rest, 2), "material 1 restitution inf is outside [0, 1]");
    REJECT(FIELD(good, high_rolling, 2), "material 1 rolling_resistance 2 is outside [0, 1]");
    REJECT(FIELD(good, inf_rolling, 2), "material 0 rolling_resistance inf is outside [0, 1]");
    REJECT(FIELD(good, ok, 0), "material_count = 0 with materials given, at least 1 material");
    REJECT(FIELD(good, ok, -1), "material_count = -1 with materials given");
    REJECT(FIELD(good, NULL, 2), "material_count = 2 with materials NULL");
    REJECT(FIELD(NULL, ok, 2), "material_indices is NULL");
    /* the heightfield checks still come first */
    REJECT(cairn_shape_heightfield_with_materials(h, 1, 3, one, good, ok, 2), "count_x = 1");
    REJECT(cairn_shape_heightfield_with_materials(NULL, 4, 3, one, good, ok, 2), "heights is NULL");
    /* a grid of holes only is refused after its materials were checked: nothing leaks */
    const float holes[4] = {CAIRN_HEIGHTFIELD_HOLE, CAIRN_HEIGHTFIELD_HOLE, 0, 0};
    REJECT(cairn_shape_heightfield_with_materials(holes, 2, 2, one, good, ok, 2),
           "every cell touches a hole");
    cairn_shape *fine = FIELD(good, ok, 2);
    cr_expect_not_null(fine, "%s", cairn_last_error());
    cairn_shape_release(fine);
#undef FIELD
}
