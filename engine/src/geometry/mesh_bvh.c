/* Mesh BVH: a top-down build with binned SAH over triangle centroids, and stack-based box and
   ray traversals. */
#include "geometry/mesh_bvh.h"

#include "core/alloc.h"
#include "core/minmax.h"

#include <float.h>
#include <math.h>
#include <string.h>

enum { SAH_BINS = 16 };

typedef struct box3 {
    float min[3], max[3];
} box3;

static box3 box_empty(void)
{
    return (box3){{FLT_MAX, FLT_MAX, FLT_MAX}, {-FLT_MAX, -FLT_MAX, -FLT_MAX}};
}

static void box_add_point(box3 *b, vec3s p)
{
    for (int k = 0; k < 3; ++k) {
        b->min[k] = min_float(b->min[k], p.raw[k]);
        b->max[k] = max_float(b->max[k], p.raw[k]);
    }
}

static void box_add_box(box3 *b, const box3 *other)
{
    for (int k = 0; k < 3; ++k) {
        b->min[k] = min_float(b->min[k], other->min[k]);
        b->max[k] = max_float(b->max[k], other->max[k]);
    }
}

static float box_half_area(const box3 *b)
{
    float x = b->max[0] - b->min[0], y = b->max[1] - b->min[1], z = b->max[2] - b->min[2];
    return x < 0.0f ? 0.0f : x * y + y * z + z * x;
}

/* Per-triangle data the build reads: bounds and centroid. */
typedef struct build_item {
    box3 bounds;
    float centroid[3];
} build_item;

typedef struct builder {
    build_item *items;
    int (*triangles)[3];
    int *order;
    bvh_node *nodes;
    int node_count;
} builder;

static void swap_items(builder *b, int i, int j)
{
    build_item item = b->items[i];
    b->items[i] = b->items[j];
    b->items[j] = item;
    int t[3];
    memcpy(t, b->triangles[i], sizeof t);
    memcpy(b->triangles[i], b->triangles[j], sizeof t);
    memcpy(b->triangles[j], t, sizeof t);
    int o = b->order[i];
    b->order[i] = b->order[j];
    b->order[j] = o;
}

typedef struct split {
    int axis;
    float position; /* centroids below go left */
    float cost;
} split;

/* The triangles of a node binned along one axis: each bin's bounds and count. */
typedef struct axis_bins {
    box3 bounds[SAH_BINS];
    int counts[SAH_BINS];
    float lo, scale; /* bin = (centroid - lo) * scale */
    bool usable;     /* the centroids spread along the axis */
} axis_bins;

/* Bins the node's triangles along the three axes in one pass over them. */
static void bin_items(const builder *b, int first, int count, const box3 *centroids,
                      axis_bins bins[3])
{
    for (int axis = 0; axis < 3; ++axis) {
        axis_bins *a = &bins[axis];
        float extent = centroids->max[axis] - centroids->min[axis];
        a->usable = extent > 0.0f;
        a->lo = centroids->min[axis];
        a->scale = a->usable ? SAH_BINS / extent : 0.0f;
        for (int i = 0; i < SAH_BINS; ++i) {
            a->bounds[i] = box_empty();
            a->counts[i] = 0;
        }
    }
    for (int i = first; i < first + count; ++i) {
        const build_item *item = &b->items[i];
        for (int axis = 0; axis < 3; ++axis) {
            axis_bins *a = &bins[axis];
            if (!a->usable)
                continue;
            int bin = (int)((item->centroid[axis] - a->lo) * a->scale);
            bin = bin < 0 ? 0 : bin >= SAH_BINS ? SAH_BINS - 1 : bin;
            a->counts[bin]++;
            box_add_box(&a->bounds[bin], &item->bounds);
        }
    }
}

/* The cheapest of the SAH_BINS - 1 planes between equal bins on each axis of the centroid
   bounds (cost: half area times triangle count of each side). */
