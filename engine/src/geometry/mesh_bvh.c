/* Mesh BVH: a top-down build with binned SAH over triangle centroids, and stack-based box and
   ray traversals. */
#include "geometry/mesh_bvh.h"

#include "core/alloc.h"

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
        b->min[k] = fminf(b->min[k], p.raw[k]);
        b->max[k] = fmaxf(b->max[k], p.raw[k]);
    }
}

static void box_add_box(box3 *b, const box3 *other)
{
    for (int k = 0; k < 3; ++k) {
        b->min[k] = fminf(b->min[k], other->min[k]);
        b->max[k] = fmaxf(b->max[k], other->max[k]);
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

/* The cheapest of the SAH_BINS - 1 planes between equal bins on each axis of the centroid
   bounds (cost: half area times triangle count of each side). */
static split best_split(const builder *b, int first, int count, const box3 *centroids)
{
    split best = {-1, 0.0f, FLT_MAX};
    for (int axis = 0; axis < 3; ++axis) {
        float lo = centroids->min[axis], extent = centroids->max[axis] - lo;
        if (!(extent > 0.0f))
            continue;
        box3 bins[SAH_BINS];
        int counts[SAH_BINS] = {0};
        for (int i = 0; i < SAH_BINS; ++i)
            bins[i] = box_empty();
        float scale = SAH_BINS / extent;
        for (int i = first; i < first + count; ++i) {
            int bin = (int)((b->items[i].centroid[axis] - lo) * scale);
            bin = bin < 0 ? 0 : bin >= SAH_BINS ? SAH_BINS - 1 : bin;
            counts[bin]++;
            box_add_box(&bins[bin], &b->items[i].bounds);
        }
        /* Right-side costs from the top, then sweep from the bottom. */
        float right_cost[SAH_BINS];
        box3 right = box_empty();
        int right_count = 0;
        for (int i = SAH_BINS - 1; i > 0; --i) {
            box_add_box(&right, &bins[i]);
            right_count += counts[i];
            right_cost[i] = box_half_area(&right) * (float)right_count;
        }
        box3 left = box_empty();
        int left_count = 0;
        for (int i = 0; i < SAH_BINS - 1; ++i) {
            box_add_box(&left, &bins[i]);
            left_count += counts[i];
            if (left_count == 0 || left_count == count)
                continue;
            float cost = box_half_area(&left) * (float)left_count + right_cost[i + 1];
            if (cost < best.cost)
                best = (split){axis, lo + (float)(i + 1) / scale, cost};
        }
    }
    return best;
}

/* Moves centroids below the split to the front; returns how many. Without a usable split (all
   centroids equal) the range is halved by position. */
static int partition(builder *b, int first, int count, split s)
{
    if (s.axis < 0)
        return count / 2;
    int mid = first;
    for (int i = first; i < first + count; ++i)
        if (b->items[i].centroid[s.axis] < s.position)
            swap_items(b, i, mid++);
    int left = mid - first;
    return left == 0 || left == count ? count / 2 : left;
}

static void build_node(builder *b, int first, int count, int depth)
{
    int index = b->node_count++;
    box3 bounds = box_empty(), centroids = box_empty();
    for (int i = first; i < first + count; ++i) {
        box_add_box(&bounds, &b->items[i].bounds);
        box_add_point(&centroids, (vec3s){{b->items[i].centroid[0], b->items[i].centroid[1],
                                           b->items[i].centroid[2]}});
    }
    bvh_node *node = &b->nodes[index];
    memcpy(node->min, bounds.min, sizeof node->min);
    memcpy(node->max, bounds.max, sizeof node->max);
    if (count <= BVH_LEAF_TRIANGLES || depth >= BVH_MAX_DEPTH - 1) {
        /* The depth bound only binds on adversarial input; its leaves may then be large. */
        node->index = first;
        node->count = count;
        return;
    }
    split s = best_split(b, first, count, &centroids);
    int left = partition(b, first, count, s);
    build_node(b, first, left, depth + 1);
    int right = b->node_count;
    build_node(b, first + left, count - left, depth + 1);
    b->nodes[index].index = right;
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
    build_node(&b, 0, count, 0);
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
        enter = fmaxf(enter, fminf(t0, t1));
        leave = fminf(leave, fmaxf(t0, t1));
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
