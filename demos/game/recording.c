/* Recording a walking round: inputs every step, keyframes every few steps, and thinning the
   keyframes (every other one dropped, the interval doubled) when their snapshots reach the
   budget, so the memory stays bounded however the round goes. */
#include "recording.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool fail(recording *r, const char *what)
{
    snprintf(r->message, sizeof r->message, "%s", what);
    return false;
}

static void drop_keyframe(recording *r, recording_keyframe *k)
{
    r->snapshot_bytes -= k->size;
    free(k->snapshot);
    *k = (recording_keyframe){0};
}

/* Keeps the first keyframe and those on multiples of twice the interval. */
static void thin(recording *r)
{
    r->every *= 2;
    int kept = 0;
    for (int i = 0; i < r->keyframe_count; ++i) {
        recording_keyframe *k = &r->keyframes[i];
        if (i == 0 || k->step % r->every == 0) {
            r->keyframes[kept++] = *k;
        } else {
            drop_keyframe(r, k);
        }
    }
    r->keyframe_count = kept;
}

/* The game's state now as the next keyframe; false with r->message. */
static bool take_keyframe(recording *r, const game *g)
{
    size_t size = cairn_world_snapshot_size(g->world);
    while (r->snapshot_bytes + size > r->budget && r->keyframe_count > 1) {
        thin(r);
        if (g->steps % r->every != 0) {
            return true; /* not on the new interval: no keyframe here */
        }
    }
    if (r->snapshot_bytes + size > r->budget || r->keyframe_count >= r->keyframe_capacity) {
        return r->keyframe_count > 0 || fail(r, "recording: the budget holds no snapshot");
    }
    recording_keyframe k = {.step = g->steps, .size = size, .score = g->score};
    k.snapshot = malloc(size);
    if (!k.snapshot) {
        return fail(r, "recording: out of memory");
    }
    if (!cairn_world_snapshot(g->world, k.snapshot, size)) {
        free(k.snapshot);
        snprintf(r->message, sizeof r->message, "recording: %s", cairn_last_error());
        return false;
    }
    k.hash = cairn_world_state_hash(g->world);
    k.character = cairn_character_position(g->character);
    memcpy(k.grounded, g->grounded, sizeof k.grounded);
    r->keyframes[r->keyframe_count++] = k;
    r->snapshot_bytes += size;
    return true;
}

bool recording_begin(recording *r, const game *g, size_t budget)
{
    *r = (recording){.level = g->level, .every = RECORDING_FIRST_EVERY, .budget = budget};
    if (!g->character || g->steps != 0) {
        return fail(r, "recording: only a walking round that has not stepped can be recorded");
    }
    /* the first keyframe and the multiples of the first interval: thinning only lowers that */
    r->keyframe_capacity = GAME_MAX_STEPS / RECORDING_FIRST_EVERY + 2;
    r->inputs = malloc(GAME_MAX_STEPS * sizeof *r->inputs);
    r->keyframes = calloc((size_t)r->keyframe_capacity, sizeof *r->keyframes);
    if (!r->inputs || !r->keyframes) {
        recording_free(r);
        return fail(r, "recording: out of memory");
    }
    return true;
}

bool recording_step(recording *r, game *g, game_input in)
{
    if (r->input_count >= GAME_MAX_STEPS) {
        return fail(r, "recording: the round is at its time limit");
    }
    if (!game_walk(g, in)) {
        snprintf(r->message, sizeof r->message, "%s", g->message);
        return false;
    }
    r->inputs[r->input_count++] = in;
    game_step(g);
    /* The first keyframe comes after the first step, not before it: a snapshot of a world that
       has never stepped does not restore exactly (the restored run differs from the first
       step on), one taken after any step does. */
    bool due = r->keyframe_count == 0 || g->steps % r->every == 0;
    return !due || take_keyframe(r, g);
}

void recording_free(recording *r)
{
    for (int i = 0; i < r->keyframe_count; ++i) {
        free(r->keyframes[i].snapshot);
    }
    free(r->keyframes);
    free(r->inputs);
    *r = (recording){0};
}

size_t recording_bytes(const recording *r)
{
    return r->snapshot_bytes + (r->inputs ? GAME_MAX_STEPS * sizeof *r->inputs : 0) +
           (size_t)r->keyframe_capacity * sizeof *r->keyframes;
}

const recording_keyframe *recording_keyframe_before(const recording *r, int step)
{
    int i = 0;
    while (i + 1 < r->keyframe_count && r->keyframes[i + 1].step <= step) {
        ++i;
    }
    return &r->keyframes[i];
}
