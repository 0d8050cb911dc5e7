/* The static proxies' tree: a bounding-volume hierarchy built top-down by median splits, a short
   list of loose statics added since it was built, and tombstones for statics taken out. Statics
   never enter the sorted axes, so a moving body never swaps past them and a world that is mostly
   static costs only its moving bodies' tree queries per update. */
#include "broadphase/internal.h"
#include "core/error.h"
#include "core/minmax.h"

#include <math.h>

enum {
    LEAF_ITEMS = 4,  /* statics per leaf */
    TREE_STACK = 64, /* traversal stack: a median-split tree of n items is log2(n) deep */
    LOOSE_SLACK = 16 /* loose items or tombstones tolerated beyond a fraction of the tree */
};

#define NO_ITEM UINT32_MAX

static void visit_item(const broadphase *bp, const bp_static_item *it, const float lo[3],
                       const float hi[3], bp_visit_fn *fn, void *context)
{
    if (it->proxy == NO_ITEM || !bp_boxes_overlap(it->min, it->max, lo, hi))
        return;
    const bp_proxy *p = &bp->proxies.data[it->proxy];
    /* a moved static still sits in the tree until the update (with its old box); it is visited
       from bp->moved */
    if (!(p->flags & (BP_DEAD | BP_MOVED)))
        fn(context, p);
}

void static_visit(const broadphase *bp, const float lo[3], const float hi[3], bp_visit_fn *fn,
                  void *context)
{
    const bp_node *nodes = bp->nodes.data;
    const bp_static_item *items = bp->static_items.data;
    if (bp->nodes.count > 0) {
        /* nodes on the stack overlap the box already: children are tested before the push,
           while their bounds (side by side) are in cache */
        int32_t stack[TREE_STACK];
        int top = 0;
        if (bp_boxes_overlap(nodes[0].min, nodes[0].max, lo, hi))
            stack[top++] = 0;
        while (top > 0) {
            const bp_node *node = &nodes[stack[--top]];
            if (node->count > 0) {
                for (int i = node->index; i < node->index + node->count; i++)
                    visit_item(bp, &items[i], lo, hi, fn, context);
                continue;
            }
            CAIRN_ASSERT(top + 2 <= TREE_STACK);
            for (int c = 1; c >= 0; c--) {
                const bp_node *child = &nodes[node->index + c];
                if (bp_boxes_overlap(child->min, child->max, lo, hi))
                    stack[top++] = node->index + c;
            }
        }
    }
    for (int i = bp->static_tree_items; i < bp->static_items.count; i++)
        visit_item(bp, &items[i], lo, hi, fn, context);
}

/* ---- build ---- */

static float centre2(const bp_static_item *it, int axis)
{
    return it->min[axis] + it->max[axis];
}

/* Partial sort (Hoare partition, quickselect): item k in place, smaller centres before it,
   larger after. O(n) expected, so the whole build is O(n log n). */
static void select_kth(bp_static_item *v, int n, int k, int axis)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        float a = centre2(&v[lo], axis), b = centre2(&v[(lo + hi) / 2], axis),
              c = centre2(&v[hi], axis);
        float pivot =
            max_float(min_float(a, b), min_float(max_float(a, b), c)); /* median of three */
        int i = lo, j = hi;
        while (i <= j) {
            while (centre2(&v[i], axis) < pivot)
                i++;
            while (centre2(&v[j], axis) > pivot)
                j--;
            if (i <= j) {
                bp_static_item t = v[i];
                v[i++] = v[j];
                v[j--] = t;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return;
    }
}

/* Bounds of the items into the node, and the axis along which their centres spread most. */
static int bound_node(bp_node *node, const bp_static_item *v, int n)
{
    float clo[3], chi[3];
    for (int a = 0; a < 3; a++) {
        node->min[a] = v[0].min[a], node->max[a] = v[0].max[a];
        clo[a] = chi[a] = centre2(&v[0], a);
    }
    for (int i = 1; i < n; i++)
        for (int a = 0; a < 3; a++) {
            node->min[a] = min_float(node->min[a], v[i].min[a]);
            node->max[a] = max_float(node->max[a], v[i].max[a]);
            clo[a] = min_float(clo[a], centre2(&v[i], a));
            chi[a] = max_float(chi[a], centre2(&v[i], a));
        }
    int axis = 0;
    for (int a = 1; a < 3; a++)
        if (chi[a] - clo[a] > chi[axis] - clo[axis])
            axis = a;
    return axis;
}

