/* Multi-box pruning: the grid of cells over the two widest axes, each cell one sorted sweep-axis
   array of the dynamic proxies overlapping it, kept sorted by insertion sort with the records'
   shared counts updated at each swap; proxies entering and leaving cells incrementally. */
#include "broadphase/internal.h"
#include "core/alloc.h"
#include "core/sort.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Why cells: with one global sorted axis a moving box crosses every endpoint in the slab it
   sweeps through, and at constant density that slab holds n^(2/3) endpoints, so coherent motion
   costs n^(5/3) swaps per step. A cell is a column one mean box width across: a box moving along
   it crosses the endpoints of the few boxes near it, so the step is close to linear in n (the
   column's population grows only with the world's depth, n^(1/3), and its endpoints per metre
   stay constant).
   A pair sharing several cells interleaves on the sweep axis in all of them or none: the record
   counts the shared cells (shared), exists while that is > 0, and is published when the fat
   AABBs overlap on all three axes (checked at publishing, like the flat-world axis before). */

enum {
    CELLS_PER_PROXY = 2, /* cells per dynamic proxy at most (bounds sparse worlds' grids) */
    CELL_WIDTHS = 1,     /* cell size in mean proxy widths (fat AABBs) */
    GRID_MAX = 1024      /* cells per grid axis at most */
};

static inline bool ep_less(bp_endpoint a, bp_endpoint b)
{
    return a.value < b.value || (a.value == b.value && (a.id & 1u) < (b.id & 1u));
}

static inline bp_endpoint_array *cell_at(broadphase *bp, int i, int j)
{
    return &bp->cells.data[j * bp->g[0] + i];
}

/* ---- the shared count of a pair ---- */

static void share(broadphase *bp, uint32_t p, uint32_t q, bool queue)
{
    const bp_proxy *px = bp->proxies.data;
    if (!bp_filter(&px[p], &px[q]))
        return;
    int32_t r = record_find(bp, p, q);
    if (r < 0) {
        /* a new record is unpublished: it matters now only when the boxes overlap (if one of
           them moves later in this update, that move re-checks its partners) */
        if (!record_add(bp, p, q, queue && bp_overlap_box(&px[p], px[q].min, px[q].max)))
            return;
        r = bp->proxies.data[p].pair_head; /* record_add puts the new record first */
    }
    bp->records.data[r].shared++;
}

static void unshare(broadphase *bp, uint32_t p, uint32_t q)
{
    const bp_proxy *px = bp->proxies.data;
    if (!bp_filter(&px[p], &px[q]))
        return;
    int32_t r = record_find(bp, p, q);
    CAIRN_ASSERT(r >= 0 || bp->broken);
    if (r >= 0 && --bp->records.data[r].shared == 0)
        record_unlink(bp, r);
}

/* ---- the grid ---- */

static int32_t cell_coord(const broadphase *bp, int k, float x)
{
    float t = (x - bp->grid_origin[k]) * bp->cell_inv[k];
    if (!(t > 0))
        return 0;
    if (t >= (float)(bp->g[k] - 1))
        return bp->g[k] - 1;
    return (int32_t)t;
}

void grid_rect(const broadphase *bp, const float lo[3], const float hi[3], int32_t rlo[2],
               int32_t rhi[2])
{
    for (int k = 0; k < 2; k++) {
        rlo[k] = cell_coord(bp, k, lo[bp->grid_axis[k]]);
        rhi[k] = cell_coord(bp, k, hi[bp->grid_axis[k]]);
    }
}

