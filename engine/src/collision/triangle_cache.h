/* The frame-to-frame simplex cache of a body pair with a mesh or heightfield: what
   cairn_gjk_cache is for one convex pair, kept per part-triangle pair. A body over a mesh meets
   the same few triangles step after step; GJK warm-started from last step's simplex on each
   converges in fewer iterations than from scratch. It also keeps which part-triangle pairs gave
   contact points last step (mesh_collide.h's pressed-in rule), with or without simplex caching. */
#ifndef CAIRN_COLLISION_TRIANGLE_CACHE_H
#define CAIRN_COLLISION_TRIANGLE_CACHE_H

#include <cairn/collision.h>

#include <stdint.h>

/* Part-triangle pairs cached per body pair: a body over triangles a third of its size or more
   meets fewer than this. Further pairs of one step go uncached (the cache never grows: it is
   allocated once per contact, like its extra manifolds). */
enum { TRIANGLE_CACHE_CAPACITY = 16 };

/* One pair's last simplex. The triangle's points are always its corners, so they are kept as
   corner indices; the convex part's are points of its core in its own frame. */
typedef struct triangle_cache_entry {
    uint8_t count;      /* simplex vertices, 0 to 4 */
    uint8_t corners[4]; /* the triangle's corner (0 to 2) in each vertex */
    vec3s points[4];    /* the convex part's point in each vertex, its own frame */
    vec3s axis;         /* the last normal, in the frame of the pair's shape A */
} triangle_cache_entry;

typedef struct triangle_cache {
    uint32_t keys[TRIANGLE_CACHE_CAPACITY]; /* triangle * part count + part: as the feature ids */
    triangle_cache_entry entries[TRIANGLE_CACHE_CAPACITY];
    uint8_t visited[TRIANGLE_CACHE_CAPACITY]; /* by the narrow-phase pass under way */
    int count;
    /* The part-triangle pairs (keys) whose manifolds had points last step, before the points
       were merged and reduced to four per manifold (a pair whose points were all reduced away
       still counts); the first TRIANGLE_CACHE_CAPACITY found. */
    uint32_t touched[TRIANGLE_CACHE_CAPACITY];
    int touched_count;
} triangle_cache;

/* Starts a narrow-phase pass over the pair's triangles: no entry visited yet. */
void triangle_cache_begin(triangle_cache *cache);

/* The cached simplex of the pair `key` as a cairn_gjk_cache for the query (the triangle as
   shape A when triangle_is_a, its corners as the query will see them); a cold (zero) cache when
   the pair has no entry. Returns the entry's slot, or -1. */
int triangle_cache_load(const triangle_cache *cache, uint32_t key, bool triangle_is_a,
                        const vec3s corners[3], cairn_gjk_cache *out);

/* Keeps the simplex the query left in `from` for the pair `key` (slot: what load returned) and
   marks it visited. A simplex whose triangle points are not its corners is not kept; neither is
   a new pair once the cache is full. */
void triangle_cache_store(triangle_cache *cache, int slot, uint32_t key, bool triangle_is_a,
                          const vec3s corners[3], const cairn_gjk_cache *from);

/* Ends the pass: entries not visited (triangles no longer under the part's bounds, parts gone)
   are dropped; the others keep their order. */
void triangle_cache_end(triangle_cache *cache);

#endif
