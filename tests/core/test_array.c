/* ARRAY(T): push / pop / remove_swap against a fixed C array model, reserve, growth failure and
   leak checks. */
#include "core/alloc.h"
#include "core/array.h"

#include <criterion/criterion.h>
#include <limits.h>
#include <string.h>

enum { OPS = 100000 };

typedef ARRAY(int) int_array;

typedef struct item {
    double weight;
    int tag;
    char name[6];
} item;
typedef ARRAY(item) item_array;

static uint64_t next_random(uint64_t *state)
{
    /* xorshift64*: the tests' own generator, independent of anything in the engine. */
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717u;
}

static int model_ints[OPS];
static item model_items[OPS];

static item make_item(int i)
{
    item it = {.weight = i * 0.5, .tag = i};
    memcpy(it.name, "abcde", 6);
    it.name[i % 5] = (char)('A' + i % 26);
    return it;
}

static bool items_equal(item a, item b)
{
    return a.weight == b.weight && a.tag == b.tag && memcmp(a.name, b.name, 6) == 0;
}

Test(array, ints_match_a_fixed_array_model_over_100k_operations)
{
    size_t start_bytes = cairn_allocated_bytes();
    int_array a = {0};
    int model_count = 0;
    uint64_t rng = 0x9e3779b97f4a7c15u;
    for (int op = 0; op < OPS; op++) {
        uint64_t r = next_random(&rng);
        int kind = (int)(r % 10);
        if (kind < 6 || model_count == 0) {
            int value = (int)(r >> 32);
            cr_assert(array_push(&a, value));
            model_ints[model_count++] = value;
        } else if (kind < 8) {
            int popped = array_pop(&a);
            cr_assert_eq(popped, model_ints[--model_count]);
        } else {
            int index = (int)((r >> 16) % (uint64_t)model_count);
            int moved = array_remove_swap(&a, index);
            int last = model_count - 1;
            cr_assert_eq(moved, index == last ? -1 : last);
            model_ints[index] = model_ints[last];
            model_count--;
        }
        cr_assert_eq(a.count, model_count);
        cr_assert_leq(a.count, a.capacity);
    }
    cr_assert_gt(model_count, 1000, "the mix of operations should leave the array well filled");
    cr_assert_eq(memcmp(a.data, model_ints, (size_t)model_count * sizeof(int)), 0);
    array_free(&a);
    cr_assert_eq(a.data, NULL);
    cr_assert_eq(a.count, 0);
    cr_assert_eq(a.capacity, 0);
    cr_assert_eq(cairn_allocated_bytes(), start_bytes);
}

Test(array, structs_match_a_fixed_array_model_over_100k_operations)
{
    size_t start_bytes = cairn_allocated_bytes();
    item_array a = {0};
    int model_count = 0;
    uint64_t rng = 12345;
    for (int op = 0; op < OPS; op++) {
        uint64_t r = next_random(&rng);
        int kind = (int)(r % 10);
        if (kind < 6 || model_count == 0) {
            item it = make_item(op);
            /* A compound literal with commas goes through the variadic push. */
            cr_assert(array_push(&a, (item){it.weight, it.tag, {0}}));
            memcpy(array_last(&a).name, it.name, 6);
            model_items[model_count++] = it;
        } else if (kind < 8) {
            item popped = array_pop(&a);
            cr_assert(items_equal(popped, model_items[--model_count]));
        } else {
            int index = (int)((r >> 16) % (uint64_t)model_count);
            array_remove_swap(&a, index);
            model_items[index] = model_items[model_count - 1];
            model_count--;
        }
        cr_assert_eq(a.count, model_count);
    }
    for (int i = 0; i < model_count; i++)
        cr_assert(items_equal(a.data[i], model_items[i]), "element %d differs", i);
    array_free(&a);
    cr_assert_eq(cairn_allocated_bytes(), start_bytes);
}

