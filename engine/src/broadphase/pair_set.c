/* The broadphase's pair bookkeeping: overlap records (proxy pairs linked into both proxies'
   lists) and the published pair set of body pairs with its per-update added/removed arrays. */
#include "broadphase/internal.h"
#include "core/error.h"
#include "core/sort.h"

/* A free record has proxy[0] == FREE_MARK and continues the free list through next[0]. */
#define FREE_MARK UINT32_MAX

static void queue(broadphase *bp, uint32_t p, uint32_t q)
{
    const bp_proxy *px = bp->proxies.data;
    bp_candidate c = {pair_key(px[p].body, px[q].body), p, q};
    if (!array_push(&bp->candidates, c))
        bp->broken = true;
}

/* Only records of two dynamic proxies are indexed: those are the ones the cells' sweep-axis
   swaps look up all the time. A dynamic-static record is looked up only when the dynamic's
   reach is renewed, and indexing them would make every such renewal churn the index. */
static bool indexed(const broadphase *bp, uint32_t p, uint32_t q)
{
    return !((bp->proxies.data[p].flags | bp->proxies.data[q].flags) & BP_STATIC);
}

bool record_add(broadphase *bp, uint32_t p, uint32_t q, bool queue_it)
{
    bool index_it = indexed(bp, p, q);
    if (index_it && !hash_set_reserve(&bp->record_index, hash_set_count(&bp->record_index) + 1)) {
        bp->broken = true;
        return false;
    }
    int32_t r = bp->free_record;
    if (r >= 0) {
        bp->free_record = bp->records.data[r].next[0];
    } else {
        if (!array_push(&bp->records, (bp_record){{0, 0}, 0, 0, {-1, -1}, {-1, -1}})) {
            bp->broken = true;
            return false;
        }
        r = bp->records.count - 1;
    }
    bp_record *rec = &bp->records.data[r];
    bp_proxy *px = bp->proxies.data;
    rec->shared = 0;
    rec->published = 0;
    uint32_t ends[2] = {p, q};
    for (int side = 0; side < 2; side++) {
        bp_proxy *owner = &px[ends[side]];
        rec->proxy[side] = ends[side];
        rec->prev[side] = -1;
        rec->next[side] = owner->pair_head;
        if (owner->pair_head >= 0) {
            bp_record *head = &bp->records.data[owner->pair_head];
            head->prev[head->proxy[0] == ends[side] ? 0 : 1] = r;
        }
        owner->pair_head = r;
        owner->degree++;
    }
    if (index_it)
        hash_set_put(&bp->record_index, pair_key(p, q), r); /* cannot fail: reserved above */
    bp->record_count++;
    if (queue_it)
        queue(bp, p, q);
    return true;
}

/* A list this short is walked: its few records cost less than the index's cache miss (sparse
   worlds). Longer ones (a dense pile: ~20) go through the index when the pair is indexed. */
enum { RECORD_WALK_MAX = 8 };

int32_t record_find(const broadphase *bp, uint32_t p, uint32_t q)
{
    const bp_proxy *px = bp->proxies.data;
    if (px[q].degree < px[p].degree) {
        uint32_t t = p;
        p = q;
        q = t;
    }
    if (px[p].degree > RECORD_WALK_MAX && indexed(bp, p, q))
        return hash_set_get(&bp->record_index, pair_key(p, q), -1);
    int32_t r = px[p].pair_head;
    while (r >= 0) {
        const bp_record *rec = &bp->records.data[r];
        int side = rec->proxy[0] == p ? 0 : 1;
        if (rec->proxy[1 - side] == q)
            return r;
        r = rec->next[side];
    }
    return -1;
}

/* Takes record r out of both proxies' lists and onto the free list (not out of the index). */
static void unlink_lists(broadphase *bp, int32_t r)
{
    bp_record *rec = &bp->records.data[r];
    for (int side = 0; side < 2; side++) {
        bp_proxy *owner = &bp->proxies.data[rec->proxy[side]];
        int32_t prev = rec->prev[side], next = rec->next[side];
        if (prev >= 0) {
            bp_record *pr = &bp->records.data[prev];
            pr->next[pr->proxy[0] == rec->proxy[side] ? 0 : 1] = next;
        } else {
            owner->pair_head = next;
        }
        if (next >= 0) {
            bp_record *nr = &bp->records.data[next];
            nr->prev[nr->proxy[0] == rec->proxy[side] ? 0 : 1] = prev;
        }
        owner->degree--;
    }
    rec->proxy[0] = FREE_MARK;
    rec->next[0] = bp->free_record;
    bp->free_record = r;
    bp->record_count--;
}

