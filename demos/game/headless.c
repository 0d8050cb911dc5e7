/* Headless rounds: shots fired on the step their script time falls on, or the character walked
   step by step as its script says; the round runs until the script is used up and everything
   rests (or the round is over), then one summary line per key. A walking round can be recorded
   and replayed in a world of its own, whose final state is printed too. */
#include "headless.h"

#include "replay.h"
#include "script.h"
#include "walk_script.h"

#include <inttypes.h>
#include <stdio.h>

static void print_summary(const game *g)
{
    printf("level: %d %s\n", g->level, g->layout.name);
    printf("blocks: %d\n", g->layout.block_count);
    printf("score: %d\n", g->score);
    printf("goal: %d\n", g->layout.goal);
    printf("won: %d\n", game_won(g));
    printf("shots: %d\n", g->shots_fired);
    printf("steps: %d\n", g->steps);
    printf("state_hash: %016" PRIx64 "\n", cairn_world_state_hash(g->world));
    if (g->character) {
        vec3s p = cairn_character_position(g->character);
        printf("character: %.4f %.4f %.4f\n", (double)p.x, (double)p.y, (double)p.z);
        printf("fell: %d\n", game_character_fell(g));
    }
}

/* Fires every shot due before the next step; false (message on stderr) if the game refuses. */
static bool fire_due_shots(game *g, const shot_script *script, int *next, const char *path)
{
    while (*next < script->count && script_fire_step(script->shots[*next].time) <= g->steps) {
        const script_shot *shot = &script->shots[*next];
        if (!game_shoot(g, shot->aim, shot->speed)) {
            fprintf(stderr, "cairn-game: %s: shot %d: %s\n", path, *next + 1, g->message);
            return false;
        }
        ++*next;
    }
    return true;
}

/* The shooting round; false after a message on stderr. */
static bool play_shots(game *g, const char *path)
{
    shot_script script = {0};
    char error[512];
    if (path && !script_load(path, g->layout.shots, &script, error, sizeof error)) {
        fprintf(stderr, "cairn-game: %s\n", error);
        return false;
    }
    int next = 0;
    for (;;) {
        if (!fire_due_shots(g, &script, &next, path)) {
            return false;
        }
        if ((next == script.count && game_settled(g)) || game_time(g) >= GAME_TIME_LIMIT) {
            return true;
        }
        game_step(g);
    }
}

/* One step of the walking round, through the recording when there is one; false after a
   message on stderr. */
static bool walk_step(game *g, recording *rec, game_input in)
{
    bool ok = rec ? recording_step(rec, g, in) : game_walk(g, in);
    if (!ok) {
        fprintf(stderr, "cairn-game: %s\n", rec ? rec->message : g->message);
        return false;
    }
    if (!rec) {
        game_step(g);
    }
    return true;
}

/* The walking round, recorded into rec when not NULL; false after a message on stderr. */
static bool play_walk(game *g, const char *path, recording *rec)
{
    walk_script script = {0};
    char error[512];
    if (path && !walk_script_load(path, &script, error, sizeof error)) {
        fprintf(stderr, "cairn-game: %s\n", error);
        return false;
    }
    bool ok = true;
    while (ok && !game_over(g) && !(g->steps >= script.count && game_settled(g))) {
        ok = walk_step(g, rec, walk_script_input(&script, g->steps));
    }
    walk_script_free(&script);
    return ok;
}

/* Replays the recording in a world of its own and prints its final state, to compare with the
   round's. False after a message on stderr. */
static bool replay_and_print(const recording *rec)
{
    replay p;
    if (!replay_start(&p, rec)) {
        fprintf(stderr, "cairn-game: %s\n", p.message);
        return false;
    }
    while (replay_step(&p)) {
    }
    bool ok = replay_done(&p);
    if (ok) {
        vec3s at = cairn_character_position(p.round.character);
        printf("replay_steps: %d\n", p.round.steps);
        printf("replay_score: %d\n", p.round.score);
        printf("replay_state_hash: %016" PRIx64 "\n", cairn_world_state_hash(p.round.world));
        printf("replay_character: %.4f %.4f %.4f\n", (double)at.x, (double)at.y, (double)at.z);
        printf("replay_checked: %d\n", p.checked);
        printf("replay_mismatches: %d\n", p.mismatches);
        printf("recording_keyframes: %d\n", rec->keyframe_count);
        printf("recording_every: %d\n", rec->every);
        printf("recording_bytes: %zu\n", recording_bytes(rec));
    } else {
        fprintf(stderr, "cairn-game: %s\n", p.message);
    }
    replay_stop(&p);
    return ok;
}

/* A script of the wrong kind for the level; false after a message on stderr. */
static bool script_fits(const game *g, const headless_options *opt)
{
    bool walking = g->layout.kind == LEVEL_WALK;
    if (walking && opt->shots) {
        fprintf(stderr, "cairn-game: level %d is walked: --walk, not --shots\n", g->level);
        return false;
    }
    if (!walking && (opt->walk || opt->replay)) {
        fprintf(stderr, "cairn-game: level %d is shot at: --walk and --replay are for walking\n",
                g->level);
        return false;
    }
    return true;
}

/* The walking round, recorded and replayed when asked; false after a message on stderr. */
static bool walk_round(game *g, const headless_options *opt)
{
    recording rec = {0};
    if (opt->replay && !recording_begin(&rec, g, RECORDING_BUDGET)) {
        fprintf(stderr, "cairn-game: %s\n", rec.message);
        return false;
    }
    bool ok = play_walk(g, opt->walk, opt->replay ? &rec : NULL);
    if (ok) {
        print_summary(g);
    }
    ok = ok && (!opt->replay || replay_and_print(&rec));
    recording_free(&rec);
    return ok;
}

int headless_run(const headless_options *opt)
{
    game g;
    if (!game_start(&g, opt->level)) {
        fprintf(stderr, "cairn-game: %s\n", g.message);
        game_stop(&g);
        return 2;
    }
    bool ok = script_fits(&g, opt);
    if (ok && g.layout.kind == LEVEL_WALK) {
        ok = walk_round(&g, opt);
    } else if (ok) {
        ok = play_shots(&g, opt->shots);
        if (ok) {
            print_summary(&g);
        }
    }
    game_stop(&g);
    return ok ? 0 : 2;
}
