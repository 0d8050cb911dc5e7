/* The awake set: the indices of the bodies a step moves (alive, enabled, not static, awake).
   Every per-body loop of the step walks this list, and contacts between sleeping bodies are
   parked outside the solver's array, so sleeping and static bodies cost nothing per step. */
#include "dynamics/world_state.h"

#include "core/error.h"

bool awake_set_reserve(cairn_world *world, int bodies)
{
    return array_reserve(&world->awake, bodies);
}

static bool can_be_awake(const body *b)
{
    return b->alive && b->enabled && b->type != CAIRN_STATIC;
}

void body_set_awake(cairn_world *world, uint32_t index, bool awake)
{
    body *b = &world->bodies.data[index];
    awake = awake && can_be_awake(b);
    b->awake = awake;
    if (awake && b->awake_slot < 0) {
        /* Room was reserved when the body was created. */
        CAIRN_ASSERT(world->awake.count < world->awake.capacity);
        b->awake_slot = world->awake.count;
        world->awake.data[world->awake.count++] = index;
        world->unpark_pending = true;
        b->wakes++;
    } else if (!awake && b->awake_slot >= 0) {
        uint32_t last = world->awake.data[--world->awake.count];
        world->awake.data[b->awake_slot] = last;
        world->bodies.data[last].awake_slot = b->awake_slot;
        b->awake_slot = -1;
        world->park_pending = true;
    }
}
