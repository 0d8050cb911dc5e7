/* Incremental sweep-and-prune, orchestrated: pending creates, destroys and moves applied to the
   grid of cells (cells.c), statics to their tree (static_tree.c), regrids for batches and
   teleports, then publishing. */
#include "broadphase/internal.h"
#include "core/alloc.h"
#include "core/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Design notes.
   - Multi-box pruning (cells.c): one sorted sweep per cell of a grid over the two widest axes,
     so coherent motion costs O(n + swaps) with a bounded number of swaps per moving proxy. The
     sweep axis is the thinnest spread, which is also the flat-world guard: in a 200 x 200 grid
     of boxes on a floor every interval overlaps on the thin axis, but only within a cell of a
     few boxes. Records say "interleaved on the sweep axis in a shared cell"; the other two axes
     are checked when publishing, and moved proxies re-queue their record partners.
   - Statics are not in the cells (static_tree.c): moving bodies would otherwise swap past every
     resting static, so a mostly static world would cost O(statics crossed) per update. A
     dynamic proxy finds its statics by a tree query with its reach (its fat AABB grown), and
     its moves skip the query while the reach still holds the fat AABB; a static that is
     created or moved finds the reaches it enters by a query of the sorted dynamics.
   - Creates go in at the next update: a few by entering their cells, many by a regrid (sort
     each cell once, then one sweep each), which is the batch insert. Many proxies jumping to
     cells they did not touch (teleports) also regrid, and so do proxies drifting out of the
     grid and a grid that no longer fits (checked now and again, and when many proxies cross
     cell borders at once). A regrid leaves the statics alone; only the first update (and
     recovery from running out of memory) rebuilds everything. */

enum {
    REBUILD_CREATES = 32,   /* more pending creates than this: regrid rather than insert */
    FIRST_AXIS_CHECK = 16,  /* updates after a rebuild until the first check of the grid's fit */
    AXIS_CHECK_PERIOD = 256 /* updates between checks of the grid's fit */
};

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
    const bp_proxy *p = &bp->proxies.data[c->p];
    if (!bp_filter(p, found))
        return;
    if (!c->fresh && record_find(bp, c->p, q) >= 0)
        return;
    /* a new record is unpublished: it matters now only when the fat AABBs overlap */
    record_add(bp, c->p, q, c->queue && bp_overlap_box(p, found->min, found->max));
}

/* Whether the fat AABB of dynamic p is still held by its reach: no face moved farther than the
   reach's growth from where it was at the query, so the reach lies inside the fat AABB grown by
   twice that (what a new static's search for the reaches it enters relies on). */
static bool reach_holds(const bp_proxy *p)
{
    const float twice = 2 * p->reach_growth;
    for (int a = 0; a < 3; a++)
        if (p->min[a] < p->reach_min[a] || p->min[a] > p->reach_min[a] + twice ||
            p->max[a] > p->reach_max[a] || p->max[a] < p->reach_max[a] - twice)
            return false;
    return true;
}

/* Records of dynamic p with every static its reach overlaps, the reach renewed around its fat
   AABB unless that is still held. fresh: p has no static record yet; otherwise the ones the new
   reach does not overlap are dropped first. */
static void pair_with_statics(broadphase *bp, uint32_t p, bool queue, bool fresh)
{
    bp_proxy *proxy = &bp->proxies.data[p];
    if (!fresh && reach_holds(proxy))
        return; /* its records already cover every static it can overlap */
    /* larger than the margin: a body moving steadily re-fattens a few times per query */
    float side = (proxy->max[0] - proxy->min[0] + proxy->max[1] - proxy->min[1] + proxy->max[2] -
                  proxy->min[2]) /
                 3;
    float growth = fminf(fmaxf(BROADPHASE_STATIC_REACH * side, 2 * BROADPHASE_MARGIN),
                         BROADPHASE_STATIC_REACH_MAX);
    proxy->reach_growth = growth;
    bp->reach_growth_max = fmaxf(bp->reach_growth_max, growth);
    for (int a = 0; a < 3; a++) {
        proxy->reach_min[a] = proxy->min[a] - growth;
        proxy->reach_max[a] = proxy->max[a] + growth;
    }
    if (bp->static_items.count == 0)
        return; /* no statics: nothing to find, nothing to drop */
    if (!fresh)
        record_drop_static_apart(bp, p);
    pairing c = {bp, p, queue, fresh};
    static_visit(bp, proxy->reach_min, proxy->reach_max, pair_found, &c);
    bp->last_static_queries++;
}