bool grid_choose(const broadphase *bp, bp_grid *grid)
{
    double cmin[3] = {INFINITY, INFINITY, INFINITY}, cmax[3] = {-INFINITY, -INFINITY, -INFINITY};
    double width[3] = {0};
    int n = 0;
    for (int i = 0; i < bp->proxies.count; i++) {
        const bp_proxy *p = &bp->proxies.data[i];
        if (p->flags & (BP_DEAD | BP_STATIC))
            continue;
        n++;
        for (int a = 0; a < 3; a++) {
            double c = 0.5 * ((double)p->min[a] + (double)p->max[a]);
            cmin[a] = fmin(cmin[a], c);
            cmax[a] = fmax(cmax[a], c);
            width[a] += (double)p->max[a] - (double)p->min[a];
        }
    }
    memset(grid, 0, sizeof *grid);
    double extent[3]; /* spread of the dynamic proxies' centres per world axis */
    for (int a = 0; a < 3; a++) {
        extent[a] = n > 0 ? cmax[a] - cmin[a] : 0.0;
        width[a] = n > 0 ? width[a] / n : 0.0;
    }
    /* Sweep along the thinnest spread: in a flat world everything overlaps on the thin axis,
       but a cell holds few proxies. Among spreads within 25% of the thinnest (a cube-shaped
       world), keep the current axis, or take the one most motion goes along: motion along the
       sweep axis costs a few swaps in a cell, motion along a grid axis costs cell changes, each
       a scan of a cell. Ties go to the higher axis, deterministically. */
    int thin = 2;
    for (int a = 1; a >= 0; a--)
        if (extent[a] < extent[thin])
            thin = a;
    int sweep = thin, most = 2;
    if (bp->g[0] > 0 && extent[bp->sweep_axis] <= 1.25 * extent[thin])
        sweep = bp->sweep_axis;
    for (int a = 1; a >= 0; a--)
        if (bp->motion[a] > bp->motion[most])
            most = a;
    if (bp->motion[most] > 2.0 * bp->motion[sweep] && extent[most] <= 1.25 * extent[thin])
        sweep = most;
    /* Coherent motion (a rain, a conveyor): when one axis carries most of it, sweep along that
       axis whatever the spreads. Bodies moving together swap little, and the columns across the
       motion keep their population as the bodies spread out along it; a grid over the motion
       axis would see them leave it all the time. */
    double others = fmax(bp->motion[(most + 1) % 3], bp->motion[(most + 2) % 3]);
    if (bp->motion[most] > 3.0 * others)
        sweep = most;
    grid->sweep = sweep;
    grid->axis[0] = sweep == 0 ? 1 : 0;
    grid->axis[1] = sweep == 2 ? 1 : 2;
    double w = 0.5 * (width[grid->axis[0]] + width[grid->axis[1]]);
    double e0 = fmax(extent[grid->axis[0]], w), e1 = fmax(extent[grid->axis[1]], w);
    /* Cells one mean width wide: a proxy spans about four, and few share one (in a flat world
       all of a cell's proxies overlap on the sweep axis, so its population is their record
       count; measured: one width beats two on the flat grid and on rain at 100k);
       at most CELLS_PER_PROXY cells per proxy, for sparse worlds. */
    double size = fmax(CELL_WIDTHS * w, sqrt(e0 * e1 / (CELLS_PER_PROXY * fmax(n, 1))));
    size = fmax(size, 1e-6);
    for (int k = 0; k < 2; k++) {
        int a = grid->axis[k];
        /* room to spread: the grid covers the centres plus an eighth of their spread each side,
           so bodies drifting outward do not leave it at once */
        double pad = extent[a] / 8;
        double e = n > 0 ? extent[a] + 2 * pad : 0.0;
        grid->g[k] = (int)fmin(fmax(ceil(e / size), 1.0), GRID_MAX);
        grid->origin[k] = n > 0 ? (float)(cmin[a] - pad) : 0.0f;
        grid->inv[k] = e > 0 ? (float)(grid->g[k] / e) : 0.0f;
    }
    return n > 0;
}

/* ---- outside the grid ---- */

static void refresh_outside(broadphase *bp, uint32_t p)
{
    bp_proxy *proxy = &bp->proxies.data[p];
    bool outside = false;
    for (int k = 0; k < 2; k++) {
        int a = bp->grid_axis[k];
        float c = 0.5f * (proxy->min[a] + proxy->max[a]);
        float end = bp->grid_origin[k] + (bp->cell_inv[k] > 0 ? bp->g[k] / bp->cell_inv[k] : 0);
        outside = outside || c < bp->grid_origin[k] || c > end;
    }
    if (outside != ((proxy->flags & BP_OUTSIDE) != 0)) {
        proxy->flags ^= BP_OUTSIDE;
        bp->outside_count += outside ? 1 : -1;
    }
}

/* ---- one cell ---- */

/* First endpoint not less than (value, kind). Each step halves the range by a select, not a
   branch: where the key falls in a cell is a coin toss at every step. */
static int lower_bound(const bp_endpoint_array *e, bp_endpoint key)
{
    if (e->count == 0)
        return 0;
    const bp_endpoint *base = e->data;
    int n = e->count;
    while (n > 1) { /* the answer lies in [base, base + n] */
        int half = n / 2;
        base = ep_less(base[half], key) ? base + half : base;
        n -= half;
    }
    return (int)(base - e->data) + (ep_less(*base, key) ? 1 : 0);
}

