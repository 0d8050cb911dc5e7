/* Every allocation Cairn makes goes through these, so the user's hooks see all of it. */
#ifndef CAIRN_CORE_ALLOC_H
#define CAIRN_CORE_ALLOC_H

#include <cairn/base.h>

/* NULL (and an error message) when size is 0 or the allocator fails. 16-byte aligned. */
void *mem_alloc(size_t size);
/* Zero-filled mem_alloc. */
void *mem_calloc(size_t count, size_t size);
/* Grows or shrinks a block from old_size to new_size bytes, keeping the common prefix.
   On failure returns NULL and leaves the old block untouched. */
void *mem_realloc(void *memory, size_t old_size, size_t new_size);
/* memory may be NULL; size must be what was allocated. */
void mem_free(void *memory, size_t size);

#endif
