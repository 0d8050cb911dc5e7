/* The per-step arena: LIFO order, 16-byte alignment, overflow to the heap, high-water mark and
   regrowth at reset, and the assert on out-of-order pops. */
#include "core/alloc.h"
#include "core/arena.h"

#include <criterion/criterion.h>
#include <string.h>

static uint64_t next_random(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717u;
}

static bool aligned16(const void *p)
{
    return ((uintptr_t)p & 15u) == 0;
}

static size_t rounded(size_t size)
{
    return size == 0 ? 16 : (size + 15) / 16 * 16;
}

Test(arena, nested_pushes_pop_in_lifo_order_with_their_contents_intact)
{
    size_t start_bytes = cairn_allocated_bytes();
    arena scratch;
    cr_assert(arena_init(&scratch, 4096));
    cr_assert(arena_is_empty(&scratch));
    unsigned char *blocks[8];
    size_t sizes[8] = {1, 15, 16, 17, 100, 0, 333, 64};
    for (int i = 0; i < 8; i++) {
        blocks[i] = arena_push(&scratch, sizes[i], "nested");
        cr_assert_not_null(blocks[i]);
        cr_assert(aligned16(blocks[i]), "push %d is not 16-byte aligned", i);
        memset(blocks[i], 0xA0 + i, sizes[i]);
        cr_assert_not(arena_is_empty(&scratch));
    }
    for (int i = 7; i >= 0; i--) {
        for (size_t b = 0; b < sizes[i]; b++)
            cr_assert_eq(blocks[i][b], 0xA0 + i, "push %d overwritten at byte %zu", i, b);
        arena_pop(&scratch, blocks[i]);
    }
    cr_assert(arena_is_empty(&scratch));
    cr_assert_eq(arena_overflow_count(&scratch), 0);
    arena_destroy(&scratch);
    cr_assert_eq(cairn_allocated_bytes(), start_bytes);
}

Test(arena, random_pushes_and_pops_match_a_stack_model)
{
    enum { OPS = 20000, DEPTH = 64 };
    arena scratch;
    cr_assert(arena_init(&scratch, 2048));
    unsigned char *stack[DEPTH];
    size_t sizes[DEPTH];
    int depth = 0;
    size_t in_use = 0, high_water = 0;
    int overflows = 0;
    uint64_t rng = 77;
    for (int op = 0; op < OPS; op++) {
        uint64_t r = next_random(&rng);
        if ((r % 2 == 0 && depth < DEPTH) || depth == 0) {
            size_t size = (size_t)(r >> 40) % 300;
            unsigned char *p = arena_push(&scratch, size, "random");
            cr_assert_not_null(p);
            cr_assert(aligned16(p));
            /* A pointer outside the block must be a fresh heap allocation. */
            uintptr_t offset = (uintptr_t)p - (uintptr_t)scratch.block;
            if (scratch.block == NULL || offset >= scratch.capacity)
                overflows++;
            memset(p, depth, size);
            stack[depth] = p;
            sizes[depth++] = size;
            in_use += rounded(size);
            high_water = in_use > high_water ? in_use : high_water;
        } else {
            depth--;
            for (size_t b = 0; b < sizes[depth]; b++)
                cr_assert_eq(stack[depth][b], depth);
            arena_pop(&scratch, stack[depth]);
            in_use -= rounded(sizes[depth]);
        }
        cr_assert_eq(arena_high_water(&scratch), high_water);
        cr_assert_eq(arena_is_empty(&scratch), depth == 0);
    }
    cr_assert_gt(overflows, 0, "2 KiB with up to 64 pushes of 300 bytes must overflow");
    cr_assert_eq(arena_overflow_count(&scratch), (size_t)overflows);
    while (depth > 0)
        arena_pop(&scratch, stack[--depth]);
    arena_destroy(&scratch);
    cr_assert_eq(cairn_allocated_bytes(), 0);
}

