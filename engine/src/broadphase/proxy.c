/* Broadphase lifetime and proxies: create, destroy, move (fat AABB re-fattening), accessors. */
#include "broadphase/internal.h"
#include "core/error.h"

#include <math.h>
#include <string.h>

bool broadphase_init(broadphase *bp, int expected_proxies)
{
    memset(bp, 0, sizeof *bp);
    bp->free_record = -1;
    bp->axis_of_slot[0] = 2, bp->axis_of_slot[1] = 0, bp->axis_of_slot[2] = 1;
    bp->needs_rebuild = true; /* the first update chooses the axes from what it finds */
    int n = expected_proxies > 0 ? expected_proxies : 0;
    hash_set_init_map(&bp->record_index, 0);
    if (n > 0 && (!array_reserve(&bp->proxies, n) || !array_reserve(&bp->free_proxies, n) ||
                  !array_reserve(&bp->dead, n) || !hash_set_init(&bp->pairs, 2 * n))) {
        broadphase_destroy(bp);
        return error_set("broadphase_init: out of memory for %d proxies", n);
    }
    return true;
}

void broadphase_destroy(broadphase *bp)
{
    array_free(&bp->proxies);
    array_free(&bp->free_proxies);
    array_free(&bp->dead);
    for (int c = 0; c < bp->cells.count; c++)
        array_free(&bp->cells.data[c]);
    array_free(&bp->cells);
    array_free(&bp->records);
    array_free(&bp->record_moves);
    array_free(&bp->moved);
    array_free(&bp->created);
    array_free(&bp->active);
    array_free(&bp->move_rects);
    array_free(&bp->candidates);
    array_free(&bp->scratch_keys[0]);
    array_free(&bp->scratch_keys[1]);
    array_free(&bp->added);
    array_free(&bp->removed);
    array_free(&bp->nodes);
    array_free(&bp->static_items);
    array_free(&bp->pending_statics);
    array_free(&bp->build_items);
    hash_set_destroy(&bp->pairs);
    hash_set_destroy(&bp->record_index);
    memset(bp, 0, sizeof *bp);
    bp->free_record = -1;
    hash_set_init_map(&bp->record_index, 0); /* allocates nothing */
}

static bool check_aabb(const char *function, cairn_aabb box)
{
    const float *lo = box.min.raw, *hi = box.max.raw;
    for (int a = 0; a < 3; a++) {
        if (!isfinite(lo[a]) || !isfinite(hi[a]))
            return error_set("%s: bounds are not finite (axis %d: [%g, %g])", function, a,
                             (double)lo[a], (double)hi[a]);
        if (lo[a] > hi[a])
            return error_set("%s: bounds have min > max on axis %d (%g > %g)", function, a,
                             (double)lo[a], (double)hi[a]);
    }
    return true;
}

static bool check_proxy(const char *function, const broadphase *bp, int proxy)
{
    if (proxy < 0 || proxy >= bp->proxies.count || (bp->proxies.data[proxy].flags & BP_DEAD))
        return error_set("%s: %d is not a live proxy", function, proxy);
    return true;
}

int broadphase_create_proxy(broadphase *bp, cairn_aabb bounds, uint32_t body_index, uint32_t layer,
                            uint32_t mask, bool is_static)
{
    if (!check_aabb("broadphase_create_proxy", bounds))
        return -1;
    if (!array_grow(&bp->created, bp->created.count + 1))
        return error_set("broadphase_create_proxy: out of memory"), -1;
    int id;
    if (bp->free_proxies.count > 0) {
        id = array_pop(&bp->free_proxies);
    } else {
        if (!array_grow(&bp->proxies, bp->proxies.count + 1) ||
            !array_reserve(&bp->free_proxies, bp->proxies.capacity) ||
            !array_reserve(&bp->dead, bp->proxies.capacity))
            return error_set("broadphase_create_proxy: out of memory"), -1;
        id = bp->proxies.count++;
    }
    bp_proxy *p = &bp->proxies.data[id];
    memset(p, 0, sizeof *p);
    for (int a = 0; a < 3; a++) {
        p->min[a] = bounds.min.raw[a] - BROADPHASE_MARGIN;
        p->max[a] = bounds.max.raw[a] + BROADPHASE_MARGIN;
    }
    p->body = body_index;
    p->layer = layer;
    p->mask = mask;
    p->pair_head = -1;
    p->static_item = -1;
    p->flags = BP_CREATED | (is_static ? BP_STATIC : 0u);
    bp->created.data[bp->created.count++] = id;
    bp->live_count++;
    return id;
}

