/* Open-addressing uint64 set with linear probing and backward-shift deletion (see hash_set.h). */
#include "core/hash_set.h"
#include "core/alloc.h"
#include "core/error.h"

#include <string.h>

enum { MIN_CAPACITY = 16, MAX_CAPACITY = 1 << 30 };

/* splitmix64's finaliser: every input bit reaches every output bit, so pair keys that differ
   only in their high (min index) half still spread over the low bits used as the slot. */
static uint64_t mix(uint64_t key)
{
    key ^= key >> 30;
    key *= 0xbf58476d1ce4e5b9u;
    key ^= key >> 27;
    key *= 0x94d049bb133111ebu;
    key ^= key >> 31;
    return key;
}

static int home_slot(const hash_set *set, uint64_t key)
{
    return (int)(mix(key) & (uint64_t)(set->capacity - 1));
}

/* The slot holding key, or the empty slot where it would go. The table is never full. */
static int find_slot(const hash_set *set, uint64_t key)
{
    int mask = set->capacity - 1;
    int slot = home_slot(set, key);
    while (set->keys[slot] != 0 && set->keys[slot] != key)
        slot = (slot + 1) & mask;
    return slot;
}

static bool rehash(hash_set *set, int new_capacity)
{
    uint64_t *keys = mem_calloc((size_t)new_capacity, sizeof *keys);
    int32_t *values = set->is_map ? mem_calloc((size_t)new_capacity, sizeof *values) : NULL;
    if (keys == NULL || (set->is_map && values == NULL)) {
        mem_free(keys, (size_t)new_capacity * sizeof *keys);
        mem_free(values, (size_t)new_capacity * sizeof *values);
        return false;
    }
    hash_set old = *set;
    set->keys = keys;
    set->values = values;
    set->capacity = new_capacity;
    for (int i = 0; i < old.capacity; i++) {
        if (old.keys[i] == 0)
            continue;
        int slot = find_slot(set, old.keys[i]);
        set->keys[slot] = old.keys[i];
        if (values)
            values[slot] = old.values[i];
    }
    mem_free(old.keys, (size_t)old.capacity * sizeof *old.keys);
    mem_free(old.values, (size_t)old.capacity * sizeof *old.values);
    return true;
}

/* Smallest power-of-two capacity keeping `count` keys at load <= 1/2; 0 when too large. */
static int capacity_for(int count)
{
    int capacity = MIN_CAPACITY;
    while (capacity / 2 < count) {
        if (capacity >= MAX_CAPACITY)
            return 0;
        capacity *= 2;
    }
    return capacity;
}

bool hash_set_init(hash_set *set, int expected_count)
{
    *set = (hash_set){0};
    return expected_count <= 0 || hash_set_reserve(set, expected_count);
}

bool hash_set_init_map(hash_set *set, int expected_count)
{
    *set = (hash_set){.is_map = true};
    return expected_count <= 0 || hash_set_reserve(set, expected_count);
}

void hash_set_destroy(hash_set *set)
{
    mem_free(set->keys, (size_t)set->capacity * sizeof *set->keys);
    mem_free(set->values, (size_t)set->capacity * sizeof *set->values);
    *set = (hash_set){.is_map = set->is_map}; /* empty, and still a map when it was one */
}

bool hash_set_reserve(hash_set *set, int count)
{
    if (set->capacity > 0 && count <= set->capacity / 2) /* every add: no doubling loop */
        return true;
    int wanted = capacity_for(count);
    if (wanted == 0)
        return error_set("hash set of %d keys is too large", count);
    return wanted <= set->capacity || rehash(set, wanted);
}

