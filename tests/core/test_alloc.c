/* The process-wide hooks in alloc.c and error.c: a user allocator sees every allocation, it can
   only be swapped while nothing is live, and the last error is per thread. */
#include "core/alloc.h"
#include "core/error.h"

#include <criterion/criterion.h>
#include <string.h>
#include <threads.h>

typedef struct counting {
    int allocs, frees;
    size_t bytes_allocated, bytes_freed;
} counting;

static void *counting_alloc(size_t size, void *user)
{
    counting *c = user;
    c->allocs++;
    c->bytes_allocated += size;
    return aligned_alloc(16, (size + 15) / 16 * 16);
}

static void counting_free(void *memory, size_t size, void *user)
{
    counting *c = user;
    c->frees++;
    c->bytes_freed += size;
    free(memory);
}

Test(alloc, a_user_allocator_sees_every_allocation_with_its_size)
{
    counting c = {0};
    cr_assert(cairn_set_allocator(&(cairn_allocator){counting_alloc, counting_free, &c}));
    void *a = mem_alloc(100);
    void *b = mem_calloc(3, 8);
    cr_assert_not_null(a);
    cr_assert_not_null(b);
    cr_assert_eq(((uintptr_t)a | (uintptr_t)b) & 15u, 0, "16-byte aligned");
    for (int i = 0; i < 24; i++)
        cr_assert_eq(((unsigned char *)b)[i], 0, "calloc zero-fills");
    cr_assert_eq(c.allocs, 2);
    cr_assert_eq(c.bytes_allocated, 124);
    memset(a, 0x5a, 100);
    a = mem_realloc(a, 100, 40);
    cr_assert_eq(((unsigned char *)a)[39], 0x5a, "realloc keeps the common prefix");
    cr_assert_eq(c.allocs, 3);
    cr_assert_eq(c.frees, 1);
    cr_assert_eq(c.bytes_freed, 100);
    mem_free(a, 40);
    mem_free(b, 24);
    mem_free(NULL, 123);
    cr_assert_eq(c.frees, 3, "freeing NULL does not reach the hook");
    cr_assert_eq(c.bytes_freed, c.bytes_allocated);
    cr_assert(cairn_set_allocator(NULL));
}

Test(alloc, allocated_bytes_tracks_live_memory)
{
    cr_assert_eq(cairn_allocated_bytes(), 0);
    void *a = mem_alloc(100);
    cr_assert_eq(cairn_allocated_bytes(), 100);
    void *b = mem_calloc(4, 25);
    cr_assert_eq(cairn_allocated_bytes(), 200);
    a = mem_realloc(a, 100, 300);
    cr_assert_eq(cairn_allocated_bytes(), 400);
    cr_assert_null(mem_alloc(0));
    cr_assert_eq(cairn_allocated_bytes(), 400, "a refused allocation counts nothing");
    mem_free(a, 300);
    mem_free(b, 100);
    cr_assert_eq(cairn_allocated_bytes(), 0);
}

Test(alloc, the_allocator_cannot_change_while_memory_is_live)
{
    counting c = {0}, other = {0};
    cr_assert(cairn_set_allocator(&(cairn_allocator){counting_alloc, counting_free, &c}));
    void *a = mem_alloc(64);
    cairn_clear_error();
    cr_assert_not(cairn_set_allocator(&(cairn_allocator){counting_alloc, counting_free, &other}));
    cr_assert_not(cairn_set_allocator(NULL));
    cr_assert_neq(strstr(cairn_last_error(), "64"), NULL, "message names the live bytes: %s",
                  cairn_last_error());
    void *b = mem_alloc(16);
    cr_assert_eq(c.allocs, 2, "the refused swap left the first allocator in place");
    cr_assert_eq(other.allocs, 0);
    mem_free(b, 16);
    mem_free(a, 64);
    cr_assert_eq(c.frees, 2, "memory goes back to the allocator that gave it");
    cr_assert(cairn_set_allocator(&(cairn_allocator){counting_alloc, counting_free, &other}));
    mem_free(mem_alloc(8), 8);
    cr_assert_eq(other.allocs, 1);
    cr_assert_eq(c.allocs, 2);
    cr_assert(cairn_set_allocator(NULL));
}

Test(alloc, null_restores_the_default_allocator)
{
    counting c = {0};
    cr_assert(cairn_set_allocator(&(cairn_allocator){counting_alloc, counting_free, &c}));
    cr_assert(cairn_set_allocator(NULL));
    void *a = mem_alloc(256);
    cr_assert_not_null(a);
    cr_assert_eq(((uintptr_t)a) & 15u, 0);
    mem_free(a, 256);
    cr_assert_eq(c.allocs, 0);
    cr_assert_eq(c.frees, 0);
}

Test(alloc, an_allocator_missing_a_function_is_refused)
{
    counting c = {0};
    cr_assert_not(cairn_set_allocator(&(cairn_allocator){counting_alloc, NULL, &c}));
    cr_assert_not(cairn_set_allocator(&(cairn_allocator){NULL, counting_free, &c}));
    cr_assert_neq(cairn_last_error()[0], '\0');
    mem_free(mem_alloc(8), 8);
    cr_assert_eq(c.allocs, 0, "the refused allocator was not installed");
}

static void *failing_alloc(size_t size, void *user)
{
    (void)size;
    (void)user;
    return NULL;
}

Test(alloc, out_of_memory_returns_null_with_a_message)
{
    counting c = {0};
    cr_assert(cairn_set_allocator(&(cairn_allocator){failing_alloc, counting_free, &c}));
    cairn_clear_error();
    cr_assert_null(mem_alloc(32));
    cr_assert_neq(strstr(cairn_last_error(), "32"), NULL, "%s", cairn_last_error());
    cr_assert_eq(cairn_allocated_bytes(), 0);
    cr_assert(cairn_set_allocator(NULL));
}

/* The other thread's view: what it saw first, and what it left after setting its own error. */
typedef struct thread_report {
    char seen_at_start[64];
    char own_error[64];
} thread_report;

static int other_thread(void *arg)
{
    thread_report *report = arg;
    snprintf(report->seen_at_start, sizeof report->seen_at_start, "%s", cairn_last_error());
    error_set("error on the other thread");
    snprintf(report->own_error, sizeof report->own_error, "%s", cairn_last_error());
    return 0;
}

Test(alloc, the_last_error_is_per_thread)
{
    error_set("error on the main thread");
    thread_report report = {0};
    thrd_t thread;
    cr_assert_eq(thrd_create(&thread, other_thread, &report), thrd_success);
    cr_assert_eq(thrd_join(thread, NULL), thrd_success);
    cr_assert_str_empty(report.seen_at_start, "the other thread saw \"%s\"", report.seen_at_start);
    cr_assert_str_eq(report.own_error, "error on the other thread");
    cr_assert_str_eq(cairn_last_error(), "error on the main thread");
    cairn_clear_error();
    cr_assert_str_empty(cairn_last_error());
}
