/* The pre-solve callback changes contacts for one step: a conveyor belt carries a box at its
   belt speed, a one-way platform lets a ball through from below and holds it from above, a pad
   made bouncy throws a ball back to its height, a disabled contact lets a ball fall through. */
#include "scene_helpers.h"

#include <string.h>

typedef struct rules {
    cairn_body_id special; /* the belt, platform, pad or trapdoor */
    vec3s belt_velocity;
    bool one_way, bouncy, trapdoor;
    int calls;
} rules;

static bool same(cairn_body_id a, cairn_body_id b)
{
    return a.index == b.index && a.generation == b.generation;
}

static void presolve(cairn_contact_modify *c, void *context)
{
    rules *r = context;
    r->calls++;
    bool special_is_a = same(c->body_a, r->special);
    if (!special_is_a && !same(c->body_b, r->special))
        return;
    if (!glms_vec3_eqv_eps(r->belt_velocity, glms_vec3_zero()))
        c->surface_velocity = special_is_a ? r->belt_velocity : glms_vec3_negate(r->belt_velocity);
    if (r->bouncy)
        c->restitution = 1.0f;
    if (r->trapdoor)
        c->enabled = false;
    if (r->one_way) {
        /* held only from above: the normal from the platform to the ball points up */
        float up = special_is_a ? c->normal.y : -c->normal.y;
        c->enabled = up > 0.5f;
    }
}

static cairn_world *world_with(rules *r)
{
    cairn_world *world = scene_default_world();
    cr_assert(cairn_world_set_presolve(world, presolve, r), "%s", cairn_last_error());
    return world;
}

Test(presolve, a_conveyor_carries_a_box_at_its_belt_speed)
{
    rules r = {.belt_velocity = v3(2.0f, 0, 0)};
    cairn_world *world = world_with(&r);
    r.special = scene_floor(world, 0.8f, 0.0f);
    cairn_body_id box = scene_body(world, cairn_shape_box(v3(0.3f, 0.3f, 0.3f), 0.02f),
                                   CAIRN_DYNAMIC, scene_at(v3(0, 0.3f, 0)), 1000.0f, 0.8f, 0.0f);
    for (int n = 0; n < 120; ++n)
        cairn_world_step(world, SCENE_DT);
    vec3s v = cairn_body_linear_velocity(world, box);
    cr_expect(fabsf(v.x - 2.0f) < 0.02f, "box at %.4f m/s, belt 2 m/s", v.x);
    cr_expect(fabsf(v.z) < 0.01f && fabsf(v.y) < 0.01f, "only along the belt: (%g %g %g)",
              (double)v.x, (double)v.y, (double)v.z);
    cr_expect(r.calls >= 100, "called %d times", r.calls);
    /* without the callback the floor is a floor again: the box stops */
    cr_assert(cairn_world_set_presolve(world, NULL, NULL));
    for (int n = 0; n < 120; ++n)
        cairn_world_step(world, SCENE_DT);
    cr_expect(fabsf(cairn_body_linear_velocity(world, box).x) < 0.01f, "still sliding at %g",
              (double)cairn_body_linear_velocity(world, box).x);
    cairn_world_destroy(world);
}

Test(presolve, a_bouncy_pad_throws_a_ball_back_up)
{
    float bounce[2];
    for (int bouncy = 0; bouncy < 2; ++bouncy) {
        rules r = {.bouncy = bouncy};
        cairn_world *world = world_with(&r);
        r.special = scene_floor(world, 0.5f, 0.0f);
        cairn_body_id ball = scene_body(world, cairn_shape_sphere(0.2f), CAIRN_DYNAMIC,
                                        scene_at(v3(0, 3.2f, 0)), 1000.0f, 0.5f, 0.0f);
        float highest = 0.0f;
        bool fell = false;
        for (int n = 0; n < 150; ++n) {
            cairn_world_step(world, SCENE_DT);
            float y = cairn_body_transform(world, ball).position.y;
            fell |= y < 0.21f; /* on the pad */
            if (fell)
                highest = fmaxf(highest, y);
        }
        bounce[bouncy] = highest - 0.2f; /* of the ball's bottom */
        cairn_world_destroy(world);
    }
    cr_expect(bounce[1] > 0.9f * 3.0f, "the pad threw it back to %.3f m of 3", bounce[1]);
    cr_expect(bounce[0] < 0.05f * 3.0f, "without it the ball bounced to %.3f m", bounce[0]);
}

