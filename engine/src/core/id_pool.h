/* Generational ids: a slot index plus a generation counter, so ids of destroyed objects are
   recognised as stale instead of silently reaching whatever reused their slot. */
#ifndef CAIRN_CORE_ID_POOL_H
#define CAIRN_CORE_ID_POOL_H

#include "core/array.h"

/* Null-id rule: generations start at 1 and 0 is never handed out, so any {index, 0} -- in
   particular the null id {0, 0} -- is never valid. Index 0 is a normal slot, which keeps
   per-object arrays dense from index 0.

   Reuse order: LIFO. The most recently freed index is handed out first, so the index range
   stays as compact as the live set (arrays indexed by id stay small and hot in cache). Delaying
   reuse (FIFO) would only matter with narrow generations; ours are 32-bit, and freeing bumps the
   generation, so a stale id can only match again after 2^32 - 1 reuses of the same slot. */

typedef struct id_slot {
    uint32_t generation; /* current generation of the slot, never 0 */
    bool alive;
} id_slot;

typedef struct id_pool {
    ARRAY(id_slot) slots;
    ARRAY(uint32_t) free_indices; /* LIFO stack; capacity kept >= slots.capacity */
    int live_count;
} id_pool;

/* The generation after g, skipping 0 on wrap-around. */
static inline uint32_t id_generation_next(uint32_t generation)
{
    return generation == UINT32_MAX ? 1u : generation + 1u;
}

/* Starts empty with room for `capacity` ids (0 is fine). False when out of memory. */
bool id_pool_init(id_pool *pool, int capacity);
void id_pool_destroy(id_pool *pool);

/* Hands out a fresh id. False (pool unchanged) when out of memory or out of indices. */
bool id_pool_alloc(id_pool *pool, uint32_t *index, uint32_t *generation);
/* Releases a live id. False, and nothing changes, when the id is stale, null or never existed. */
bool id_pool_free(id_pool *pool, uint32_t index, uint32_t generation);
bool id_pool_is_valid(const id_pool *pool, uint32_t index, uint32_t generation);

/* Number of live ids. */
int id_pool_count(const id_pool *pool);
/* One past the largest index ever handed out: the size arrays indexed by id need. */
int id_pool_index_bound(const id_pool *pool);

#endif
