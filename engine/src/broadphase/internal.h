/* Shared between the broadphase files only: proxy flags, the pair filter, the overlap records
   (pair_set.c) and the publishing of pair changes. */
#ifndef CAIRN_BROADPHASE_INTERNAL_H
#define CAIRN_BROADPHASE_INTERNAL_H

#include "broadphase/broadphase.h"

enum {
    BP_STATIC = 1,   /* never pairs with another static proxy */
    BP_DEAD = 2,     /* destroyed (endpoints may still sit in the arrays until the next update) */
    BP_MOVED = 8,    /* in bp->moved: fat AABB changed, endpoints not yet */
    BP_CREATED = 16, /* in bp->created: not yet in the sorted arrays */
    BP_OUTSIDE = 32, /* counted in outside_count */
};

/* The filter, applied before any record exists: no static-static pair, no body with itself,
   layer/mask both ways. */
static inline bool bp_filter(const bp_proxy *p, const bp_proxy *q)
{
    if (p->flags & q->flags & BP_STATIC)
        return false;
    if (p->body == q->body)
        return false;
    return (p->layer & q->mask) != 0 && (q->layer & p->mask) != 0;
}

/* Closed-interval overlap of the boxes [alo, ahi] and [blo, bhi] on all three axes. All six
   comparisons, no early exit: passes over many records test boxes whose answer is a coin toss,
   and one branch on the result mispredicts less than six. */
static inline bool bp_boxes_overlap(const float alo[3], const float ahi[3], const float blo[3],
                                    const float bhi[3])
{
    return (alo[0] <= bhi[0]) & (blo[0] <= ahi[0]) & (alo[1] <= bhi[1]) & (blo[1] <= ahi[1]) &
           (alo[2] <= bhi[2]) & (blo[2] <= ahi[2]);
}

/* Closed-interval overlap of a proxy's fat AABB with the box [lo, hi] on all three axes. */
static inline bool bp_overlap_box(const bp_proxy *p, const float lo[3], const float hi[3])
{
    return bp_boxes_overlap(p->min, p->max, lo, hi);
}

typedef void bp_visit_fn(void *context, const bp_proxy *proxy);

/* ---- visiting (query.c) ---- */
/* Every dynamic proxy settled in the cells (not moved or created since) overlapping
   [lo, hi] on all three axes, once. */
void bp_visit_sorted(const broadphase *bp, const float lo[3], const float hi[3], bp_visit_fn *fn,
                     void *context);

/* ---- the grid of cells (cells.c) ---- */
typedef struct bp_grid {
    int sweep, axis[2], g[2];
    float origin[2], inv[2];
} bp_grid;
/* The grid that fits the live dynamic proxies now; false when there are none. */
bool grid_choose(const broadphase *bp, bp_grid *grid);
/* The cell rectangle of [lo, hi] in the current grid (clamped to it). */
void grid_rect(const broadphase *bp, const float lo[3], const float hi[3], int32_t rlo[2],
               int32_t rhi[2]);
/* Chooses the grid and fills every cell with the live dynamics, with their records (there must
   be no dynamic-dynamic record). queue: queue the new records whose boxes overlap. False when out
   of memory. */
bool cells_build(broadphase *bp, bool queue);
/* Whether the current grid no longer fits the data (worth a rebuild). */
bool cells_stale(const broadphase *bp);
/* Dynamic p joins the cells of its fat AABB, pairing (queued) with what it meets. */
bool cells_insert(broadphase *bp, uint32_t p);
/* Takes p's endpoints out of its cells without touching records (p is dead). */
void cells_remove(broadphase *bp, uint32_t p);
/* Sorts p's new fat AABB into the cells: leaves, shifts, enters, updating shared counts. */
bool cells_move(broadphase *bp, uint32_t p);
/* The same for many proxies at once (flagged BP_MOVED, which stays set for
   records_queue_changed). */
bool cells_move_all(broadphase *bp, const int32_t *moved, int count);
/* How p's new fat AABB covers the cells it sits in: the same ones, some of them (a shift across a
   border: it keeps its records in the cells it stays in), or none (a jump: it leaves them all,
   with their records, as a teleport does). */
typedef enum bp_cell_change { BP_CELLS_SAME, BP_CELLS_SHIFT, BP_CELLS_JUMP } bp_cell_change;
bp_cell_change cells_rect_change(const broadphase *bp, uint32_t p);

/* ---- the static tree (static_tree.c) ---- */
/* Every static proxy in the tree or the loose list, not moved since, overlapping [lo, hi]. */
void static_visit(const broadphase *bp, const float lo[3], const float hi[3], bp_visit_fn *fn,
                  void *context);
/* Builds the tree from every live static proxy (full rebuild of the broadphase). */
bool static_build_all(broadphase *bp);
/* Takes the static out of the tree (a tombstone), e.g. when it is destroyed or moved. */
void static_forget(broadphase *bp, uint32_t p);
/* Appends the static to the loose list. */
bool static_append(broadphase *bp, uint32_t p);
/* Rebuilds the tree from its live items when the loose list or the tombstones grew large. */
bool static_maybe_rebuild(broadphase *bp);

/* ---- overlap records (pair_set.c) ---- */
/* A record exists exactly for the filtered pairs of dynamic proxies interleaving on the sweep axis
   in a shared cell (its shared count says in how many), and for the filtered dynamic-static
   pairs whose static overlaps the dynamic's reach (a superset of the overlapping ones).
   add/remove also queue the pair as a candidate for publishing. False when out of memory (then
   bp->broken is set and the next update rebuilds). */
bool record_add(broadphase *bp, uint32_t p, uint32_t q, bool queue);
/* Removes record r, queueing the pair only when it is published (else nothing changes). */
void record_unlink(broadphase *bp, int32_t r);
int32_t record_find(const broadphase *bp, uint32_t p, uint32_t q);
/* Removes every record of p, queueing each pair. */
void record_remove_all(broadphase *bp, uint32_t p);
void records_clear(broadphase *bp);
/* Removes every record between two dynamic proxies, queueing nothing (a full publishing
   follows). */
void records_clear_dynamic(broadphase *bp);
/* Removes the records of dynamic p with statics its reach no longer overlaps (queueing the
   published ones). */
void record_drop_static_apart(broadphase *bp, uint32_t p);
/* Queues every record partner of p whose overlap on all three axes no longer matches the
   published set (the records do not track the grid axes). */
void record_queue_partners(broadphase *bp, uint32_t p);
/* The same for every record with a proxy flagged BP_MOVED, in one pass over the records (when
   most proxies moved: sequential reads, each pair once). */
void records_queue_changed(broadphase *bp);

/* ---- publishing ---- */
/* Re-evaluates the queued candidates against the records and the published set, filling
   added/removed in key order. */
bool publish_candidates(broadphase *bp);
/* Diffs the whole published set against all records (after a rebuild). */
bool publish_full(broadphase *bp);

#endif
