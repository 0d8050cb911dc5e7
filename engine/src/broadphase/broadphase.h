/* The broadphase: incremental sweep-and-prune over the fat AABBs of dynamic proxies (multi-box
   pruning: a grid of cells over the two widest axes, one sorted sweep per cell), a static tree
   for static ones, a persistent pair set keyed by body pairs, per-update added/removed pair
   arrays, plus AABB and ray queries. */
#ifndef CAIRN_BROADPHASE_H
#define CAIRN_BROADPHASE_H

#include "core/array.h"
#include "core/hash_set.h"

/* Fat AABB = tight bounds grown by this margin on every side (metres), plus predicted motion. */
#define BROADPHASE_MARGIN 0.1f

/* A dynamic proxy's static pairs are found by a query of the static tree with its fat AABB grown
   by this fraction of the fat AABB's mean side, its reach. Later moves skip the query while no
   face of the fat AABB has moved farther than that growth from where it was at the query. */
#define BROADPHASE_STATIC_REACH 0.5f
/* ... at most this much (metres): a new static searches the cells around it this far (times
   2.5), and one huge dynamic proxy must not make every such search span the world. */
#define BROADPHASE_STATIC_REACH_MAX 1.0f

/* Overlap convention: closed intervals. Two fat AABBs overlap when
   a.min <= b.max && b.min <= a.max on all three axes, so boxes that exactly touch (a shared
   endpoint value) DO overlap, and zero-extent boxes at the same point overlap. */

/* A body pair, a < b. */
typedef struct broadphase_pair {
    uint32_t a, b;
} broadphase_pair;

/* Ray query callback, called in order of increasing t_enter (entry parameter into the fat AABB
   along origin + t * translation, clamped to >= 0). Return the new maximum t: a value in (0, 1]
   clips the ray (candidates entering beyond it are skipped), 0 stops the query, a negative value
   ignores this candidate and keeps the current maximum. */
typedef float broadphase_ray_fn(void *context, uint32_t body, float t_enter);

/* ---- internals (the world embeds a broadphase by value; do not touch the fields) ---- */

/* One entry of a sorted axis: the value and (proxy << 1 | is_max). */
typedef struct bp_endpoint {
    float value;
    uint32_t id;
} bp_endpoint;

typedef ARRAY(bp_endpoint) bp_endpoint_array;

typedef struct bp_proxy {
    /* the fields the passes over records and cells read (the overlap test, the filter, the
       moved flag, the sweep interval) come first, in one or two cache lines, the rest after */
    float min[3], max[3]; /* fat AABB, world axes */
    uint32_t flags;       /* BP_* flags in internal.h */
    uint32_t body, layer, mask;
    /* dynamic, as sorted into the cells: the interval on the sweep axis (min/max may already
       hold a pending move) and the cell rectangle [cell_lo, cell_hi] on the two grid axes */
    float in_lo, in_hi;
    int32_t pair_head; /* first overlap record of this proxy, -1 when none */
    int32_t degree;    /* overlap records of this proxy */
    int32_t cell_lo[2], cell_hi[2];
    int32_t static_item; /* static: index in static_items, -1 when not in it */
    /* dynamic: the box of its last static-tree query; it has a record with every (filtered)
       static overlapping it */
    float reach_min[3], reach_max[3];
    float reach_growth; /* how much larger than the fat AABB the reach was made */
} bp_proxy;

/* An overlap record: a filtered pair of dynamic proxies interleaving on the sweep axis in at
   least one shared cell, or a filtered dynamic-static pair whose static overlaps the dynamic's
   reach; linked into both proxies' lists. */
typedef struct bp_record {
    uint32_t proxy[2];
    int32_t shared;    /* dynamic pairs: cells in which both sit and interleave on the sweep axis */
    int32_t published; /* the pair is in the published set (as of the last publishing) */
    int32_t next[2], prev[2]; /* per-side links; next[i] continues proxy[i]'s list */
} bp_record;

typedef struct bp_candidate {
    uint64_t key;  /* pair_key of the bodies */
    uint32_t p, q; /* proxies */
} bp_candidate;

typedef ARRAY(uint64_t) bp_key_array;

/* A cell rectangle [lo, hi] on the two grid axes. */
typedef struct bp_cell_rect {
    int32_t lo[2], hi[2];
} bp_cell_rect;

