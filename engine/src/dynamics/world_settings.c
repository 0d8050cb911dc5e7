/* The world's settings at run time: read and replace the def between steps. */
#include "dynamics/world_state.h"

#include "core/error.h"

cairn_world_def cairn_world_get_def(const cairn_world *world)
{
    if (world == NULL) {
        error_set("cairn_world_get_def: world is NULL");
        return cairn_world_default_def();
    }
    return world->def;
}

/* Every stage reads world->def when it runs, so a new def takes effect at the next step. */
bool cairn_world_set_def(cairn_world *world, const cairn_world_def *def)
{
    if (!world_unlocked(world, "cairn_world_set_def"))
        return false;
    if (world == NULL)
        return error_set("cairn_world_set_def: world is NULL");
    if (!cairn_world_def_validate(def))
        return false;
    world->def = *def;
    return true;
}
