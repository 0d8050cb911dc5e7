/* The window's walking level: W A S D and Space as the step's input (along the view, by the
   viewer's walker) or a walk script, the round recorded as it is played, and its replay (P once
   the round is over, or by itself; Left/Right jump 5 s). The camera follows the character shown,
   drawn as a capsule. */
#ifndef CAIRN_GAME_PLAY_WALK_H
#define CAIRN_GAME_PLAY_WALK_H

#include "camera.h"
#include "debug_lines.h"
#include "renderer.h"
#include "replay.h"
#include "walk_script.h"

#include <SDL.h>

typedef struct play_walk {
    const walk_script *script; /* plays instead of the keys; NULL: the keys */
    bool auto_replay;          /* the replay starts by itself once the round is over */
    recording rec;
    bool recording;  /* rec holds the live round (false once recording failed) */
    replay playback; /* valid while replaying */
    bool replaying;
    char status[256]; /* why the replay stopped, for the panel */
} play_walk;

/* After game_start of a walking round: starts recording it, to be walked by script (NULL: the
   keys) and replayed by itself when auto_replay. */
void play_walk_begin(play_walk *w, const game *round, const walk_script *script, bool auto_replay);
/* Before the round or the renderer goes: the replay stopped (the renderer forgets its shapes),
   the recording freed. */
void play_walk_end(play_walk *w, renderer *r);

/* One fixed step: the replay's next step while replaying (its end printed on stdout), else the
   live round (not over) walked with the keys held now or the script, through the recording. */
void play_walk_step(play_walk *w, game *round, const camera *cam, renderer *r);
/* P, Left, Right; false for other keys. */
bool play_walk_key(play_walk *w, const game *round, renderer *r, SDL_Keycode key);

/* The round on screen: the replay's while replaying, else the live one. */
const game *play_walk_shown(const play_walk *w, const game *round);
/* The camera's target on the shown character. */
void play_walk_follow(const play_walk *w, const game *round, camera *cam);
/* The shown character's capsule and the stone crates' outlines, after renderer_draw (its view);
   lines may be NULL. */
void play_walk_draw(const play_walk *w, const game *round, debug_lines *lines, const renderer *r);
/* The panel's lines for the walking level. */
void play_walk_text(const play_walk *w, const game *round, char *text, size_t capacity);

#endif