static split best_split(const builder *b, int first, int count, const box3 *centroids)
{
    axis_bins bins[3];
    bin_items(b, first, count, centroids, bins);
    split best = {-1, 0.0f, FLT_MAX};
    for (int axis = 0; axis < 3; ++axis) {
        const axis_bins *a = &bins[axis];
        if (!a->usable)
            continue;
        /* Right-side costs from the top, then sweep from the bottom. */
        float right_cost[SAH_BINS];
        box3 right = box_empty();
        int right_count = 0;
        for (int i = SAH_BINS - 1; i > 0; --i) {
            box_add_box(&right, &a->bounds[i]);
            right_count += a->counts[i];
            right_cost[i] = box_half_area(&right) * (float)right_count;
        }
        box3 left = box_empty();
        int left_count = 0;
        for (int i = 0; i < SAH_BINS - 1; ++i) {
            box_add_box(&left, &a->bounds[i]);
            left_count += a->counts[i];
            if (left_count == 0 || left_count == count)
                continue;
            float cost = box_half_area(&left) * (float)left_count + right_cost[i + 1];
            if (cost < best.cost)
                best = (split){axis, a->lo + (float)(i + 1) / a->scale, cost};
        }
    }
    return best;
}

/* A run of items (a node's triangles) with its bounds and its centroids' bounds. */
typedef struct item_range {
    int first, count;
    box3 bounds, centroids;
} item_range;

static void range_add(item_range *r, const build_item *item)
{
    box_add_box(&r->bounds, &item->bounds);
    box_add_point(&r->centroids,
                  (vec3s){{item->centroid[0], item->centroid[1], item->centroid[2]}});
}

static item_range range_measure(const builder *b, int first, int count)
{
    item_range r = {first, count, box_empty(), box_empty()};
    for (int i = first; i < first + count; ++i)
        range_add(&r, &b->items[i]);
    return r;
}

/* Moves the items whose centroids lie below the split to the front of the range, measuring both
   sides as it goes (the children's bounds without another pass over their items). Without a
   usable split (all centroids equal, or all on one side) the range is halved by position. */
static void partition(builder *b, const item_range *r, split s, item_range *left, item_range *right)
{
    int mid = r->first;
    *left = (item_range){r->first, 0, box_empty(), box_empty()};
    *right = *left;
    if (s.axis >= 0)
        for (int i = r->first; i < r->first + r->count; ++i) {
            bool below = b->items[i].centroid[s.axis] < s.position;
            range_add(below ? left : right, &b->items[i]);
            if (below)
                swap_items(b, i, mid++);
        }
    int count = mid - r->first;
    if (count == 0 || count == r->count) {
        *left = range_measure(b, r->first, r->count / 2);
        *right = range_measure(b, r->first + r->count / 2, r->count - r->count / 2);
        return;
    }
    left->count = count;
    *right = (item_range){mid, r->count - count, right->bounds, right->centroids};
}

static void build_node(builder *b, const item_range *r, int depth)
{
    int index = b->node_count++;
    bvh_node *node = &b->nodes[index];
    memcpy(node->min, r->bounds.min, sizeof node->min);
    memcpy(node->max, r->bounds.max, sizeof node->max);
    if (r->count <= BVH_LEAF_TRIANGLES || depth >= BVH_MAX_DEPTH - 1) {
        /* The depth bound only binds on adversarial input; its leaves may then be large. */
        node->index = r->first;
        node->count = r->count;
        return;
    }
    split s = best_split(b, r->first, r->count, &r->centroids);
    item_range left, right;
    partition(b, r, s, &left, &right);
    build_node(b, &left, depth + 1);
    int right_index = b->node_count;
    build_node(b, &right, depth + 1);
    b->nodes[index].index = right_index;
    b->nodes[index].count = 0;
}

bool bvh_build(mesh_bvh *bvh, const vec3s *vertices, int (*triangles)[3], int *order, int count)
{
    size_t capacity = 2 * (size_t)count;
    builder b = {mem_alloc((size_t)count * sizeof(build_item)), triangles, order,
                 mem_alloc(capacity * sizeof(bvh_node)), 0};
    if (b.items == NULL || b.nodes == NULL) {
        mem_free(b.items, (size_t)count * sizeof(build_item));
        mem_free(b.nodes, capacity * sizeof(bvh_node));
        return false;
    }
    for (int i = 0; i < count; ++i) {
        build_item *item = &b.items[i];
        item->bounds = box_empty();
        for (int c = 0; c < 3; ++c)
            box_add_point(&item->bounds, vertices[triangles[i][c]]);
        for (int k = 0; k < 3; ++k)
            item->centroid[k] = 0.5f * (item->bounds.min[k] + item->bounds.max[k]);
    }
    item_range all = range_measure(&b, 0, count);
    build_node(&b, &all, 0);
    mem_free(b.items, (size_t)count * sizeof(build_item));
    /* Shrink to what was used (at most 2 count - 1 nodes). */
    bvh_node *nodes =
        mem_realloc(b.nodes, capacity * sizeof(bvh_node), (size_t)b.node_count * sizeof(bvh_node));
    bvh->nodes = nodes ? nodes : b.nodes; /* a failed shrink keeps the larger block */
    bvh->capacity = nodes ? b.node_count : (int)capacity;
    bvh->node_count = b.node_count;
    return true;
}

