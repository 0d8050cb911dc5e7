/* The terrain generator: demos/scenes/terrain.yaml is Jolt's ConvexVsMesh scene (a 20,000-triangle
   mesh whose vertices follow Jolt's formula, 21 x 21 columns of the four shapes in Jolt's places,
   friction 0.5 and restitution 0.6), a `material` overrides Jolt's values, and every bad
   parameter is an error at its own file:line:column. */
#define _POSIX_C_SOURCE 200809L
#include <cairn/io.h>

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define SCENES     CAIRN_SOURCE_DIR "/demos/scenes/"
#define MAX_BODIES 1800

typedef struct record {
    int count;
    cairn_body_def defs[MAX_BODIES];
    char names[MAX_BODIES][CAIRN_IO_NAME_CAPACITY];
} record;

static void keep(void *user, const cairn_scene_body *body)
{
    record *r = user;
    cr_assert_lt(r->count, MAX_BODIES);
    r->defs[r->count] = *body->def;
    snprintf(r->names[r->count], CAIRN_IO_NAME_CAPACITY, "%s", body->name);
    r->count++;
}

/* Loads the scene at path, recording every body; the world is returned for shape checks. */
static cairn_world *load(const char *path, record *r)
{
    memset(r, 0, sizeof *r);
    cairn_scene_options options = cairn_scene_default_options();
    options.on_body = keep;
    options.user = r;
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert(cairn_scene_load_ex(path, &options, &world, &err), "%s:%d:%d: %s", err.file, err.line,
              err.column, err.message);
    return world;
}

/* A scene file holding text, in /tmp, named after the process. */
static void write_scene(char *path, size_t capacity, const char *text)
{
    snprintf(path, capacity, "/tmp/cairn_terrain_generator_%d.yaml", (int)getpid());
    FILE *file = fopen(path, "w");
    cr_assert_not_null(file);
    fputs(text, file);
    fclose(file);
}

/* Jolt's vertex height, written out independently of the generator: 5 + 5 sin(x 50/100)
   cos(z 50/100) for grid indices x, z. */
static float jolt_height(int x, int z)
{
    return 5.0f + 5.0f * sinf((float)x * 0.5f) * cosf((float)z * 0.5f);
}

Test(terrain_generator, the_terrain_follows_jolts_formula_with_20000_triangles)
{
    static record r;
    cairn_world *world = load(SCENES "terrain.yaml", &r);
    cr_assert_eq(r.count, 1 + 21 * 21 * 4);
    cr_expect_str_eq(r.names[0], "terrain_0");
    cr_expect_eq(r.defs[0].type, CAIRN_STATIC);
    const cairn_shape *mesh = r.defs[0].shape;
    cr_assert_eq(cairn_shape_get_type(mesh), CAIRN_SHAPE_MESH);
    cr_expect_eq(cairn_shape_triangle_count(mesh), 20000);
    cr_expect_eq(cairn_mesh_dropped_count(mesh), 0);
    int checked = 0;
    for (int t = 0; t < 20000; t += 97) {
        vec3s corners[3];
        cr_assert(cairn_shape_triangle(mesh, t, corners));
        for (int k = 0; k < 3; ++k) {
            /* the grid index back from the position: x = 3 i - 150 */
            float fi = (corners[k].x + 150.0f) / 3.0f, fj = (corners[k].z + 150.0f) / 3.0f;
            int i = (int)lroundf(fi), j = (int)lroundf(fj);
            cr_expect_float_eq(fi, (float)i, 1e-4f);
            cr_expect_float_eq(fj, (float)j, 1e-4f);
            cr_expect_float_eq(corners[k].y, jolt_height(i, j), 1e-4f, "triangle %d corner %d", t,
                               k);
        }
        /* counter-clockwise seen from above: the normal points up */
        vec3s n = glms_vec3_cross(glms_vec3_sub(corners[1], corners[0]),
                                  glms_vec3_sub(corners[2], corners[0]));
        cr_expect_gt(n.y, 0.0f, "triangle %d faces down", t);
        checked++;
    }
    cr_expect_gt(checked, 200);
    cairn_world_destroy(world);
}

Test(terrain_generator, columns_of_four_shapes_in_jolts_places_and_material)
{
    static record r;
    cairn_world *world = load(SCENES "terrain.yaml", &r);
    static const cairn_shape_type kinds[4] = {CAIRN_SHAPE_BOX, CAIRN_SHAPE_SPHERE,
                                              CAIRN_SHAPE_CAPSULE, CAIRN_SHAPE_HULL};
    int n = 1;
    for (int x = -10; x <= 10; ++x)
        for (int y = 0; y < 4; ++y)
            for (int z = -10; z <= 10; ++z, ++n) {
                const cairn_body_def *d = &r.defs[n];
                cr_expect_float_eq(d->transform.position.x, 7.5f * (float)x, 1e-4f);
                cr_expect_float_eq(d->transform.position.y, 15.0f + 2.0f * (float)y, 1e-4f);
                cr_expect_float_eq(d->transform.position.z, 7.5f * (float)z, 1e-4f);
                cr_expect_eq(cairn_shape_get_type(d->shape), kinds[y], "body %d", n);
                cr_expect_eq(d->type, CAIRN_DYNAMIC);
            }
    for (int i = 0; i < r.count; ++i) {
        cr_expect_float_eq(r.defs[i].friction, 0.5f, 1e-6f, "%s", r.names[i]);
        cr_expect_float_eq(r.defs[i].restitution, 0.6f, 1e-6f, "%s", r.names[i]);
    }
    cairn_shape_params box = cairn_shape_get_params(r.defs[1].shape);
    cr_expect_float_eq(box.half_extents.x, 0.5f, 1e-6f);
    cr_expect_float_eq(box.half_extents.y, 0.75f, 1e-6f);
    cr_expect_float_eq(box.half_extents.z, 1.0f, 1e-6f);
    cr_expect_float_eq(cairn_shape_get_params(r.defs[1 + 21].shape).radius, 0.5f, 1e-6f);
    cairn_shape_params capsule = cairn_shape_get_params(r.defs[1 + 42].shape);
    cr_expect_float_eq(capsule.half_height, 0.75f, 1e-6f);
    cr_expect_float_eq(capsule.radius, 0.5f, 1e-6f);
    cr_expect_eq(cairn_hull_vertex_count(r.defs[1 + 63].shape), 5);
    cairn_world_destroy(world);
}

