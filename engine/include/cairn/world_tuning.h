/* Changing a live world's solver settings between steps (the viewer's live tuning). */
#ifndef CAIRN_WORLD_TUNING_H
#define CAIRN_WORLD_TUNING_H

#include <cairn/world.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Replaces the world's solver settings; they apply from the next step on (accumulated impulses
   and simplex caches are kept, so warm starting carries over). False (cairn_last_error() naming
   the field, nothing changed) on a NULL argument or a value outside its documented range. */
CAIRN_API bool cairn_world_set_solver_settings(cairn_world *world,
                                               const cairn_solver_settings *settings);

#ifdef __cplusplus
}
#endif

#endif