bool hash_set_add(hash_set *set, uint64_t key)
{
    CAIRN_ASSERT(!set->is_map); /* a map's keys come with values: hash_set_put */
    if (key == 0) {
        bool added = !set->has_zero;
        set->has_zero = true;
        return added;
    }
    if (set->capacity > 0 && set->keys[find_slot(set, key)] == key)
        return false;
    /* If growing fails the key still goes in while a slot beyond the probe's stopping point is
       free: a fuller table is slower, not wrong. */
    if (!hash_set_reserve(set, set->count + 1) &&
        (set->capacity == 0 || set->count + 1 >= set->capacity))
        return false;
    set->keys[find_slot(set, key)] = key;
    set->count++;
    return true;
}

/* Backward-shift deletion: pull later members of the probe run into the hole whenever their
   home slot does not lie cyclically in (hole, slot], so every key stays reachable from home. */
static void delete_slot(hash_set *set, int hole)
{
    int mask = set->capacity - 1;
    int slot = hole;
    for (;;) {
        slot = (slot + 1) & mask;
        uint64_t key = set->keys[slot];
        if (key == 0)
            break;
        int home = home_slot(set, key);
        if (((slot - home) & mask) >= ((slot - hole) & mask)) {
            set->keys[hole] = key;
            if (set->values)
                set->values[hole] = set->values[slot];
            hole = slot;
        }
    }
    set->keys[hole] = 0;
}

bool hash_set_remove(hash_set *set, uint64_t key)
{
    if (key == 0) {
        bool removed = set->has_zero;
        set->has_zero = false;
        return removed;
    }
    if (set->capacity == 0)
        return false;
    int slot = find_slot(set, key);
    if (set->keys[slot] != key)
        return false;
    delete_slot(set, slot);
    set->count--;
    /* Shrink at 1/8 load so a set that spiked once does not stay large; halving lands at 1/4,
       away from the growth threshold, so add/remove at the boundary cannot thrash. A failed
       shrink just keeps the larger table. */
    if (set->capacity > MIN_CAPACITY && set->count < set->capacity / 8)
        rehash(set, set->capacity / 2);
    return true;
}

bool hash_set_contains(const hash_set *set, uint64_t key)
{
    if (key == 0)
        return set->has_zero;
    return set->capacity > 0 && set->keys[find_slot(set, key)] == key;
}

bool hash_set_put(hash_set *set, uint64_t key, int32_t value)
{
    CAIRN_ASSERT(set->is_map);
    if (key == 0) {
        set->has_zero = true;
        set->zero_value = value;
        return true;
    }
    if (set->capacity > 0) {
        int slot = find_slot(set, key);
        if (set->keys[slot] == key) {
            set->values[slot] = value;
            return true;
        }
    }
    if (!hash_set_reserve(set, set->count + 1))
        return false;
    int slot = find_slot(set, key);
    set->keys[slot] = key;
    set->values[slot] = value;
    set->count++;
    return true;
}

int32_t hash_set_get(const hash_set *set, uint64_t key, int32_t missing)
{
    CAIRN_ASSERT(set->is_map);
    if (key == 0)
        return set->has_zero ? set->zero_value : missing;
    if (set->capacity == 0)
        return missing;
    int slot = find_slot(set, key);
    return set->keys[slot] == key ? set->values[slot] : missing;
}

int hash_set_count(const hash_set *set)
{
    return set->count + (set->has_zero ? 1 : 0);
}

void hash_set_clear(hash_set *set)
{
    if (set->keys)
        memset(set->keys, 0, (size_t)set->capacity * sizeof *set->keys);
    set->count = 0;
    set->has_zero = false;
}

bool hash_set_next(const hash_set *set, int *cursor, uint64_t *key)
{
    /* Cursor 0 is key 0; cursor i + 1 is table slot i. */
    if (*cursor == 0) {
        *cursor = 1;
        if (set->has_zero) {
            *key = 0;
            return true;
        }
    }
    for (int slot = *cursor - 1; slot < set->capacity; slot++) {
        if (set->keys[slot] != 0) {
            *key = set->keys[slot];
            *cursor = slot + 2;
            return true;
        }
    }
    *cursor = set->capacity + 1;
    return false;
}
