/* The viewer's snapshot history (demos/viewer/history.c): stepping back restores the previous
   frame's state exactly, F5/F9 go back to a kept state, and a world that changed its bodies is
   refused with a reason instead of being restored. */
#include "../../demos/viewer/history.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

static cairn_world *world_of_boxes(void)
{
    cairn_world_def def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&def);
    cairn_body_def body = cairn_body_default_def();
    body.type = CAIRN_STATIC;
    body.shape = cairn_shape_box((vec3s){{10, 1, 10}}, 0.0f);
    body.transform.position = (vec3s){{0, -1, 0}};
    cairn_body_create(world, &body);
    cairn_shape_release((cairn_shape *)body.shape);
    body.type = CAIRN_DYNAMIC;
    body.shape = cairn_shape_box((vec3s){{0.3f, 0.3f, 0.3f}}, 0.02f);
    for (int i = 0; i < 8; ++i) {
        body.transform.position = (vec3s){{0.2f * (float)i, 1.0f + 0.7f * (float)i, 0}};
        cairn_body_create(world, &body);
    }
    cairn_shape_release((cairn_shape *)body.shape);
    return world;
}

Test(history, steps_back_and_returns_to_a_kept_state)
{
    static history h; /* large: a ring of snapshots */
    memset(&h, 0, sizeof h);
    cairn_world *world = world_of_boxes();
    uint64_t hashes[40];
    for (int n = 0; n < 40; ++n) {
        cairn_world_step(world, 1.0f / 60.0f);
        history_record(&h, world);
        hashes[n] = cairn_world_state_hash(world);
    }
    const char *why = NULL;
    for (int back = 1; back <= 10; ++back) {
        cr_assert(history_step_back(&h, world, &why), "%s", why);
        cr_expect_eq(cairn_world_state_hash(world), hashes[39 - back], "back %d", back);
    }
    cr_assert(history_save(&h, world, &why));
    uint64_t kept = cairn_world_state_hash(world);
    for (int n = 0; n < 30; ++n)
        cairn_world_step(world, 1.0f / 60.0f);
    cr_assert(history_load(&h, world, &why), "%s", why);
    cr_expect_eq(cairn_world_state_hash(world), kept);
    /* a body added since: the snapshots do not fit this world any more */
    cairn_body_def body = cairn_body_default_def();
    body.shape = cairn_shape_sphere(0.2f);
    cairn_body_create(world, &body);
    cairn_shape_release((cairn_shape *)body.shape);
    cr_expect(!history_load(&h, world, &why));
    cr_expect(why != NULL && strstr(why, "not its world") != NULL, "%s", why ? why : "(null)");
    history_clear(&h);
    cr_expect(!history_step_back(&h, world, &why));
    cr_expect(!history_load(&h, world, &why));
    cairn_world_destroy(world);
}
