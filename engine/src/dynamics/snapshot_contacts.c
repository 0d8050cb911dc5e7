/* The contact record of a snapshot, field by field in a fixed order (little-endian floats and
   integers as the header's byte-order mark says):

   body_a, body_b (u32), friction, restitution, rolling resistance (f32), surface_velocity
   (3 f32), flags (u8),
   the GJK cache (count u8, axis, count pairs of local points), the pair cache when valid
   (relative position, rotation, local normal, margin), the first manifold, then when the flags say
   so the number of extra manifolds (u8) and each with its local normal; then the number of
   triangle cache entries (u8, 0 without a cache), each its key (u32), vertex count (u8), that
   many corner indices (u8) and convex points, and its axis. A manifold: normal, friction
   impulse (3 f32 each), twist impulse (f32), rolling impulse (3 f32), point count (u8), and each
   live point whole.

   Unused slots (cache points past its count, manifold points past theirs, extra manifolds past
   theirs) are not stored and come back zeroed: nothing reads them. */
#include "dynamics/snapshot_contacts.h"

#include "collision/query.h"
#include "core/error.h"

enum {
    FLAG_TOUCHING = 1,
    FLAG_DISABLED = 2,
    FLAG_WAS_TOUCHING = 4,
    FLAG_SENSOR = 8,
    FLAG_OVERLAPPING = 16,
    FLAG_SENSOR_STALE = 32,
    FLAG_REUSE_VALID = 64,
    FLAG_EXTRA = 128
};

static uint8_t flags_of(const contact *k)
{
    return (uint8_t)((k->touching ? FLAG_TOUCHING : 0) | (k->disabled ? FLAG_DISABLED : 0) |
                     (k->was_touching ? FLAG_WAS_TOUCHING : 0) | (k->is_sensor ? FLAG_SENSOR : 0) |
                     (k->overlapping ? FLAG_OVERLAPPING : 0) |
                     (k->sensor_stale ? FLAG_SENSOR_STALE : 0) |
                     (k->reuse.valid ? FLAG_REUSE_VALID : 0) | (k->extra ? FLAG_EXTRA : 0));
}

static void put_u8(cursor *c, int value)
{
    uint8_t byte = (uint8_t)value;
    put(c, &byte, 1);
}

static void put_manifold(cursor *c, const manifold *m)
{
    put(c, &m->normal, sizeof m->normal);
    put(c, &m->friction_impulse, sizeof m->friction_impulse);
    put(c, &m->twist_impulse, sizeof m->twist_impulse);
    put(c, &m->rolling_impulse, sizeof m->rolling_impulse);
    put_u8(c, m->point_count);
    put(c, m->points, sizeof(manifold_point) * (size_t)m->point_count);
}

static void put_cache(cursor *c, const cairn_gjk_cache *cache)
{
    gjk_cache_data data;
    memcpy(&data, cache, sizeof data);
    int count = data.count >= 0 && data.count <= 4 ? data.count : 0;
    put_u8(c, count);
    put(c, &data.axis, sizeof data.axis);
    put(c, data.a_local, sizeof(vec3s) * (size_t)count);
    put(c, data.b_local, sizeof(vec3s) * (size_t)count);
}

static void put_triangles(cursor *c, const triangle_cache *cache)
{
    int count = cache ? cache->count : 0;
    put_u8(c, count);
    for (int i = 0; i < count; ++i) {
        const triangle_cache_entry *e = &cache->entries[i];
        put(c, &cache->keys[i], sizeof cache->keys[i]);
        put_u8(c, e->count);
        put(c, e->corners, e->count);
        put(c, e->points, sizeof(vec3s) * e->count);
        put(c, &e->axis, sizeof e->axis);
    }
    int touched = cache ? cache->touched_count : 0;
    put_u8(c, touched);
    if (touched > 0)
        put(c, cache->touched, sizeof cache->touched[0] * (size_t)touched);
}

