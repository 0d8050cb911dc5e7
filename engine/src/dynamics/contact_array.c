/* The contact array, kept sorted by body pair (the solve order, and every determinism guarantee,
   rest on it): pairs the broadphase removed and added each step, and contacts merged back from
   outside the array (unparked, refiltered). A contact is 560 bytes and a large world holds tens
   of thousands: contacts move as blocks, each at most once per change. */
#include "dynamics/world_state.h"

#include "core/arena.h"

#include <stdlib.h>
#include <string.h>

/* Contacts [from, from + n) moved to to (the ranges may overlap); nothing when they are already
   there. */
static void move_run(contact *data, int to, int from, int n)
{
    if (to != from && n > 0)
        memmove(data + to, data + from, (size_t)n * sizeof *data);
}

/* The first of the sorted data[low, high) whose pair comes at or after (a, b), or strictly after
   it when `after`. */
static int first_from(const contact *data, int low, int high, uint32_t a, uint32_t b, bool after)
{
    while (low < high) {
        int middle = low + (high - low) / 2;
        int order = body_pair_order(data[middle].body_a, data[middle].body_b, a, b);
        if (order < 0 || (after && order == 0))
            low = middle + 1;
        else
            high = middle;
    }
    return low;
}

/* The first of data[0, end) that comes after key (the sorted runs keep an old contact before an
   added one of the same pair). */
static int first_after(const contact *data, int end, const contact *key)
{
    return first_from(data, 0, end, key->body_a, key->body_b, true);
}

/* data[0, count) in pair order: already so, as a rule (checked first), else sorted. */
static void sort_contacts(contact *data, int count)
{
    bool sorted = true;
    for (int i = 1; i < count && sorted; ++i)
        sorted = contact_compare(&data[i - 1], &data[i]) <= 0;
    if (!sorted)
        qsort(data, (size_t)count, sizeof *data, contact_compare);
}

void contacts_merge_sorted_tail(contact_array *contacts, int sorted_count)
{
    contact *data = contacts->data;
    int count = contacts->count, tail = count - sorted_count;
    if (tail == 0)
        return;
    CAIRN_ASSERT(contacts->capacity >= count + tail);
    sort_contacts(data + sorted_count, tail);
    if (sorted_count == 0 || contact_compare(&data[sorted_count - 1], &data[sorted_count]) <= 0)
        return; /* already in order */
    /* The tail goes past the end; then, from the back, each tail contact goes in after the run
       of sorted ones that come after it, moved as one block (a contact is 560 bytes: one
       memmove per run instead of a copy and a comparison per contact). */
    memcpy(data + count, data + sorted_count, (size_t)tail * sizeof(contact));
    int placed = count, unplaced = sorted_count;
    for (int j = count + tail - 1; j >= count; --j) {
        int run_start = first_after(data, unplaced, &data[j]);
        int run = unplaced - run_start;
        placed -= run;
        move_run(data, placed, run_start, run);
        unplaced = run_start;
        data[--placed] = data[j];
    }
}

static int compare_broadphase_pairs(const void *x, const void *y)
{
    const broadphase_pair *a = x, *b = y;
    return body_pair_order(a->a, a->b, b->a, b->b);
}

/* A removed pair can belong to a parked contact when a sleeping body's proxy went away (it was
   disabled): those are found by binary search in the sorted removed list. */
static void remove_parked_pairs(cairn_world *world, const broadphase_pair *removed, int count)
{
    int kept = 0;
    for (int i = 0; i < world->parked.count; ++i) {
        contact *c = &world->parked.data[i];
        broadphase_pair key = {c->body_a, c->body_b};
        if (bsearch(&key, removed, (size_t)count, sizeof key, compare_broadphase_pairs))
            contact_dispose(world, c);
        else
            world->parked.data[kept++] = *c;
    }
    world->parked.count = kept;
}

/* The contacts [start, start + count) of the array, to move by shift once the changes are made. */
typedef struct contact_run {
    int start, count, shift;
} contact_run;

/* Where the removed pairs' contacts are (removed_at: sorted, room for count): each found by
   binary search after the last, and disposed of. Returns how many were found. */
