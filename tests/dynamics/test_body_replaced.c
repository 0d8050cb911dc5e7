/* A body made in the slot of one destroyed since the last step (a game replacing an object: a
   crate swapped for its broken pieces, a pickup respawned). It reuses the index; the pairs the
   old body had must not pass for the new body's, or the new one gets no contacts and falls
   through what it was put on. Found by the API scripts (seed 507 of the retype scripts, as a
   rollback that differed: a restore rebuilt the contacts the live world had lost). */
#include "scene_helpers.h"

#include <stdlib.h>

#define HALF 0.3f

/* A floor and a box resting on it, with a second box on top: the stack's bottom box is the one
   replaced, so the new one has two partners (the floor, the box above). */
typedef struct stack {
    cairn_world *world;
    cairn_body_id bottom, top;
} stack;

static stack stack_make(void)
{
    stack s = {scene_default_world(), {0}, {0}};
    scene_floor(s.world, 0.6f, 0.0f);
    s.bottom = scene_box(s.world, v3(0, HALF, 0), v3(HALF, HALF, HALF), 1000.0f, 0.6f);
    s.top = scene_box(s.world, v3(0, 3 * HALF, 0), v3(HALF, HALF, HALF), 1000.0f, 0.6f);
    scene_step(s.world, 60);
    return s;
}

/* How the old bottom box goes: destroyed as it is, disabled first, or refiltered first (both
   replace or drop its proxy within the frame). */
enum { AS_IT_IS, DISABLED_FIRST, REFILTERED_FIRST, WAYS };
static const char *const way_names[WAYS] = {"as it is", "disabled first", "refiltered first"};

static cairn_body_id replace_bottom(stack *s, int way)
{
    cairn_transform at = cairn_body_transform(s->world, s->bottom);
    if (way == DISABLED_FIRST)
        cr_assert(cairn_body_set_enabled(s->world, s->bottom, false), "%s", cairn_last_error());
    if (way == REFILTERED_FIRST)
        cr_assert(cairn_body_set_filter(s->world, s->bottom, 2u, ~0u), "%s", cairn_last_error());
    cairn_body_destroy(s->world, s->bottom);
    cairn_body_id fresh = scene_box(s->world, at.position, v3(HALF, HALF, HALF), 1000.0f, 0.6f);
    cr_assert_eq(fresh.index, s->bottom.index, "the new box did not reuse the slot");
    cr_assert_neq(fresh.generation, s->bottom.generation);
    return fresh;
}

Test(body_replaced, a_box_made_where_one_was_destroyed_rests_and_holds_the_box_above)
{
    for (int way = 0; way < WAYS; ++way) {
        stack s = stack_make();
        cairn_body_id fresh = replace_bottom(&s, way);
        scene_step(s.world, 120);
        double bottom_y = scene_position(s.world, fresh).y;
        double top_y = scene_position(s.world, s.top).y;
        /* at rest the boxes sit on each other: centres at half and three halves, within the
           contact slop */
        cr_expect(fabs(bottom_y - HALF) < 0.01, "%s: the new box's centre at %.3f m, not %.3f",
                  way_names[way], bottom_y, (double)HALF);
        cr_expect(fabs(top_y - 3 * HALF) < 0.02, "%s: the box above at %.3f m, not %.3f",
                  way_names[way], top_y, 3.0 * HALF);
        cairn_world_destroy(s.world);
    }
}

/* Saved between the replacement and the next step: the restored world steps as the saved one
   did (a restore rebuilds the contacts of the pair set, which the live world had lost). */
Test(body_replaced, a_snapshot_taken_just_after_the_replacement_replays_the_same)
{
    stack s = stack_make();
    replace_bottom(&s, AS_IT_IS);
    size_t size = cairn_world_snapshot_size(s.world);
    void *saved = malloc(size);
    cr_assert(cairn_world_snapshot(s.world, saved, size), "%s", cairn_last_error());
    uint64_t played[10];
    for (int n = 0; n < 10; ++n) {
        cairn_world_step(s.world, SCENE_DT);
        played[n] = cairn_world_state_hash(s.world);
    }
    cr_assert(cairn_world_restore(s.world, saved, size), "%s", cairn_last_error());
    for (int n = 0; n < 10; ++n) {
        cairn_world_step(s.world, SCENE_DT);
        cr_expect_eq(cairn_world_state_hash(s.world), played[n], "step %d differs on replay", n);
    }
    free(saved);
    cairn_world_destroy(s.world);
}
