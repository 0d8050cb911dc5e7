/* Incremental sweep-and-prune: proxies, sorted endpoint arrays per slot kept sorted by insertion
   sort with overlap bookkeeping at each swap, full rebuilds for batches, the flat-world guard. */
#include "broadphase/internal.h"
#include "core/alloc.h"
#include "core/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Design notes.
   - Endpoints are ordered by (value, min before max), which makes "overlap by order" the same as
     closed-interval overlap of the values. A record exists exactly for the filtered proxy pairs
     whose endpoints interleave on every sorted slot; each min/max swap flips one pair's state on
     one slot, so checking the other slots by endpoint index at the swap keeps that exact.
   - Flat-world guard: a slot whose world axis is thin (centres spread less than about two box
     widths, e.g. a 200 x 200 grid on a floor) is not sorted: there every interval overlaps every
     other, and bobbing bodies would swap past all n endpoints. Then the records hold the pairs
     overlapping on the two sorted axes and the third axis is checked when publishing; moved
     proxies re-queue their record partners because their thin-axis interval changed.
   - Statics are not sorted in (static_tree.c): moving bodies would otherwise swap past every
     resting static, so a mostly static world would cost O(statics crossed) per update. A
     dynamic-static pair is found by a tree query when the dynamic proxy moves or is created,
     and when a static is created or moved, by a query of the sorted dynamics.
   - Creates go in at the next update: a few by insertion from the end, many by a rebuild (sort
     each axis once, then one sweep), which is the batch insert. */

enum {
    REBUILD_CREATES = 32,   /* more pending creates than this: rebuild rather than insert */
    AXIS_CHECK_PERIOD = 256 /* updates between checks of the axis choice */
};

/* ---- endpoints ---- */

static inline bool ep_less(bp_endpoint a, bp_endpoint b)
{
    return a.value < b.value || (a.value == b.value && (a.id & 1u) < (b.id & 1u));
}

static inline uint32_t lo_at(const broadphase *bp, int s, uint32_t p)
{
    return bp->position[s].data[p << 1];
}

static inline uint32_t hi_at(const broadphase *bp, int s, uint32_t p)
{
    return bp->position[s].data[p << 1 | 1u];
}

/* Interleaved on every sorted slot (by endpoint index). */
static inline bool overlap_index(const broadphase *bp, uint32_t p, uint32_t q)
{
    for (int s = 0; s < bp->sorted_slots; s++) {
        const uint32_t *pos = bp->position[s].data;
        if (pos[p << 1] > pos[q << 1 | 1u] || pos[q << 1] > pos[p << 1 | 1u])
            return false;
    }
    return true;
}

/* A min of one proxy and a max of another just changed order: the pair may have changed. */
static inline void swap_event(broadphase *bp, uint32_t p, uint32_t q, bool add)
{
    bp_proxy *px = bp->proxies.data;
    /* the positions first: they are in a small array, and most crossings on one slot are apart
       on another, so the proxies themselves are seldom read */
    if (p == q || !overlap_index(bp, p, q) || !bp_filter(&px[p], &px[q]))
        return;
    if (add)
        record_add(bp, p, q, true);
    else
        record_remove(bp, p, q);
}

/* Moves endpoint i of slot s left to its place. The rest of the array must be sorted. */
static uint32_t sift_down(broadphase *bp, int s, uint32_t i)
{
    bp_endpoint *e = bp->axis[s].data;
    uint32_t *pos = bp->position[s].data;
    bp_endpoint cur = e[i];
    bool cur_max = cur.id & 1u;
    uint32_t p = cur.id >> 1;
    int swaps = 0;
    while (i > 0 && ep_less(cur, e[i - 1])) {
        bp_endpoint prev = e[i - 1];
        bool prev_max = prev.id & 1u;
        if (cur_max && !prev_max) { /* max of p passes min of q: the overlap on s ends */
            pos[cur.id] = i;
            swap_event(bp, p, prev.id >> 1, false);
        }
        e[i] = prev;
        pos[prev.id] = i--;
        if (!cur_max && prev_max) { /* min of p passes max of q: the overlap on s begins */
            pos[cur.id] = i;
            swap_event(bp, p, prev.id >> 1, true);
        }
        swaps++;
    }
    e[i] = cur;
    pos[cur.id] = i;
    bp->last_swaps += swaps;
    return i;
}

