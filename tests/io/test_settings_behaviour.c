/* Settings do what they claim: more velocity iterations hold a stack with less sag, and
   restitution in a scene file makes a ball bounce. Needs the full dynamics pipeline. */
#include <cairn/io.h>

#include <criterion/criterion.h>
#include <math.h>

#define DATA   CAIRN_SOURCE_DIR "/tests/io/data/"
#define SCENES CAIRN_SOURCE_DIR "/demos/scenes/"

typedef struct ids {
    int count;
    cairn_body_id id[64];
} ids;

static void keep(void *user, const cairn_scene_body *body)
{
    ids *list = user;
    if (list->count < 64)
        list->id[list->count++] = body->id;
}

static cairn_world *load(const char *scene, const char *settings, ids *list)
{
    cairn_scene_options options = cairn_scene_default_options();
    options.settings_path = settings;
    options.on_body = keep;
    options.user = list;
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert(cairn_scene_load_ex(scene, &options, &world, &err), "%s:%d:%d: %s", err.file,
              err.line, err.column, err.message);
    return world;
}

/* How far the top of a 20-box stack sits below where rigid boxes would put it, after 2 s. Only a
   measurable difference is asserted: which way it goes depends on the correction mode (soft
   contacts converge to their own, softer solution with more iterations). */
static float stack_sag(const char *settings)
{
    ids list = {0};
    cairn_world *world = load(SCENES "stack_20.yaml", settings, &list);
    for (int i = 0; i < 120; ++i)
        cairn_world_step(world, 1.0f / 60.0f);
    float top = cairn_body_transform(world, list.id[list.count - 1]).position.y;
    cairn_world_destroy(world);
    return 19.5f - top;
}

Test(settings_behaviour, velocity_iterations_change_the_settled_stack)
{
    float sag_1 = stack_sag(DATA "iterations_1.yaml");
    float sag_20 = stack_sag(DATA "iterations_20.yaml");
    cr_expect(fabsf(sag_1 - sag_20) > 1e-3f, "sag with 1 iteration %g, with 20 iterations %g",
              (double)sag_1, (double)sag_20);
}

/* Highest the ball's bottom gets after its first bounce. */
static float bounce_height(const char *scene)
{
    ids list = {0};
    cairn_world *world = load(scene, NULL, &list);
    cairn_body_id ball = list.id[1];
    bool bounced = false;
    float best = 0.0f;
    for (int i = 0; i < 240; ++i) {
        cairn_world_step(world, 1.0f / 60.0f);
        float vy = cairn_body_linear_velocity(world, ball).y;
        float y = cairn_body_transform(world, ball).position.y - 0.5f;
        if (vy > 0.1f)
            bounced = true;
        if (bounced && y > best)
            best = y;
    }
    cairn_world_destroy(world);
    return best;
}

Test(settings_behaviour, restitution_in_a_scene_changes_the_bounce)
{
    float dead = bounce_height(DATA "bounce_0.yaml");
    float lively = bounce_height(DATA "bounce_0.8.yaml");
    /* e = 0.8 from 2 m: about e^2 * 2 = 1.28 m; e = 0: no bounce to speak of */
    cr_expect_gt(lively, 0.8f, "bounce with e 0.8: %g m", (double)lively);
    cr_expect_lt(dead, 0.1f, "bounce with e 0: %g m", (double)dead);
}