/* Index of endpoint id with this value in the cell (it must be there). */
static int find_endpoint(const bp_endpoint_array *e, float value, uint32_t id)
{
    int i = lower_bound(e, (bp_endpoint){value, id & 1u});
    while (i < e->count && e->data[i].id != id)
        i++;
    CAIRN_ASSERT(i < e->count);
    return i;
}

/* Moves endpoint i down (step -1) or up (step +1) to its sorted place, updating the shared
   counts of every pair it crosses; returns its new index. Crossing an endpoint of the other
   kind ends an overlap when p's max passes a min going down (or p's min passes a max going up),
   and begins one the other way round. */
static int sift(broadphase *bp, bp_endpoint_array *cell, int i, int step)
{
    bp_endpoint *e = cell->data;
    bp_endpoint cur = e[i];
    bool cur_max = cur.id & 1u;
    uint32_t p = cur.id >> 1;
    int swaps = 0;
    while (step < 0 ? i > 0 && ep_less(cur, e[i - 1])
                    : i + 1 < cell->count && ep_less(e[i + 1], cur)) {
        bp_endpoint other = e[i + step];
        uint32_t q = other.id >> 1;
        if (q != p && cur_max != ((other.id & 1u) != 0)) {
            if (cur_max == (step < 0))
                unshare(bp, p, q);
            else
                share(bp, p, q, true);
        }
        e[i] = other;
        i += step;
        swaps++;
    }
    e[i] = cur;
    bp->last_swaps += swaps;
    return i;
}

static void set_endpoint(broadphase *bp, bp_endpoint_array *cell, float old, float now, uint32_t id)
{
    int i = find_endpoint(cell, old, id);
    cell->data[i].value = now;
    sift(bp, cell, sift(bp, cell, i, -1), +1);
}

/* p stays in the cell; its sweep interval goes from [in_lo, in_hi] to [lo, hi]. The end moving
   away from the other goes first, so p's min stays before its max. */
static void cell_shift(broadphase *bp, bp_endpoint_array *cell, uint32_t p, float lo, float hi)
{
    const bp_proxy *proxy = &bp->proxies.data[p];
    float old_lo = proxy->in_lo, old_hi = proxy->in_hi;
    if (lo > old_lo) {
        set_endpoint(bp, cell, old_hi, hi, p << 1 | 1u);
        set_endpoint(bp, cell, old_lo, lo, p << 1);
    } else {
        set_endpoint(bp, cell, old_lo, lo, p << 1);
        set_endpoint(bp, cell, old_hi, hi, p << 1 | 1u);
    }
}

/* Every other proxy in the cell interleaving [lo, hi] on the sweep axis. */
static void cell_pairs(broadphase *bp, const bp_endpoint_array *cell, uint32_t p, float lo,
                       float hi, bool enter)
{
    const bp_proxy *px = bp->proxies.data;
    for (int i = 0; i < cell->count; i++) {
        bp_endpoint ep = cell->data[i];
        if (ep.value > hi)
            break;
        uint32_t q = ep.id >> 1;
        /* one branch, not three: the kind of endpoint is a coin toss */
        if (!(((ep.id & 1u) == 0) & (q != p) & (px[q].in_hi >= lo)))
            continue;
        if (enter)
            share(bp, p, q, true);
        else
            unshare(bp, p, q);
    }
}

static bool cell_insert(bp_endpoint_array *cell, bp_endpoint ep)
{
    if (!array_grow(cell, cell->count + 1))
        return false;
    int i = lower_bound(cell, ep);
    memmove(cell->data + i + 1, cell->data + i, (size_t)(cell->count - i) * sizeof ep);
    cell->data[i] = ep;
    cell->count++;
    return true;
}

static void cell_erase(bp_endpoint_array *cell, float value, uint32_t id)
{
    int i = find_endpoint(cell, value, id);
    memmove(cell->data + i, cell->data + i + 1, (size_t)(cell->count - i - 1) * sizeof *cell->data);
    cell->count--;
}

