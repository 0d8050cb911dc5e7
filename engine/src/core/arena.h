/* The per-step scratch allocator: LIFO pushes and pops from one block, named for debugging,
   falling back to the general allocator when the block runs out. */
#ifndef CAIRN_CORE_ARENA_H
#define CAIRN_CORE_ARENA_H

#include "core/array.h"

/* Overflow policy: a push that does not fit in the block is served by mem_alloc and remembered,
   so pushes fail only when memory itself runs out. The high-water mark counts those bytes too,
   and arena_reset (between steps, arena empty) regrows the block to 1.5 times that peak once it
   passes 3/4 of the block, so a steady workload stops overflowing after its first step and a
   slowly growing one regrows ahead of overflowing. */

typedef struct arena_entry {
    char *memory;
    size_t size;      /* bytes taken: the request rounded up to a multiple of 16 */
    const char *name; /* not copied: pass a string literal */
    bool from_heap;
} arena_entry;

typedef struct arena {
    char *block;
    size_t capacity;       /* bytes in block */
    size_t block_used;     /* bytes of block taken by live entries */
    size_t in_use;         /* bytes of all live entries, block and heap */
    size_t high_water;     /* peak of in_use since init */
    size_t overflow_count; /* pushes served by mem_alloc since init */
    ARRAY(arena_entry) entries;
} arena;

/* capacity may be 0 (then every push overflows until the first arena_reset). */
bool arena_init(arena *scratch, size_t capacity);
/* Frees the block and any entries still pushed. */
void arena_destroy(arena *scratch);

/* 16-byte aligned memory of at least size bytes (size 0 gives a valid 16-byte slot). NULL only
   when out of memory. */
void *arena_push(arena *scratch, size_t size, const char *name);
/* Releases the most recent push; memory must be exactly that pointer (asserted). */
void arena_pop(arena *scratch, void *memory);

/* Between steps: the arena must be empty. Grows the block past the high-water mark when that
   passed 3/4 of it; if that allocation fails, the old block stays and overflow keeps working. */
void arena_reset(arena *scratch);

bool arena_is_empty(const arena *scratch);
size_t arena_high_water(const arena *scratch);
size_t arena_capacity(const arena *scratch);
size_t arena_overflow_count(const arena *scratch);

#endif
