/* Growable arrays of any element type: ARRAY(T) plus macros over a few size-generic functions.
   The one container behind every per-world list (bodies, contacts, free lists). */
#ifndef CAIRN_CORE_ARRAY_H
#define CAIRN_CORE_ARRAY_H

#include "core/error.h"

/* Declares an array type. Name it with a typedef, since two ARRAY(T) spellings are distinct
   types:  typedef ARRAY(int) int_array;  int_array a = {0};
   A zero-initialised array is empty and valid; array_free returns it to that state.
   The macros below evaluate `a` more than once: pass a plain pointer such as &a or &w->bodies,
   never an expression with side effects. Element values and indices are evaluated once. */
#define ARRAY(T)                                                                                   \
    struct {                                                                                       \
        T *data;                                                                                   \
        int count;                                                                                 \
        int capacity;                                                                              \
    }

/* Size-generic parts. data_field points at the array's `data` member (any T *); it is read and
   written with memcpy so no T * is ever accessed through a void * lvalue. */

/* Makes room for at least `wanted` elements, exactly (no extra). False when out of memory or
   when the size overflows; the array is then unchanged. */
bool array_reserve_(void *data_field, int *capacity, int elem_size, int wanted);
/* Like array_reserve_ but grows geometrically (x2, at least 8) so repeated pushes are O(1). */
bool array_grow_(void *data_field, int *capacity, int elem_size, int wanted);
/* Frees the storage and zeroes data, count and capacity. */
void array_free_(void *data_field, int *count, int *capacity, int elem_size);
/* Moves the last element into `index` and shrinks by one. Returns the old index of the moved
   element (so the caller can fix handles to it), or -1 when `index` was the last element. */
int array_remove_swap_(void *data, int *count, int elem_size, int index);

#define array_elem_size_(a) ((int)sizeof *(a)->data)

/* bool: room for at least n elements (exact size, for known final counts). */
#define array_reserve(a, n) array_reserve_(&(a)->data, &(a)->capacity, array_elem_size_(a), (n))

/* bool: room for at least n elements, growing geometrically (for counts that creep up). */
#define array_grow(a, n) array_grow_(&(a)->data, &(a)->capacity, array_elem_size_(a), (n))

/* bool: appends one element; false (array unchanged) when out of memory. Variadic so that a
   compound literal with commas can be pushed: array_push(&a, (struct v){1, 2}). */
#define array_push(a, ...)                                                                         \
    (((a)->count < (a)->capacity ||                                                                \
      array_grow_(&(a)->data, &(a)->capacity, array_elem_size_(a), (a)->count + 1))                \
         ? ((a)->data[(a)->count++] = (__VA_ARGS__), true)                                         \
         : false)

/* Removes and yields the last element; the array must not be empty. */
#define array_pop(a) (CAIRN_ASSERT((a)->count > 0), (a)->data[--(a)->count])

/* The last element (an lvalue); the array must not be empty. */
#define array_last(a) (CAIRN_ASSERT((a)->count > 0), (a)->data + ((a)->count - 1))[0]

/* Forgets the elements, keeps the storage. */
#define array_clear(a) ((void)((a)->count = 0))

/* Releases the storage; the array is empty and reusable afterwards. */
#define array_free(a) array_free_(&(a)->data, &(a)->count, &(a)->capacity, array_elem_size_(a))

/* int: order-breaking O(1) removal, see array_remove_swap_. */
#define array_remove_swap(a, index)                                                                \
    array_remove_swap_((a)->data, &(a)->count, array_elem_size_(a), (index))

#endif
