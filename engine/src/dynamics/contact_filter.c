/* Which broadphase pairs become contacts: the sensor rules, the body types, and the user's pair
   filter, asked when a pair starts (never inside the solver); and refiltering every pair when
   the filter changes. */
#include "dynamics/world_state.h"

#include "core/alloc.h"
#include "core/error.h"

#include <stdlib.h>

bool contact_wanted(const cairn_world *world, uint32_t a, uint32_t b)
{
    const body *ba = &world->bodies.data[a], *bb = &world->bodies.data[b];
    if (!ba->enabled || !bb->enabled)
        return false;
    if (ba->is_sensor && bb->is_sensor)
        return false; /* sensors never see each other */
    /* Without a sensor only a dynamic body can be pushed; a sensor sees any body that moves
       relative to it (static pairs never reach here). */
    bool sensor_pair = ba->is_sensor || bb->is_sensor;
    if (!sensor_pair && ba->type != CAIRN_DYNAMIC && bb->type != CAIRN_DYNAMIC)
        return false;
    if (!joints_allow_collision(world, a, b))
        return false;
    if (world->pair_filter == NULL)
        return true;
    return world->pair_filter(body_id_at(world, a), body_id_at(world, b),
                              world->pair_filter_context);
}

/* Whether the first `count` contacts (sorted) hold the pair. */
static bool has_contact(const cairn_world *world, broadphase_pair pair, int count)
{
    contact key = {.body_a = pair.a, .body_b = pair.b};
    return bsearch(&key, world->contacts.data, (size_t)count, sizeof(contact), contact_compare) !=
           NULL;
}

/* Pairs of the broadphase that the current rules accept but that have no contact yet. */
static int count_missing(const cairn_world *world)
{
    int missing = 0, cursor = 0;
    broadphase_pair pair;
    while (broadphase_pair_next(&world->broadphase, &cursor, &pair))
        missing += contact_wanted(world, pair.a, pair.b) &&
                   !has_contact(world, pair, world->contacts.count);
    return missing;
}

/* Drops the contacts the rules now reject (ending their touches), then adds contacts for pairs
   they now accept; the list stays sorted by body pair. Room is reserved first, so nothing
   changes when memory runs out. */
bool contacts_refilter(cairn_world *world)
{
    if (!contacts_unpark_all(world))
        return false;
    /* twice the missing count: room for the merge to copy them past the end */
    if (!array_reserve(&world->contacts, world->contacts.count + 2 * count_missing(world)))
        return false;
    int kept = 0;
    for (int i = 0; i < world->contacts.count; ++i) {
        contact *c = &world->contacts.data[i];
        if (contact_wanted(world, c->body_a, c->body_b))
            world->contacts.data[kept++] = *c;
        else
            contact_dispose(world, c);
    }
    world->contacts.count = kept;
    int cursor = 0;
    broadphase_pair pair;
    while (broadphase_pair_next(&world->broadphase, &cursor, &pair))
        if (contact_wanted(world, pair.a, pair.b) && !has_contact(world, pair, kept))
            world->contacts.data[world->contacts.count++] = contact_make(world, pair.a, pair.b);
    contacts_merge_sorted_tail(&world->contacts, kept);
    return true;
}

static bool involves(broadphase_pair pair, uint32_t body_index)
{
    return pair.a == body_index || pair.b == body_index;
}

/* Drops the body's contacts in arr that the rules now reject (ending their touches). */
static void drop_rejected(cairn_world *world, contact_array *contacts, uint32_t body_index)
{
    int kept = 0;
    for (int i = 0; i < contacts->count; ++i) {
        contact *c = &contacts->data[i];
        bool mine = c->body_a == body_index || c->body_b == body_index;
        if (mine && !contact_wanted(world, c->body_a, c->body_b))
            contact_dispose(world, c);
        else if (kept++ != i)
            contacts->data[kept - 1] = *c;
    }
    contacts->count = kept;
}

/* Whether the body's pair is wanted and has no contact, walked or parked (parked ones are few
   per body and in any order: a scan). */
static bool missing_for_body(const cairn_world *world, broadphase_pair pair, int sorted)
{
    if (!contact_wanted(world, pair.a, pair.b) || has_contact(world, pair, sorted))
        return false;
    for (int i = 0; i < world->parked.count; ++i)
        if (world->parked.data[i].body_a == pair.a && world->parked.data[i].body_b == pair.b)
            return false;
    return true;
}

