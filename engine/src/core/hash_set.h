/* A set of 64-bit keys (body pairs, mostly): open addressing, linear probing, power-of-two
   table at most half full, backward-shift deletion so there are no tombstones. A set made with
   hash_set_init_map also carries an int32 value per key (a map; values in a parallel array, so a
   plain set pays nothing for them). */
#ifndef CAIRN_CORE_HASH_SET_H
#define CAIRN_CORE_HASH_SET_H

#include <cairn/base.h>

/* Every uint64 is a valid key. A table slot holding 0 means "empty", so key 0 itself lives in
   the has_zero flag instead of the table; pair_key(0, 0) is therefore storable too. */
typedef struct hash_set {
    uint64_t *keys; /* capacity slots, 0 = empty */
    int capacity;   /* 0 or a power of two >= 16 */
    int count;      /* non-zero keys in the table */
    bool has_zero;
    bool is_map;     /* values are kept */
    int32_t *values; /* a map's value of keys[i], NULL until the table exists */
    int32_t zero_value;
} hash_set;

/* The key of an unordered pair of indices: pair_key(a, b) == pair_key(b, a). */
static inline uint64_t pair_key(uint32_t a, uint32_t b)
{
    return a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
}

/* An empty set holds no memory: hash_set s = {0} is valid, as is init with capacity 0. */
bool hash_set_init(hash_set *set, int expected_count);
/* The same for a map: use hash_set_put and hash_set_get instead of hash_set_add. */
bool hash_set_init_map(hash_set *set, int expected_count);
void hash_set_destroy(hash_set *set);

/* Makes room so the next adds up to `count` keys in total allocate nothing (and cannot fail). */
bool hash_set_reserve(hash_set *set, int count);

/* True when the key was newly added. False when it was already present -- or, with
   cairn_last_error() set, when memory ran out and it could not be stored (the table stays valid;
   call hash_set_reserve first where that must not happen). */
bool hash_set_add(hash_set *set, uint64_t key);
/* True when the key was present (and is now gone). May shrink the table. */
bool hash_set_remove(hash_set *set, uint64_t key);
bool hash_set_contains(const hash_set *set, uint64_t key);
/* A map's key gets the value (added, or replaced). False, with cairn_last_error() set, when
   memory ran out (the map is unchanged). */
bool hash_set_put(hash_set *set, uint64_t key, int32_t value);
/* A map's value of the key, or `missing` when the key is absent. */
int32_t hash_set_get(const hash_set *set, uint64_t key, int32_t missing);
int hash_set_count(const hash_set *set);
/* Removes every key, keeps the memory. */
void hash_set_clear(hash_set *set);

/* Iteration: int cursor = 0; uint64_t key; while (hash_set_next(&set, &cursor, &key)) ...
   Visits every key once (key 0 first, then table order). The order depends only on the
   sequence of operations, so it is deterministic. Do not modify the set while iterating. */
bool hash_set_next(const hash_set *set, int *cursor, uint64_t *key);

#endif