static void put_contact(cursor *c, const contact *k)
{
    put(c, &k->body_a, sizeof k->body_a);
    put(c, &k->body_b, sizeof k->body_b);
    put(c, &k->friction, sizeof k->friction);
    put(c, &k->restitution, sizeof k->restitution);
    put(c, &k->rolling_resistance, sizeof k->rolling_resistance);
    put(c, &k->surface_velocity, sizeof k->surface_velocity);
    put_u8(c, flags_of(k));
    put_cache(c, &k->cache);
    if (k->reuse.valid) {
        /* position and rotation apart: the padding between them is undefined */
        put(c, &k->reuse.relative.position, sizeof k->reuse.relative.position);
        put(c, &k->reuse.relative.rotation, sizeof k->reuse.relative.rotation);
        put(c, &k->reuse.local_normal, sizeof k->reuse.local_normal);
        put(c, &k->reuse.margin, sizeof k->reuse.margin);
        put(c, &k->reuse.gap, sizeof k->reuse.gap);
        put(c, &k->reuse.reach_b, sizeof k->reuse.reach_b);
        put_u8(c, k->reuse.symmetry_a);
        put_u8(c, k->reuse.symmetry_b);
    }
    put_manifold(c, &k->manifold);
    if (k->extra) {
        put_u8(c, k->extra->count);
        for (int i = 0; i < k->extra->count; ++i) {
            put_manifold(c, &k->extra->manifolds[i]);
            put(c, &k->extra->local_normals[i], sizeof(vec3s));
        }
    }
    put_triangles(c, k->triangles);
}

void snapshot_put_contacts(cursor *c, const contact_array *contacts)
{
    for (int i = 0; i < contacts->count; ++i)
        put_contact(c, &contacts->data[i]);
}

/* A count byte within [0, most]; false (error set) otherwise. */
static bool take_count(cursor *c, int most, int *count, const char *what, uint32_t index)
{
    uint8_t byte;
    if (!take(c, &byte, 1))
        return false;
    if (byte > most)
        return error_set("cairn_world_restore: contact %u has %u %s (at most %d)", index, byte,
                         what, most);
    *count = byte;
    return true;
}

static bool take_manifold(cursor *c, manifold *m, uint32_t index)
{
    return take(c, &m->normal, sizeof m->normal) &&
           take(c, &m->friction_impulse, sizeof m->friction_impulse) &&
           take(c, &m->twist_impulse, sizeof m->twist_impulse) &&
           take(c, &m->rolling_impulse, sizeof m->rolling_impulse) &&
           take_count(c, MANIFOLD_MAX_POINTS, &m->point_count, "manifold points", index) &&
           take(c, m->points, sizeof(manifold_point) * (size_t)m->point_count);
}

static bool take_cache(cursor *c, cairn_gjk_cache *cache, uint32_t index)
{
    gjk_cache_data data;
    memset(&data, 0, sizeof data);
    if (!take_count(c, 4, &data.count, "cached simplex points", index) ||
        !take(c, &data.axis, sizeof data.axis) ||
        !take(c, data.a_local, sizeof(vec3s) * (size_t)data.count) ||
        !take(c, data.b_local, sizeof(vec3s) * (size_t)data.count))
        return false;
    memset(cache, 0, sizeof *cache);
    memcpy(cache, &data, sizeof data);
    return true;
}

static bool take_head(cursor *c, contact *k, uint8_t *flags)
{
    return take(c, &k->body_a, sizeof k->body_a) && take(c, &k->body_b, sizeof k->body_b) &&
           take(c, &k->friction, sizeof k->friction) &&
           take(c, &k->restitution, sizeof k->restitution) &&
           take(c, &k->rolling_resistance, sizeof k->rolling_resistance) &&
           take(c, &k->surface_velocity, sizeof k->surface_velocity) && take(c, flags, 1);
}

static void set_flags(contact *k, uint8_t flags)
{
    k->touching = flags & FLAG_TOUCHING;
    k->disabled = flags & FLAG_DISABLED;
    k->was_touching = flags & FLAG_WAS_TOUCHING;
    k->is_sensor = flags & FLAG_SENSOR;
    k->overlapping = flags & FLAG_OVERLAPPING;
    k->sensor_stale = flags & FLAG_SENSOR_STALE;
    k->reuse.valid = flags & FLAG_REUSE_VALID;
}

