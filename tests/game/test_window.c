/* The walking level in the window (under Xvfb, skipped without it or without a window build):
   a scripted round, its replay started by itself once the round rests, drawn frame by frame;
   the replay's end and the round's end have the headless round's state hash. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level.h"
#include "run_program.h"
#include "game/walking_level.h"

#define DATA   CAIRN_SOURCE_DIR "/tests/game/data/"
#define XVFB   "/usr/bin/xvfb-run"
#define FRAMES 160 /* the scripted round (66 steps) and its replay, one step per frame */

/* "key VALUE" after "key " in text, into out. */
static bool word_after(const char *text, const char *key, char *out, size_t capacity)
{
    const char *at = strstr(text, key);
    if (!at)
        return false;
    at += strlen(key);
    snprintf(out, capacity, "%.*s", (int)strcspn(at, " ,\n"), at);
    return true;
}

Test(game_window, scripted_round_and_its_replay_end_in_the_headless_state)
{
    if (access(XVFB, X_OK) != 0)
        cr_skip_test("no %s", XVFB);
    char args[1024], hash[32];
    snprintf(args, sizeof args, "--headless --level %d --walk " DATA "walk_short.txt",
             walking_level());
    run_result *r = run_program(CAIRN_GAME_PATH, args);
    cr_assert_eq(r->code, 0, "%s", r->err);
    snprintf(hash, sizeof hash, "%s", run_summary(r, "state_hash"));

    char png[128];
    snprintf(png, sizeof png, "/tmp/cairn_game_window_%d.png", (int)getpid());
    remove(png);
    setenv("ASAN_OPTIONS", "detect_leaks=0", 1); /* Mesa's allocations are not ours */
    snprintf(args, sizeof args,
             "-a -s '-screen 0 640x480x24' '%s' --level %d --walk " DATA
             "walk_short.txt --replay --frames %d --screenshot %s",
             CAIRN_GAME_PATH, walking_level(), FRAMES, png);
    r = run_program(XVFB, args);
    if (r->code != 0 && strstr(r->err, "built without a window"))
        cr_skip_test("a build without the window");
    cr_assert_eq(r->code, 0, "exit %d: %s", r->code, r->err);
    char replayed[32], live[32], off[32];
    cr_assert(word_after(r->out, "state_hash ", replayed, sizeof replayed), "no replay end in: %s",
              r->out);
    cr_assert(word_after(r->out, "the round's ", live, sizeof live), "%s", r->out);
    cr_assert(word_after(r->out, "checked, ", off, sizeof off), "%s", r->out);
    cr_expect_str_eq(live, hash, "the window's round ended elsewhere than the headless one");
    cr_expect_str_eq(replayed, hash, "the window's replay ended elsewhere");
    cr_expect_str_eq(off, "0", "keyframes the replay missed: %s", r->out);
    FILE *f = fopen(png, "rb");
    cr_expect_not_null(f, "no screenshot");
    if (f)
        fclose(f);
    remove(png);
}
