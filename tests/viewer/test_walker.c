/* The viewer's character mode (demos/viewer/walker.c) without a window: W walks the character
   along the view, Space jumps it off the ground, and it lands again. */
#include "../../demos/viewer/walker.h"

#include <SDL.h>
#include <criterion/criterion.h>
#include <string.h>

Test(walker, walks_where_the_camera_looks_and_jumps)
{
    cairn_world_def def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&def);
    cairn_body_def floor = cairn_body_default_def();
    floor.type = CAIRN_STATIC;
    floor.shape = cairn_shape_box((vec3s){{30, 1, 30}}, 0.0f);
    floor.transform.position = (vec3s){{0, -1, 0}};
    cairn_body_create(world, &floor);
    cairn_shape_release((cairn_shape *)floor.shape);
    camera cam = camera_default();
    cam.target = (vec3s){{0, 0, 0}};
    cam.yaw = 0.0f; /* looking towards -z */
    walker w = {0};
    cr_assert(walker_toggle(&w, world, &cam), "%s", cairn_last_error());
    unsigned char keys[SDL_NUM_SCANCODES];
    memset(keys, 0, sizeof keys);
    for (int n = 0; n < 10; ++n) { /* land */
        walker_step(&w, &cam, keys, 1.0f / 60.0f);
        cairn_world_step(world, 1.0f / 60.0f);
    }
    vec3s start = cairn_character_position(w.character);
    keys[SDL_SCANCODE_W] = 1;
    for (int n = 0; n < 60; ++n) {
        walker_step(&w, &cam, keys, 1.0f / 60.0f);
        cairn_world_step(world, 1.0f / 60.0f);
    }
    vec3s walked = glms_vec3_sub(cairn_character_position(w.character), start);
    vec3s forward = camera_forward(&cam);
    forward.y = 0.0f;
    forward = glms_vec3_normalize(forward);
    cr_expect(glms_vec3_dot(walked, forward) > 3.5f, "walked %.3f m along the view in 1 s",
              glms_vec3_dot(walked, forward));
    keys[SDL_SCANCODE_W] = 0;
    keys[SDL_SCANCODE_SPACE] = 1;
    float highest = 0.0f, ground = cairn_character_position(w.character).y;
    for (int n = 0; n < 90; ++n) {
        walker_step(&w, &cam, keys, 1.0f / 60.0f);
        keys[SDL_SCANCODE_SPACE] = 0;
        cairn_world_step(world, 1.0f / 60.0f);
        highest = fmaxf(highest, cairn_character_position(w.character).y - ground);
    }
    /* v^2 / 2g = 5.5^2 / 19.62 */
    cr_expect(highest > 1.4f && highest < 1.65f, "jumped %.3f m", highest);
    cr_expect(cairn_character_ground_state(w.character).on_ground, "landed");
    cr_expect(!walker_toggle(&w, world, &cam), "K again leaves the mode");
    cr_expect_null(w.character);
    cairn_world_destroy(world);
}
