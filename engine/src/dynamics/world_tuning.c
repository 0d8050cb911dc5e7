/* cairn_world_set_solver_settings: validated through the world-def checks, then swapped in. */
#include <cairn/world_tuning.h>

#include "core/error.h"
#include "dynamics/world_state.h"

bool cairn_world_set_solver_settings(cairn_world *world, const cairn_solver_settings *settings)
{
    if (!world) {
        return error_set("cairn_world_set_solver_settings: world is NULL");
    }
    if (!settings) {
        return error_set("cairn_world_set_solver_settings: settings is NULL");
    }
    /* The world's own def with the new solver part: one place owns every range check. */
    cairn_world_def candidate = world->def;
    candidate.solver = *settings;
    if (!cairn_world_def_validate(&candidate)) {
        return false;
    }
    world->def.solver = *settings;
    return true;
}