static uint32_t sift_up(broadphase *bp, int s, uint32_t i)
{
    bp_endpoint *e = bp->axis[s].data;
    uint32_t *pos = bp->position[s].data;
    uint32_t n = (uint32_t)bp->axis[s].count;
    bp_endpoint cur = e[i];
    bool cur_max = cur.id & 1u;
    uint32_t p = cur.id >> 1;
    int swaps = 0;
    while (i + 1 < n && ep_less(e[i + 1], cur)) {
        bp_endpoint next = e[i + 1];
        bool next_max = next.id & 1u;
        if (!cur_max && next_max) { /* min of p passes max of q: the overlap on s ends */
            pos[cur.id] = i;
            swap_event(bp, p, next.id >> 1, false);
        }
        e[i] = next;
        pos[next.id] = i++;
        if (cur_max && !next_max) { /* max of p passes min of q: the overlap on s begins */
            pos[cur.id] = i;
            swap_event(bp, p, next.id >> 1, true);
        }
        swaps++;
    }
    e[i] = cur;
    pos[cur.id] = i;
    bp->last_swaps += swaps;
    return i;
}

static void sift(broadphase *bp, int s, uint32_t i)
{
    sift_up(bp, s, sift_down(bp, s, i));
}

/* Sets the endpoint values of p on slot s and sorts them in, keeping p's min before its max. */
static void move_on_slot(broadphase *bp, int s, uint32_t p)
{
    bp_proxy *proxy = &bp->proxies.data[p];
    bp_endpoint *e = bp->axis[s].data;
    int axis = bp->axis_of_slot[s];
    float lo = proxy->min[axis], hi = proxy->max[axis];
    if (lo > e[lo_at(bp, s, p)].value) {
        e[hi_at(bp, s, p)].value = hi;
        sift(bp, s, hi_at(bp, s, p));
        e[lo_at(bp, s, p)].value = lo;
        sift(bp, s, lo_at(bp, s, p));
    } else {
        e[lo_at(bp, s, p)].value = lo;
        sift(bp, s, lo_at(bp, s, p));
        e[hi_at(bp, s, p)].value = hi;
        sift(bp, s, hi_at(bp, s, p));
    }
}

/* ---- the wide list (proxies too wide for the query window) ---- */

static void set_wide(broadphase *bp, uint32_t p, bool wide)
{
    bp_proxy *proxy = &bp->proxies.data[p];
    if (wide == ((proxy->flags & BP_WIDE) != 0))
        return;
    if (wide) {
        if (!array_push(&bp->wide, (int32_t)p)) {
            bp->broken = true;
            return;
        }
        proxy->wide_slot = bp->wide.count - 1;
        proxy->flags |= BP_WIDE;
    } else {
        int moved = array_remove_swap(&bp->wide, proxy->wide_slot);
        if (moved >= 0)
            bp->proxies.data[bp->wide.data[proxy->wide_slot]].wide_slot = proxy->wide_slot;
        proxy->wide_slot = -1;
        proxy->flags &= ~(uint32_t)BP_WIDE;
    }
}

static void refresh_wide(broadphase *bp, uint32_t p)
{
    const bp_proxy *proxy = &bp->proxies.data[p];
    int axis = bp->axis_of_slot[0];
    set_wide(bp, p, proxy->max[axis] - proxy->min[axis] > bp->wide_limit);
}

/* ---- axis choice ---- */

typedef struct axis_stats {
    double variance[3], width[3];
} axis_stats;

static axis_stats measure(const broadphase *bp)
{
    double sum[3] = {0}, sum2[3] = {0}, width[3] = {0};
    int n = 0;
    for (int i = 0; i < bp->proxies.count; i++) {
        const bp_proxy *p = &bp->proxies.data[i];
        if (p->flags & (BP_DEAD | BP_STATIC)) /* statics are not sorted */
            continue;
        n++;
        for (int a = 0; a < 3; a++) {
            double c = 0.5 * ((double)p->min[a] + (double)p->max[a]);
            sum[a] += c;
            sum2[a] += c * c;
            width[a] += (double)p->max[a] - (double)p->min[a];
        }
    }
    axis_stats st = {{0}, {0}};
    for (int a = 0; a < 3 && n > 0; a++) {
        double mean = sum[a] / n;
        st.variance[a] = fmax(sum2[a] / n - mean * mean, 0.0);
        st.width[a] = width[a] / n;
    }
    return st;
}

