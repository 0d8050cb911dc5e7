/* hash_set against brute-force models: a bitmap over small keys plus a table of random large
   keys, clustered keys, growth and shrinking, iteration and determinism. */
#include "core/alloc.h"
#include "core/hash_set.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

static uint64_t next_random(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717u;
}

static int compare_keys(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static bool is_power_of_two(int n)
{
    return n > 0 && (n & (n - 1)) == 0;
}

/* The model: small keys in a bitmap, large keys as slots of a fixed random pool. */
enum { SMALL_RANGE = 4096, LARGE_POOL = 1024 };
static bool small_present[SMALL_RANGE];
static uint64_t large_keys[LARGE_POOL];
static bool large_present[LARGE_POOL];

static int model_count(void)
{
    int count = 0;
    for (int i = 0; i < SMALL_RANGE; i++)
        count += small_present[i];
    for (int i = 0; i < LARGE_POOL; i++)
        count += large_present[i];
    return count;
}

/* Every key of the set, sorted; returns how many the iteration produced. */
static int collect_sorted(const hash_set *set, uint64_t *out, int max)
{
    int n = 0, cursor = 0;
    uint64_t key;
    while (hash_set_next(set, &cursor, &key)) {
        cr_assert_lt(n, max, "iteration yields more keys than the set holds");
        out[n++] = key;
    }
    qsort(out, (size_t)n, sizeof *out, compare_keys);
    return n;
}

Test(hash_set, random_operations_match_a_brute_force_model)
{
    size_t start_bytes = cairn_allocated_bytes();
    uint64_t rng = 2024;
    for (int i = 0; i < LARGE_POOL; i++) {
        do
            large_keys[i] = next_random(&rng);
        while (large_keys[i] < SMALL_RANGE);
    }
    hash_set set = {0};
    int count = 0;
    for (int op = 0; op < 100000; op++) {
        uint64_t r = next_random(&rng);
        bool small = r % 10 < 7;
        int slot = (int)((r >> 8) % (small ? SMALL_RANGE : LARGE_POOL));
        uint64_t key = small ? (uint64_t)slot : large_keys[slot];
        bool *present = small ? &small_present[slot] : &large_present[slot];
        int kind = (int)((r >> 40) % 3);
        if (kind == 0) {
            cr_assert_eq(hash_set_add(&set, key), !*present, "add %llu", (unsigned long long)key);
            count += !*present;
            *present = true;
        } else if (kind == 1) {
            cr_assert_eq(hash_set_remove(&set, key), *present);
            count -= *present;
            *present = false;
        } else {
            cr_assert_eq(hash_set_contains(&set, key), *present);
        }
        cr_assert_eq(hash_set_count(&set), count);
        cr_assert_leq(set.count * 2, set.capacity, "load factor above 1/2");
    }
    cr_assert_eq(count, model_count());
    cr_assert_gt(count, 1000);
    for (int i = 0; i < SMALL_RANGE; i++)
        cr_assert_eq(hash_set_contains(&set, (uint64_t)i), small_present[i], "small key %d", i);
    for (int i = 0; i < LARGE_POOL; i++)
        cr_assert_eq(hash_set_contains(&set, large_keys[i]), large_present[i]);

    static uint64_t seen[SMALL_RANGE + LARGE_POOL], expected[SMALL_RANGE + LARGE_POOL];
    int n = collect_sorted(&set, seen, count);
    int m = 0;
    for (int i = 0; i < SMALL_RANGE; i++)
        if (small_present[i])
            expected[m++] = (uint64_t)i;
    for (int i = 0; i < LARGE_POOL; i++)
        if (large_present[i])
            expected[m++] = large_keys[i];
    qsort(expected, (size_t)m, sizeof *expected, compare_keys);
    cr_assert_eq(n, m);
    cr_assert_eq(memcmp(seen, expected, (size_t)n * sizeof *seen), 0,
                 "iteration must visit each key exactly once");
    hash_set_destroy(&set);
    cr_assert_eq(cairn_allocated_bytes(), start_bytes);
}

Test(hash_set, a_tiny_key_range_churns_probe_runs_correctly)
{
    /* A dozen keys in a 16- or 32-slot table: long probe runs and constant backward shifts. */
    enum { KEYS = 12 };
    bool present[KEYS] = {0};
    hash_set set = {0};
    uint64_t rng = 99;
    for (int op = 0; op < 100000; op++) {
        uint64_t r = next_random(&rng);
        int k = (int)(r % KEYS);
        uint64_t key = (uint64_t)(k + 1) << 32; /* equal low halves */
        if ((r >> 32) % 2) {
            cr_assert_eq(hash_set_add(&set, key), !present[k]);
            present[k] = true;
        } else {
            cr_assert_eq(hash_set_remove(&set, key), present[k]);
            present[k] = false;
        }
        for (int j = 0; j < KEYS; j++)
            cr_assert_eq(hash_set_contains(&set, (uint64_t)(j + 1) << 32), present[j]);
    }
    hash_set_destroy(&set);
}

/* The longest run of occupied slots (cyclic): a bad hash piles colliding keys into one run. */
static int longest_run(const hash_set *set)
{
    int longest = 0, run = 0;
    for (int i = 0; i < 2 * set->capacity; i++) {
        run = set->keys[i & (set->capacity - 1)] != 0 ? run + 1 : 0;
        longest = run > longest ? run : longest;
    }
    return longest;
}

Test(hash_set, keys_equal_in_their_low_bits_still_spread)
{
    hash_set set = {0};
    for (uint64_t i = 1; i <= 3000; i++) {
        cr_assert(hash_set_add(&set, i << 32));          /* pair_key(i, 0) style */
        cr_assert(hash_set_add(&set, (i << 40) | 0x7u)); /* same low 40 bits */
    }
    cr_assert_eq(hash_set_count(&set), 6000);
    cr_assert_lt(longest_run(&set), 100, "probe runs of %d slots", longest_run(&set));
    for (uint64_t i = 1; i <= 3000; i++) {
        cr_assert(hash_set_contains(&set, i << 32));
        cr_assert(hash_set_contains(&set, (i << 40) | 0x7u));
        cr_assert_not(hash_set_contains(&set, (i << 40) | 0x6u));
    }
    hash_set_destroy(&set);
}

Test(hash_set, grows_and_shrinks_with_the_key_count)
{
    hash_set set;
    cr_assert(hash_set_init(&set, 0));
    cr_assert_eq(set.capacity, 0, "an empty set holds no memory");
    for (uint64_t k = 1; k <= 10000; k++) {
        cr_assert(hash_set_add(&set, k * 7919));
        cr_assert(is_power_of_two(set.capacity));
        cr_assert_leq(set.count * 2, set.capacity);
    }
    int grown = set.capacity;
    cr_assert_geq(grown, 20000);
    for (uint64_t k = 1; k <= 10000; k++) {
        cr_assert(hash_set_remove(&set, k * 7919));
        cr_assert(is_power_of_two(set.capacity));
        cr_assert_leq(set.count * 2, set.capacity);
        for (uint64_t j = k + 1; j <= k + 3 && j <= 10000; j++)
            cr_assert(hash_set_contains(&set, j * 7919), "key %llu lost", (unsigned long long)j);
    }
    cr_assert_eq(hash_set_count(&set), 0);
    cr_assert_leq(set.capacity, 32, "capacity %d after removing everything", set.capacity);
    hash_set_destroy(&set);
    cr_assert_eq(cairn_allocated_bytes(), 0);
}

Test(hash_set, key_zero_and_the_largest_key_are_ordinary_members)
{
    hash_set set = {0};
    cr_assert_not(hash_set_contains(&set, 0));
    cr_assert_not(hash_set_remove(&set, 0));
    cr_assert(hash_set_add(&set, 0));
    cr_assert_not(hash_set_add(&set, 0));
    cr_assert(hash_set_add(&set, UINT64_MAX));
    cr_assert_eq(hash_set_count(&set), 2);
    uint64_t keys[4];
    cr_assert_eq(collect_sorted(&set, keys, 4), 2);
    cr_assert_eq(keys[0], 0);
    cr_assert_eq(keys[1], UINT64_MAX);
    cr_assert(hash_set_remove(&set, 0));
    cr_assert_not(hash_set_contains(&set, 0));
    cr_assert_eq(hash_set_count(&set), 1);
    hash_set_destroy(&set);
}

Test(hash_set, iteration_order_is_deterministic)
{
    hash_set a = {0}, b = {0};
    uint64_t rng_a = 5, rng_b = 5;
    for (int op = 0; op < 20000; op++) {
        uint64_t ka = next_random(&rng_a) % 5000, kb = next_random(&rng_b) % 5000;
        if (op % 3 == 2) {
            hash_set_remove(&a, ka);
            hash_set_remove(&b, kb);
        } else {
            hash_set_add(&a, ka);
            hash_set_add(&b, kb);
        }
    }
    int ca = 0, cb = 0;
    uint64_t ka, kb;
    int visited = 0;
    for (;;) {
        bool more_a = hash_set_next(&a, &ca, &ka), more_b = hash_set_next(&b, &cb, &kb);
        cr_assert_eq(more_a, more_b);
        if (!more_a)
            break;
        cr_assert_eq(ka, kb, "order differs at key %d", visited);
        visited++;
    }
    cr_assert_eq(visited, hash_set_count(&a));
    hash_set_destroy(&a);
    hash_set_destroy(&b);
}

Test(hash_set, pair_key_orders_its_indices)
{
    cr_assert_eq(pair_key(3, 7), ((uint64_t)3 << 32) | 7);
    cr_assert_eq(pair_key(7, 3), pair_key(3, 7));
    cr_assert_eq(pair_key(UINT32_MAX, 0), (uint64_t)UINT32_MAX);
    cr_assert_eq(pair_key(0, UINT32_MAX), (uint64_t)UINT32_MAX);
    cr_assert_neq(pair_key(1, 2), pair_key(2, 3));
    uint64_t rng = 1;
    for (int i = 0; i < 10000; i++) {
        uint64_t r = next_random(&rng);
        uint32_t a = (uint32_t)r, b = (uint32_t)(r >> 32);
        cr_assert_eq(pair_key(a, b), pair_key(b, a));
        cr_assert_eq((uint32_t)(pair_key(a, b) >> 32), a < b ? a : b);
        cr_assert_eq((uint32_t)pair_key(a, b), a < b ? b : a);
    }
}

Test(hash_set, clear_keeps_capacity_and_reserve_prevents_reallocation)
{
    hash_set set;
    cr_assert(hash_set_init(&set, 1000));
    int capacity = set.capacity;
    uint64_t *keys = set.keys;
    cr_assert_geq(capacity, 2000);
    for (uint64_t k = 0; k < 1000; k++)
        cr_assert(hash_set_add(&set, k * 0x10001u));
    cr_assert_eq(set.keys, keys, "adds within the reservation do not reallocate");
    hash_set_clear(&set);
    cr_assert_eq(hash_set_count(&set), 0);
    cr_assert_eq(set.capacity, capacity);
    for (uint64_t k = 0; k < 1000; k++)
        cr_assert_not(hash_set_contains(&set, k * 0x10001u));
    cr_assert(hash_set_add(&set, 42));
    cr_assert(hash_set_contains(&set, 42));
    hash_set_destroy(&set);
    cr_assert_eq(cairn_allocated_bytes(), 0);
}

/* A map against a brute-force value table: puts, replacements and removals over a small key
   range (long probe runs, backward shifts that must move values with their keys), growth and
   shrinking, key 0 included. */
Test(hash_set, map_values_follow_their_keys_through_churn)
{
    enum { RANGE = 3000, OPS = 200000, ABSENT = -1 };
    static int32_t model[RANGE];
    for (int i = 0; i < RANGE; i++)
        model[i] = ABSENT;
    hash_set map;
    cr_assert(hash_set_init_map(&map, 0));
    uint64_t state = 0x9e3779b97f4a7c15u;
    int present = 0;
    for (int op = 0; op < OPS; op++) {
        uint64_t r = next_random(&state);
        int key = (int)(r % RANGE);
        /* remove more often in the second half, so the table shrinks again */
        bool removing = (r >> 32) % 8 < (op < OPS / 2 ? 2u : 6u);
        if (removing) {
            cr_assert_eq(hash_set_remove(&map, (uint64_t)key), model[key] != ABSENT);
            present -= model[key] != ABSENT;
            model[key] = ABSENT;
        } else {
            int32_t value = (int32_t)(r >> 40);
            cr_assert(hash_set_put(&map, (uint64_t)key, value));
            present += model[key] == ABSENT;
            model[key] = value;
        }
        if (op % 997 == 0)
            for (int k = 0; k < RANGE; k++)
                cr_assert_eq(hash_set_get(&map, (uint64_t)k, ABSENT), model[k], "key %d", k);
    }
    cr_assert_eq(hash_set_count(&map), present);
    for (int k = 0; k < RANGE; k++)
        cr_assert_eq(hash_set_get(&map, (uint64_t)k, ABSENT), model[k], "key %d", k);
    hash_set_destroy(&map);
    cr_assert(map.is_map, "a destroyed map is an empty map");
    cr_assert_eq(hash_set_get(&map, 5, ABSENT), ABSENT);
}
