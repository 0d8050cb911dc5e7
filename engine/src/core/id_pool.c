/* Generational id allocation with a LIFO free list (rules in id_pool.h). */
#include "core/id_pool.h"

bool id_pool_init(id_pool *pool, int capacity)
{
    *pool = (id_pool){0};
    if (capacity <= 0)
        return true;
    if (!array_reserve(&pool->slots, capacity) || !array_reserve(&pool->free_indices, capacity)) {
        id_pool_destroy(pool);
        return false;
    }
    return true;
}

void id_pool_destroy(id_pool *pool)
{
    array_free(&pool->slots);
    array_free(&pool->free_indices);
    pool->live_count = 0;
}

/* A brand-new slot. The free stack always has room for every slot, so id_pool_free never
   allocates and cannot fail for a valid id. */
static bool append_slot(id_pool *pool, uint32_t *index)
{
    if (!array_push(&pool->slots, (id_slot){.generation = 1, .alive = false}))
        return false;
    /* Follows the slots' geometric growth, so this reallocates only when they did. */
    if (!array_reserve(&pool->free_indices, pool->slots.capacity)) {
        pool->slots.count--;
        return false;
    }
    *index = (uint32_t)(pool->slots.count - 1);
    return true;
}

bool id_pool_alloc(id_pool *pool, uint32_t *index, uint32_t *generation)
{
    uint32_t slot_index;
    if (pool->free_indices.count > 0)
        slot_index = array_pop(&pool->free_indices);
    else if (!append_slot(pool, &slot_index))
        return false;
    id_slot *slot = &pool->slots.data[slot_index];
    slot->alive = true;
    pool->live_count++;
    *index = slot_index;
    *generation = slot->generation;
    return true;
}

bool id_pool_free(id_pool *pool, uint32_t index, uint32_t generation)
{
    if (!id_pool_is_valid(pool, index, generation))
        return error_set("id {%u, %u} is stale or was never allocated", index, generation);
    id_slot *slot = &pool->slots.data[index];
    slot->alive = false;
    /* Bump now rather than at reuse: the freed id stops matching immediately. */
    slot->generation = id_generation_next(slot->generation);
    pool->free_indices.data[pool->free_indices.count++] = index;
    pool->live_count--;
    return true;
}

bool id_pool_is_valid(const id_pool *pool, uint32_t index, uint32_t generation)
{
    if (generation == 0 || index >= (uint32_t)pool->slots.count)
        return false;
    const id_slot *slot = &pool->slots.data[index];
    return slot->alive && slot->generation == generation;
}

int id_pool_count(const id_pool *pool)
{
    return pool->live_count;
}

int id_pool_index_bound(const id_pool *pool)
{
    return pool->slots.count;
}
