/* Snapshots in the viewer: F5 keeps one, F9 goes back to it, and Backspace steps back through
   the last frames' snapshots (kept while they fit a memory budget; a world whose snapshot is
   over 2 MB keeps every k-th frame, so stepping back goes back k frames at a time). */
#ifndef CAIRN_DEMO_HISTORY_H
#define CAIRN_DEMO_HISTORY_H

#include <cairn/cairn.h>
#include <stddef.h>

enum { HISTORY_FRAMES = 600 }; /* ten seconds at 60 Hz, when the budget allows */

typedef struct history_frame {
    unsigned char *data;
    size_t size;
} history_frame;

typedef struct history {
    history_frame frames[HISTORY_FRAMES]; /* a ring, newest at head - 1 */
    int head, count;
    int skipped;          /* frames since the last one kept (large worlds keep every k-th) */
    size_t bytes, budget; /* held and allowed for the ring */
    history_frame saved;  /* F5 */
} history;

/* After each step: the world's snapshot joins the ring (the oldest go when it is full). */
void history_record(history *r, const cairn_world *world);
/* Back one step: the newest snapshot is dropped and the one before it restored. False with a
   reason when there is none, or the world no longer has the bodies it had. */
bool history_step_back(history *r, cairn_world *world, const char **why);
bool history_save(history *r, const cairn_world *world, const char **why);
bool history_load(history *r, cairn_world *world, const char **why);
/* Forgets everything (a new world). */
void history_clear(history *r);

#endif
