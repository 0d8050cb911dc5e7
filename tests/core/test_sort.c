/* SORT_DEFINE against qsort: random arrays of every size up to 600 and a few large ones, with and
   without repeated values, and the patterns that make a plain quicksort quadratic (sorted,
   reversed, all equal, organ pipe, sawtooth), whose comparison counts must stay n log n. */
#include "core/sort.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t next_random(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717u;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Counts comparisons through a pointer the test owns (tests may keep state; the library not). */
static long *comparisons;

static bool u64_less(const uint64_t *a, const uint64_t *b)
{
    ++*comparisons;
    return *a < *b;
}

SORT_DEFINE(sort_u64, uint64_t, u64_less)

/* A struct with a strict total order on two fields, as the broadphase's endpoints have. */
typedef struct item {
    float value;
    uint32_t id;
} item;

static bool item_less(const item *a, const item *b)
{
    return a->value != b->value ? a->value < b->value : a->id < b->id;
}

static int compare_items(const void *x, const void *y)
{
    const item *a = x, *b = y;
    return item_less(a, b) ? -1 : item_less(b, a) ? 1 : 0;
}

SORT_DEFINE(sort_items, item, item_less)

static void expect_sorts_like_qsort(uint64_t *data, int n, const char *what)
{
    uint64_t *expected = malloc(sizeof *expected * (size_t)(n + 1));
    cr_assert_not_null(expected);
    memcpy(expected, data, sizeof *data * (size_t)n);
    qsort(expected, (size_t)n, sizeof *expected, compare_u64);
    long count = 0;
    comparisons = &count;
    sort_u64(data, n);
    cr_expect_arr_eq(data, expected, sizeof *data * (size_t)n, "%s, n = %d", what, n);
    free(expected);
}

Test(sort, random_arrays_of_every_size_match_qsort)
{
    uint64_t state = 0x50f7u;
    uint64_t data[600];
    for (int n = 0; n <= 600; ++n) {
        for (int i = 0; i < n; ++i)
            data[i] = next_random(&state);
        expect_sorts_like_qsort(data, n, "distinct");
        for (int i = 0; i < n; ++i)
            data[i] = next_random(&state) % 7; /* many repeats */
        expect_sorts_like_qsort(data, n, "repeats");
    }
}

Test(sort, large_arrays_match_qsort)
{
    uint64_t state = 0xb16u;
    enum { N = 100000 };
    uint64_t *data = malloc(sizeof *data * N);
    cr_assert_not_null(data);
    for (int i = 0; i < N; ++i)
        data[i] = next_random(&state) >> 40;
    expect_sorts_like_qsort(data, N, "large");
    free(data);
}

Test(sort, structs_with_a_total_order_match_qsort)
{
    uint64_t state = 0x17e5u;
    enum { N = 3000 };
    item a[N], b[N];
    for (int i = 0; i < N; ++i) {
        a[i] = (item){(float)(next_random(&state) % 50) * 0.25f - 3.0f, (uint32_t)i};
        if (i % 5 == 0)
            a[i].value = -0.0f; /* equal to 0.0f: the ids decide */
    }
    memcpy(b, a, sizeof a);
    qsort(b, N, sizeof *b, compare_items);
    sort_items(a, N);
    for (int i = 0; i < N; ++i) {
        cr_expect(a[i].id == b[i].id, "index %d: id %u, qsort %u", i, a[i].id, b[i].id);
        if (a[i].id != b[i].id)
            break;
    }
}

static void fill_pattern(uint64_t *d, int n, int pattern)
{
    for (int i = 0; i < n; ++i)
        switch (pattern) {
        case 0:
            d[i] = (uint64_t)i;
            break; /* sorted */
        case 1:
            d[i] = (uint64_t)(n - i);
            break; /* reversed */
        case 2:
            d[i] = 42;
            break; /* all equal */
        case 3:
            d[i] = (uint64_t)(i < n / 2 ? i : n - i);
            break; /* organ pipe */
        default:
            d[i] = (uint64_t)(i % 32);
            break; /* sawtooth */
        }
}

/* A quadratic sort makes about n^2 / 4 comparisons here (2.5e9 for n = 100,000). */
Test(sort, hostile_patterns_stay_n_log_n)
{
    enum { N = 100000, PATTERNS = 5 };
    uint64_t *data = malloc(sizeof *data * N);
    cr_assert_not_null(data);
    for (int pattern = 0; pattern < PATTERNS; ++pattern) {
        fill_pattern(data, N, pattern);
        long count = 0;
        comparisons = &count;
        sort_u64(data, N);
        int disorder = 1;
        while (disorder < N && data[disorder - 1] <= data[disorder])
            ++disorder;
        cr_expect_eq(disorder, N, "pattern %d: out of order at %d", pattern, disorder);
        cr_expect_lt(count, 4L * N * 17, "pattern %d: %ld comparisons for %d items", pattern, count,
                     N);
    }
    free(data);
}