Test(presolve, a_one_way_platform_lets_a_ball_through_from_below_only)
{
    rules r = {.one_way = true};
    cairn_world *world = world_with(&r);
    scene_floor(world, 0.5f, 0.0f);
    r.special = scene_body(world, cairn_shape_box(v3(2, 0.1f, 2), 0.0f), CAIRN_STATIC,
                           scene_at(v3(0, 2, 0)), 1000.0f, 0.5f, 0.0f);
    cairn_body_def def = cairn_body_default_def();
    def.shape = cairn_shape_sphere(0.2f);
    def.transform.position = v3(0, 0.5f, 0);
    def.linear_velocity = v3(0, 8, 0); /* rises to about 3.7 m, well above the platform */
    cairn_body_id ball = cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);
    float highest = 0.0f;
    for (int n = 0; n < 240; ++n) {
        cairn_world_step(world, SCENE_DT);
        highest = fmaxf(highest, cairn_body_transform(world, ball).position.y);
    }
    float y = cairn_body_transform(world, ball).position.y;
    cr_expect(highest > 3.0f, "the ball went up through it: highest %.3f", highest);
    cr_expect(fabsf(y - 2.3f) < 0.02f, "and rests on top: y %.3f, expected 2.3", y);
    cairn_world_destroy(world);
}

/* Two balls rest on two platforms; the one on the trapdoor falls through to the floor when its
   contact is disabled, the other stays. */
Test(presolve, a_disabled_contact_lets_a_ball_fall_through)
{
    rules r = {0};
    cairn_world *world = world_with(&r);
    scene_floor(world, 0.5f, 0.0f);
    r.special = scene_body(world, cairn_shape_box(v3(1, 0.1f, 1), 0.0f), CAIRN_STATIC,
                           scene_at(v3(0, 2, 0)), 1000.0f, 0.5f, 0.0f);
    scene_body(world, cairn_shape_box(v3(1, 0.1f, 1), 0.0f), CAIRN_STATIC, scene_at(v3(5, 2, 0)),
               1000.0f, 0.5f, 0.0f);
    cairn_body_id on_trapdoor = scene_body(world, cairn_shape_sphere(0.2f), CAIRN_DYNAMIC,
                                           scene_at(v3(0, 2.3f, 0)), 1000.0f, 0.5f, 0.0f);
    cairn_body_id held = scene_body(world, cairn_shape_sphere(0.2f), CAIRN_DYNAMIC,
                                    scene_at(v3(5, 2.3f, 0)), 1000.0f, 0.5f, 0.0f);
    for (int n = 0; n < 30; ++n)
        cairn_world_step(world, SCENE_DT);
    cr_assert(fabsf(cairn_body_transform(world, on_trapdoor).position.y - 2.3f) < 0.01f);
    r.trapdoor = true; /* sleeping contacts are not asked: wake the ball to open the door */
    cr_assert(cairn_body_set_awake(world, on_trapdoor, true));
    for (int n = 0; n < 90; ++n)
        cairn_world_step(world, SCENE_DT);
    cr_expect(fabsf(cairn_body_transform(world, on_trapdoor).position.y - 0.2f) < 0.01f,
              "fell to the floor: y %.3f", cairn_body_transform(world, on_trapdoor).position.y);
    cr_expect(fabsf(cairn_body_transform(world, held).position.y - 2.3f) < 0.01f,
              "the other stays: y %.3f", cairn_body_transform(world, held).position.y);
    cairn_world_destroy(world);
}

Test(presolve, bad_input)
{
    cr_expect(!cairn_world_set_presolve(NULL, presolve, NULL));
    cr_expect(strstr(cairn_last_error(), "world is NULL") != NULL);
}