/* A node of the static tree: bounds, and either two children (at index, index + 1) or a leaf's
   run of static_items [index, index + count). */
typedef struct bp_node {
    float min[3], max[3];
    int32_t index;
    int32_t count; /* > 0: leaf */
} bp_node;

/* A static proxy's fat AABB, copied next to its id so that tree leaves are scanned contiguously
   (the proxy itself is read only on overlap). */
typedef struct bp_static_item {
    float min[3], max[3];
    uint32_t proxy; /* UINT32_MAX: a tombstone */
} bp_static_item;

typedef struct broadphase {
    ARRAY(bp_proxy) proxies;
    ARRAY(int32_t) free_proxies; /* LIFO free ids (freed only at update, never while referenced) */
    /* Multi-box pruning: a g[0] x g[1] grid of cells over the grid axes (cell (i, j) is
       cells.data[j * g[0] + i]); each cell holds the sorted sweep-axis endpoints of the dynamic
       proxies whose cell rectangle contains it. Proxies outside the grid clamp to its edge. */
    ARRAY(bp_endpoint_array) cells; /* count >= g[0] * g[1]: extra ones kept for reuse */
    int grid_axis[2], sweep_axis;
    int g[2];
    float grid_origin[2], cell_inv[2]; /* cell index = floor((x - origin) * inv) */
    int outside_count;                 /* sorted dynamics whose centre lies outside the grid */
    double motion[3]; /* summed |centre displacement| of dynamic moves since the last rebuild */
    /* for the debug draw, the axes the structure orders by: slot 0 the sweep axis (sorted in each
       cell), slots 1 and 2 the grid axes (binned into cells) */
    int axis_of_slot[3];
    ARRAY(bp_record) records;
    int32_t free_record; /* free list through next[0], -1 when empty */
    int record_count;
    ARRAY(int32_t) record_moves; /* scratch of records_compact: old index -> new, -1 when free */
    /* pair_key of two dynamic proxies -> their record: in a dense pile a proxy has ~20 records,
       and walking its list on every sweep-axis swap was the broadphase's main cost */
    hash_set record_index;
    ARRAY(int32_t) moved;           /* proxies moved since the last update */
    ARRAY(int32_t) created;         /* proxies created since the last update */
    ARRAY(uint32_t) active;         /* scratch for the rebuild sweep of a cell */
    ARRAY(bp_cell_rect) move_rects; /* scratch for cells_move_all: each moved proxy's new cells */
    ARRAY(bp_candidate) candidates; /* pairs whose state may have changed since the last update */
    bp_key_array scratch_keys[2];
    /* destroyed since the last update (endpoints maybe still in the cells), freed at the next;
       capacity kept >= proxies.capacity, so destroying never allocates */
    ARRAY(int32_t) dead;
    int live_count;
    bool needs_rebuild;
    bool broken; /* an allocation failed mid-update: rebuild next time */
    int updates_since_axis_check;
    /* Static proxies are not in the sorted axes (moving bodies never swap past them): they sit
       in a tree of static_items [0, static_tree_items), then a short list of loose ones added
       since the tree was built. Destroyed or moved statics leave a tombstone (UINT32_MAX). */
    ARRAY(bp_node) nodes;
    ARRAY(bp_static_item) static_items;
    int static_tree_items;
    int static_tombstones;
    ARRAY(int32_t) pending_statics; /* scratch of the update: statics to (re)insert */
    ARRAY(bp_static_item) build_items;
    hash_set pairs; /* the published pair set: pair_key of body indices */
    ARRAY(broadphase_pair) added, removed;
    /* statistics of the last update */
    int last_swaps;
    bool last_rebuilt;
    int last_static_queries; /* static-tree queries made by the last update */
    int static_tree_builds;  /* static-tree builds since init */
    float reach_growth_max;  /* of every dynamic proxy's reach since the last rebuild */
} broadphase;

/* ---- lifetime ---- */
/* expected_proxies (>= 0) only pre-sizes storage. False (with error) when out of memory. */
bool broadphase_init(broadphase *bp, int expected_proxies);
void broadphase_destroy(broadphase *bp);

/* ---- proxies: create, destroy and move at any time between updates ---- */