static int find_removed(cairn_world *world, const broadphase_pair *removed, int count,
                        int *removed_at)
{
    contact_array *contacts = &world->contacts;
    int found = 0;
    for (int k = 0, next = 0; k < count; ++k) {
        int at =
            first_from(contacts->data, next, contacts->count, removed[k].a, removed[k].b, false);
        if (at == contacts->count)
            break; /* no later pair has a contact either */
        contact *c = &contacts->data[at];
        if (c->body_a != removed[k].a || c->body_b != removed[k].b)
            continue;
        contact_dispose(world, c);
        removed_at[found++] = at;
        next = at + 1;
    }
    return found;
}

/* The contacts data[0, n) after dropping those at removed_at and putting staged[k] before
   data[insert_at[k]] (both sorted): each kept contact moves once, by the number of contacts
   added before it less those removed. Those moving down go first, from the front; those moving
   up then from the back (runs: room for one per change and one); neither ever lands on a
   contact not yet moved. The added ones then fill the gaps. */
static void apply_changes(contact *data, int n, const int *removed_at, int removed,
                          const int *insert_at, const contact *staged, int added, contact_run *runs)
{
    int r = 0, a = 0, run_count = 0;
    for (int start = 0; start < n;) {
        if (r < removed && removed_at[r] == start) {
            ++r;
            ++start;
            continue;
        }
        while (a < added && insert_at[a] <= start)
            ++a;
        int end = n;
        if (r < removed && removed_at[r] < end)
            end = removed_at[r];
        if (a < added && insert_at[a] < end)
            end = insert_at[a];
        int shift = a - r;
        if (shift < 0)
            move_run(data, start + shift, start, end - start);
        else if (shift > 0)
            runs[run_count++] = (contact_run){start, end - start, shift};
        start = end;
    }
    for (int k = run_count - 1; k >= 0; --k)
        move_run(data, runs[k].start + runs[k].shift, runs[k].start, runs[k].count);
    r = 0;
    for (int k = 0; k < added; ++k) {
        while (r < removed && removed_at[r] < insert_at[k])
            ++r;
        data[insert_at[k] + k - r] = staged[k];
    }
}

static bool update_pairs(cairn_world *world)
{
    /* A removed pair always has a moved, so awake, body: its contact is in the walked array. */
    if (!contacts_unpark(world))
        return false;
    int removed_count, added_count;
    const broadphase_pair *removed = broadphase_removed(&world->broadphase, &removed_count);
    const broadphase_pair *added = broadphase_added(&world->broadphase, &added_count);
    if (removed_count == 0 && added_count == 0)
        return true;
    contact_array *contacts = &world->contacts;
    int n = contacts->count;
    /* the new contacts are made past the room the array can grow into */
    if (!array_grow(contacts, n + 2 * added_count))
        return false;
    size_t changes = (size_t)removed_count + (size_t)added_count + 1;
    int *removed_at = arena_push(&world->scratch, sizeof(int) * changes, "pairs removed");
    int *insert_at = removed_at ? removed_at + removed_count : NULL;
    contact_run *runs = arena_push(&world->scratch, sizeof *runs * changes, "contact runs");
    if (!runs) {
        if (removed_at)
            arena_pop(&world->scratch, removed_at);
        return false;
    }
    int gone = find_removed(world, removed, removed_count, removed_at);
    /* Pairs without a contact (filtered, static) are not found either; the parked list is only
       searched when it could hold one. */
    if (gone < removed_count && world->parked.count > 0)
        remove_parked_pairs(world, removed, removed_count);
    contact *staged = contacts->data + n + added_count;
    int made = 0;
    for (int i = 0; i < added_count; ++i)
        if (contact_wanted(world, added[i].a, added[i].b))
            staged[made++] = contact_make(world, added[i].a, added[i].b);
    sort_contacts(staged, made); /* added pairs come sorted; kept so should that change */
    for (int k = 0; k < made; ++k)
        insert_at[k] = first_after(contacts->data, n, &staged[k]);
    apply_changes(contacts->data, n, removed_at, gone, insert_at, staged, made, runs);
    contacts->count = n - gone + made;
    arena_pop(&world->scratch, runs);
    arena_pop(&world->scratch, removed_at);
    return true;
}

bool contacts_update_pairs(cairn_world *world)
{
    bool updated = update_pairs(world);
    events_pay_owed(world);
    return updated;
}
