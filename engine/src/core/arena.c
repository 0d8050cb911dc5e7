/* Per-step LIFO scratch allocator with heap fallback (policy in arena.h). */
#include "core/arena.h"
#include "core/alloc.h"

enum { ARENA_ALIGN = 16, ARENA_INITIAL_ENTRIES = 32 };

static size_t round_up(size_t size)
{
    return (size + (ARENA_ALIGN - 1)) & ~(size_t)(ARENA_ALIGN - 1);
}

bool arena_init(arena *scratch, size_t capacity)
{
    *scratch = (arena){0};
    if (capacity > SIZE_MAX - ARENA_ALIGN)
        return error_set("arena capacity of %zu bytes is too large", capacity);
    capacity = round_up(capacity);
    if (capacity > 0) {
        scratch->block = mem_alloc(capacity);
        if (scratch->block == NULL)
            return false;
        scratch->capacity = capacity;
    }
    if (!array_reserve(&scratch->entries, ARENA_INITIAL_ENTRIES)) {
        arena_destroy(scratch);
        return false;
    }
    return true;
}

void arena_destroy(arena *scratch)
{
    for (int i = 0; i < scratch->entries.count; i++) {
        arena_entry *entry = &scratch->entries.data[i];
        if (entry->from_heap)
            mem_free(entry->memory, entry->size);
    }
    array_free(&scratch->entries);
    mem_free(scratch->block, scratch->capacity);
    *scratch = (arena){0};
}

void *arena_push(arena *scratch, size_t size, const char *name)
{
    if (size > SIZE_MAX - ARENA_ALIGN) {
        error_set("arena push of %zu bytes (%s) is too large", size, name ? name : "unnamed");
        return NULL;
    }
    arena_entry entry = {.size = size == 0 ? ARENA_ALIGN : round_up(size), .name = name};
    /* Reserve the entry first so a failure leaves nothing half-done. */
    if (!array_grow(&scratch->entries, scratch->entries.count + 1))
        return NULL;
    if (entry.size <= scratch->capacity - scratch->block_used) {
        entry.memory = scratch->block + scratch->block_used;
        scratch->block_used += entry.size;
    } else {
        entry.memory = mem_alloc(entry.size);
        if (entry.memory == NULL)
            return NULL;
        entry.from_heap = true;
        scratch->overflow_count++;
    }
    scratch->in_use += entry.size;
    if (scratch->in_use > scratch->high_water)
        scratch->high_water = scratch->in_use;
    scratch->entries.data[scratch->entries.count++] = entry;
    return entry.memory;
}

void arena_pop(arena *scratch, void *memory)
{
    bool is_top = scratch->entries.count > 0 && array_last(&scratch->entries).memory == memory;
    CAIRN_ASSERT(is_top);
    /* Without asserts, refuse rather than corrupt the stack. */
    if (!is_top)
        return;
    arena_entry entry = array_pop(&scratch->entries);
    if (entry.from_heap)
        mem_free(entry.memory, entry.size);
    else
        scratch->block_used -= entry.size;
    scratch->in_use -= entry.size;
}

/* An overflow keeps the whole block and a heap copy of the push resident at once, which for a
   slowly growing workload is the process's peak memory. So the block regrows before it fills:
   once the peak passes 3/4 of it. Regrowing while empty holds nothing twice, and untouched
   headroom costs address space, not resident memory. */
static bool needs_regrow(const arena *scratch)
{
    size_t capacity = scratch->capacity;
    return scratch->high_water > capacity - capacity / 4;
}

void arena_reset(arena *scratch)
{
    CAIRN_ASSERT(scratch->entries.count == 0);
    if (scratch->entries.count != 0 || !needs_regrow(scratch))
        return;
    /* Headroom of a half so a slowly growing workload does not regrow every step. */
    size_t peak = scratch->high_water;
    size_t wanted = peak > SIZE_MAX / 3 ? peak : round_up(peak + peak / 2);
    char *block = mem_alloc(wanted);
    if (block == NULL)
        return;
    mem_free(scratch->block, scratch->capacity);
    scratch->block = block;
    scratch->capacity = wanted;
}

bool arena_is_empty(const arena *scratch)
{
    return scratch->entries.count == 0;
}

size_t arena_high_water(const arena *scratch)
{
    return scratch->high_water;
}

size_t arena_capacity(const arena *scratch)
{
    return scratch->capacity;
}

size_t arena_overflow_count(const arena *scratch)
{
    return scratch->overflow_count;
}
