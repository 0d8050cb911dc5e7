/* Generators: bodies named `<generator>_<n>` in creation order, Jolt's pyramid placed exactly,
   seeded scatter reproducible, and every body field of the schema read. */
#include <cairn/io.h>

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#define DATA   CAIRN_SOURCE_DIR "/tests/io/data/"
#define SCENES CAIRN_SOURCE_DIR "/demos/scenes/"

#define MAX_BODIES 2100

typedef struct record {
    int count;
    char names[MAX_BODIES][CAIRN_IO_NAME_CAPACITY];
    cairn_body_def defs[MAX_BODIES];
    cairn_shape_type shapes[MAX_BODIES];
} record;

static void keep(void *user, const cairn_scene_body *body)
{
    record *r = user;
    cr_assert_lt(r->count, MAX_BODIES);
    snprintf(r->names[r->count], CAIRN_IO_NAME_CAPACITY, "%s", body->name);
    r->defs[r->count] = *body->def;
    r->shapes[r->count] = cairn_shape_get_type(body->def->shape);
    r->defs[r->count].shape = NULL;
    r->count++;
}

static record *load(const char *path, cairn_world_def *def_out)
{
    static record storage;
    memset(&storage, 0, sizeof storage);
    cairn_scene_options options = cairn_scene_default_options();
    options.on_body = keep;
    options.user = &storage;
    options.world_def = def_out;
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert(cairn_scene_load_ex(path, &options, &world, &err), "%s:%d:%d: %s", err.file, err.line,
              err.column, err.message);
    cairn_world_destroy(world);
    return &storage;
}

Test(generators, names_count_per_generator_across_the_scene)
{
    record *r = load(DATA "scene_names.yaml", NULL);
    static const char *const expected[] = {"floor",     "body_1",    "pyramid_0", "pyramid_1",
                                           "pyramid_2", "pyramid_3", "pyramid_4", "stack_0",
                                           "stack_1",   "stack_2",   "pyramid_5"};
    cr_assert_eq(r->count, 11);
    for (int i = 0; i < 11; ++i)
        cr_expect_str_eq(r->names[i], expected[i]);
}

Test(generators, pyramid_1240_matches_jolts_formula)
{
    record *r = load(SCENES "pyramid_1240.yaml", NULL);
    cr_assert_eq(r->count, 1241);
    int n = 1;
    for (int i = 0; i < 15; ++i)
        for (int j = i / 2; j < 15 - (i + 1) / 2; ++j)
            for (int k = i / 2; k < 15 - (i + 1) / 2; ++k, ++n) {
                vec3s p = r->defs[n].transform.position;
                float shift = (i & 1) ? 1.0f : 0.0f;
                cr_expect_float_eq(p.x, -15.0f + 2.0f * (float)j + shift, 1e-5f);
                cr_expect_float_eq(p.y, 1.0f + 2.5f * (float)i, 1e-5f);
                cr_expect_float_eq(p.z, -15.0f + 2.0f * (float)k + shift, 1e-5f);
                char name[32];
                snprintf(name, sizeof name, "pyramid_%d", n - 1);
                cr_expect_str_eq(r->names[n], name);
                cr_expect_not(r->defs[n].allow_sleep);
            }
    cr_expect_eq(n, 1241);
    cr_expect_float_eq(r->defs[0].transform.position.y, -1.0f, 1e-6f);
}

Test(generators, stack_rests_box_on_box)
{
    record *r = load(SCENES "stack_10.yaml", NULL);
    cr_assert_eq(r->count, 11);
    for (int i = 1; i < 11; ++i) {
        cr_expect_float_eq(r->defs[i].transform.position.y, 0.5f + (float)(i - 1), 1e-5f);
        cr_expect_eq(r->defs[i].type, CAIRN_DYNAMIC);
    }
}

Test(generators, rain_is_seeded_and_reproducible)
{
    record *r = load(SCENES "rain.yaml", NULL);
    int n = r->count;
    static vec3s first[MAX_BODIES];
    int kinds[5] = {0};
    for (int i = 0; i < n; ++i) {
        first[i] = r->defs[i].transform.position;
        kinds[r->shapes[i]]++;
    }
    for (int k = 0; k < 5; ++k)
        cr_expect_gt(kinds[k], 100, "shape type %d appears %d times", k, kinds[k]);
    r = load(SCENES "rain.yaml", NULL);
    cr_assert_eq(r->count, n);
    for (int i = 0; i < n; ++i)
        cr_expect(memcmp(&first[i], &r->defs[i].transform.position, sizeof first[i]) == 0);
}

Test(generators, dominoes_first_one_is_tipped)
{
    record *r = load(SCENES "dominoes.yaml", NULL);
    versors q0 = r->defs[1].transform.rotation, q1 = r->defs[2].transform.rotation;
    /* the first domino's up axis leans; the others stand upright */
    vec3s up0 = glms_quat_rotatev(q0, (vec3s){{0, 1, 0}});
    vec3s up1 = glms_quat_rotatev(q1, (vec3s){{0, 1, 0}});
    cr_expect_float_eq(up0.y, cosf(15.0f * 3.14159265f / 180.0f), 1e-4f);
    cr_expect_float_eq(up1.y, 1.0f, 1e-5f);
}

Test(generators, every_body_field_is_read)
{
    cairn_world_def def;
    record *r = load(DATA "scene_all_shapes.yaml", &def);
    cr_assert_eq(r->count, 5);
    cr_expect_eq(r->shapes[0], CAIRN_SHAPE_SPHERE);
    cr_expect_eq(r->shapes[1], CAIRN_SHAPE_BOX);
    cr_expect_eq(r->shapes[2], CAIRN_SHAPE_CAPSULE);
    cr_expect_eq(r->shapes[3], CAIRN_SHAPE_CYLINDER);
    cr_expect_eq(r->shapes[4], CAIRN_SHAPE_HULL);
    cr_expect_eq(r->defs[3].type, CAIRN_KINEMATIC);
    /* euler [0, 0, 90]: local +y turns to -x */
    vec3s axis = glms_quat_rotatev(r->defs[2].transform.rotation, (vec3s){{0, 1, 0}});
    cr_expect_float_eq(axis.x, -1.0f, 1e-5f);
    const cairn_body_def *h = &r->defs[4];
    cr_expect_float_eq(h->transform.rotation.y, 0.7071068f, 1e-5f);
    cr_expect_float_eq(h->linear_velocity.x, 1.0f, 1e-6f);
    cr_expect_float_eq(h->angular_velocity.y, 1.0f, 1e-6f);
    cr_expect_float_eq(h->density, 500.0f, 1e-3f);
    cr_expect_float_eq(h->friction, 0.3f, 1e-6f);
    cr_expect_float_eq(h->restitution, 0.5f, 1e-6f);
    cr_expect_not(h->allow_sleep);
    /* settings: the include (fast.yaml over default.yaml), then the scene's own */
    cr_expect_eq(def.solver.velocity_iterations, 6);
    cr_expect_eq(def.solver.substeps, 2);
}

Test(generators, override_settings_apply_over_the_scene)
{
    cairn_world_def def;
    cairn_scene_options options = cairn_scene_default_options();
    options.settings_path = DATA "preset_base.yaml";
    options.world_def = &def;
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert(cairn_scene_load_ex(DATA "scene_all_shapes.yaml", &options, &world, &err), "%s",
              err.message);
    cairn_world_destroy(world);
    cr_expect_eq(def.solver.velocity_iterations, 20); /* from the override */
    cr_expect_eq(def.solver.substeps, 2);             /* from the scene's include */
}
