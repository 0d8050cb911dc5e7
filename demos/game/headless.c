/* Headless rounds: shots fired on the step their script time falls on, the round run until the
   script is used up and everything rests (or the time limit), then one summary line per key. */
#include "headless.h"

#include "script.h"

#include <inttypes.h>
#include <stdio.h>

static void print_summary(const game *g)
{
    printf("level: %d %s\n", g->level, g->layout.name);
    printf("blocks: %d\n", g->layout.block_count);
    printf("score: %d\n", g->score);
    printf("shots: %d\n", g->shots_fired);
    printf("steps: %d\n", g->steps);
    printf("state_hash: %016" PRIx64 "\n", cairn_world_state_hash(g->world));
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

int headless_run(int level, const char *script_path)
{
    game g;
    if (!game_start(&g, level)) {
        fprintf(stderr, "cairn-game: %s\n", g.message);
        game_stop(&g);
        return 2;
    }
    shot_script script = {0};
    char error[512];
    if (script_path && !script_load(script_path, g.layout.shots, &script, error, sizeof error)) {
        fprintf(stderr, "cairn-game: %s\n", error);
        game_stop(&g);
        return 2;
    }
    int next = 0;
    for (;;) {
        if (!fire_due_shots(&g, &script, &next, script_path)) {
            game_stop(&g);
            return 2;
        }
        if ((next == script.count && game_settled(&g)) || game_time(&g) >= GAME_TIME_LIMIT) {
            break;
        }
        game_step(&g);
    }
    print_summary(&g);
    game_stop(&g);
    return 0;
}