/* A dynamic proxy found near a new static: a record when the static enters its reach. */
static void reach_found(void *context, const bp_proxy *found)
{
    pairing *c = context;
    broadphase *bp = c->bp;
    const bp_proxy *s = &bp->proxies.data[c->p];
    if (bp_overlap_box(s, found->reach_min, found->reach_max) && bp_filter(s, found))
        record_add(bp, c->p, (uint32_t)(found - bp->proxies.data),
                   bp_overlap_box(s, found->min, found->max));
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
        /* a reach lies inside its proxy's fat AABB grown by twice the reach's growth (see
           reach_holds); a little more covers rounding */
        const float grow = 2.5f * bp->reach_growth_max;
        const bp_proxy *proxy = &bp->proxies.data[p];
        float lo[3], hi[3];
        for (int a = 0; a < 3; a++)
            lo[a] = proxy->min[a] - grow, hi[a] = proxy->max[a] + grow;
        pairing c = {bp, p, true, true};
        bp_visit_sorted(bp, lo, hi, reach_found, &c);
    }
    array_clear(&bp->pending_statics);
    return static_maybe_rebuild(bp);
}

/* ---- rebuild ---- */

static int compare_ids(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return (a > b) - (a < b);
}

/* The proxies destroyed since the last update become free ids, in id order (so which id a
   create reuses depends only on the sequence of operations). */
static void free_dead(broadphase *bp)
{
    if (bp->dead.count > 1)
        qsort(bp->dead.data, (size_t)bp->dead.count, sizeof *bp->dead.data, compare_ids);
    for (int k = 0; k < bp->dead.count; k++) {
        bp->proxies.data[bp->dead.data[k]].flags = BP_DEAD;
        (void)array_push(&bp->free_proxies, bp->dead.data[k]); /* capacity >= proxies.capacity */
    }
    array_clear(&bp->dead);
}

