/* Replays of the walking level: the replay, in a world of its own, ends in the live round's
   state (hash, character, score) also when the memory budget thins the keyframes; a replay fed
   other inputs is caught by its keyframe checks; seeking lands on the same states as playing
   straight through; recording does not change the round. No hash is written down: each is
   compared with the run it must equal. */
#define _POSIX_C_SOURCE 200809L
#include "replay.h"
#include "walk_script.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "run_program.h"
#include "game/walking_level.h"

#define DATA CAIRN_SOURCE_DIR "/tests/game/data/"

/* Plays the script through the recording, as the headless game does; the snapshots never take
   more than the budget. */
static void record_script(game *g, recording *rec, const char *path, size_t budget)
{
    cr_assert(game_start(g, walking_level()), "%s", g->message);
    cr_assert(recording_begin(rec, g, budget), "%s", rec->message);
    walk_script script;
    char error[512];
    cr_assert(walk_script_load(path, &script, error, sizeof error), "%s", error);
    while (!game_over(g) && !(g->steps >= script.count && game_settled(g))) {
        cr_assert(recording_step(rec, g, walk_script_input(&script, g->steps)), "%s", rec->message);
        cr_assert_leq(rec->snapshot_bytes, budget, "step %d", g->steps);
    }
    walk_script_free(&script);
    cr_assert_eq(rec->input_count, g->steps);
}

static bool same_position(vec3s a, vec3s b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static void replay_to_the_end(replay *p)
{
    while (replay_step(p)) {
    }
    cr_assert(replay_done(p), "%s", p->message);
}

static void expect_same_end(const game *live, const replay *p)
{
    cr_expect_eq(p->round.steps, live->steps);
    cr_expect_eq(cairn_world_state_hash(p->round.world), cairn_world_state_hash(live->world),
                 "the replay ends in another state");
    cr_expect(same_position(cairn_character_position(p->round.character),
                            cairn_character_position(live->character)),
              "the replayed character ends elsewhere");
    cr_expect_eq(p->round.score, live->score);
    cr_expect_eq(memcmp(p->round.grounded, live->grounded, sizeof live->grounded), 0);
}

Test(game_replay, replay_ends_in_the_live_rounds_state)
{
    game g;
    recording rec;
    record_script(&g, &rec, DATA "walk_win.txt", RECORDING_BUDGET);
    cr_assert(game_won(&g), "the script wins: a round with pushes, falls and scores");
    replay p;
    cr_assert(replay_start(&p, &rec), "%s", p.message);
    replay_to_the_end(&p);
    expect_same_end(&g, &p);
    cr_expect_eq(p.checked, rec.keyframe_count - 1, "every later keyframe is checked");
    cr_expect_eq(p.mismatches, 0);
    replay_stop(&p);
    recording_free(&rec);
    game_stop(&g);
}

/* A budget of three keyframes' worth: the interval doubles until the round fits (a 6 s round
   at 30 steps needs 13), and the thinned recording still replays exactly. */
Test(game_replay, a_thinned_recording_replays_exactly)
{
    game g;
    recording rec;
    size_t budget = 3 * 4000; /* the crates level's largest snapshot is under 4 KB */
    record_script(&g, &rec, DATA "walk_win.txt", budget);
    cr_expect_gt(rec.every, RECORDING_FIRST_EVERY, "the budget did not thin anything");
    cr_expect_leq(rec.keyframe_count, 3);
    for (int i = 1; i < rec.keyframe_count; ++i)
        cr_expect_eq(rec.keyframes[i].step % rec.every, 0);
    replay p;
    cr_assert(replay_start(&p, &rec), "%s", p.message);
    replay_to_the_end(&p);
    expect_same_end(&g, &p);
    cr_expect_eq(p.mismatches, 0);
    replay_stop(&p);
    recording_free(&rec);
    game_stop(&g);
}

/* The keyframe checks and the final hash can tell: one recorded step walked the other way makes
   the replay miss every later keyframe and end elsewhere. */
Test(game_replay, a_replay_with_other_inputs_is_caught)
{
    game g;
    recording rec;
    record_script(&g, &rec, DATA "walk_win.txt", RECORDING_BUDGET);
    int changed = rec.keyframes[1].step - 5; /* the first push is under way */
    rec.inputs[changed].vz = -rec.inputs[changed].vz;
    rec.inputs[changed].vx = 4.0f;
    replay p;
    cr_assert(replay_start(&p, &rec), "%s", p.message);
    replay_to_the_end(&p);
    cr_expect_gt(p.checked, 0);
    cr_expect_eq(p.mismatches, p.checked, "%d of %d keyframes matched", p.checked - p.mismatches,
                 p.checked);
    cr_expect_neq(cairn_world_state_hash(p.round.world), cairn_world_state_hash(g.world));
    replay_stop(&p);
    recording_free(&rec);
    game_stop(&g);
}

/* Seeking back and forth (keyframes restored into the replay's world) lands on the states a
   straight replay passes through. */
Test(game_replay, seeking_lands_on_the_straight_replays_states)
{
    game g;
    recording rec;
    record_script(&g, &rec, DATA "walk_win.txt", RECORDING_BUDGET);
    static const int targets[] = {200, 45, 300, 61, 1000000};
    uint64_t straight[GAME_MAX_STEPS + 1];
    replay p;
    cr_assert(replay_start(&p, &rec), "%s", p.message);
    straight[p.round.steps] = cairn_world_state_hash(p.round.world);
    while (replay_step(&p))
        straight[p.round.steps] = cairn_world_state_hash(p.round.world);
    replay_stop(&p);
    cr_assert(replay_start(&p, &rec), "%s", p.message);
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; ++i) {
        cr_assert(replay_seek(&p, targets[i]), "%s", p.message);
        int at = targets[i] < rec.input_count ? targets[i] : rec.input_count;
        cr_expect_eq(p.round.steps, at);
        cr_expect_eq(cairn_world_state_hash(p.round.world), straight[at], "seek to %d", at);
    }
    expect_same_end(&g, &p);
    cr_expect_eq(p.mismatches, 0);
    replay_stop(&p);
    recording_free(&rec);
    game_stop(&g);
}

