/* The viewer's contact-modification demo, run without a window: each of its three surfaces does
   what its callback says, measured against the motion it should give. */
#include "../../demos/viewer/surfaces_scene.h"

#include <criterion/criterion.h>
#include <math.h>

#define DT (1.0f / 60.0f)

typedef struct demo {
    surface_rules rules;
    cairn_world *world;
    cairn_body_id bodies[64];
    int body_count;
} demo;

static void demo_start(demo *d)
{
    cairn_world_def def = cairn_world_default_def();
    d->world = surfaces_scene_create(&def, &d->rules);
    cr_assert_not_null(d->world, "%s", cairn_last_error());
    d->body_count = cairn_world_bodies(d->world, d->bodies, 64);
}

/* The dynamic bodies in creation order: crates, then thrown balls, then the dropped ball. */
static cairn_body_id dynamic_body(const demo *d, int n)
{
    for (int i = 0; i < d->body_count; ++i)
        if (cairn_body_get_type(d->world, d->bodies[i]) == CAIRN_DYNAMIC && n-- == 0)
            return d->bodies[i];
    cr_assert_fail("no dynamic body %d", n);
    return (cairn_body_id){0, 0};
}

Test(surfaces, crates_ride_the_belt_at_its_speed)
{
    demo d;
    demo_start(&d);
    cairn_body_id first = dynamic_body(&d, 0);
    for (int n = 0; n < 90; ++n) /* 1.5 s: settled on the belt, 3 m from its end */
        cairn_world_step(d.world, DT);
    vec3s v = cairn_body_linear_velocity(d.world, first);
    cr_expect(fabsf(v.x - SURFACES_BELT_SPEED) <= 0.01f * SURFACES_BELT_SPEED,
              "crate at %.4f m/s, belt %.1f m/s", (double)v.x, (double)SURFACES_BELT_SPEED);
    cr_expect(fabsf(v.y) < 0.02f && fabsf(v.z) < 0.02f, "(%g %g %g)", (double)v.x, (double)v.y,
              (double)v.z);
    cairn_world_destroy(d.world);
}

Test(surfaces, thrown_balls_pass_up_through_the_platform_and_land_on_it)
{
    demo d;
    demo_start(&d);
    for (int n = 0; n < 300; ++n)
        cairn_world_step(d.world, DT);
    for (int i = 0; i < SURFACES_BALLS; ++i) {
        cairn_body_id ball = dynamic_body(&d, SURFACES_CRATES + i);
        cairn_transform x = cairn_body_transform(d.world, ball);
        float rest = SURFACES_PLATFORM_TOP + SURFACES_BALL_RADIUS;
        cr_expect(fabsf(x.position.y - rest) < 0.02f, "ball %d at y %.3f, resting would be %.3f", i,
                  (double)x.position.y, (double)rest);
        cr_expect(glms_vec3_norm(cairn_body_linear_velocity(d.world, ball)) < 0.05f,
                  "ball %d still moving", i);
    }
    cairn_world_destroy(d.world);
}

Test(surfaces, the_pad_throws_a_ball_back_to_its_height)
{
    demo d;
    demo_start(&d);
    cairn_body_id ball = dynamic_body(&d, SURFACES_CRATES + SURFACES_BALLS);
    float drop_y = cairn_body_transform(d.world, ball).position.y;
    bool fell = false, rose = false;
    float apex = -INFINITY;
    for (int n = 0; n < 180; ++n) { /* 3 s: down in 0.64 s, up again in as long */
        cairn_world_step(d.world, DT);
        float y = cairn_body_transform(d.world, ball).position.y;
        float vy = cairn_body_linear_velocity(d.world, ball).y;
        fell |= y < SURFACES_PAD_TOP + SURFACES_BALL_RADIUS + 0.05f;
        rose |= fell && vy > 0.0f;
        if (rose)
            apex = fmaxf(apex, y);
        if (rose && vy <= 0.0f)
            break; /* past the top of the bounce */
    }
    cr_assert(fell, "the ball never reached the pad");
    /* Restitution 1: back to the drop height, less the speculative and soft-contact losses. */
    cr_expect(fabsf(apex - drop_y) < 0.05f * SURFACES_DROP_HEIGHT,
              "apex %.3f m, dropped from %.3f m", (double)apex, (double)drop_y);
    cairn_world_destroy(d.world);
}
