/* Every scene of the demo catalogue loads, with the bodies it promises. */
#include <cairn/io.h>

#include <criterion/criterion.h>
#include <string.h>

#define SCENES CAIRN_SOURCE_DIR "/demos/scenes/"

typedef struct census {
    int total, dynamic, static_, no_sleep;
} census;

static void count_body(void *user, const cairn_scene_body *body)
{
    census *c = user;
    cr_expect_eq(body->index, c->total);
    c->total++;
    c->dynamic += body->def->type == CAIRN_DYNAMIC;
    c->static_ += body->def->type == CAIRN_STATIC;
    c->no_sleep += !body->def->allow_sleep;
}

static census load(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, SCENES "%s", name);
    census c = {0};
    cairn_scene_options options = cairn_scene_default_options();
    options.on_body = count_body;
    options.user = &c;
    cairn_world *world = NULL;
    cairn_io_error err;
    bool ok = cairn_scene_load_ex(path, &options, &world, &err);
    cr_assert(ok, "%s:%d:%d: %s", err.file, err.line, err.column, err.message);
    cr_expect_eq(cairn_world_body_count(world), c.total, "%s", name);
    cairn_world_destroy(world);
    return c;
}

static const struct {
    const char *name;
    int total, dynamic;
} catalogue[] = {
    {"default.yaml", 215, 214},
    {"stack_10.yaml", 11, 10},
    {"stack_20.yaml", 21, 20},
    {"pyramid_1240.yaml", 1241, 1240},
    {"wall.yaml", 121, 120},
    {"jenga.yaml", 55, 54},
    {"card_house.yaml", 27, 26},
    {"rain.yaml", 2005, 2000},
    {"dominoes.yaml", 201, 200},
    {"avalanche.yaml", 302, 300},
    {"smash.yaml", 102, 101},
    {"friction_ramp.yaml", 11, 9},
    {"restitution_row.yaml", 12, 11},
    {"mass_ratio.yaml", 7, 6},
    {"hull_junkyard.yaml", 513, 512},
    {"chain.yaml", 43, 42},
    {"bridge.yaml", 32, 29},
    {"cradle.yaml", 6, 5},
    {"car.yaml", 10, 8},
    {"ragdolls.yaml", 457, 440},
    {"breakable.yaml", 122, 121},
    {"mesh_ground.yaml", 34, 32},
    {"heightfield.yaml", 102, 100},
    {"terrain.yaml", 1765, 1764},
    {"mesh_level.yaml", 10, 9},
};

Test(scene_catalogue, every_scene_loads_with_its_body_count)
{
    for (size_t i = 0; i < sizeof catalogue / sizeof catalogue[0]; ++i) {
        census c = load(catalogue[i].name);
        cr_expect_eq(c.total, catalogue[i].total, "%s: %d bodies", catalogue[i].name, c.total);
        cr_expect_eq(c.dynamic, catalogue[i].dynamic, "%s: %d dynamic", catalogue[i].name,
                     c.dynamic);
    }
}

Test(scene_catalogue, pyramid_1240_is_jolts_scene_with_sleeping_off)
{
    census c = load("pyramid_1240.yaml");
    cr_expect_eq(c.dynamic, 1240);
    cr_expect_eq(c.static_, 1);
    cr_expect_eq(c.no_sleep, 1241, "every body has allow_sleep false");
}

Test(scene_catalogue, rain_is_about_two_thousand_mixed_shapes)
{
    census c = load("rain.yaml");
    cr_expect_geq(c.dynamic, 1900);
    cr_expect_leq(c.dynamic, 2100);
}
