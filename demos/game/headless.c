/* Headless rounds: shots fired on the step their script time falls on, or the character walked
   step by step as its script says; the round runs until the script is used up and everything
   rests (or the round is over), then one summary line per key. */
#include "headless.h"

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

/* The walking round; false after a message on stderr. */
static bool play_walk(game *g, const char *path)
{
    walk_script script = {0};
    char error[512];
    if (path && !walk_script_load(path, &script, error, sizeof error)) {
        fprintf(stderr, "cairn-game: %s\n", error);
        return false;
    }
    bool ok = true;
    while (ok && !game_over(g) && !(g->steps >= script.count && game_settled(g))) {
        ok = game_walk(g, walk_script_input(&script, g->steps));
        if (ok) {
            game_step(g);
        } else {
            fprintf(stderr, "cairn-game: %s\n", g->message);
        }
    }
    walk_script_free(&script);
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
    if (!walking && opt->walk) {
        fprintf(stderr, "cairn-game: level %d is shot at: --shots, not --walk\n", g->level);
        return false;
    }
    return true;
}

int headless_run(const headless_options *opt)
{
    game g;
    if (!game_start(&g, opt->level)) {
        fprintf(stderr, "cairn-game: %s\n", g.message);
        game_stop(&g);
        return 2;
    }
    bool ok = script_fits(&g, opt) &&
              (g.layout.kind == LEVEL_WALK ? play_walk(&g, opt->walk) : play_shots(&g, opt->shots));
    if (ok) {
        print_summary(&g);
    }
    game_stop(&g);
    return ok ? 0 : 2;
}