static void unlink_record(broadphase *bp, int32_t r)
{
    const bp_record *rec = &bp->records.data[r];
    if (indexed(bp, rec->proxy[0], rec->proxy[1]))
        hash_set_remove(&bp->record_index, pair_key(rec->proxy[0], rec->proxy[1]));
    unlink_lists(bp, r);
}

void record_unlink(broadphase *bp, int32_t r)
{
    const bp_record *rec = &bp->records.data[r];
    uint32_t p = rec->proxy[0], q = rec->proxy[1];
    bool published = rec->published != 0;
    unlink_record(bp, r);
    if (published)
        queue(bp, p, q);
}

void record_remove_all(broadphase *bp, uint32_t p)
{
    while (bp->proxies.data[p].pair_head >= 0) {
        int32_t r = bp->proxies.data[p].pair_head;
        bp_record *rec = &bp->records.data[r];
        uint32_t q = rec->proxy[rec->proxy[0] == p ? 1 : 0];
        unlink_record(bp, r);
        queue(bp, p, q);
    }
}

void record_queue_partners(broadphase *bp, uint32_t p)
{
    /* most partners of a moving proxy keep their state: queueing only the changed ones keeps
       the sort in publish_candidates small */
    const bp_proxy *px = bp->proxies.data;
    int32_t r = px[p].pair_head;
    while (r >= 0) {
        const bp_record *rec = &bp->records.data[r];
        int side = rec->proxy[0] == p ? 0 : 1;
        uint32_t q = rec->proxy[1 - side];
        if (bp_overlap_box(&px[p], px[q].min, px[q].max) != (rec->published != 0))
            queue(bp, p, q);
        r = rec->next[side];
    }
}

void broadphase_forget_body(broadphase *bp, uint32_t body, int proxy)
{
    const bp_proxy *px = bp->proxies.data;
    for (int32_t r = proxy >= 0 ? px[proxy].pair_head : -1; r >= 0;) {
        const bp_record *rec = &bp->records.data[r];
        int side = rec->proxy[0] == (uint32_t)proxy ? 0 : 1;
        hash_set_remove(&bp->pairs, pair_key(body, px[rec->proxy[1 - side]].body));
        r = rec->next[side];
    }
    /* the pairs of proxies it dropped since the last update (disabled, refiltered, retyped) wait
       among the queued candidates, which grow with every pair that changed since: scanned only
       for such a body, so that destroying many bodies at once does not scan them for each */
    bool dropped = false;
    for (int i = 0; i < bp->dead.count && !dropped; ++i)
        dropped = px[bp->dead.data[i]].body == body;
    for (int i = 0; dropped && i < bp->candidates.count; ++i) {
        const bp_candidate *c = &bp->candidates.data[i];
        if (px[c->p].body == body || px[c->q].body == body)
            hash_set_remove(&bp->pairs, c->key);
    }
}

static int32_t moved_link(const int32_t *moves, int32_t r)
{
    return r >= 0 ? moves[r] : -1;
}

/* Packs the live records at the front, in their order, when free slots outnumber them: the
   pass over every record below reads the free ones too, and a regrid (all dynamic records
   freed, then made again from the free list) or a chain swinging apart leaves many behind.
   Only indices change, and no record index is held across an update's phases. Out of memory:
   the records stay as they are. */
