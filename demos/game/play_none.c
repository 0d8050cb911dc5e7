/* play_run for builds without the viewer (CAIRN_BUILD_DEMOS=OFF): only --headless works. */
#include "play.h"

#include <stdio.h>

int play_run(const play_options *opt)
{
    (void)opt;
    fprintf(stderr, "cairn-game: built without a window (CAIRN_BUILD_DEMOS=OFF); use --headless\n");
    return 2;
}
