/* The windowed game: the viewer's renderer, mouse aiming, a score panel. */
#ifndef CAIRN_GAME_PLAY_H
#define CAIRN_GAME_PLAY_H

#include <stdbool.h>

typedef struct play_options {
    int level;
    int frames;             /* stop after this many frames; 0: until the window closes */
    const char *screenshot; /* PNG of the last frame when frames > 0; NULL for none */
    const char *walk;       /* walking level: a walk script plays instead of the keys, one step
                               per frame; NULL: the keys */
    bool replay;            /* walking level: the replay starts once the round is over */
} play_options;

/* Plays until the window closes (or opt->frames); returns the exit code (0, or 1 when no
   window or renderer can be made or the screenshot cannot be written). */
int play_run(const play_options *opt);

#endif