bool contacts_refilter_body(cairn_world *world, uint32_t body_index)
{
    drop_rejected(world, &world->contacts, body_index);
    drop_rejected(world, &world->parked, body_index);
    int sorted = world->contacts.count, missing = 0, cursor = 0;
    broadphase_pair pair;
    while (broadphase_pair_next(&world->broadphase, &cursor, &pair))
        missing += involves(pair, body_index) && missing_for_body(world, pair, sorted);
    /* twice the missing count: room for the merge to copy them past the end */
    if (!array_reserve(&world->contacts, sorted + 2 * missing)) {
        world->refilter_pending = true; /* every pair at the next step instead */
        return false;
    }
    cursor = 0;
    while (broadphase_pair_next(&world->broadphase, &cursor, &pair))
        if (involves(pair, body_index) && missing_for_body(world, pair, sorted))
            world->contacts.data[world->contacts.count++] = contact_make(world, pair.a, pair.b);
    contacts_merge_sorted_tail(&world->contacts, sorted);
    return true;
}

static int compare_keys(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* Drops the contacts of arr whose pair the broadphase no longer has. */
static void drop_stale(cairn_world *world, contact_array *contacts)
{
    int kept = 0;
    for (int i = 0; i < contacts->count; ++i) {
        contact *c = &contacts->data[i];
        if (broadphase_pair_exists(&world->broadphase, c->body_a, c->body_b))
            contacts->data[kept++] = *c;
        else
            contact_dispose(world, c);
    }
    contacts->count = kept;
}

/* The parked contacts' pairs, sorted (they are kept in any order); *bytes for the free. */
static uint64_t *parked_keys(const cairn_world *world, size_t *bytes)
{
    int n = world->parked.count;
    *bytes = sizeof(uint64_t) * (size_t)(n > 0 ? n : 1);
    uint64_t *keys = mem_alloc(*bytes);
    if (keys == NULL)
        return NULL;
    for (int i = 0; i < n; ++i)
        keys[i] = pair_key(world->parked.data[i].body_a, world->parked.data[i].body_b);
    qsort(keys, (size_t)n, sizeof *keys, compare_keys);
    return keys;
}

/* Whether the pair is wanted and has no contact among the first `sorted` contacts (those in
   order: a binary search past them, into contacts just appended, would miss some) or parked. */
static bool missing(const cairn_world *world, broadphase_pair pair, const uint64_t *parked,
                    int sorted)
{
    uint64_t key = pair_key(pair.a, pair.b);
    return contact_wanted(world, pair.a, pair.b) && !has_contact(world, pair, sorted) &&
           !bsearch(&key, parked, (size_t)world->parked.count, sizeof key, compare_keys);
}

static int count_pending(const cairn_world *world, const uint64_t *parked)
{
    int count = 0, cursor = 0;
    broadphase_pair pair;
    while (broadphase_pair_next(&world->broadphase, &cursor, &pair))
        count += missing(world, pair, parked, world->contacts.count);
    return count;
}

bool contacts_reconcile(cairn_world *world)
{
    drop_stale(world, &world->contacts);
    drop_stale(world, &world->parked);
    size_t bytes;
    uint64_t *parked = parked_keys(world, &bytes);
    /* twice the missing count: room for the merge to copy them past the end */
    if (parked == NULL || !array_reserve(&world->contacts, world->contacts.count +
                                                               2 * count_pending(world, parked))) {
        mem_free(parked, bytes);
        world->refilter_pending = true;
        return error_set("cairn_world_restore: out of memory making the pending pairs' contacts");
    }
    int before = world->contacts.count, cursor = 0;
    broadphase_pair pair;
    while (broadphase_pair_next(&world->broadphase, &cursor, &pair))
        if (missing(world, pair, parked, before))
            world->contacts.data[world->contacts.count++] = contact_make(world, pair.a, pair.b);
    mem_free(parked, bytes);
    contacts_merge_sorted_tail(&world->contacts, before);
    return true;
}

bool cairn_world_set_pair_filter(cairn_world *world, cairn_pair_filter_fn *filter, void *context)
{
    if (!world_unlocked(world, "cairn_world_set_pair_filter"))
        return false;
    if (world == NULL)
        return error_set("cairn_world_set_pair_filter: world is NULL");
    cairn_pair_filter_fn *old_filter = world->pair_filter;
    void *old_context = world->pair_filter_context;
    world->pair_filter = filter;
    world->pair_filter_context = filter ? context : NULL;
    if (!contacts_refilter(world)) {
        world->pair_filter = old_filter;
        world->pair_filter_context = old_context;
        return error_set("cairn_world_set_pair_filter: out of memory while refiltering");
    }
    return true;
}
