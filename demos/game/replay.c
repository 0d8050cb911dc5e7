/* Replays: restoring a keyframe into the replay's world (or a fresh one when the world no longer
   has the bodies it had then), stepping the recorded inputs, and checking each keyframe. */
#include "replay.h"

#include <stdio.h>
#include <string.h>

static bool fail(replay *p, const char *what, const char *why)
{
    snprintf(p->message, sizeof p->message, "%s: %.200s", what, why);
    return false;
}

/* The world and the game's tally as they were at keyframe k; false when the world refuses the
   snapshot (another set of bodies). */
static bool restore(replay *p, const recording_keyframe *k)
{
    if (!cairn_world_restore(p->round.world, k->snapshot, k->size)) {
        return false;
    }
    p->round.steps = k->step;
    p->round.score = k->score;
    memcpy(p->round.grounded, k->grounded, sizeof p->round.grounded);
    p->next_check = (int)(k - p->rec->keyframes) + 1;
    return true;
}

static bool fresh_round(replay *p)
{
    game_stop(&p->round);
    if (!game_start(&p->round, p->rec->level)) {
        return fail(p, "replay", p->round.message);
    }
    return restore(p, &p->rec->keyframes[0]) || fail(p, "replay", cairn_last_error());
}

bool replay_start(replay *p, const recording *rec)
{
    *p = (replay){.rec = rec};
    if (rec->keyframe_count == 0) {
        return fail(p, "replay", "the recording has no keyframe");
    }
    if (!fresh_round(p)) {
        game_stop(&p->round);
        return false;
    }
    return true;
}

bool replay_done(const replay *p)
{
    return p->round.steps >= p->rec->input_count;
}

/* Compares the replay with the keyframe recorded at this step, if any. */
static void check(replay *p)
{
    const recording *r = p->rec;
    if (p->next_check >= r->keyframe_count || r->keyframes[p->next_check].step != p->round.steps) {
        return;
    }
    const recording_keyframe *k = &r->keyframes[p->next_check++];
    vec3s at = cairn_character_position(p->round.character);
    bool same = cairn_world_state_hash(p->round.world) == k->hash &&
                memcmp(&at, &k->character, sizeof at) == 0 && p->round.score == k->score;
    p->checked++;
    p->mismatches += !same;
}

bool replay_step(replay *p)
{
    if (replay_done(p)) {
        return false;
    }
    if (!game_walk(&p->round, p->rec->inputs[p->round.steps])) {
        return fail(p, "replay", p->round.message);
    }
    game_step(&p->round);
    check(p);
    return true;
}

bool replay_seek(replay *p, int step)
{
    int first = p->rec->keyframes[0].step, last = p->rec->input_count;
    step = step < first ? first : step > last ? last : step;
    const recording_keyframe *k = recording_keyframe_before(p->rec, step);
    bool ahead = k->step > p->round.steps || step < p->round.steps;
    /* a restore needs the bodies the keyframe had; a body removed since: start afresh */
    if (ahead && !restore(p, k) && !fresh_round(p)) {
        return false;
    }
    while (p->round.steps < step) {
        if (!replay_step(p)) {
            return false;
        }
    }
    return true;
}

void replay_stop(replay *p)
{
    game_stop(&p->round);
    *p = (replay){0};
}