Test(array, reserve_gives_room_without_further_reallocation)
{
    size_t start_bytes = cairn_allocated_bytes();
    int_array a = {0};
    cr_assert(array_reserve(&a, 1000));
    cr_assert_eq(a.capacity, 1000);
    cr_assert_eq(a.count, 0);
    cr_assert_eq(cairn_allocated_bytes(), start_bytes + 1000 * sizeof(int));
    int *storage = a.data;
    for (int i = 0; i < 1000; i++)
        cr_assert(array_push(&a, i * 3));
    cr_assert_eq(a.data, storage, "pushes within the reserved room must not reallocate");
    cr_assert(array_reserve(&a, 10), "a smaller reserve is a no-op");
    cr_assert_eq(a.capacity, 1000);
    cr_assert(array_push(&a, -1));
    cr_assert_geq(a.capacity, 1500, "growth past the reserve is geometric");
    for (int i = 0; i < 1000; i++)
        cr_assert_eq(a.data[i], i * 3);
    cr_assert_eq(a.data[1000], -1);
    array_free(&a);
    cr_assert_eq(cairn_allocated_bytes(), start_bytes);
}

Test(array, growth_is_geometric)
{
    int_array a = {0};
    int reallocations = 0;
    int *last_data = NULL;
    for (int i = 0; i < 100000; i++) {
        cr_assert(array_push(&a, i));
        if (a.data != last_data) {
            reallocations++;
            last_data = a.data;
        }
    }
    cr_assert_leq(reallocations, 20, "%d reallocations for 100k pushes", reallocations);
    array_free(&a);
}

Test(array, clear_keeps_storage_and_free_resets)
{
    int_array a = {0};
    for (int i = 0; i < 50; i++)
        cr_assert(array_push(&a, i));
    int capacity = a.capacity;
    array_clear(&a);
    cr_assert_eq(a.count, 0);
    cr_assert_eq(a.capacity, capacity);
    cr_assert(array_push(&a, 7));
    cr_assert_eq(a.data[0], 7);
    array_free(&a);
    array_free(&a); /* freeing an empty array is harmless */
    cr_assert(array_push(&a, 8), "a freed array is reusable");
    cr_assert_eq(a.data[0], 8);
    array_free(&a);
    cr_assert_eq(cairn_allocated_bytes(), 0);
}

Test(array, remove_swap_of_the_last_element_reports_no_move)
{
    int_array a = {0};
    for (int i = 0; i < 3; i++)
        cr_assert(array_push(&a, i));
    cr_assert_eq(array_remove_swap(&a, a.count - 1), -1);
    cr_assert_eq(a.count, 2);
    cr_assert_eq(array_remove_swap(&a, 0), 1);
    cr_assert_eq(a.count, 1);
    cr_assert_eq(a.data[0], 1);
    array_free(&a);
}

static void *refusing_alloc(size_t size, void *user)
{
    (void)size;
    (void)user;
    return NULL;
}

static void unused_free(void *memory, size_t size, void *user)
{
    (void)memory;
    (void)size;
    (void)user;
}

Test(array, a_failed_push_returns_false_and_changes_nothing)
{
    cr_assert(cairn_set_allocator(&(cairn_allocator){refusing_alloc, unused_free, NULL}));
    int_array a = {0};
    cr_assert_not(array_push(&a, 1));
    cr_assert_eq(a.count, 0);
    cr_assert_eq(a.capacity, 0);
    cr_assert_eq(a.data, NULL);
    cr_assert_not(array_reserve(&a, 4));
    cr_assert_neq(cairn_last_error()[0], '\0');
    cr_assert(cairn_set_allocator(NULL));
}

Test(array, a_capacity_of_int_max_is_refused_before_allocating)
{
    /* INT_MAX stays unused so count + 1 in array_push can never overflow. */
    typedef ARRAY(char) char_array;
    char_array a = {0};
    cairn_clear_error();
    cr_assert_not(array_reserve(&a, INT_MAX));
    cr_assert_eq(a.capacity, 0);
    cr_assert_eq(cairn_allocated_bytes(), 0);
    cr_assert_neq(cairn_last_error()[0], '\0');
}
