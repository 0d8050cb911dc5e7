/* Brute-force reference for the broadphase tests: a model of live proxies and the O(n^2) set of
   body pairs whose fat AABBs overlap (closed intervals), with the same filter rules. */
#ifndef CAIRN_TEST_BROADPHASE_ORACLE_H
#define CAIRN_TEST_BROADPHASE_ORACLE_H

#include "broadphase/broadphase.h"

#include <criterion/criterion.h>
#include <stdlib.h>

static inline uint64_t oracle_random(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717u;
}

/* Uniform in [lo, hi). */
static inline float oracle_uniform(uint64_t *state, float lo, float hi)
{
    return lo + (hi - lo) * (float)((oracle_random(state) >> 40) * (1.0 / 16777216.0));
}

typedef struct oracle_body {
    int proxy; /* -1 when not alive */
    uint32_t body, layer, mask;
    bool is_static;
} oracle_body;

static inline bool oracle_overlap(cairn_aabb a, cairn_aabb b)
{
    return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y &&
           a.min.z <= b.max.z && b.min.z <= a.max.z;
}

static inline bool oracle_filter(const oracle_body *a, const oracle_body *b)
{
    if (a->is_static && b->is_static)
        return false;
    if (a->body == b->body)
        return false;
    return (a->layer & b->mask) && (b->layer & a->mask);
}

static inline int oracle_compare_keys(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* Sorted keys of every expected pair; returns the count. *keys is malloc'ed (caller frees). */
static inline int oracle_pairs(const broadphase *bp, const oracle_body *bodies, int n,
                               uint64_t **keys)
{
    int count = 0, capacity = 1024;
    uint64_t *out = malloc((size_t)capacity * sizeof *out);
    cairn_aabb *fat = malloc((size_t)(n > 0 ? n : 1) * sizeof *fat);
    for (int i = 0; i < n; i++)
        if (bodies[i].proxy >= 0)
            fat[i] = broadphase_fat_aabb(bp, bodies[i].proxy);
    for (int i = 0; i < n; i++) {
        if (bodies[i].proxy < 0)
            continue;
        for (int j = i + 1; j < n; j++) {
            if (!oracle_overlap(fat[i], fat[j]) || bodies[j].proxy < 0 ||
                !oracle_filter(&bodies[i], &bodies[j]))
                continue;
            if (count == capacity) {
                capacity *= 2;
                out = realloc(out, (size_t)capacity * sizeof *out);
            }
            out[count++] = pair_key(bodies[i].body, bodies[j].body);
        }
    }
    free(fat);
    qsort(out, (size_t)count, sizeof *out, oracle_compare_keys);
    *keys = out;
    return count;
}

/* The published pair set equals the expected keys exactly. */
static inline void oracle_check_set(const broadphase *bp, const uint64_t *keys, int count)
{
    cr_assert_eq(broadphase_pair_count(bp), count, "pair count %d, brute force %d",
                 broadphase_pair_count(bp), count);
    for (int i = 0; i < count; i++)
        if (!broadphase_pair_exists(bp, (uint32_t)(keys[i] >> 32), (uint32_t)keys[i]))
            cr_assert_fail("missing pair (%u, %u)", (unsigned)(keys[i] >> 32), (unsigned)keys[i]);
}

#endif