/* p (with its in_lo, in_hi already set) joins the cell, pairing with what it meets there. */
static bool cell_enter(broadphase *bp, bp_endpoint_array *cell, uint32_t p)
{
    const bp_proxy *proxy = &bp->proxies.data[p];
    cell_pairs(bp, cell, p, proxy->in_lo, proxy->in_hi, true);
    if (!cell_insert(cell, (bp_endpoint){proxy->in_lo, p << 1}) ||
        !cell_insert(cell, (bp_endpoint){proxy->in_hi, p << 1 | 1u})) {
        bp->broken = true;
        return false;
    }
    return true;
}

static void cell_leave(broadphase *bp, bp_endpoint_array *cell, uint32_t p, bool unpair)
{
    const bp_proxy *proxy = &bp->proxies.data[p];
    if (unpair)
        cell_pairs(bp, cell, p, proxy->in_lo, proxy->in_hi, false);
    cell_erase(cell, proxy->in_lo, p << 1);
    cell_erase(cell, proxy->in_hi, p << 1 | 1u);
}

static inline bool in_rect(int i, int j, const int32_t lo[2], const int32_t hi[2])
{
    return i >= lo[0] && i <= hi[0] && j >= lo[1] && j <= hi[1];
}

/* ---- proxies in the grid ---- */

/* No cells: what a proxy not yet in the grid sits in, and what one leaving it goes to. */
static const int32_t no_lo[2] = {0, 0}, no_hi[2] = {-1, -1};

/* Whether [lo, hi] is p's stored rectangle: most moves keep theirs (a cell is wider than a
   step's motion), and then skip the walks over their cells. */
static inline bool same_rect(const bp_proxy *p, const int32_t lo[2], const int32_t hi[2])
{
    return lo[0] == p->cell_lo[0] && lo[1] == p->cell_lo[1] && hi[0] == p->cell_hi[0] &&
           hi[1] == p->cell_hi[1];
}

/* p leaves the cells of its stored rectangle that [lo, hi] does not cover. */
static void leave_except(broadphase *bp, uint32_t p, const int32_t lo[2], const int32_t hi[2],
                         bool unpair)
{
    const bp_proxy *proxy = &bp->proxies.data[p];
    if (same_rect(proxy, lo, hi))
        return;
    for (int j = proxy->cell_lo[1]; j <= proxy->cell_hi[1]; j++)
        for (int i = proxy->cell_lo[0]; i <= proxy->cell_hi[0]; i++)
            if (!in_rect(i, j, lo, hi))
                cell_leave(bp, cell_at(bp, i, j), p, unpair);
}

/* p enters the cells of [lo, hi] outside its stored rectangle, which then becomes [lo, hi]. */
static bool enter_except(broadphase *bp, uint32_t p, const int32_t lo[2], const int32_t hi[2])
{
    bp_proxy *proxy = &bp->proxies.data[p];
    bool ok = true;
    if (same_rect(proxy, lo, hi)) {
        refresh_outside(bp, p); /* the centre may still cross the grid's edge */
        return true;
    }
    for (int j = lo[1]; j <= hi[1] && ok; j++)
        for (int i = lo[0]; i <= hi[0] && ok; i++)
            if (!in_rect(i, j, proxy->cell_lo, proxy->cell_hi))
                ok = cell_enter(bp, cell_at(bp, i, j), p);
    memcpy(proxy->cell_lo, lo, sizeof proxy->cell_lo);
    memcpy(proxy->cell_hi, hi, sizeof proxy->cell_hi);
    refresh_outside(bp, p);
    return ok;
}

bool cells_insert(broadphase *bp, uint32_t p)
{
    bp_proxy *proxy = &bp->proxies.data[p];
    int32_t lo[2], hi[2];
    grid_rect(bp, proxy->min, proxy->max, lo, hi);
    proxy->in_lo = proxy->min[bp->sweep_axis];
    proxy->in_hi = proxy->max[bp->sweep_axis];
    memcpy(proxy->cell_lo, no_lo, sizeof no_lo);
    memcpy(proxy->cell_hi, no_hi, sizeof no_hi);
    return enter_except(bp, p, lo, hi);
}

void cells_remove(broadphase *bp, uint32_t p)
{
    bp_proxy *proxy = &bp->proxies.data[p];
    leave_except(bp, p, no_lo, no_hi, false);
    if (proxy->flags & BP_OUTSIDE) {
        proxy->flags &= ~(uint32_t)BP_OUTSIDE;
        bp->outside_count--;
    }
}

