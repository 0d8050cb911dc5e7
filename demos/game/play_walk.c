/* The walking level in the window: keys to inputs, recording, replay and its panel text. */
#include "play_walk.h"

#include "walker.h"

#include <inttypes.h>
#include <stdio.h>

#define SEEK_STEPS 300 /* Left/Right in a replay: 5 s */

void play_walk_begin(play_walk *w, const game *round, const walk_script *script, bool auto_replay)
{
    *w = (play_walk){.script = script, .auto_replay = auto_replay};
    w->recording = recording_begin(&w->rec, round, RECORDING_BUDGET);
    if (!w->recording) {
        fprintf(stderr, "cairn-game: no replay for this round: %s\n", w->rec.message);
    }
}

static void stop_replay(play_walk *w, renderer *r)
{
    if (w->replaying) {
        renderer_forget_shapes(r); /* the replay's world and its shapes are about to go */
        replay_stop(&w->playback);
        w->replaying = false;
    }
}

void play_walk_end(play_walk *w, renderer *r)
{
    stop_replay(w, r);
    recording_free(&w->rec);
    w->recording = false;
}

static void start_replay(play_walk *w, renderer *r)
{
    stop_replay(w, r);
    renderer_forget_shapes(r); /* the live world's shapes leave the screen */
    w->replaying = replay_start(&w->playback, &w->rec);
    snprintf(w->status, sizeof w->status, "%s", w->replaying ? "" : w->playback.message);
}

static void live_step(play_walk *w, game *round, const camera *cam)
{
    const unsigned char *keys = SDL_GetKeyboardState(NULL);
    vec3s walk = walker_walk_velocity(cam, keys);
    game_input in = {walk.x, walk.z, walker_jump_held(keys)};
    if (w->script) {
        in = walk_script_input(w->script, round->steps);
    }
    if (w->recording) {
        if (!recording_step(&w->rec, round, in)) {
            fprintf(stderr, "cairn-game: recording stopped: %s\n", w->rec.message);
            w->recording = false; /* the round goes on without its replay */
        }
    } else if (game_walk(round, in)) {
        game_step(round);
    }
}

/* The round is over, or its script is used up and everything rests (as a headless round ends). */
static bool round_done(const play_walk *w, const game *round)
{
    return game_over(round) ||
           (w->script && round->steps >= w->script->count && game_settled(round));
}

/* The replay's end against the round's, for whoever runs the window from a script. */
static void print_replay_end(const play_walk *w, const game *round)
{
    const replay *p = &w->playback;
    printf("replay: %d steps, %d keyframes checked, %d off, state_hash %016" PRIx64
           ", the round's %016" PRIx64 "\n",
           p->round.steps, p->checked, p->mismatches, cairn_world_state_hash(p->round.world),
           cairn_world_state_hash(round->world));
    fflush(stdout);
}

void play_walk_step(play_walk *w, game *round, const camera *cam, renderer *r)
{
    if (w->replaying) {
        if (replay_done(&w->playback)) {
            return;
        }
        if (!replay_step(&w->playback)) {
            snprintf(w->status, sizeof w->status, "%s", w->playback.message);
        } else if (replay_done(&w->playback)) {
            print_replay_end(w, round);
        }
    } else if (!round_done(w, round)) {
        live_step(w, round, cam);
    } else if (w->auto_replay && w->recording) {
        w->auto_replay = false; /* once: P replays again */
        start_replay(w, r);
    }
}

static void seek(play_walk *w, int steps)
{
    if (!replay_seek(&w->playback, w->playback.round.steps + steps)) {
        snprintf(w->status, sizeof w->status, "%s", w->playback.message);
    }
}

bool play_walk_key(play_walk *w, const game *round, renderer *r, SDL_Keycode key)
{
    switch (key) {
    case SDLK_p:
        if (w->recording && round_done(w, round)) {
            start_replay(w, r);
        }
        return true;
    case SDLK_LEFT:
    case SDLK_RIGHT:
        if (w->replaying) {
            seek(w, key == SDLK_LEFT ? -SEEK_STEPS : SEEK_STEPS);
        }
        return true;
    default:
        return false;
    }
}

const game *play_walk_shown(const play_walk *w, const game *round)
{
    return w->replaying ? &w->playback.round : round;
}

/* The viewer's walker on the shown round's character, for its camera and drawing. */
static walker shown_walker(const play_walk *w, const game *round)
{
    const game *shown = play_walk_shown(w, round);
    return (walker){shown->character, shown->world};
}

void play_walk_follow(const play_walk *w, const game *round, camera *cam)
{
    walker view = shown_walker(w, round);
    walker_follow(&view, cam);
}

/* The twelve edges of block i's box where it is now. */
static void outline_block(const game *g, int i, debug_lines *lines)
{
    cairn_transform t = cairn_body_transform(g->world, g->blocks[i]);
    vec3s h = g->layout.blocks[i].half_extents;
    vec3s corner[8];
    for (int k = 0; k < 8; ++k) {
        vec3s local = {{k & 1 ? h.x : -h.x, k & 2 ? h.y : -h.y, k & 4 ? h.z : -h.z}};
        corner[k] = glms_vec3_add(t.position, glms_quat_rotatev(t.rotation, local));
    }
    vec4s colour = {{1.0f, 0.3f, 0.2f, 1.0f}};
    for (int k = 0; k < 8; ++k) {
        for (int axis = 1; axis < 8; axis <<= 1) {
            if (!(k & axis)) { /* each edge once, from its lower corner */
                debug_lines_add(lines, corner[k], corner[k | axis], colour);
            }
        }
    }
}

void play_walk_draw(const play_walk *w, const game *round, debug_lines *lines, const renderer *r)
{
    if (!lines) {
        return;
    }
    const game *shown = play_walk_shown(w, round);
    walker view = shown_walker(w, round);
    debug_lines_clear(lines);
    walker_draw(&view, lines);
    /* the renderer colours crates by shape, not mass: the stone ones are told by their outline */
    for (int i = 0; i < shown->layout.block_count; ++i) {
        if (shown->layout.blocks[i].density == LEVEL_HEAVY_CRATE_DENSITY &&
            cairn_body_is_valid(shown->world, shown->blocks[i])) {
            outline_block(shown, i, lines);
        }
    }
    debug_lines_draw(lines, renderer_view_projection(r));
}

void play_walk_text(const play_walk *w, const game *round, char *text, size_t capacity)
{
    if (w->replaying) {
        const replay *p = &w->playback;
        snprintf(text, capacity,
                 "REPLAY %.1f / %.1f s   score %d/%d   keyframes checked %d, off %d   %s\n"
                 "Left/Right 5 s   P from the start   R new round   N next level   Esc quit",
                 (double)game_time(&p->round), (double)w->rec.input_count * GAME_DT, p->round.score,
                 p->round.layout.goal, p->checked, p->mismatches, w->status);
    } else if (round_done(w, round)) {
        snprintf(text, capacity, "%s: %d of %d crates pushed off.  %sR again   N next   Esc quit",
                 game_won(round) ? "WON" : "ROUND OVER", round->score, round->layout.goal,
                 w->recording ? "P replay   " : "");
    } else {
        snprintf(text, capacity,
                 "push the light crates off (the outlined stone ones do not move)\n"
                 "W A S D walk along the view   Space jumps   right drag orbits   wheel zooms\n"
                 "R restart   N next level   Esc quit");
    }
}
