/* Per-triangle simplex caches of mesh and heightfield pairs: lookup by part-triangle key,
   conversion to and from the convex pairs' cairn_gjk_cache, and dropping stale entries. */
#include "collision/triangle_cache.h"

#include "collision/query.h"

#include <string.h>

void triangle_cache_begin(triangle_cache *cache)
{
    memset(cache->visited, 0, sizeof cache->visited);
}

/* A linear scan: at most TRIANGLE_CACHE_CAPACITY keys, one cache line of them. */
static int find(const triangle_cache *cache, uint32_t key)
{
    for (int i = 0; i < cache->count; ++i)
        if (cache->keys[i] == key)
            return i;
    return -1;
}

int triangle_cache_load(const triangle_cache *cache, uint32_t key, bool triangle_is_a,
                        const vec3s corners[3], cairn_gjk_cache *out)
{
    memset(out, 0, sizeof *out);
    int slot = find(cache, key);
    if (slot < 0)
        return -1;
    const triangle_cache_entry *e = &cache->entries[slot];
    gjk_cache_data data;
    memset(&data, 0, sizeof data);
    for (int i = 0; i < e->count; ++i) {
        vec3s corner = corners[e->corners[i]];
        data.a_local[i] = triangle_is_a ? corner : e->points[i];
        data.b_local[i] = triangle_is_a ? e->points[i] : corner;
    }
    data.count = e->count;
    data.axis = e->axis;
    memcpy(out, &data, sizeof data);
    return slot;
}

/* The corner equal to p (the triangle's support points are its corners, bit for bit), or -1. */
static int corner_of(const vec3s corners[3], vec3s p)
{
    for (int k = 0; k < 3; ++k)
        if (glms_vec3_eqv(corners[k], p))
            return k;
    return -1;
}

/* The entry for a query's simplex; false when a triangle point is not a corner. */
static bool entry_of(const gjk_cache_data *data, bool triangle_is_a, const vec3s corners[3],
                     triangle_cache_entry *e)
{
    if (data->count < 0 || data->count > 4)
        return false;
    memset(e, 0, sizeof *e);
    for (int i = 0; i < data->count; ++i) {
        int corner = corner_of(corners, triangle_is_a ? data->a_local[i] : data->b_local[i]);
        if (corner < 0)
            return false;
        e->corners[i] = (uint8_t)corner;
        e->points[i] = triangle_is_a ? data->b_local[i] : data->a_local[i];
    }
    e->count = (uint8_t)data->count;
    e->axis = data->axis;
    return true;
}

void triangle_cache_store(triangle_cache *cache, int slot, uint32_t key, bool triangle_is_a,
                          const vec3s corners[3], const cairn_gjk_cache *from)
{
    gjk_cache_data data;
    memcpy(&data, from, sizeof data);
    triangle_cache_entry e;
    if (!entry_of(&data, triangle_is_a, corners, &e))
        return; /* unvisited, a stale entry goes at the end of the pass */
    if (slot < 0) {
        if (cache->count == TRIANGLE_CACHE_CAPACITY)
            return;
        slot = cache->count++;
        cache->keys[slot] = key;
    }
    cache->entries[slot] = e;
    cache->visited[slot] = 1;
}

void triangle_cache_end(triangle_cache *cache)
{
    int kept = 0;
    for (int i = 0; i < cache->count; ++i) {
        if (!cache->visited[i])
            continue;
        cache->keys[kept] = cache->keys[i];
        cache->entries[kept] = cache->entries[i];
        cache->visited[kept] = 0;
        ++kept;
    }
    cache->count = kept;
}
