/* The headless game: a shot or walk script played at 60 Hz without a window, and the round's
   summary. */
#ifndef CAIRN_GAME_HEADLESS_H
#define CAIRN_GAME_HEADLESS_H

#include <stdbool.h>

typedef struct headless_options {
    int level;
    const char *shots; /* shot script (shooting levels); NULL: no shot */
    const char *walk;  /* walk script (the walking level); NULL: the character stands still */
    bool replay;       /* walking level: record the round, replay it, print the replay's end */
} headless_options;

/* Plays the script on the level and prints the summary lines on stdout. Returns the exit code:
   0, or 2 after a message on stderr for a bad level or script. */
int headless_run(const headless_options *opt);

#endif