Test(terrain_generator, parameters_and_material_change_the_scene)
{
    char path[128];
    write_scene(path, sizeof path,
                "generators:\n"
                "  - terrain: { cells: 4, cell_size: 2, height: 0, count: 2, layers: 2,\n"
                "               spacing: 3, drop_height: 4, origin: [1, 2, 3],\n"
                "               material: { friction: 0.2 } }\n");
    static record r;
    cairn_world *world = load(path, &r);
    remove(path);
    cr_assert_eq(r.count, 1 + 2 * 2 * 8);
    cr_expect_eq(cairn_shape_triangle_count(r.defs[0].shape), 32);
    cairn_aabb flat = cairn_shape_local_bounds(r.defs[0].shape);
    cr_expect_float_eq(flat.min.x, -4.0f, 1e-5f);
    cr_expect_float_eq(flat.max.z, 4.0f, 1e-5f);
    cr_expect_float_eq(flat.max.y - flat.min.y, 0.0f, 1e-5f);
    /* the last body: column (1, 1), level 7 */
    vec3s last = r.defs[r.count - 1].transform.position;
    cr_expect_float_eq(last.x, 1.0f + 1.5f, 1e-5f);
    cr_expect_float_eq(last.y, 2.0f + 4.0f + 14.0f, 1e-5f);
    cr_expect_float_eq(last.z, 3.0f + 1.5f, 1e-5f);
    cr_expect_float_eq(r.defs[5].friction, 0.2f, 1e-6f);
    cr_expect_float_eq(r.defs[5].restitution, 0.6f, 1e-6f, "Jolt's restitution stays");
    cairn_world_destroy(world);
}

/* `terrain: { <parameter> }` must fail at line 3, the given column, with the message. */
static void expect_error(const char *parameter, int column, const char *message)
{
    char text[256], path[128];
    snprintf(text, sizeof text, "generators:\n  - terrain:\n      %s\n", parameter);
    write_scene(path, sizeof path, text);
    cairn_world *world = (cairn_world *)&path; /* must be reset to NULL */
    cairn_io_error err;
    bool loaded = cairn_scene_load(path, &world, &err);
    remove(path);
    cr_assert_not(loaded, "%s was accepted", parameter);
    cr_expect_null(world, "%s: a failed load returned a world", parameter);
    cr_expect_str_eq(err.message, message, "%s", parameter);
    cr_expect_eq(err.line, 3, "%s: line %d (%s)", parameter, err.line, err.message);
    cr_expect_eq(err.column, column, "%s: column %d (%s)", parameter, err.column, err.message);
    cr_expect_str_eq(err.file, path);
}

Test(terrain_generator, every_bad_parameter_is_an_error_at_its_place)
{
    expect_error("cells: 0", 14, "generators[0].terrain.cells = 0 is outside [1, 1000]");
    expect_error("cells: 1001", 14, "generators[0].terrain.cells = 1001 is outside [1, 1000]");
    expect_error("cells: 2.5", 14, "generators[0].terrain.cells must be an integer, got '2.5'");
    expect_error("cell_size: 0", 18, "generators[0].terrain.cell_size = 0 is outside [0.01, 1000]");
    expect_error("cell_size: [3]", 18,
                 "generators[0].terrain.cell_size must be a number, got a sequence");
    expect_error("height: -1", 15, "generators[0].terrain.height = -1 is outside [0, 1000]");
    expect_error("count: -1", 14, "generators[0].terrain.count = -1 is outside [0, 400]");
    expect_error("layers: 0", 15, "generators[0].terrain.layers = 0 is outside [1, 100]");
    expect_error("spacing: 0", 16, "generators[0].terrain.spacing = 0 is outside [0.0001, 10000]");
    expect_error("drop_height: .inf", 20,
                 "generators[0].terrain.drop_height = .inf is not a finite number");
    expect_error("cell: 3", 7,
                 "unknown key 'cell' in generators[0].terrain (did you mean 'cells'?)");
    expect_error("material: { friction: -1 }", 29,
                 "generators[0].terrain.material.friction = -1 is outside [0, 10]");
    expect_error("{ count: 400, layers: 100 }", 7,
                 "generators[0].terrain: count 400 and layers 100 make more than 200000 bodies");
}
