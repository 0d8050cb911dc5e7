/* Playing a recording back in a round of its own: a fresh world of the recorded level set to a
   keyframe's snapshot, then the recorded inputs step by step. Each keyframe passed on the way is
   a check: the replay's state hash and character must be the recorded ones. */
#ifndef CAIRN_GAME_REPLAY_H
#define CAIRN_GAME_REPLAY_H

#include "recording.h"

typedef struct replay {
    const recording *rec; /* must outlive the replay */
    game round;           /* the replay's own world */
    int next_check;       /* the next keyframe to compare with */
    int checked;          /* keyframes compared */
    int mismatches;       /* of those, ones the replay did not reproduce */
    char message[256];    /* why the last failed call failed */
} replay;

/* Builds the recorded level and sets it to the first keyframe (after the first step). False with
   p->message when the recording has no keyframe, the level cannot be built or the snapshot is
   refused (p->round is then stopped). */
bool replay_start(replay *p, const recording *rec);
/* Replays the next recorded step; false (nothing done) once every recorded step is replayed, or
   with p->message when the recorded walk is refused. */
bool replay_step(replay *p);
bool replay_done(const replay *p);
/* Moves the replay to step (clamped to the first keyframe and the last recorded step): the last
   keyframe before it restored, then the inputs from there. False with p->message when no world can
   be set up. */
bool replay_seek(replay *p, int step);
void replay_stop(replay *p);

#endif