void broadphase_destroy_proxy(broadphase *bp, int proxy)
{
    if (!check_proxy("broadphase_destroy_proxy", bp, proxy)) {
        CAIRN_ASSERT(false);
        return;
    }
    record_remove_all(bp, (uint32_t)proxy);
    bp_proxy *p = &bp->proxies.data[proxy];
    if (p->flags & BP_STATIC)
        static_forget(bp, (uint32_t)proxy); /* the tree must not hold the id once it is reused */
    /* its endpoints leave the cells at the next update; they are skipped until then */
    p->flags |= BP_DEAD;
    (void)array_push(&bp->dead, proxy); /* capacity kept >= proxies.capacity */
    bp->live_count--;
}

/* Stores the new fat AABB and schedules the proxy for the next update. */
static bool schedule(broadphase *bp, int proxy, const float lo[3], const float hi[3])
{
    bp_proxy *p = &bp->proxies.data[proxy];
    if (!(p->flags & (BP_MOVED | BP_CREATED))) {
        if (!array_push(&bp->moved, proxy))
            return error_set("broadphase_move_proxy: out of memory");
        p->flags |= BP_MOVED;
    }
    if (!(p->flags & (BP_STATIC | BP_CREATED)))
        for (int a = 0; a < 3; a++) /* which way things move steers the sweep axis */
            bp->motion[a] += 0.5 * fabs((double)lo[a] + hi[a] - p->min[a] - p->max[a]);
    memcpy(p->min, lo, sizeof p->min);
    memcpy(p->max, hi, sizeof p->max);
    return true;
}

bool broadphase_move_proxy(broadphase *bp, int proxy, cairn_aabb bounds, vec3s displacement)
{
    if (!check_proxy("broadphase_move_proxy", bp, proxy) ||
        !check_aabb("broadphase_move_proxy", bounds))
        return false;
    const float *d = displacement.raw;
    if (!isfinite(d[0]) || !isfinite(d[1]) || !isfinite(d[2]))
        return error_set("broadphase_move_proxy: displacement is not finite");
    const bp_proxy *p = &bp->proxies.data[proxy];
    const float *tlo = bounds.min.raw, *thi = bounds.max.raw;
    /* The box swept over the coming step must stay inside the fat AABB, not just the box where
       it is now: otherwise a fast body near the far end of its fat AABB would meet a thin wall
       within the step with no pair to make a speculative contact from. */
    float lo[3], hi[3];
    bool inside = true;
    for (int a = 0; a < 3; a++) { /* d is finite: a branch, not a libm call */
        lo[a] = d[a] < 0 ? tlo[a] + d[a] : tlo[a];
        hi[a] = d[a] > 0 ? thi[a] + d[a] : thi[a];
        inside = inside && lo[a] >= p->min[a] && hi[a] <= p->max[a];
    }
    if (inside)
        return false;
    for (int a = 0; a < 3; a++) {
        lo[a] -= BROADPHASE_MARGIN;
        hi[a] += BROADPHASE_MARGIN;
    }
    return schedule(bp, proxy, lo, hi);
}

bool broadphase_set_fat_aabb(broadphase *bp, int proxy, cairn_aabb fat)
{
    if (!check_proxy("broadphase_set_fat_aabb", bp, proxy) ||
        !check_aabb("broadphase_set_fat_aabb", fat))
        return false;
    return schedule(bp, proxy, fat.min.raw, fat.max.raw);
}

cairn_aabb broadphase_fat_aabb(const broadphase *bp, int proxy)
{
    CAIRN_ASSERT(proxy >= 0 && proxy < bp->proxies.count);
    const bp_proxy *p = &bp->proxies.data[proxy];
    return (cairn_aabb){{{p->min[0], p->min[1], p->min[2]}}, {{p->max[0], p->max[1], p->max[2]}}};
}

uint32_t broadphase_proxy_body(const broadphase *bp, int proxy)
{
    CAIRN_ASSERT(proxy >= 0 && proxy < bp->proxies.count);
    return bp->proxies.data[proxy].body;
}

int broadphase_proxy_count(const broadphase *bp)
{
    return bp->live_count;
}