/* Recording does not change the round: the same script with and without --replay ends in the
   same state, and the replay printed by --replay ends there too. */
Test(game_replay, headless_replay_prints_the_live_hash)
{
    char args[512], hash[32], character[64], score[32];
    snprintf(args, sizeof args, "--headless --level %d --walk " DATA "walk_win.txt",
             walking_level());
    run_result *r = run_program(CAIRN_GAME_PATH, args);
    cr_assert_eq(r->code, 0, "%s", r->err);
    snprintf(hash, sizeof hash, "%s", run_summary(r, "state_hash"));
    cr_expect_null(run_summary(r, "replay_state_hash"), "a replay without --replay");
    strcat(args, " --replay");
    r = run_program(CAIRN_GAME_PATH, args);
    cr_assert_eq(r->code, 0, "%s", r->err);
    cr_expect_str_eq(run_summary(r, "state_hash"), hash, "recording changed the round");
    cr_expect_str_eq(run_summary(r, "replay_state_hash"), hash);
    snprintf(character, sizeof character, "%s", run_summary(r, "character"));
    cr_expect_str_eq(run_summary(r, "replay_character"), character);
    snprintf(score, sizeof score, "%s", run_summary(r, "score"));
    cr_expect_str_eq(run_summary(r, "replay_score"), score);
    cr_expect_str_eq(run_summary(r, "replay_mismatches"), "0");
    cr_expect_gt(atoi(run_summary(r, "replay_checked")), 0);
}

Test(game_replay, only_fresh_walking_rounds_are_recorded)
{
    game g;
    recording rec;
    cr_assert(game_start(&g, walking_level() == 1 ? 2 : 1), "%s", g.message);
    cr_expect_not(recording_begin(&rec, &g, RECORDING_BUDGET));
    cr_expect(strstr(rec.message, "only a walking round") != NULL, "%s", rec.message);
    recording_free(&rec);
    game_stop(&g);
    cr_assert(game_start(&g, walking_level()), "%s", g.message);
    cr_assert(game_walk(&g, (game_input){0.0f, 0.0f, false}), "%s", g.message);
    game_step(&g);
    cr_expect_not(recording_begin(&rec, &g, RECORDING_BUDGET), "a round that has stepped");
    recording_free(&rec);
    game_stop(&g);
    char args[512];
    snprintf(args, sizeof args, "--headless --level %d --replay", walking_level() == 1 ? 2 : 1);
    run_result *r = run_program(CAIRN_GAME_PATH, args);
    cr_expect_eq(r->code, 2, "--replay on a shooting level exited %d", r->code);
    cr_expect(strstr(r->err, "--replay") != NULL, "%s", r->err);
}
