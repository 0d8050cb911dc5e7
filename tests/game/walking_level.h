/* For the game tests: the number of the level where the player walks (found in the level table,
   not written down, so adding a level does not break the tests). */
#ifndef CAIRN_TESTS_GAME_WALKING_LEVEL_H
#define CAIRN_TESTS_GAME_WALKING_LEVEL_H

#include "level.h"

#include <criterion/criterion.h>

static inline int walking_level(void)
{
    for (int level = 1; level <= level_count(); ++level) {
        level_layout layout;
        cr_assert(level_build(level, &layout));
        if (layout.kind == LEVEL_WALK)
            return level;
    }
    cr_assert_fail("no walking level");
    return 0;
}

#endif
