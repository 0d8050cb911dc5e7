/* Contact events: begin/end touch exactly once per touch, hits with the approach speed of a
   free fall, end events for destroyed bodies, and a deterministic order. */
#include "scene_helpers.h"

typedef struct event_count {
    int begins, ends, hits;
    float hit_speed;
} event_count;

static void count_events(const cairn_world *world, event_count *count)
{
    cairn_contact_events e = cairn_world_contact_events(world);
    count->begins += e.begin_count;
    count->ends += e.end_count;
    count->hits += e.hit_count;
    for (int i = 0; i < e.hit_count; ++i)
        count->hit_speed = e.hits[i].approach_speed;
}

/* A box whose bottom starts h = 2 m above the floor lands at sqrt(2 g h) = 6.26 m/s. */
Test(events, landing_begins_once_with_a_hit_at_the_fall_speed)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id box = scene_box(world, v3(0, 2.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    event_count count = {0};
    for (int n = 0; n < 180; ++n) {
        cairn_world_step(world, SCENE_DT);
        count_events(world, &count);
    }
    double expected = sqrt(2.0 * 9.81 * 2.0);
    cr_expect_eq(count.begins, 1, "begin events: %d", count.begins);
    cr_expect_eq(count.ends, 0, "end events: %d", count.ends);
    cr_expect_eq(count.hits, 1, "hit events: %d", count.hits);
    cr_expect(fabs(count.hit_speed - expected) < 0.05 * expected, "hit at %g m/s, expected %g",
              count.hit_speed, expected);
    /* Knocked up into the air: the touch ends, and begins again on landing. */
    cairn_body_apply_impulse(world, box, v3(0, 5000.0f, 0), scene_position(world, box));
    count = (event_count){0};
    for (int n = 0; n < 180; ++n) {
        cairn_world_step(world, SCENE_DT);
        count_events(world, &count);
    }
    cr_expect_eq(count.ends, 1, "end events after the jump: %d", count.ends);
    cr_expect_eq(count.begins, 1, "begin events after the jump: %d", count.begins);
    cairn_world_destroy(world);
}

Test(events, destroying_a_touching_body_ends_its_touch)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id box = scene_box(world, v3(0, 0.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    for (int n = 0; n < 30; ++n)
        cairn_world_step(world, SCENE_DT);
    cairn_body_destroy(world, box);
    cairn_contact_events e = cairn_world_contact_events(world);
    cr_assert_eq(e.end_count, 1);
    cr_expect(e.ends[0].body_b.index == box.index || e.ends[0].body_a.index == box.index);
    cairn_world_step(world, SCENE_DT);
    cr_expect_eq(cairn_world_contact_events(world).end_count, 0, "events clear at the next step");
    cairn_world_destroy(world);
}

/* The natural loop: walk the end events and destroy bodies on the way. Each destroy appends an
   end event; the events read before must stay where they were (under AddressSanitizer, reading
   them once moved is an error), and a fresh read holds every end, the first ones unchanged. */
Test(events, destroying_bodies_while_reading_the_events_keeps_them_valid)
{
    enum { BOXES = 40 };
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id boxes[BOXES];
    for (int i = 0; i < BOXES; ++i)
        boxes[i] = scene_box(world, v3(1.5f * (float)(i % 8), 0.5f, 1.5f * (float)(i / 8)),
                             v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    scene_step(world, 30);
    cairn_body_destroy(world, boxes[0]);
    cairn_contact_events read = cairn_world_contact_events(world);
    cr_assert_eq(read.end_count, 1);
    cairn_contact_end_event first = read.ends[0];
    for (int i = 1; i < BOXES; ++i) {
        cairn_body_destroy(world, boxes[i]);
        cr_assert(cairn_body_id_equal(read.ends[0].body_a, first.body_a) &&
                      cairn_body_id_equal(read.ends[0].body_b, first.body_b),
                  "the event read before destroy %d changed", i);
    }
    cairn_contact_events all = cairn_world_contact_events(world);
    cr_expect_eq(all.end_count, BOXES);
    cr_expect(cairn_body_id_equal(all.ends[0].body_a, first.body_a) &&
              cairn_body_id_equal(all.ends[0].body_b, first.body_b));
    cairn_world_destroy(world);
}

/* Three boxes landing in the same step report in body-pair order, and a resting box that
   never lifts off reports nothing more. */
Test(events, order_follows_body_pairs_and_resting_is_quiet)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    for (int i = 0; i < 3; ++i)
        scene_box(world, v3(3.0f * (float)(2 - i), 1.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    int begins_seen = 0, later_events = 0;
    for (int n = 0; n < 240; ++n) {
        cairn_world_step(world, SCENE_DT);
        cairn_contact_events e = cairn_world_contact_events(world);
        if (begins_seen > 0) {
            later_events += e.begin_count + e.end_count;
            continue;
        }
        for (int i = 1; i < e.begin_count; ++i) {
            const cairn_contact_begin_event *p = &e.begins[i - 1], *q = &e.begins[i];
            cr_expect(p->body_a.index < q->body_a.index ||
                          (p->body_a.index == q->body_a.index && p->body_b.index < q->body_b.index),
                      "begin events out of pair order");
        }
        begins_seen = e.begin_count;
    }
    cr_expect_eq(begins_seen, 3, "all three boxes begin touching in the same step");
    cr_expect_eq(later_events, 0, "resting boxes report no further events");
    cairn_world_destroy(world);
}

/* End events come from the pairs the broadphase removes (a box teleported away) and from the
   contacts that stop touching (a box lifted 15 cm, its pair still there); in one step they are
   reported in pair order all the same, as the API promises (found by the API scripts, plain
   seed 219, as a rollback whose replay listed the same ends in another order). */
Test(events, ends_from_every_source_come_in_pair_order)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id lifted = scene_box(world, v3(-2, 0.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    cairn_body_id moved = scene_box(world, v3(2, 0.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    scene_step(world, 30);
    cr_assert(cairn_body_set_transform(world, lifted, scene_at(v3(-2, 0.65f, 0))));
    cr_assert(cairn_body_set_transform(world, moved, scene_at(v3(2, 30, 0))));
    cairn_world_step(world, SCENE_DT);
    cairn_contact_events e = cairn_world_contact_events(world);
    cr_assert_eq(e.end_count, 2, "%d end events, not one per box", e.end_count);
    cr_expect(cairn_body_id_equal(e.ends[0].body_b, lifted) &&
                  cairn_body_id_equal(e.ends[1].body_b, moved),
              "end events out of pair order: the lifted box's pair comes first");
    cairn_world_destroy(world);
}