static void records_compact(broadphase *bp)
{
    int n = bp->records.count;
    if (n <= 2 * bp->record_count + 64 || !array_reserve(&bp->record_moves, n))
        return;
    int32_t *moves = bp->record_moves.data;
    bp_record *recs = bp->records.data;
    int32_t live = 0;
    for (int32_t r = 0; r < n; r++)
        moves[r] = recs[r].proxy[0] == FREE_MARK ? -1 : live++;
    for (int32_t r = 0; r < n; r++) {
        if (moves[r] < 0)
            continue;
        bp_record rec = recs[r];
        for (int side = 0; side < 2; side++) {
            rec.next[side] = moved_link(moves, rec.next[side]);
            rec.prev[side] = moved_link(moves, rec.prev[side]);
        }
        recs[moves[r]] = rec; /* moves[r] <= r: nothing unread is overwritten */
        if (indexed(bp, rec.proxy[0], rec.proxy[1])) /* the key is there: no growth */
            hash_set_put(&bp->record_index, pair_key(rec.proxy[0], rec.proxy[1]), moves[r]);
    }
    for (int i = 0; i < bp->proxies.count; i++)
        bp->proxies.data[i].pair_head = moved_link(moves, bp->proxies.data[i].pair_head);
    bp->records.count = live;
    bp->free_record = -1;
}

void records_queue_changed(broadphase *bp)
{
    records_compact(bp);
    const bp_proxy *px = bp->proxies.data;
    for (int r = 0; r < bp->records.count; r++) {
        const bp_record *rec = &bp->records.data[r];
        if (rec->proxy[0] == FREE_MARK)
            continue;
        const bp_proxy *p = &px[rec->proxy[0]], *q = &px[rec->proxy[1]];
        if (((p->flags | q->flags) & BP_MOVED) &&
            bp_overlap_box(p, q->min, q->max) != (rec->published != 0))
            queue(bp, rec->proxy[0], rec->proxy[1]);
    }
}

void record_drop_static_apart(broadphase *bp, uint32_t p)
{
    const bp_proxy *px = bp->proxies.data;
    int32_t r = px[p].pair_head;
    while (r >= 0) {
        const bp_record *rec = &bp->records.data[r];
        int side = rec->proxy[0] == p ? 0 : 1;
        uint32_t q = rec->proxy[1 - side];
        int32_t next = rec->next[side];
        if ((px[q].flags & BP_STATIC) && !bp_overlap_box(&px[q], px[p].reach_min, px[p].reach_max))
            record_unlink(bp, r);
        r = next;
    }
}

void records_clear_dynamic(broadphase *bp)
{
    const bp_proxy *px = bp->proxies.data;
    for (int32_t r = 0; r < bp->records.count; r++) {
        const bp_record *rec = &bp->records.data[r];
        if (rec->proxy[0] != FREE_MARK &&
            !((px[rec->proxy[0]].flags | px[rec->proxy[1]].flags) & BP_STATIC))
            unlink_lists(bp, r);
    }
    /* the index holds exactly these records: emptied at once, not key by key (each removal a
       probe, and the table shrinking step by step only to grow again as the cells refill) */
    hash_set_clear(&bp->record_index);
}

void records_clear(broadphase *bp)
{
    array_clear(&bp->records);
    hash_set_clear(&bp->record_index);
    bp->free_record = -1;
    bp->record_count = 0;
    for (int i = 0; i < bp->proxies.count; i++) {
        bp->proxies.data[i].pair_head = -1;
        bp->proxies.data[i].degree = 0;
    }
}

/* ---- publishing ---- */

/* Whether the proxy pair belongs in the published set now; remembers the answer in the record
   (publishing makes it true), so that moves can tell changes without a hash lookup. */
static bool pair_truth(broadphase *bp, uint32_t p, uint32_t q)
{
    const bp_proxy *px = bp->proxies.data;
    if ((px[p].flags | px[q].flags) & BP_DEAD)
        return false;
    int32_t r = record_find(bp, p, q);
    if (r < 0)
        return false;
    /* a dynamic record only says "interleaved on the sweep axis in a shared cell" */
    bool truth = bp_overlap_box(&px[p], px[q].min, px[q].max);
    bp->records.data[r].published = truth;
    return truth;
}

/* A strict total order on (key, p, q): the introsort gives the one order any sort gives (equal
   candidates, the same pair queued twice, are identical). */
static bool candidate_before(const bp_candidate *a, const bp_candidate *b)
{
    if (a->key != b->key)
        return a->key < b->key;
    if (a->p != b->p)
        return a->p < b->p;
    return a->q < b->q;
}

/* inlined comparisons: libc's qsort (a merge sort calling through a pointer) cost more than
   the comparisons themselves */
SORT_DEFINE(sort_candidates, bp_candidate, candidate_before)

static bool key_before(const uint64_t *a, const uint64_t *b)
{
    return *a < *b;
}

