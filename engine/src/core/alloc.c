/* Allocator hooks: the user's functions or malloc/free, and a live-byte count for leak checks. */
#include "core/alloc.h"
#include "core/error.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static void *default_alloc(size_t size, void *user)
{
    (void)user;
    /* aligned_alloc needs a size that is a multiple of the alignment. */
    return aligned_alloc(16, (size + 15) & ~(size_t)15);
}

static void default_free(void *memory, size_t size, void *user)
{
    (void)size;
    (void)user;
    free(memory);
}

/* Set once at start-up (cairn_set_allocator refuses while memory is live). */
static cairn_allocator hooks = {default_alloc, default_free, NULL};
static atomic_size_t live_bytes;

bool cairn_set_allocator(const cairn_allocator *allocator)
{
    if (atomic_load(&live_bytes) != 0)
        return error_set("cairn_set_allocator: %zu bytes are still allocated with the current "
                         "allocator; set it once at start-up",
                         atomic_load(&live_bytes));
    if (allocator == NULL) {
        hooks = (cairn_allocator){default_alloc, default_free, NULL};
        return true;
    }
    if (allocator->alloc == NULL || allocator->free == NULL)
        return error_set("cairn_set_allocator: both alloc and free must be given");
    hooks = *allocator;
    return true;
}

size_t cairn_allocated_bytes(void)
{
    return atomic_load(&live_bytes);
}

void *mem_alloc(size_t size)
{
    if (size == 0) {
        error_set("allocation of 0 bytes");
        return NULL;
    }
    void *memory = hooks.alloc(size, hooks.user);
    if (memory == NULL) {
        error_set("out of memory allocating %zu bytes", size);
        return NULL;
    }
    atomic_fetch_add(&live_bytes, size);
    return memory;
}

void *mem_calloc(size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size) {
        error_set("allocation of %zu x %zu bytes overflows", count, size);
        return NULL;
    }
    void *memory = mem_alloc(count * size);
    if (memory)
        memset(memory, 0, count * size);
    return memory;
}

void *mem_realloc(void *memory, size_t old_size, size_t new_size)
{
    void *grown = mem_alloc(new_size);
    if (grown == NULL)
        return NULL;
    if (memory)
        memcpy(grown, memory, old_size < new_size ? old_size : new_size);
    mem_free(memory, old_size);
    return grown;
}

void mem_free(void *memory, size_t size)
{
    if (memory == NULL)
        return;
    atomic_fetch_sub(&live_bytes, size);
    hooks.free(memory, size, hooks.user);
}