static bool take_extra(cursor *c, manifold_extra *extra, uint32_t index)
{
    memset(extra, 0, sizeof *extra);
    if (!take_count(c, CONTACT_MAX_MANIFOLDS - 1, &extra->count, "extra manifolds", index))
        return false;
    for (int i = 0; i < extra->count; ++i)
        if (!take_manifold(c, &extra->manifolds[i], index) ||
            !take(c, &extra->local_normals[i], sizeof(vec3s)))
            return false;
    return true;
}

/* A cache entry's corners must name corners: a restored index reads corners[index]. */
static bool take_entry(cursor *c, triangle_cache_entry *e, uint32_t index)
{
    int count = 0;
    if (!take_count(c, 4, &count, "cached triangle simplex points", index) ||
        !take(c, e->corners, (size_t)count) || !take(c, e->points, sizeof(vec3s) * (size_t)count) ||
        !take(c, &e->axis, sizeof e->axis))
        return false;
    e->count = (uint8_t)count;
    for (int v = 0; v < count; ++v)
        if (e->corners[v] > 2)
            return error_set("cairn_world_restore: contact %u caches triangle corner %u", index,
                             e->corners[v]);
    return true;
}

static bool take_triangles(cursor *c, triangle_cache *cache, bool *has, uint32_t index)
{
    memset(cache, 0, sizeof *cache);
    if (!take_count(c, TRIANGLE_CACHE_CAPACITY, &cache->count, "triangle cache entries", index))
        return false;
    for (int i = 0; i < cache->count; ++i)
        if (!take(c, &cache->keys[i], sizeof cache->keys[i]) ||
            !take_entry(c, &cache->entries[i], index))
            return false;
    if (!take_count(c, TRIANGLE_CACHE_CAPACITY, &cache->touched_count, "touched triangles",
                    index) ||
        !take(c, cache->touched, sizeof cache->touched[0] * (size_t)cache->touched_count))
        return false;
    *has = cache->count > 0 || cache->touched_count > 0;
    return true;
}

bool snapshot_take_contact(cursor *c, uint32_t index, int body_slots, contact *out,
                           contact_blocks *blocks)
{
    contact k;
    memset(&k, 0, sizeof k);
    uint8_t flags;
    if (!take_head(c, &k, &flags))
        return false;
    if (k.body_a >= k.body_b || k.body_b >= (uint32_t)body_slots)
        return error_set("cairn_world_restore: contact %u names bodies %u and %u", index, k.body_a,
                         k.body_b);
    set_flags(&k, flags);
    if (!take_cache(c, &k.cache, index))
        return false;
    if (k.reuse.valid && !(take(c, &k.reuse.relative.position, sizeof k.reuse.relative.position) &&
                           take(c, &k.reuse.relative.rotation, sizeof k.reuse.relative.rotation) &&
                           take(c, &k.reuse.local_normal, sizeof k.reuse.local_normal) &&
                           take(c, &k.reuse.margin, sizeof k.reuse.margin) &&
                           take(c, &k.reuse.gap, sizeof k.reuse.gap) &&
                           take(c, &k.reuse.reach_b, sizeof k.reuse.reach_b) &&
                           take(c, &k.reuse.symmetry_a, 1) && take(c, &k.reuse.symmetry_b, 1)))
        return false;
    /* a gap lets the narrow phase skip the pair: only a real one (pair_cache.c) */
    if (k.reuse.valid && !(k.reuse.gap >= 0.0f && k.reuse.gap <= 1e6f && k.reuse.reach_b >= 0.0f &&
                           k.reuse.reach_b <= 1e6f && k.reuse.symmetry_a <= SYMMETRY_AXIS_Y &&
                           k.reuse.symmetry_b <= SYMMETRY_AXIS_Y))
        return error_set(
            "cairn_world_restore: contact %u has a pair-cache gap of %g m, reach %g m, "
            "symmetries %u and %u",
            index, (double)k.reuse.gap, (double)k.reuse.reach_b, (unsigned)k.reuse.symmetry_a,
            (unsigned)k.reuse.symmetry_b);
    if (!take_manifold(c, &k.manifold, index))
        return false;
    blocks->has_extra = flags & FLAG_EXTRA;
    if (blocks->has_extra && !take_extra(c, &blocks->extra, index))
        return false;
    if (!take_triangles(c, &blocks->triangles, &blocks->has_triangles, index))
        return false;
    *out = k;
    return true;
}