Test(arena, overflow_still_works_and_reset_grows_the_block_to_fit)
{
    arena scratch;
    cr_assert(arena_init(&scratch, 256));
    cr_assert_eq(arena_capacity(&scratch), 256);
    unsigned char *p[3];
    for (int i = 0; i < 3; i++) {
        p[i] = arena_push(&scratch, 200, "big");
        cr_assert_not_null(p[i]);
        cr_assert(aligned16(p[i]));
        memset(p[i], i + 1, 200);
    }
    cr_assert_eq(arena_overflow_count(&scratch), 2);
    cr_assert_eq(arena_high_water(&scratch), 3 * 208);
    size_t live = cairn_allocated_bytes();
    /* A small push after an overflow still fits in the block. */
    void *small = arena_push(&scratch, 32, "small");
    cr_assert_eq(arena_overflow_count(&scratch), 2);
    cr_assert_eq(cairn_allocated_bytes(), live, "the small push came from the block");
    arena_pop(&scratch, small);
    for (int i = 2; i >= 0; i--) {
        for (int b = 0; b < 200; b++)
            cr_assert_eq(p[i][b], i + 1);
        arena_pop(&scratch, p[i]);
    }
    cr_assert(arena_is_empty(&scratch));

    arena_reset(&scratch);
    cr_assert_geq(arena_capacity(&scratch), arena_high_water(&scratch));
    for (int i = 0; i < 3; i++)
        p[i] = arena_push(&scratch, 200, "big");
    cr_assert_eq(arena_overflow_count(&scratch), 2, "the next step fits in the grown block");
    for (int i = 2; i >= 0; i--)
        arena_pop(&scratch, p[i]);
    arena_destroy(&scratch);
    cr_assert_eq(cairn_allocated_bytes(), 0);
}

/* An overflow holds the block and a heap copy at once: a block 3/4 full regrows ahead of it. */
Test(arena, reset_regrows_a_block_that_is_nearly_full_before_it_overflows)
{
    arena scratch;
    cr_assert(arena_init(&scratch, 1024));
    void *p = arena_push(&scratch, 800, "most of the block");
    cr_assert_eq(arena_overflow_count(&scratch), 0);
    arena_pop(&scratch, p);
    arena_reset(&scratch);
    cr_assert_geq(arena_capacity(&scratch), 1200, "1.5 times the peak of 800 bytes");
    arena_reset(&scratch);
    cr_assert_geq(arena_capacity(&scratch), 1200);
    p = arena_push(&scratch, 900, "a bit more");
    cr_assert_eq(arena_overflow_count(&scratch), 0, "the grown block holds the next step");
    arena_pop(&scratch, p);
    arena_destroy(&scratch);
    cr_assert_eq(cairn_allocated_bytes(), 0);
}

Test(arena, a_zero_capacity_arena_works_from_the_heap)
{
    arena scratch;
    cr_assert(arena_init(&scratch, 0));
    void *p = arena_push(&scratch, 10, "heap");
    cr_assert_not_null(p);
    cr_assert_eq(arena_overflow_count(&scratch), 1);
    arena_pop(&scratch, p);
    arena_reset(&scratch);
    cr_assert_geq(arena_capacity(&scratch), 16);
    arena_destroy(&scratch);
    cr_assert_eq(cairn_allocated_bytes(), 0);
}

Test(arena, destroy_frees_entries_still_pushed)
{
    arena scratch;
    cr_assert(arena_init(&scratch, 64));
    for (int i = 0; i < 100; i++)
        cr_assert_not_null(arena_push(&scratch, 48, "leaked"));
    arena_destroy(&scratch);
    cr_assert_eq(cairn_allocated_bytes(), 0);
}

static int assert_failures;

static void record_assert(const char *condition, const char *file, int line)
{
    (void)condition;
    (void)file;
    (void)line;
    assert_failures++;
}

Test(arena, popping_out_of_order_asserts_and_changes_nothing)
{
    cairn_set_assert_handler(record_assert);
    arena scratch;
    cr_assert(arena_init(&scratch, 1024));
    void *first = arena_push(&scratch, 32, "first");
    void *second = arena_push(&scratch, 32, "second");
    arena_pop(&scratch, first);
#ifndef NDEBUG
    cr_assert_eq(assert_failures, 1);
#endif
    cr_assert_eq(scratch.entries.count, 2, "the wrong pop was refused");
    arena_pop(&scratch, second);
    arena_pop(&scratch, first);
    cr_assert(arena_is_empty(&scratch));
    cr_assert_eq(scratch.block_used, 0);
    arena_destroy(&scratch);
    cairn_set_assert_handler(NULL);
}

Test(arena, many_pushes_grow_the_name_stack)
{
    enum { COUNT = 1000 };
    static void *p[COUNT];
    arena scratch;
    cr_assert(arena_init(&scratch, 1 << 16));
    for (int i = 0; i < COUNT; i++) {
        p[i] = arena_push(&scratch, 8, "deep");
        cr_assert_not_null(p[i]);
    }
    cr_assert_str_eq(array_last(&scratch.entries).name, "deep");
    for (int i = COUNT - 1; i >= 0; i--)
        arena_pop(&scratch, p[i]);
    cr_assert(arena_is_empty(&scratch));
    arena_destroy(&scratch);
}
