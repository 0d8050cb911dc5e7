/* The headless game: a shot script played at 60 Hz without a window, and the round's summary. */
#ifndef CAIRN_GAME_HEADLESS_H
#define CAIRN_GAME_HEADLESS_H

/* Plays the script (NULL: no shot) on the level and prints the summary lines on stdout. Returns
   the exit code: 0, or 2 after a message on stderr for a bad level or script. */
int headless_run(int level, const char *script_path);

#endif