bp_cell_change cells_rect_change(const broadphase *bp, uint32_t p)
{
    const bp_proxy *proxy = &bp->proxies.data[p];
    const int32_t *olo = proxy->cell_lo, *ohi = proxy->cell_hi;
    int32_t lo[2], hi[2];
    grid_rect(bp, proxy->min, proxy->max, lo, hi);
    if (lo[0] == olo[0] && lo[1] == olo[1] && hi[0] == ohi[0] && hi[1] == ohi[1])
        return BP_CELLS_SAME; /* most moves: tested first */
    if (lo[0] > ohi[0] || hi[0] < olo[0] || lo[1] > ohi[1] || hi[1] < olo[1])
        return BP_CELLS_JUMP;
    return BP_CELLS_SHIFT;
}

bool cells_move(broadphase *bp, uint32_t p)
{
    bp_proxy *proxy = &bp->proxies.data[p];
    int32_t lo[2], hi[2];
    grid_rect(bp, proxy->min, proxy->max, lo, hi);
    float new_lo = proxy->min[bp->sweep_axis], new_hi = proxy->max[bp->sweep_axis];
    /* leave with the old interval, shift where it stays, enter with the new one */
    leave_except(bp, p, lo, hi, true);
    if (new_lo != proxy->in_lo || new_hi != proxy->in_hi)
        for (int j = lo[1]; j <= hi[1]; j++)
            for (int i = lo[0]; i <= hi[0]; i++)
                if (in_rect(i, j, proxy->cell_lo, proxy->cell_hi))
                    cell_shift(bp, cell_at(bp, i, j), p, new_lo, new_hi);
    proxy->in_lo = new_lo;
    proxy->in_hi = new_hi;
    return enter_except(bp, p, lo, hi);
}

/* Many moved (coherent motion of everything): leave the cells each no longer covers, set the
   values of the endpoints that stay, sort every cell with one insertion pass (O(n + swaps), no
   searches), then enter the new cells. Each step keeps every cell consistent with the shared
   counts: the scans see the values the cells hold. Each new rectangle is computed once. */
bool cells_move_all(broadphase *bp, const int32_t *moved, int count)
{
    if (!array_reserve(&bp->move_rects, count)) {
        bp->broken = true;
        return false;
    }
    bp_cell_rect *rects = bp->move_rects.data;
    bp_proxy *px = bp->proxies.data;
    for (int k = 0; k < count; k++) {
        uint32_t p = (uint32_t)moved[k];
        if (px[p].flags & BP_DEAD)
            continue;
        grid_rect(bp, px[p].min, px[p].max, rects[k].lo, rects[k].hi);
        if (!same_rect(&px[p], rects[k].lo, rects[k].hi)) /* no call for most */
            leave_except(bp, p, rects[k].lo, rects[k].hi, true);
    }
    int sweep = bp->sweep_axis;
    for (int c = 0; c < bp->g[0] * bp->g[1]; c++) {
        bp_endpoint_array *cell = &bp->cells.data[c];
        bp_endpoint *e = cell->data;
        /* every endpoint takes its proxy's value: an unmoved proxy's is the one it holds, and
           writing it anyway spares two coin-toss branches per endpoint (moved? max?) */
        for (int i = 0; i < cell->count; i++) {
            const bp_proxy *q = &px[e[i].id >> 1];
            const float *ends[2] = {q->min, q->max};
            float value = ends[e[i].id & 1u][sweep];
            CAIRN_ASSERT((q->flags & BP_MOVED) || value == e[i].value);
            e[i].value = value;
        }
        for (int i = 1; i < cell->count; i++)
            if (ep_less(e[i], e[i - 1]))
                sift(bp, cell, i, -1);
    }
    /* the cells hold the new values now: so must in_lo, in_hi before any entering scan */
    for (int k = 0; k < count; k++) {
        bp_proxy *proxy = &px[moved[k]];
        proxy->in_lo = proxy->min[sweep];
        proxy->in_hi = proxy->max[sweep];
    }
    bool ok = true;
    for (int k = 0; k < count && ok; k++) {
        uint32_t p = (uint32_t)moved[k];
        if (px[p].flags & BP_DEAD)
            continue;
        if (same_rect(&px[p], rects[k].lo, rects[k].hi))
            refresh_outside(bp, p);
        else
            ok = enter_except(bp, p, rects[k].lo, rects[k].hi);
    }
    return ok;
}

/* ---- rebuild: fill every cell, sort each once, sweep each once ---- */