static bool rebuild(broadphase *bp)
{
    bp->last_rebuilt = true;
    bp->needs_rebuild = false;
    bp->broken = false;
    bp->updates_since_axis_check = 0;
    free_dead(bp);
    for (int i = 0; i < bp->proxies.count; i++)
        bp->proxies.data[i].flags &= ~(uint32_t)(BP_MOVED | BP_CREATED);
    array_clear(&bp->moved);
    array_clear(&bp->created);
    array_clear(&bp->pending_statics);
    array_clear(&bp->candidates);
    records_clear(bp);
    bp->reach_growth_max = 0;
    for (int i = 0; i < bp->proxies.count; i++)
        bp->proxies.data[i].static_item = -1;
    bool ok = cells_build(bp, false) && static_build_all(bp) && !bp->broken;
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

/* Takes the endpoints of destroyed proxies out of their cells (their records went at destroy). */
static void compact(broadphase *bp)
{
    for (int k = 0; k < bp->dead.count; k++) {
        uint32_t p = (uint32_t)bp->dead.data[k];
        if (!(bp->proxies.data[p].flags & (BP_STATIC | BP_CREATED))) /* else never in the cells */
            cells_remove(bp, p);
    }
    free_dead(bp);
}

/* Whether the moves call for a regrid rather than going in one by one: many proxies jumping at
   once (teleports), which a regrid sorts in more cheaply than each leaving all its cells and
   records and entering new ones, or many crossing cell borders in a grid that no longer fits
   (the motion goes across the cells, e.g. a rain just released into a grid chosen at rest). A
   proxy shifting across a border in a grid that fits keeps its records in the cells it stays in
   and costs a scan of the few cells it leaves or enters. Regridding for those too regridded
   bench_joints' swinging chains 199 times in 600 steps (40% of the links cross a border per
   step); moving them instead takes 44% fewer broadphase instructions there. */
static bool moves_call_for_regrid(const broadphase *bp)
{
    if (bp->moved.count * 4 <= bp->live_count)
        return false;
    int jumps = 0, crossings = 0;
    for (int k = 0; k < bp->moved.count; k++) {
        uint32_t p = (uint32_t)bp->moved.data[k];
        if (bp->proxies.data[p].flags & BP_DEAD)
            continue;
        bp_cell_change change = cells_rect_change(bp, p);
        jumps += change == BP_CELLS_JUMP;
        crossings += change != BP_CELLS_SAME;
    }
    if (jumps * 4 > bp->live_count)
        return true;
    return crossings * 4 > bp->live_count && cells_stale(bp);
}

static bool apply_moves(broadphase *bp)
{
    /* many moved: one pass over every cell beats a search per endpoint, and one pass over the
       records beats walking each moved proxy's list */
    bool batch = bp->moved.count * 8 > bp->live_count;
    if (batch && !cells_move_all(bp, bp->moved.data, bp->moved.count))
        return false;
    for (int k = 0; k < bp->moved.count; k++) {
        uint32_t p = (uint32_t)bp->moved.data[k];
        bp_proxy *proxy = &bp->proxies.data[p];
        if (proxy->flags & BP_DEAD)
            continue;
        if (!batch) {
            proxy->flags &= ~(uint32_t)BP_MOVED;
            if (!cells_move(bp, p))
                return false;
            /* the axes the records do not track may have changed */
            record_queue_partners(bp, p);
        }
        pair_with_statics(bp, p, true, false);
    }
    if (batch) {
        /* after the static pairing: its new records are queued already, and are unpublished */
        records_queue_changed(bp);
        for (int k = 0; k < bp->moved.count; k++)
            bp->proxies.data[bp->moved.data[k]].flags &= ~(uint32_t)BP_MOVED;
    }
    array_clear(&bp->moved);
    return !bp->broken;
}

static bool insert_created(broadphase *bp)
{
    for (int k = 0; k < bp->created.count; k++) {
        uint32_t p = (uint32_t)bp->created.data[k];
        bp_proxy *proxy = &bp->proxies.data[p];
        if (proxy->flags & BP_DEAD)
            continue;
        proxy->flags &= ~(uint32_t)BP_CREATED;
        if (!cells_insert(bp, p))
            return false;
        pair_with_statics(bp, p, true, true);
    }
    array_clear(&bp->created);
    return !bp->broken;
}

/* A new grid for the dynamics alone: the static tree and the dynamic-static records stay (a
   mostly static world does not pay for its statics when its few movers outgrow the grid). Moved
   and created dynamics pair with the statics as in an incremental update. Nothing is queued:
   the update publishes in full afterwards. */
static bool regrid(broadphase *bp)
{
    bp->last_rebuilt = true;
    bp->updates_since_axis_check = 0;
    free_dead(bp); /* the cells are refilled: dead endpoints go with them */
    records_clear_dynamic(bp);
    if (!cells_build(bp, false))
        return false;
    const int32_t *lists[2] = {bp->moved.data, bp->created.data};
    int counts[2] = {bp->moved.count, bp->created.count};
    for (int l = 0; l < 2; l++) {
        for (int k = 0; k < counts[l]; k++) {
            uint32_t p = (uint32_t)lists[l][k];
            bp_proxy *proxy = &bp->proxies.data[p];
            if (proxy->flags & BP_DEAD)
                continue;
            bool created = proxy->flags & BP_CREATED;
            proxy->flags &= ~(uint32_t)(BP_MOVED | BP_CREATED);
            pair_with_statics(bp, p, false, created);
        }
    }
    array_clear(&bp->moved);
    array_clear(&bp->created);
    return !bp->broken;
}

/* Whether the grid should be rebuilt before this update's changes go in. */
static bool grid_misfits(broadphase *bp)
{
    bool misfit = false;
    /* soon after a rebuild (the motion is known by then), then now and again */
    if (++bp->updates_since_axis_check == FIRST_AXIS_CHECK ||
        bp->updates_since_axis_check >= AXIS_CHECK_PERIOD) {
        bp->updates_since_axis_check = FIRST_AXIS_CHECK;
        misfit = cells_stale(bp);
    }
    /* proxies outside the grid crowd its edge cells */
    return misfit || bp->outside_count * 8 > bp->live_count + 64;
}

bool broadphase_update_pairs(broadphase *bp)
{
    array_clear(&bp->added);
    array_clear(&bp->removed);
    bp->last_swaps = 0;
    bp->last_static_queries = 0;
    bp->last_rebuilt = false;
    bool misfit = grid_misfits(bp);
    if (bp->needs_rebuild || bp->broken || !take_statics(bp))
        return rebuild(bp);
    bool ok, full = misfit || bp->created.count > REBUILD_CREATES || moves_call_for_regrid(bp);
    if (full) {
        ok = regrid(bp);
    } else {
        if (bp->dead.count > 0)
            compact(bp);
        ok = apply_moves(bp) && insert_created(bp);
    }
    ok = ok && insert_statics(bp);
    if (!ok || !(full ? publish_full(bp) : publish_candidates(bp)) || bp->broken) {
        bp->broken = true;
        return error_set("broadphase: out of memory during update (rebuilding next time)");
    }
    return true;
}