void bvh_destroy(mesh_bvh *bvh)
{
    mem_free(bvh->nodes, (size_t)bvh->capacity * sizeof(bvh_node));
    bvh->nodes = NULL;
    bvh->node_count = bvh->capacity = 0;
}

static bool node_overlaps(const bvh_node *node, cairn_aabb box)
{
    for (int k = 0; k < 3; ++k)
        if (node->min[k] > box.max.raw[k] || box.min.raw[k] > node->max[k])
            return false;
    return true;
}

void bvh_query_box(const mesh_bvh *bvh, cairn_aabb box, bvh_leaf_fn *visit, void *context)
{
    int stack[BVH_MAX_DEPTH + 1], top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const bvh_node *node = &bvh->nodes[stack[--top]];
        if (!node_overlaps(node, box))
            continue;
        if (node->count > 0) {
            if (!visit(context, node->index, node->count))
                return;
            continue;
        }
        stack[top++] = node->index;
        stack[top++] = (int)(node - bvh->nodes) + 1;
    }
}

/* Entry parameter of the segment into the node's box (slab test), or INFINITY when it misses
   within [0, max_t]. inverse = 1 / d per axis (+-inf for a zero component). */
static float node_entry(const bvh_node *node, vec3s origin, vec3s inverse, float max_t)
{
    float enter = 0.0f, leave = max_t;
    for (int k = 0; k < 3; ++k) {
        /* Grown by a relative epsilon: rounding must not lose a triangle lying on a box face. */
        float slack = 1e-5f * (fabsf(node->min[k]) + fabsf(node->max[k]) + 1e-3f);
        float lo = node->min[k] - slack, hi = node->max[k] + slack;
        if (inverse.raw[k] == INFINITY || inverse.raw[k] == -INFINITY) {
            /* d parallel to the slab: inside iff the origin is within it */
            if (origin.raw[k] < lo || origin.raw[k] > hi)
                return INFINITY;
            continue;
        }
        float t0 = (lo - origin.raw[k]) * inverse.raw[k];
        float t1 = (hi - origin.raw[k]) * inverse.raw[k];
        enter = max_float(enter, min_float(t0, t1));
        leave = min_float(leave, max_float(t0, t1));
    }
    return enter <= leave ? enter : INFINITY;
}

void bvh_query_ray(const mesh_bvh *bvh, vec3s origin, vec3s d, float *max_t, bvh_ray_fn *visit,
                   void *context)
{
    vec3s inverse = {{1.0f / d.x, 1.0f / d.y, 1.0f / d.z}};
    int stack[BVH_MAX_DEPTH + 1];
    float entry[BVH_MAX_DEPTH + 1];
    int top = 0;
    float root = node_entry(&bvh->nodes[0], origin, inverse, *max_t);
    if (root == INFINITY)
        return;
    stack[top] = 0;
    entry[top++] = root;
    while (top > 0) {
        --top;
        if (entry[top] > *max_t)
            continue;
        const bvh_node *node = &bvh->nodes[stack[top]];
        if (node->count > 0) {
            visit(context, node->index, node->count, max_t);
            continue;
        }
        int left = (int)(node - bvh->nodes) + 1, right = node->index;
        float t_left = node_entry(&bvh->nodes[left], origin, inverse, *max_t);
        float t_right = node_entry(&bvh->nodes[right], origin, inverse, *max_t);
        /* Push the farther first so the nearer is visited first. */
        if (t_left > t_right) {
            int n = left;
            left = right, right = n;
            float t = t_left;
            t_left = t_right, t_right = t;
        }
        if (t_right < INFINITY)
            stack[top] = right, entry[top++] = t_right;
        if (t_left < INFINITY)
            stack[top] = left, entry[top++] = t_left;
    }
}