/* Stores the fat AABB (bounds grown by BROADPHASE_MARGIN). Returns a proxy id >= 0, or -1 with
   cairn_last_error() set when bounds are not finite, min > max on an axis, or memory runs out.
   One proxy per body: body_index must not be shared by two live proxies.
   Creation is deferred: the proxy joins the sorted structure (and the pair set) at the next
   broadphase_update_pairs. Queries see it immediately. Creating many proxies (more than a few
   dozen) before one update is the batch insert: the structure is rebuilt with one sort per axis
   instead of n insertions, so loading a scene costs O(n log n + pairs). */
int broadphase_create_proxy(broadphase *bp, cairn_aabb bounds, uint32_t body_index, uint32_t layer,
                            uint32_t mask, bool is_static);

/* Removes the proxy. Queries stop seeing it at once; its pairs stay in the pair set until the
   next update, which reports them in removed. The id may be reused by a create after that. */
void broadphase_destroy_proxy(broadphase *bp, int proxy);

/* For a body being destroyed, before its proxy (-1 when it has none): its pairs leave the pair
   set at once and are never reported removed (its contacts go with it). A body made at the same
   index before the next update then has its pairs reported added; without this they matched the
   old body's and the new body got no contacts (it fell through the floor it was put on). */
void broadphase_forget_body(broadphase *bp, uint32_t body, int proxy);

/* bounds: the body's current tight AABB; displacement: its expected motion over the next step
   (velocity * dt, not a teleport distance). Does nothing and returns false while bounds stay
   inside the fat AABB. Otherwise re-fattens to (bounds U (bounds + displacement)) grown by the
   margin, schedules the proxy for the next update and returns true. Non-finite bounds or
   displacement, or min > max: returns false with an error, nothing changes.
   Sleeping bodies and static proxies simply are not moved, and then cost nothing. */
bool broadphase_move_proxy(broadphase *bp, int proxy, cairn_aabb bounds, vec3s displacement);

/* Moves the proxy to exactly this fat AABB (no margin added): for tests, editors, teleports. */
bool broadphase_set_fat_aabb(broadphase *bp, int proxy, cairn_aabb fat);

/* ---- the step ---- */

/* Applies pending creates, destroys and moves: insertion sort of the endpoints (O(n + swaps)
   for coherent motion, O(moved + swaps) when few proxies moved), swap-time overlap bookkeeping,
   then publishes the changes. Afterwards the pair set holds exactly the body pairs whose fat
   AABBs overlap on all three axes, excluding static-static pairs, pairs rejected by the filter
   ((layer_a & mask_b) && (layer_b & mask_a) must hold) and a body with itself.
   False only when memory ran out (error set; the pair set may then be incomplete until a later
   update succeeds -- the next update rebuilds). */
bool broadphase_update_pairs(broadphase *bp);

/* This update's changes, sorted by (a, b); valid until the next update or destroy. */
const broadphase_pair *broadphase_added(const broadphase *bp, int *count);
const broadphase_pair *broadphase_removed(const broadphase *bp, int *count);

/* ---- the persistent pair set (as of the last update) ---- */
bool broadphase_pair_exists(const broadphase *bp, uint32_t body_a, uint32_t body_b);
int broadphase_pair_count(const broadphase *bp);
/* int cursor = 0; broadphase_pair pair; while (broadphase_pair_next(bp, &cursor, &pair)) ...
   Deterministic order (depends only on the sequence of operations); do not update meanwhile. */
bool broadphase_pair_next(const broadphase *bp, int *cursor, broadphase_pair *pair);

/* ---- proxy accessors ---- */
cairn_aabb broadphase_fat_aabb(const broadphase *bp, int proxy);
uint32_t broadphase_proxy_body(const broadphase *bp, int proxy);
int broadphase_proxy_count(const broadphase *bp); /* live proxies */

/* ---- queries (against current fat AABBs, pending creates/moves included) ---- */

/* Bodies whose fat AABB overlaps box (closed intervals). Writes up to capacity of them to
   out_bodies (may be NULL when capacity is 0) and returns the total count. */
int broadphase_query_aabb(const broadphase *bp, cairn_aabb box, uint32_t *out_bodies, int capacity);

/* Fat AABBs hit by the segment origin + t * translation, t in [0, 1], reported to fn in order of
   entry (ties by body index). Returns the number of callbacks made, or -1 (error set) when the
   temporary candidate list could not be allocated. */
int broadphase_query_ray(const broadphase *bp, vec3s origin, vec3s translation,
                         broadphase_ray_fn *fn, void *context);

#endif
