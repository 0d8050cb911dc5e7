/* The contact array stays sorted by body pair as pairs come and go (the solve order, and with it
   every determinism guarantee, rests on it). The merge of new contacts is checked against a
   stable sort of the whole array; the array a world keeps is checked, step after step, against
   the broadphase's own pair set. */
#include "dynamics/world_state.h"
#include "random_values.h"
#include "scene_helpers.h"

#include <stdlib.h>
#include <string.h>

/* A whole number in [0, n). */
static uint32_t random_below(uint32_t *state, uint32_t n)
{
    return (uint32_t)uniform(state, 0.0f, (float)n);
}

/* A contact of the pair (a, b), tagged: friction holds its place in the input. */
static contact tagged(uint32_t a, uint32_t b, int tag)
{
    contact c;
    memset(&c, 0, sizeof c);
    c.body_a = a;
    c.body_b = b;
    c.friction = (float)tag;
    return c;
}

static int compare_tagged(const void *x, const void *y)
{
    int order = contact_compare(x, y);
    if (order != 0)
        return order;
    const contact *a = x, *b = y;
    return (a->friction > b->friction) - (a->friction < b->friction);
}

/* count contacts of random pairs among few bodies (so that pairs repeat), tags from first. */
static void random_pairs(uint32_t *r, contact *out, int count, int first_tag)
{
    for (int i = 0; i < count; ++i) {
        uint32_t a = random_below(r, 12), b = a + 1 + random_below(r, 12);
        out[i] = tagged(a, b, first_tag + i);
    }
}

/* The oracle: the sorted part before the tail, equal pairs in input order (qsort on the tag). */
Test(contact_order, merging_a_tail_gives_a_stable_sort_of_the_whole)
{
    uint32_t r = 15;
    for (int round = 0; round < 3000; ++round) {
        int sorted = (int)random_below(&r, 40), tail = (int)random_below(&r, 20);
        contact_array contacts = {0};
        cr_assert(array_reserve(&contacts, 2 * (sorted + tail) + 1));
        random_pairs(&r, contacts.data, sorted, 0);
        qsort(contacts.data, (size_t)sorted, sizeof(contact), compare_tagged);
        for (int i = 0; i < sorted; ++i)
            contacts.data[i].friction = (float)i; /* sorted ones before the tail's on ties */
        random_pairs(&r, contacts.data + sorted, tail, sorted);
        if (round % 2) /* the tail comes sorted (added pairs) or in any order (parked ones) */
            qsort(contacts.data + sorted, (size_t)tail, sizeof(contact), compare_tagged);
        contacts.count = sorted + tail;
        contact *expect = malloc(sizeof(contact) * (size_t)(sorted + tail + 1));
        memcpy(expect, contacts.data, sizeof(contact) * (size_t)(sorted + tail));
        qsort(expect, (size_t)(sorted + tail), sizeof(contact), compare_tagged);
        contacts_merge_sorted_tail(&contacts, sorted);
        cr_assert_eq(contacts.count, sorted + tail);
        for (int i = 0; i < sorted + tail; ++i) {
            const contact *got = &contacts.data[i], *want = &expect[i];
            cr_assert(got->body_a == want->body_a && got->body_b == want->body_b &&
                          got->friction == want->friction,
                      "round %d (%d sorted, %d tail): at %d (%u, %u) #%g, expected (%u, %u) #%g",
                      round, sorted, tail, i, got->body_a, got->body_b, (double)got->friction,
                      want->body_a, want->body_b, (double)want->friction);
        }
        free(expect);
        array_free(&contacts);
    }
}

/* Whether the world holds a contact (awake or parked) for the pair. */
static bool has_contact(const cairn_world *world, uint32_t a, uint32_t b)
{
    const contact_array *lists[] = {&world->contacts, &world->parked};
    for (int l = 0; l < 2; ++l)
        for (int i = 0; i < lists[l]->count; ++i)
            if (lists[l]->data[i].body_a == a && lists[l]->data[i].body_b == b)
                return true;
    return false;
}

