/* The size-generic halves of the ARRAY(T) macros: growth, release and swap-removal. */
#include "core/array.h"
#include "core/alloc.h"

#include <limits.h>
#include <string.h>

static bool resize_storage(void *data_field, int *capacity, int elem_size, int new_capacity)
{
    /* INT_MAX stays unused so `count + 1` in array_push can never overflow. */
    if (elem_size <= 0 || new_capacity < 0 || new_capacity == INT_MAX ||
        (size_t)new_capacity > SIZE_MAX / (size_t)elem_size)
        return error_set("array of %d elements of %d bytes is too large", new_capacity, elem_size);
    void *data;
    memcpy(&data, data_field, sizeof data);
    size_t old_size = (size_t)*capacity * (size_t)elem_size;
    void *grown = mem_realloc(data, old_size, (size_t)new_capacity * (size_t)elem_size);
    if (grown == NULL)
        return false;
    memcpy(data_field, &grown, sizeof grown);
    *capacity = new_capacity;
    return true;
}

bool array_reserve_(void *data_field, int *capacity, int elem_size, int wanted)
{
    if (wanted <= *capacity)
        return true;
    return resize_storage(data_field, capacity, elem_size, wanted);
}

bool array_grow_(void *data_field, int *capacity, int elem_size, int wanted)
{
    if (wanted <= *capacity)
        return true;
    if (wanted < 0)
        return error_set("array size overflows int");
    /* Doubling keeps pushes amortised O(1); clamp instead of overflowing near INT_MAX. */
    int doubled = *capacity > INT_MAX / 2 ? INT_MAX - 1 : *capacity * 2;
    int new_capacity = doubled > wanted ? doubled : wanted;
    if (new_capacity < 8)
        new_capacity = 8;
    return resize_storage(data_field, capacity, elem_size, new_capacity);
}

void array_free_(void *data_field, int *count, int *capacity, int elem_size)
{
    void *data;
    memcpy(&data, data_field, sizeof data);
    mem_free(data, (size_t)*capacity * (size_t)elem_size);
    data = NULL;
    memcpy(data_field, &data, sizeof data);
    *count = 0;
    *capacity = 0;
}

int array_remove_swap_(void *data, int *count, int elem_size, int index)
{
    CAIRN_ASSERT(index >= 0 && index < *count);
    if (index < 0 || index >= *count)
        return -1;
    int last = *count - 1;
    *count = last;
    if (index == last)
        return -1;
    char *bytes = data;
    memcpy(bytes + (size_t)index * (size_t)elem_size, bytes + (size_t)last * (size_t)elem_size,
           (size_t)elem_size);
    return last;
}
