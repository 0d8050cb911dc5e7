/* Game queries on the broadphase: bodies whose fat AABB overlaps a box, and a ray against the fat
   AABBs in order of entry. */
#include "broadphase/internal.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/minmax.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Dynamic proxies sit in every cell of their rectangle: each is reported only from the cell at
   the low corner of its rectangle's intersection with the query's, so once. */
void bp_visit_sorted(const broadphase *bp, const float lo[3], const float hi[3], bp_visit_fn *fn,
                     void *context)
{
    if (bp->g[0] == 0)
        return; /* nothing sorted in yet */
    const bp_proxy *px = bp->proxies.data;
    const uint32_t skip = BP_DEAD | BP_MOVED | BP_CREATED;
    int32_t rlo[2], rhi[2];
    grid_rect(bp, lo, hi, rlo, rhi);
    float top = hi[bp->sweep_axis];
    for (int32_t j = rlo[1]; j <= rhi[1]; j++)
        for (int32_t i = rlo[0]; i <= rhi[0]; i++) {
            const bp_endpoint_array *cell = &bp->cells.data[j * bp->g[0] + i];
            for (int k = 0; k < cell->count && cell->data[k].value <= top; k++) {
                bp_endpoint ep = cell->data[k];
                const bp_proxy *p = &px[ep.id >> 1];
                if ((ep.id & 1u) || (p->flags & skip))
                    continue;
                int32_t oi = p->cell_lo[0] > rlo[0] ? p->cell_lo[0] : rlo[0];
                int32_t oj = p->cell_lo[1] > rlo[1] ? p->cell_lo[1] : rlo[1];
                if (oi == i && oj == j && bp_overlap_box(p, lo, hi))
                    fn(context, p);
            }
        }
}

/* Every live proxy overlapping [lo, hi], once: the sorted dynamics, the statics in their tree,
   then the proxies moved or created since the last update from their lists. */
static void visit(const broadphase *bp, const float lo[3], const float hi[3], bp_visit_fn *fn,
                  void *context)
{
    const bp_proxy *px = bp->proxies.data;
    bp_visit_sorted(bp, lo, hi, fn, context);
    static_visit(bp, lo, hi, fn, context);
    for (int k = 0; k < bp->moved.count; k++) {
        const bp_proxy *p = &px[bp->moved.data[k]];
        if (!(p->flags & BP_DEAD) && bp_overlap_box(p, lo, hi))
            fn(context, p);
    }
    for (int k = 0; k < bp->created.count; k++) {
        const bp_proxy *p = &px[bp->created.data[k]];
        if (!(p->flags & BP_DEAD) && bp_overlap_box(p, lo, hi))
            fn(context, p);
    }
}

typedef struct aabb_query {
    uint32_t *out;
    int capacity, count;
} aabb_query;

static void collect_body(void *context, const bp_proxy *p)
{
    aabb_query *q = context;
    if (q->count < q->capacity)
        q->out[q->count] = p->body;
    q->count++;
}

static bool finite3(vec3s v)
{
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

int broadphase_query_aabb(const broadphase *bp, cairn_aabb box, uint32_t *out_bodies, int capacity)
{
    if (!finite3(box.min) || !finite3(box.max))
        return error_set("broadphase_query_aabb: box is not finite"), 0;
    aabb_query q = {out_bodies, out_bodies ? capacity : 0, 0};
    visit(bp, box.min.raw, box.max.raw, collect_body, &q);
    return q.count;
}

/* ---- ray ---- */

typedef struct ray_hit {
    float t;
    uint32_t body;
} ray_hit;

/* Candidates of one ray fit on the stack unless the ray crosses a crowd: only then is memory
   allocated (the heap copy grows geometrically). */
enum { RAY_STACK_HITS = 256 };

typedef struct ray_query {
    float origin[3], delta[3];
    ray_hit *hits; /* stack_hits, or heap memory once they overflow */
    int count, capacity;
    bool failed;
    ray_hit stack_hits[RAY_STACK_HITS];
} ray_query;

static void free_hits(ray_query *r)
{
    if (r->hits != r->stack_hits)
        mem_free(r->hits, (size_t)r->capacity * sizeof *r->hits);
}

/* Slab test on the closed box, t in [0, 1]; t_enter is 0 when the origin is inside. */
static bool ray_enters(const ray_query *r, const bp_proxy *p, float *t_enter)
{
    float t0 = 0.0f, t1 = 1.0f;
    for (int a = 0; a < 3; a++) {
        float o = r->origin[a], d = r->delta[a];
        if (d == 0.0f) {
            if (o < p->min[a] || o > p->max[a])
                return false;
            continue;
        }
        float ta = (p->min[a] - o) / d, tb = (p->max[a] - o) / d;
        t0 = max_float(t0, min_float(ta, tb));
        t1 = min_float(t1, max_float(ta, tb));
        if (t0 > t1)
            return false;
    }
    *t_enter = t0;
    return true;
}

static void collect_hit(void *context, const bp_proxy *p)
{
    ray_query *r = context;
    float t;
    if (r->failed || !ray_enters(r, p, &t))
        return;
    if (r->count == r->capacity) {
        int grown = 2 * r->capacity;
        ray_hit *hits = mem_alloc((size_t)grown * sizeof *hits);
        if (hits == NULL) {
            r->failed = true;
            return;
        }
        memcpy(hits, r->hits, (size_t)r->count * sizeof *hits);
        free_hits(r);
        r->hits = hits;
        r->capacity = grown;
    }
    r->hits[r->count++] = (ray_hit){t, p->body};
}

static int compare_hits(const void *x, const void *y)
{
    const ray_hit *a = x, *b = y;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return (a->body > b->body) - (a->body < b->body);
}

int broadphase_query_ray(const broadphase *bp, vec3s origin, vec3s translation,
                         broadphase_ray_fn *fn, void *context)
{
    if (!finite3(origin) || !finite3(translation))
        return error_set("broadphase_query_ray: ray is not finite"), -1;
    ray_query r; /* not zero-initialised: the stack store is written before it is read */
    for (int a = 0; a < 3; a++)
        r.origin[a] = origin.raw[a], r.delta[a] = translation.raw[a];
    r.hits = r.stack_hits;
    r.count = 0;
    r.capacity = RAY_STACK_HITS;
    r.failed = false;
    float lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        lo[a] = fminf(r.origin[a], r.origin[a] + r.delta[a]);
        hi[a] = fmaxf(r.origin[a], r.origin[a] + r.delta[a]);
    }
    visit(bp, lo, hi, collect_hit, &r);
    if (r.failed) {
        free_hits(&r);
        return error_set("broadphase_query_ray: out of memory"), -1;
    }
    if (r.count > 1)
        qsort(r.hits, (size_t)r.count, sizeof *r.hits, compare_hits);
    float max_t = 1.0f;
    int calls = 0;
    for (int i = 0; i < r.count && r.hits[i].t <= max_t; i++) {
        float result = fn(context, r.hits[i].body, r.hits[i].t);
        calls++;
        if (result == 0.0f)
            break;
        if (result > 0.0f && result < max_t)
            max_t = result;
    }
    free_hits(&r);
    return calls;
}