/* A strict total order: each endpoint's id is unique in its cell. */
static bool endpoint_before(const bp_endpoint *a, const bp_endpoint *b)
{
    if (a->value != b->value)
        return a->value < b->value;
    if ((a->id & 1u) != (b->id & 1u))
        return !(a->id & 1u); /* min before max: touching intervals overlap */
    return a->id < b->id;
}

SORT_DEFINE(sort_endpoints, bp_endpoint, endpoint_before)

static bool use_grid(broadphase *bp, const bp_grid *grid)
{
    int cells = grid->g[0] * grid->g[1];
    if (cells > bp->cells.count) {
        if (!array_reserve(&bp->cells, cells))
            return false;
        memset(bp->cells.data + bp->cells.count, 0,
               (size_t)(cells - bp->cells.count) * sizeof *bp->cells.data);
        bp->cells.count = cells;
    }
    for (int c = 0; c < bp->cells.count; c++)
        array_clear(&bp->cells.data[c]);
    bp->sweep_axis = grid->sweep;
    for (int k = 0; k < 2; k++) {
        bp->grid_axis[k] = grid->axis[k];
        bp->g[k] = grid->g[k];
        bp->grid_origin[k] = grid->origin[k];
        bp->cell_inv[k] = grid->inv[k];
    }
    bp->axis_of_slot[0] = grid->sweep;
    bp->axis_of_slot[1] = grid->axis[0];
    bp->axis_of_slot[2] = grid->axis[1];
    bp->outside_count = 0;
    memset(bp->motion, 0, sizeof bp->motion);
    return true;
}

/* The records of one cell: each min meets every proxy active at that point. */
static bool sweep_cell(broadphase *bp, const bp_endpoint_array *cell, bool queue)
{
    array_clear(&bp->active);
    for (int i = 0; i < cell->count; i++) {
        uint32_t p = cell->data[i].id >> 1;
        if (cell->data[i].id & 1u) {
            for (int k = 0; k < bp->active.count; k++)
                if (bp->active.data[k] == p) {
                    array_remove_swap(&bp->active, k);
                    break;
                }
            continue;
        }
        for (int k = 0; k < bp->active.count; k++)
            share(bp, p, bp->active.data[k], queue);
        if (!array_push(&bp->active, p))
            return false;
    }
    return !bp->broken;
}

bool cells_build(broadphase *bp, bool queue)
{
    bp_grid grid;
    grid_choose(bp, &grid);
    if (!use_grid(bp, &grid))
        return false;
    for (int p = 0; p < bp->proxies.count; p++) {
        bp_proxy *proxy = &bp->proxies.data[p];
        proxy->flags &= ~(uint32_t)BP_OUTSIDE;
        if (proxy->flags & (BP_DEAD | BP_STATIC))
            continue;
        grid_rect(bp, proxy->min, proxy->max, proxy->cell_lo, proxy->cell_hi);
        proxy->in_lo = proxy->min[bp->sweep_axis];
        proxy->in_hi = proxy->max[bp->sweep_axis];
        for (int j = proxy->cell_lo[1]; j <= proxy->cell_hi[1]; j++)
            for (int i = proxy->cell_lo[0]; i <= proxy->cell_hi[0]; i++) {
                bp_endpoint_array *cell = cell_at(bp, i, j);
                if (!array_push(cell, ((bp_endpoint){proxy->in_lo, (uint32_t)p << 1})) ||
                    !array_push(cell, ((bp_endpoint){proxy->in_hi, (uint32_t)p << 1 | 1u})))
                    return false;
            }
    }
    for (int c = 0; c < bp->g[0] * bp->g[1]; c++) {
        bp_endpoint_array *cell = &bp->cells.data[c];
        sort_endpoints(cell->data, cell->count);
        if (!sweep_cell(bp, cell, queue))
            return false;
    }
    return true;
}

/* Now and again (an O(n) pass): whether the grid no longer fits the data (cells 2x too many or
   too few, or another sweep axis, e.g. the one most motion now goes along). */
bool cells_stale(const broadphase *bp)
{
    bp_grid grid;
    if (!grid_choose(bp, &grid))
        return false;
    for (int k = 0; k < 2; k++)
        if (grid.g[k] > 2 * bp->g[k] || 2 * grid.g[k] < bp->g[k])
            return true;
    return grid.sweep != bp->sweep_axis;
}