/* Builds the tree over bp->build_items (count n) and makes them the static items. */
static bool build(broadphase *bp, int n)
{
    if (!array_reserve(&bp->nodes, n > 0 ? 2 * n : 1) || !array_reserve(&bp->static_items, n))
        return false;
    bp_static_item *v = bp->build_items.data;
    bp_node *nodes = bp->nodes.data;
    bp->nodes.count = 0;
    if (n > 0) {
        struct {
            int32_t node, begin, end;
        } stack[TREE_STACK];
        int top = 0;
        bp->nodes.count = 1;
        stack[top++].node = 0, stack[0].begin = 0, stack[0].end = n;
        while (top > 0) {
            top--;
            int32_t at = stack[top].node, b = stack[top].begin, e = stack[top].end;
            int axis = bound_node(&nodes[at], v + b, e - b);
            if (e - b <= LEAF_ITEMS) {
                nodes[at].index = b;
                nodes[at].count = e - b;
                continue;
            }
            int32_t mid = b + (e - b) / 2, child = bp->nodes.count;
            select_kth(v + b, e - b, mid - b, axis);
            bp->nodes.count += 2;
            nodes[at].index = child;
            nodes[at].count = 0;
            CAIRN_ASSERT(top + 2 <= TREE_STACK);
            stack[top].node = child, stack[top].begin = b, stack[top].end = mid;
            top++;
            stack[top].node = child + 1, stack[top].begin = mid, stack[top].end = e;
            top++;
        }
    }
    for (int i = 0; i < n; i++) {
        bp->static_items.data[i] = v[i];
        bp->proxies.data[v[i].proxy].static_item = i;
    }
    bp->static_items.count = n;
    bp->static_tree_items = n;
    bp->static_tombstones = 0;
    bp->static_tree_builds++;
    return true;
}

static bp_static_item item_of(const broadphase *bp, uint32_t id)
{
    const bp_proxy *p = &bp->proxies.data[id];
    bp_static_item it;
    for (int a = 0; a < 3; a++)
        it.min[a] = p->min[a], it.max[a] = p->max[a];
    it.proxy = id;
    return it;
}

bool static_build_all(broadphase *bp)
{
    if (!array_reserve(&bp->build_items, bp->live_count))
        return false;
    array_clear(&bp->build_items);
    for (int i = 0; i < bp->proxies.count; i++) {
        bp_proxy *p = &bp->proxies.data[i];
        if ((p->flags & (BP_STATIC | BP_DEAD)) == BP_STATIC)
            bp->build_items.data[bp->build_items.count++] = item_of(bp, (uint32_t)i);
    }
    return build(bp, bp->build_items.count);
}

bool static_maybe_rebuild(broadphase *bp)
{
    /* every query scans the loose list, and a rebuild costs O(n log n): about sqrt(n) loose
       items balance the two when statics keep being added one by one */
    int loose = bp->static_items.count - bp->static_tree_items;
    int limit = LOOSE_SLACK + (int)sqrt((double)bp->static_tree_items);
    if (loose <= limit && bp->static_tombstones <= LOOSE_SLACK + bp->static_tree_items / 4)
        return true;
    if (!array_reserve(&bp->build_items, bp->static_items.count))
        return false;
    array_clear(&bp->build_items);
    for (int i = 0; i < bp->static_items.count; i++)
        if (bp->static_items.data[i].proxy != NO_ITEM)
            bp->build_items.data[bp->build_items.count++] = bp->static_items.data[i];
    return build(bp, bp->build_items.count);
}

void static_forget(broadphase *bp, uint32_t p)
{
    bp_proxy *proxy = &bp->proxies.data[p];
    if (proxy->static_item < 0)
        return;
    bp->static_items.data[proxy->static_item].proxy = NO_ITEM;
    proxy->static_item = -1;
    bp->static_tombstones++;
}

bool static_append(broadphase *bp, uint32_t p)
{
    if (!array_push(&bp->static_items, item_of(bp, p)))
        return false;
    bp->proxies.data[p].static_item = bp->static_items.count - 1;
    return true;
}
