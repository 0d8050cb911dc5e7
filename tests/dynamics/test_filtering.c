/* Collision filtering: bodies on layers masked from each other never touch (no begin event over
   a long random drop, and they pass through each other), while bodies that may meet do; the user
   pair filter likewise; changing a body's bits or the filter refilters pairs that exist. */
#include "scene_helpers.h"

#include <stdlib.h>

enum { DROP_BODIES = 40 };

static uint32_t next_random(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

static float random_in(uint32_t *state, float low, float high)
{
    return low + (high - low) * (float)(next_random(state) & 0xffff) / 65535.0f;
}

static cairn_body_id filtered_body(cairn_world *world, cairn_shape *shape, vec3s position,
                                   uint32_t layer, uint32_t mask)
{
    cairn_body_def def = cairn_body_default_def();
    def.transform = scene_at(position);
    def.shape = shape;
    def.layer = layer;
    def.mask = mask;
    cairn_body_id id = cairn_body_create(world, &def);
    cr_assert(!id_is_null(id), "%s", cairn_last_error());
    return id;
}

/* Layers of the drop: 1 the floor, 2 "red", 4 "blue". Red meets red and the floor, blue meets
   blue and the floor; red and blue never meet. */
static uint32_t drop_layer(int i)
{
    return i % 2 == 0 ? 2u : 4u;
}

typedef struct drop {
    cairn_world *world;
    cairn_body_id ids[DROP_BODIES];
    uint32_t layer_of_index[DROP_BODIES + 2]; /* by body index; 1 for the floor */
} drop;

/* A random pile dropped into a small pit, so the bodies crowd each other. */
static void make_drop(drop *d, bool use_bits)
{
    d->world = scene_default_world();
    cairn_body_id floor = scene_floor(d->world, 0.6f, 0.0f);
    memset(d->layer_of_index, 0, sizeof d->layer_of_index);
    cr_assert(floor.index < DROP_BODIES + 2);
    d->layer_of_index[floor.index] = 1u;
    cairn_shape *box = cairn_shape_box(v3(0.4f, 0.4f, 0.4f), SCENE_RADIUS);
    cairn_shape *ball = cairn_shape_sphere(0.4f);
    uint32_t seed = 12345u;
    for (int i = 0; i < DROP_BODIES; ++i) {
        vec3s p = v3(random_in(&seed, -1.5f, 1.5f), 1.0f + 0.9f * (float)i,
                     random_in(&seed, -1.5f, 1.5f));
        uint32_t layer = drop_layer(i);
        uint32_t mask = use_bits ? (layer | 1u) : ~0u;
        d->ids[i] = filtered_body(d->world, i % 3 ? box : ball, p, layer, mask);
        cr_assert(d->ids[i].index < DROP_BODIES + 2);
        d->layer_of_index[d->ids[i].index] = layer;
    }
    cairn_shape_release(box);
    cairn_shape_release(ball);
}

/* Steps the drop; counts begin events between same-layer bodies and between red and blue. */
static void run_drop(drop *d, int steps, int *same, int *crossed)
{
    *same = *crossed = 0;
    for (int n = 0; n < steps; ++n) {
        cairn_world_step(d->world, SCENE_DT);
        cairn_contact_events e = cairn_world_contact_events(d->world);
        for (int i = 0; i < e.begin_count; ++i) {
            uint32_t la = d->layer_of_index[e.begins[i].body_a.index];
            uint32_t lb = d->layer_of_index[e.begins[i].body_b.index];
            if (la == 1u || lb == 1u)
                continue;
            *same += la == lb;
            *crossed += la != lb;
        }
        cr_assert_eq(cairn_world_sensor_events(d->world).begin_count, 0);
    }
}

Test(filtering, masked_layers_never_touch_over_a_long_random_drop)
{
    drop d;
    make_drop(&d, true);
    int same, crossed;
    run_drop(&d, 600, &same, &crossed);
    cr_log_info("filtered drop: %d same-layer begins, %d red-blue begins", same, crossed);
    cr_expect_eq(crossed, 0, "%d begin events between masked layers", crossed);
    cr_expect(same > 10, "only %d same-layer touches: the drop does not crowd", same);
    cairn_world_destroy(d.world);
    /* The same drop without the bits: red and blue do meet, so the check above can fail. */
    make_drop(&d, false);
    run_drop(&d, 600, &same, &crossed);
    cr_log_info("unfiltered drop: %d same-layer begins, %d red-blue begins", same, crossed);
    cr_expect(crossed > 10, "only %d red-blue touches without filtering", crossed);
    cairn_world_destroy(d.world);
}

static bool reject_mixed_layers(cairn_body_id a, cairn_body_id b, void *context)
{
    const drop *d = context;
    uint32_t la = d->layer_of_index[a.index], lb = d->layer_of_index[b.index];
    return la == 1u || lb == 1u || la == lb;
}

Test(filtering, user_pair_filter_keeps_pairs_apart)
{
    drop d;
    make_drop(&d, false);
    cr_assert(cairn_world_set_pair_filter(d.world, reject_mixed_layers, &d));
    int same, crossed;
    run_drop(&d, 600, &same, &crossed);
    cr_expect_eq(crossed, 0, "%d begin events between pairs the filter rejects", crossed);
    cr_expect(same > 10, "only %d same-layer touches", same);
    cairn_world_destroy(d.world);
}

static bool reject_all(cairn_body_id a, cairn_body_id b, void *context)
{
    (void)a;
    (void)b;
    ++*(int *)context;
    return false;
}

/* A box resting on the floor: a filter installed later ends the touch at once and the box
   falls through; removing the filter brings the contact back. */
Test(filtering, installing_a_filter_refilters_existing_pairs)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id box = scene_box(world, v3(0, 0.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    cr_assert(cairn_body_set_allow_sleep(world, box, false));
    scene_step(world, 30);
    int calls = 0;
    cr_assert(cairn_world_set_pair_filter(world, reject_all, &calls));
    cr_expect(calls > 0, "the filter was not asked about the existing pair");
    cr_expect_eq(cairn_world_contact_events(world).end_count, 1, "the touch did not end");
    scene_step(world, 30); /* free fall for 0.5 s: 1.2 m */
    cr_expect(scene_position(world, box).y < -0.5f, "the box did not fall through");
    cr_assert(cairn_world_set_pair_filter(world, NULL, NULL));
    vec3s v0 = cairn_body_linear_velocity(world, box);
    cairn_world_step(world, SCENE_DT);
    vec3s v1 = cairn_body_linear_velocity(world, box);
    cr_expect(v1.y > v0.y, "the floor does not push once the filter is gone (%g -> %g)", v0.y,
              v1.y);
    cairn_world_destroy(world);
}

/* Changing the bits of a resting box: a mask without the floor's layer drops it through the
   floor (one end event); the default bits again stop it. */
Test(filtering, changing_the_bits_refilters_the_pair)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id box = scene_box(world, v3(0, 0.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    scene_step(world, 120);
    cr_assert(!cairn_body_is_awake(world, box));
    cr_assert(cairn_body_set_filter(world, box, 2u, 2u));
    cr_expect_eq(cairn_body_layer(world, box), 2u);
    cr_expect_eq(cairn_body_mask(world, box), 2u);
    cairn_world_step(world, SCENE_DT);
    cr_expect_eq(cairn_world_contact_events(world).end_count, 1);
    scene_step(world, 30);
    double y = scene_position(world, box).y;
    cr_expect(y < -0.5, "the box did not fall through the floor (y = %g)", y);
    /* Same bits again: the pair stays, no spurious end/begin. */
    cr_assert(cairn_body_set_filter(world, box, 1u, ~0u));
    cairn_world_step(world, SCENE_DT);
    cr_expect_eq(cairn_world_contact_events(world).begin_count, 1, "the floor pair came back");
    scene_step(world, 5);
    cr_assert(cairn_body_set_filter(world, box, 1u, ~0u));
    cairn_world_step(world, SCENE_DT);
    cairn_contact_events e = cairn_world_contact_events(world);
    cr_expect_eq(e.begin_count + e.end_count, 0, "re-applying the same bits restarted the touch");
    cairn_world_destroy(world);
}