/* The contacts the world keeps are its broadphase's wanted pairs, each once, sorted, and (when
   counted: nothing was parked since the narrow phase) the step's statistics count them. */
static void check_contacts(const cairn_world *world, int step, bool counted)
{
    const contact_array *walked = &world->contacts;
    for (int i = 1; i < walked->count; ++i)
        cr_assert(contact_compare(&walked->data[i - 1], &walked->data[i]) < 0,
                  "step %d: contacts %d and %d are out of order or repeated", step, i - 1, i);
    int wanted = 0, cursor = 0;
    broadphase_pair pair;
    while (broadphase_pair_next(&world->broadphase, &cursor, &pair)) {
        uint32_t a = pair.a < pair.b ? pair.a : pair.b, b = pair.a ^ pair.b ^ a;
        if (!contact_wanted(world, a, b))
            continue;
        ++wanted;
        cr_assert(has_contact(world, a, b), "step %d: the pair (%u, %u) has no contact", step, a,
                  b);
    }
    /* The step's counts, taken by the narrow phase's workers, against a count of the array. */
    int touching = 0, points = 0;
    for (int i = 0; i < walked->count; ++i) {
        touching += walked->data[i].touching;
        for (int m = 0; m < contact_manifold_count(&walked->data[i]); ++m)
            points += contact_manifold_const(&walked->data[i], m)->point_count;
    }
    cairn_step_stats stats = cairn_world_step_stats(world);
    cr_assert(!counted || (stats.contacts == touching && stats.points == points),
              "step %d: the step counted %d contacts, %d points; the array holds %d, %d", step,
              stats.contacts, stats.points, touching, points);
    cr_assert_eq(walked->count + world->parked.count, wanted,
                 "step %d: %d contacts and %d parked for %d wanted pairs", step, walked->count,
                 world->parked.count, wanted);
}

/* A box, a sphere or a capsule, in turn (each body owns its own). */
static cairn_shape *random_shape(int i)
{
    switch (i % 3) {
    case 0:
        return cairn_shape_box(v3(0.4f, 0.4f, 0.4f), SCENE_RADIUS);
    case 1:
        return cairn_shape_sphere(0.4f);
    default:
        return cairn_shape_capsule(0.3f, 0.3f);
    }
}

/* Shapes rain onto the floor and are shaken and thinned out: pairs are added and removed at
   every step, at random places in the array, and parked when their bodies sleep. */
static void rain(bool allow_sleep)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.5f, 0.0f);
    uint32_t r = 7;
    enum { BODIES = 300 };
    cairn_body_id bodies[BODIES];
    for (int i = 0; i < BODIES; ++i)
        bodies[i] =
            scene_body_ex(world, random_shape(i), CAIRN_DYNAMIC,
                          scene_at(v3(uniform(&r, -4, 4), 1 + 0.3f * (float)i, uniform(&r, -4, 4))),
                          1000.0f, 0.5f, 0.0f, allow_sleep);
    for (int step = 0; step < 400; ++step) {
        if (step % 40 == 39) /* shake a tenth of the bodies, destroy one */
            for (int i = (int)random_below(&r, 10); i < BODIES; i += 10)
                if (cairn_body_is_valid(world, bodies[i]))
                    cairn_body_set_linear_velocity(world, bodies[i],
                                                   v3(uniform(&r, -5, 5), 6, uniform(&r, -5, 5)));
        if (step % 50 == 25)
            cairn_body_destroy(world, bodies[random_below(&r, BODIES)]);
        cairn_world_step(world, SCENE_DT);
        /* The narrow phase counts the array of its time: asleep, bodies can fall asleep later
           in the step and their contacts be parked. */
        check_contacts(world, step, !allow_sleep);
    }
    cr_expect_gt(world->contacts.count + world->parked.count, 200, "the pile touches");
    if (allow_sleep)
        cr_expect_gt(world->parked.count, 0, "some of it sleeps");
    cairn_world_destroy(world);
}

Test(contact_order, a_world_keeps_its_broadphase_pairs_sorted)
{
    rain(true);
}

Test(contact_order, the_step_counts_every_contact_and_point)
{
    rain(false);
}