SORT_DEFINE(sort_keys, uint64_t, key_before)

static broadphase_pair pair_of(uint64_t key)
{
    return (broadphase_pair){(uint32_t)(key >> 32), (uint32_t)key};
}

/* Room for n more events and n more keys, so publishing itself cannot fail halfway. */
static bool reserve_events(broadphase *bp, int n)
{
    if (!array_reserve(&bp->added, bp->added.count + n) ||
        !array_reserve(&bp->removed, bp->removed.count + n) ||
        !hash_set_reserve(&bp->pairs, hash_set_count(&bp->pairs) + n)) {
        bp->broken = true;
        return false;
    }
    return true;
}

bool publish_candidates(broadphase *bp)
{
    bp_candidate *c = bp->candidates.data;
    int n = bp->candidates.count;
    if (n == 0)
        return true;
    if (!reserve_events(bp, n))
        return false;
    sort_candidates(c, n);
    for (int i = 0; i < n;) {
        uint64_t key = c[i].key;
        bool truth = false;
        for (; i < n && c[i].key == key; i++)
            truth = pair_truth(bp, c[i].p, c[i].q) || truth; /* each sets its flag */
        bool was = hash_set_contains(&bp->pairs, key);
        if (truth && !was) {
            hash_set_add(&bp->pairs, key);
            bp->added.data[bp->added.count++] = pair_of(key);
        } else if (!truth && was) {
            hash_set_remove(&bp->pairs, key);
            bp->removed.data[bp->removed.count++] = pair_of(key);
        }
    }
    array_clear(&bp->candidates);
    return true;
}

bool publish_full(broadphase *bp)
{
    bp_key_array *now = &bp->scratch_keys[0];
    bp_key_array *old = &bp->scratch_keys[1];
    array_clear(now);
    array_clear(old);
    array_clear(&bp->candidates);
    if (!array_reserve(now, bp->record_count) || !array_reserve(old, hash_set_count(&bp->pairs))) {
        bp->broken = true;
        return false;
    }
    const bp_proxy *px = bp->proxies.data;
    for (int r = 0; r < bp->records.count; r++) {
        bp_record *rec = &bp->records.data[r];
        if (rec->proxy[0] == FREE_MARK)
            continue;
        const bp_proxy *p = &px[rec->proxy[0]], *q = &px[rec->proxy[1]];
        rec->published = bp_overlap_box(p, q->min, q->max);
        if (rec->published)
            now->data[now->count++] = pair_key(p->body, q->body);
    }
    int cursor = 0;
    uint64_t key;
    while (hash_set_next(&bp->pairs, &cursor, &key))
        old->data[old->count++] = key;
    sort_keys(now->data, now->count);
    sort_keys(old->data, old->count);
    if (!reserve_events(bp, now->count + old->count))
        return false;
    int i = 0, j = 0;
    while (i < now->count || j < old->count) {
        if (j == old->count || (i < now->count && now->data[i] < old->data[j])) {
            hash_set_add(&bp->pairs, now->data[i]);
            bp->added.data[bp->added.count++] = pair_of(now->data[i++]);
        } else if (i == now->count || old->data[j] < now->data[i]) {
            hash_set_remove(&bp->pairs, old->data[j]);
            bp->removed.data[bp->removed.count++] = pair_of(old->data[j++]);
        } else {
            i++;
            j++;
        }
    }
    return true;
}

/* ---- the published set ---- */

const broadphase_pair *broadphase_added(const broadphase *bp, int *count)
{
    *count = bp->added.count;
    return bp->added.data;
}

const broadphase_pair *broadphase_removed(const broadphase *bp, int *count)
{
    *count = bp->removed.count;
    return bp->removed.data;
}

bool broadphase_pair_exists(const broadphase *bp, uint32_t body_a, uint32_t body_b)
{
    return body_a != body_b && hash_set_contains(&bp->pairs, pair_key(body_a, body_b));
}

int broadphase_pair_count(const broadphase *bp)
{
    return hash_set_count(&bp->pairs);
}

bool broadphase_pair_next(const broadphase *bp, int *cursor, broadphase_pair *pair)
{
    uint64_t key;
    if (!hash_set_next(&bp->pairs, cursor, &key))
        return false;
    *pair = pair_of(key);
    return true;
}
