/* A walking round recorded for its replay: the input of every step and a snapshot of the world
   (a keyframe) after the first step and every `every` steps, in a fixed memory budget. The
   snapshots restore bit for bit, so the first keyframe and the inputs replay the round exactly;
   the later keyframes let a replay jump in time and check that it still follows the round. */
#ifndef CAIRN_GAME_RECORDING_H
#define CAIRN_GAME_RECORDING_H

#include "game.h"

#include <stddef.h>
#include <stdint.h>

/* The budget for the snapshots: a keyframe of the crates level takes up to 3.9 KB, so a 120 s
   round at one keyframe per 0.5 s (240 of them) holds about 0.9 MB and fits; a round with more
   contacts is thinned to one keyframe per second, then two. The inputs take 12 bytes per step on
   top (86 KB for 120 s), the keyframe table 27 KB. */
#define RECORDING_BUDGET      (1u << 20) /* bytes of snapshots at most */
#define RECORDING_FIRST_EVERY 30         /* steps between keyframes until the budget thins them */

typedef struct recording_keyframe {
    int step;        /* the game's step count when it was taken */
    uint64_t hash;   /* cairn_world_state_hash then */
    vec3s character; /* the character's position then (not in the hash) */
    int score;       /* the game's tally then, which the world does not hold */
    bool grounded[LEVEL_MAX_BLOCKS];
    void *snapshot;
    size_t size;
} recording_keyframe;

typedef struct recording {
    int level;
    game_input *inputs; /* inputs[s]: what the player asked for before step s */
    int input_count;
    recording_keyframe *keyframes; /* in step order; keyframes[0] is step 1 */
    int keyframe_count, keyframe_capacity;
    int every;             /* steps between keyframes now: doubles when the budget is full */
    size_t budget;         /* bytes of snapshots at most */
    size_t snapshot_bytes; /* bytes of snapshots held */
    char message[256];     /* why the last failed call failed */
} recording;

/* Starts recording g, a walking round that has not stepped yet, with at most budget bytes of
   snapshots. False with r->message otherwise or when memory runs out (r is then empty and
   recording_free is still safe). */
bool recording_begin(recording *r, const game *g, size_t budget);
/* One step of the round: the input recorded, then game_walk and game_step, then a keyframe after
   the first step and when the step count is a multiple of every. False with r->message when the
   walk is refused (the round did not step), the round is at the time limit, a snapshot fails or
   the budget cannot hold the first one. */
bool recording_step(recording *r, game *g, game_input in);
void recording_free(recording *r);

/* Bytes the recording holds: snapshots, inputs and the keyframe table. */
size_t recording_bytes(const recording *r);

/* The last keyframe at or before step (keyframes[0] for a step before it). */
const recording_keyframe *recording_keyframe_before(const recording *r, int step);

#endif