/* Slot order by decreasing spread; the last axis is left unsorted when it is thin: its centres
   spread less than `thin` mean widths. */
static void choose_axes(const axis_stats *st, double thin, int order[3], int *slots)
{
    order[0] = 0, order[1] = 1, order[2] = 2;
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (st->variance[order[j]] > st->variance[order[i]]) {
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
    int c = order[2];
    *slots = sqrt(st->variance[c]) < thin * st->width[c] ? 2 : 3;
}

/* Rarely: rebuild when the data has clearly changed shape (hysteresis of 2x on thinness). */
static bool axes_changed(const broadphase *bp)
{
    axis_stats st = measure(bp);
    int order[3], slots;
    choose_axes(&st, bp->sorted_slots == 2 ? 4.0 : 1.0, order, &slots);
    if (slots != bp->sorted_slots)
        return true;
    if (slots == 2 && order[2] != bp->axis_of_slot[2] &&
        st.variance[bp->axis_of_slot[2]] > 4.0 * st.variance[order[2]])
        return true;
    return st.variance[bp->axis_of_slot[0]] * 4.0 < st.variance[order[0]];
}

/* ---- pairs between dynamic and static proxies (found by queries, not by swaps) ---- */

typedef struct pairing {
    broadphase *bp;
    uint32_t p;
    bool queue;
    bool fresh; /* p has no record with any proxy the query can find: skip the lookup */
} pairing;

static void pair_found(void *context, const bp_proxy *found)
{
    pairing *c = context;
    broadphase *bp = c->bp;
    uint32_t q = (uint32_t)(found - bp->proxies.data);
    if (!bp_filter(&bp->proxies.data[c->p], found))
        return;
    if (!c->fresh && record_find(bp, c->p, q) >= 0)
        return;
    record_add(bp, c->p, q, c->queue);
}

/* Records of dynamic p with every static its fat AABB overlaps. fresh: p has no static record
   yet; otherwise the ones that no longer overlap are dropped first. */
static void pair_with_statics(broadphase *bp, uint32_t p, bool queue, bool fresh)
{
    if (bp->static_items.count == 0)
        return; /* no statics: nothing to find, nothing to drop */
    if (!fresh)
        record_drop_static_apart(bp, p);
    const bp_proxy *proxy = &bp->proxies.data[p];
    pairing c = {bp, p, queue, fresh};
    static_visit(bp, proxy->min, proxy->max, pair_found, &c);
    bp->last_static_queries++;
}

/* Moved statics leave the tree (with their records) and join the new ones in pending_statics;
   the lists of moved and created proxies keep only dynamics. */
static bool take_statics(broadphase *bp)
{
    array_clear(&bp->pending_statics);
    if (!array_reserve(&bp->pending_statics, bp->moved.count + bp->created.count))
        return false;
    int32_t *lists[2] = {bp->moved.data, bp->created.data};
    int *counts[2] = {&bp->moved.count, &bp->created.count};
    for (int l = 0; l < 2; l++) {
        int kept = 0;
        for (int k = 0; k < *counts[l]; k++) {
            uint32_t p = (uint32_t)lists[l][k];
            bp_proxy *proxy = &bp->proxies.data[p];
            if ((proxy->flags & (BP_STATIC | BP_DEAD)) != BP_STATIC) {
                lists[l][kept++] = (int32_t)p;
                continue;
            }
            record_remove_all(bp, p);
            static_forget(bp, p);
            proxy->flags &= ~(uint32_t)(BP_MOVED | BP_CREATED);
            bp->pending_statics.data[bp->pending_statics.count++] = (int32_t)p;
        }
        *counts[l] = kept;
    }
    return true;
}

/* The pending statics join the loose list, paired with the (settled) dynamics they overlap. */
static bool insert_statics(broadphase *bp)
{
    for (int k = 0; k < bp->pending_statics.count; k++) {
        uint32_t p = (uint32_t)bp->pending_statics.data[k];
        if (!static_append(bp, p))
            return false;
        const bp_proxy *proxy = &bp->proxies.data[p];
        pairing c = {bp, p, true, true};
        bp_visit_sorted(bp, proxy->min, proxy->max, pair_found, &c);
    }
    array_clear(&bp->pending_statics);
    return static_maybe_rebuild(bp);
}

/* ---- rebuild: sort once, sweep once ---- */

static int compare_endpoints(const void *x, const void *y)
{
    const bp_endpoint *a = x, *b = y;
    if (a->value != b->value)
        return a->value < b->value ? -1 : 1;
    if ((a->id & 1u) != (b->id & 1u))
        return (a->id & 1u) ? 1 : -1; /* min before max: touching intervals overlap */
    return (a->id > b->id) - (a->id < b->id);
}

static void free_dead(broadphase *bp)
{
    for (int i = 0; i < bp->proxies.count; i++) {
        bp_proxy *p = &bp->proxies.data[i];
        if ((p->flags & (BP_DEAD | BP_FREE)) == BP_DEAD) {
            p->flags = BP_DEAD | BP_FREE;
            (void)array_push(&bp->free_proxies, i); /* capacity kept >= proxies.capacity */
        }
    }
    bp->dead_count = 0;
}

static bool fill_slot(broadphase *bp, int s)
{
    if (!array_reserve(&bp->axis[s], 2 * bp->live_count))
        return false;
    bp_endpoint *e = bp->axis[s].data;
    int axis = bp->axis_of_slot[s], n = 0;
    for (int i = 0; i < bp->proxies.count; i++) {
        const bp_proxy *p = &bp->proxies.data[i];
        if (p->flags & (BP_DEAD | BP_STATIC))
            continue;
        e[n++] = (bp_endpoint){p->min[axis], (uint32_t)i << 1};
        e[n++] = (bp_endpoint){p->max[axis], (uint32_t)i << 1 | 1u};
    }
    bp->axis[s].count = n;
    if (n > 1)
        qsort(e, (size_t)n, sizeof *e, compare_endpoints);
    for (int i = 0; i < n; i++)
        bp->position[s].data[e[i].id] = (uint32_t)i;
    return true;
}

/* Records for every pair interleaved on slot 0 (the active list) and overlapping on the others. */
static bool sweep(broadphase *bp)
{
    if (!array_reserve(&bp->active_pos, bp->proxies.count) ||
        !array_reserve(&bp->active, bp->live_count))
        return false;
    array_clear(&bp->active);
    bp_proxy *px = bp->proxies.data;
    const bp_endpoint *e = bp->axis[0].data;
    int a1 = bp->axis_of_slot[1], a2 = bp->axis_of_slot[2];
    bool two = bp->sorted_slots == 2;
    for (int i = 0; i < bp->axis[0].count; i++) {
        uint32_t p = e[i].id >> 1;
        if (e[i].id & 1u) {
            int at = bp->active_pos.data[p];
            int moved = array_remove_swap(&bp->active, at);
            if (moved >= 0)
                bp->active_pos.data[bp->active.data[at].proxy] = at;
            continue;
        }
        /* slot 2's interval is widened to everything when only two slots are sorted */
        bp_active me = {{px[p].min[a1], two ? -INFINITY : px[p].min[a2]},
                        {px[p].max[a1], two ? INFINITY : px[p].max[a2]},
                        p};
        const bp_active *act = bp->active.data;
        for (int k = 0; k < bp->active.count; k++) {
            if (act[k].lo[0] > me.hi[0] || me.lo[0] > act[k].hi[0] || act[k].lo[1] > me.hi[1] ||
                me.lo[1] > act[k].hi[1])
                continue;
            uint32_t q = act[k].proxy;
            if (bp_filter(&px[p], &px[q]) && !record_add(bp, p, q, false))
                return false;
        }
        bp->active_pos.data[p] = bp->active.count;
        bp->active.data[bp->active.count++] = me;
    }
    return true;
}

static bool rebuild(broadphase *bp)
{
    bp->last_rebuilt = true;
    bp->needs_rebuild = false;
    bp->broken = false;
    bp->updates_since_axis_check = 0;
    free_dead(bp);
    for (int i = 0; i < bp->proxies.count; i++)
        bp->proxies.data[i].flags &= ~(uint32_t)(BP_MOVED | BP_CREATED | BP_WIDE);
    array_clear(&bp->moved);
    array_clear(&bp->created);
    array_clear(&bp->wide);
    array_clear(&bp->pending_statics);

    axis_stats st = measure(bp);
    choose_axes(&st, 2.0, bp->axis_of_slot, &bp->sorted_slots);
    bp->wide_limit = (float)fmax(4.0 * st.width[bp->axis_of_slot[0]], 1e-3);

    records_clear(bp);
    bool ok = true;
    for (int s = 0; s < 3; s++) {
        if (s < bp->sorted_slots)
            ok = ok && fill_slot(bp, s);
        else
            array_clear(&bp->axis[s]);
    }
    for (int i = 0; i < bp->proxies.count && ok; i++) {
        bp->proxies.data[i].wide_slot = -1; /* static_item too */
        if (!(bp->proxies.data[i].flags & (BP_DEAD | BP_STATIC)))
            refresh_wide(bp, (uint32_t)i);
    }
    ok = ok && static_build_all(bp) && !bp->broken && sweep(bp);
    for (int i = 0; i < bp->proxies.count && ok; i++)
        if (!(bp->proxies.data[i].flags & (BP_DEAD | BP_STATIC)))
            pair_with_statics(bp, (uint32_t)i, false, true);
    ok = ok && !bp->broken && publish_full(bp);
    if (!ok) {
        bp->broken = true;
        return error_set("broadphase: out of memory while rebuilding");
    }
    return true;
}

/* ---- incremental update ---- */

/* Drops the endpoints of destroyed proxies in one pass per slot. */
static void compact(broadphase *bp)
{
    for (int s = 0; s < bp->sorted_slots; s++) {
        bp_endpoint *e = bp->axis[s].data;
        int n = 0;
        for (int i = 0; i < bp->axis[s].count; i++) {
            if (bp->proxies.data[e[i].id >> 1].flags & BP_DEAD)
                continue;
            e[n] = e[i];
            bp->position[s].data[e[n].id] = (uint32_t)n;
            n++;
        }
        bp->axis[s].count = n;
    }
    free_dead(bp);
}

/* Sorting in the moves. Gives up (false) once the swaps exceed a budget worth a rebuild -- random
   teleports of many proxies make insertion sort quadratic. The records stay exact at every swap,
   so stopping halfway is safe: the caller rebuilds. */
static bool apply_moves(broadphase *bp)
{
    int slots = bp->sorted_slots;
    /* a rebuild costs about as much as this many swaps (sort, sweep, full diff) */
    int budget = 64 * bp->axis[0].count + 4096;
    /* Many moved: set every value, then one insertion-sort pass per slot (O(n + swaps)).
       Few moved: sift just their endpoints (O(moved + swaps)). */
    if (bp->moved.count * 16 > bp->axis[0].count / 2) {
        /* Teleports: each far jump costs about a third of the array per endpoint and slot.
           When that already exceeds the budget, rebuild without trying. */
        double far = 0, jump = 2.0 * (double)bp->wide_limit;
        int a0 = bp->axis_of_slot[0];
        for (int k = 0; k < bp->moved.count; k++) {
            uint32_t id = (uint32_t)bp->moved.data[k];
            const bp_proxy *p = &bp->proxies.data[id];
            if (!(p->flags & BP_DEAD) &&
                fabs(p->min[a0] - bp->axis[0].data[lo_at(bp, 0, id)].value) > jump)
                far += 1;
        }
        if (far * 2.0 * slots * (bp->axis[0].count / 3.0) > budget)
            return false;
        for (int k = 0; k < bp->moved.count; k++) {
            uint32_t id = (uint32_t)bp->moved.data[k];
            const bp_proxy *p = &bp->proxies.data[id];
            if (p->flags & BP_DEAD)
                continue;
            for (int s = 0; s < slots; s++) {
                bp->axis[s].data[lo_at(bp, s, id)].value = p->min[bp->axis_of_slot[s]];
                bp->axis[s].data[hi_at(bp, s, id)].value = p->max[bp->axis_of_slot[s]];
            }
        }
        for (int s = 0; s < slots; s++) {
            const bp_endpoint *e = bp->axis[s].data; /* sift_down does not reallocate */
            for (int i = 1; i < bp->axis[s].count; i++) {
                if (!ep_less(e[i], e[i - 1]))
                    continue; /* in order already: most endpoints, under coherent motion */
                sift_down(bp, s, (uint32_t)i);
                if (bp->last_swaps > budget)
                    return false;
            }
        }
    } else {
        for (int k = 0; k < bp->moved.count; k++) {
            uint32_t p = (uint32_t)bp->moved.data[k];
            if (bp->proxies.data[p].flags & BP_DEAD)
                continue;
            for (int s = 0; s < slots; s++)
                move_on_slot(bp, s, p);
            if (bp->last_swaps > budget)
                return false;
        }
    }
    for (int k = 0; k < bp->moved.count; k++) {
        uint32_t p = (uint32_t)bp->moved.data[k];
        bp_proxy *proxy = &bp->proxies.data[p];
        if (proxy->flags & BP_DEAD)
            continue;
        proxy->flags &= ~(uint32_t)BP_MOVED;
        if (slots == 2)
            record_queue_partners(bp, p);
        refresh_wide(bp, p);
        pair_with_statics(bp, p, true, false);
    }
    array_clear(&bp->moved);
    return true;
}

/* A few new proxies: append their endpoints (after everything, so they interleave with nothing),
   then let insertion sort move them in, the swaps creating their records. */
static bool insert_created(broadphase *bp)
{
    int slots = bp->sorted_slots;
    for (int s = 0; s < slots; s++)
        if (!array_reserve(&bp->axis[s], bp->axis[s].count + 2 * bp->created.count))
            return false;
    for (int k = 0; k < bp->created.count; k++) {
        uint32_t p = (uint32_t)bp->created.data[k];
        bp_proxy *proxy = &bp->proxies.data[p];
        if (proxy->flags & BP_DEAD)
            continue;
        for (int s = 0; s < slots; s++) {
            int axis = bp->axis_of_slot[s];
            bp_endpoint_array *e = &bp->axis[s];
            bp->position[s].data[p << 1] = (uint32_t)e->count;
            e->data[e->count++] = (bp_endpoint){proxy->min[axis], p << 1};
            bp->position[s].data[p << 1 | 1u] = (uint32_t)e->count;
            e->data[e->count++] = (bp_endpoint){proxy->max[axis], p << 1 | 1u};
        }
    }
    for (int k = 0; k < bp->created.count; k++) {
        uint32_t p = (uint32_t)bp->created.data[k];
        bp_proxy *proxy = &bp->proxies.data[p];
        if (proxy->flags & BP_DEAD)
            continue;
        for (int s = 0; s < slots; s++) {
            sift_down(bp, s, lo_at(bp, s, p));
            sift_down(bp, s, hi_at(bp, s, p));
        }
        proxy->flags &= ~(uint32_t)BP_CREATED;
        refresh_wide(bp, p);
        pair_with_statics(bp, p, true, true);
    }
    array_clear(&bp->created);
    return true;
}

bool broadphase_update_pairs(broadphase *bp)
{
    array_clear(&bp->added);
    array_clear(&bp->removed);
    bp->last_swaps = 0;
    bp->last_static_queries = 0;
    bp->last_rebuilt = false;
    if (++bp->updates_since_axis_check >= AXIS_CHECK_PERIOD) {
        bp->updates_since_axis_check = 0;
        bp->needs_rebuild = bp->needs_rebuild || axes_changed(bp);
    }
    if (bp->needs_rebuild || bp->broken)
        return rebuild(bp);
    if (!take_statics(bp) || bp->created.count > REBUILD_CREATES)
        return rebuild(bp);
    if (bp->dead_count > 0)
        compact(bp);
    if (!apply_moves(bp))
        return rebuild(bp);
    if (!insert_created(bp) || !insert_statics(bp))
        bp->broken = true;
    if (!publish_candidates(bp) || bp->broken) {
        bp->broken = true;
        return error_set("broadphase: out of memory during update (rebuilding next time)");
    }
    return true;
}
