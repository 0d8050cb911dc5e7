/* The game: the headless runner end to end (deterministic score and hash, misses score 0,
   malformed scripts and arguments exit 2 with file:line), and the game logic against physics
   worked out by hand (ballistic aim, a shot at the tower's base, a tower left alone). */
#define _POSIX_C_SOURCE 200809L
#include "game.h"
#include "script.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run_program.h"

#define DATA CAIRN_SOURCE_DIR "/tests/game/data/"

static run_result *run(const char *args)
{
    return run_program(CAIRN_GAME_PATH, args);
}

static const char *summary(const run_result *r, const char *key)
{
    return run_summary(r, key);
}

static int summary_int(const run_result *r, const char *key)
{
    const char *value = summary(r, key);
    cr_assert_not_null(value, "no %s in:\n%s", key, r->out);
    return atoi(value);
}

Test(game_headless, scripted_run_is_deterministic)
{
    char score[32], hash[32], steps[32];
    run_result *r = run("--headless --level 1 --shots " DATA "three_shots.txt");
    cr_assert_eq(r->code, 0, "stderr: %s", r->err);
    cr_expect_eq(summary_int(r, "shots"), 3);
    cr_expect_gt(summary_int(r, "score"), 0, "three shots at the tower knocked nothing off");
    cr_expect_leq(summary_int(r, "score"), summary_int(r, "blocks"));
    const char *h = summary(r, "state_hash");
    cr_assert_not_null(h);
    cr_expect_eq(strlen(h), 16);
    cr_expect_eq(strspn(h, "0123456789abcdef"), 16);
    snprintf(hash, sizeof hash, "%s", h); /* before summary() reuses its buffer */
    snprintf(score, sizeof score, "%s", summary(r, "score"));
    snprintf(steps, sizeof steps, "%s", summary(r, "steps"));
    r = run("--headless --level 1 --shots " DATA "three_shots.txt");
    cr_assert_eq(r->code, 0, "stderr: %s", r->err);
    cr_expect_str_eq(summary(r, "score"), score);
    cr_expect_str_eq(summary(r, "state_hash"), hash);
    cr_expect_str_eq(summary(r, "steps"), steps);
}

/* Shots that miss (shooting levels) and no script at all (every level) score nothing. */
Test(game_headless, misses_and_no_shots_score_zero_on_every_level)
{
    for (int level = 1; level <= level_count(); ++level) {
        char args[512];
        level_layout layout;
        cr_assert(level_build(level, &layout));
        if (layout.kind == LEVEL_SHOOT) {
            snprintf(args, sizeof args, "--headless --level %d --shots " DATA "miss.txt", level);
            run_result *r = run(args);
            cr_assert_eq(r->code, 0, "level %d: %s", level, r->err);
            cr_expect_eq(summary_int(r, "score"), 0, "level %d", level);
            cr_expect_eq(summary_int(r, "shots"), 2, "level %d", level);
        }
        snprintf(args, sizeof args, "--headless --level %d", level);
        run_result *r = run(args);
        cr_assert_eq(r->code, 0, "level %d: %s", level, r->err);
        cr_expect_eq(summary_int(r, "score"), 0, "level %d", level);
        cr_expect_eq(summary_int(r, "shots"), 0, "level %d", level);
        cr_expect_eq(summary_int(r, "won"), 0, "level %d", level);
    }
}

/* Each malformed script names its file and the line of the first bad shot. */
Test(game_headless, malformed_scripts_exit_2_with_the_line)
{
    static const struct {
        const char *file;
        int line;
        const char *what;
    } bad[] = {
        {"bad_word.txt", 3, "'zero' is not a number"},
        {"bad_count.txt", 3, "expected 5 numbers"},
        {"bad_speed.txt", 4, "speed -3 m/s is outside"},
        {"bad_order.txt", 2, "earlier than the shot before"},
        {"too_many.txt", 4, "one shot too many: the level allows 3"},
        {"bad_nan.txt", 1, "nan is not a finite number"},
        {"bad_extra.txt", 1, "found 6"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        char args[512], expected[256];
        snprintf(args, sizeof args, "--headless --level 1 --shots " DATA "%s", bad[i].file);
        run_result *r = run(args);
        cr_expect_eq(r->code, 2, "%s exited %d", bad[i].file, r->code);
        snprintf(expected, sizeof expected, "%s:%d: ", bad[i].file, bad[i].line);
        cr_expect(strstr(r->err, expected) != NULL, "%s: no '%s' in: %s", bad[i].file, expected,
                  r->err);
        cr_expect(strstr(r->err, bad[i].what) != NULL, "%s: no '%s' in: %s", bad[i].file,
                  bad[i].what, r->err);
        cr_expect_str_eq(r->out, "", "%s printed a summary", bad[i].file);
    }
}

Test(game_headless, bad_arguments_exit_2_with_a_message)
{
    static const char *const bad[] = {
        "--headless --level 0",
        "--headless --level one",
        "--headless --level",
        "--headless --shots",
        "--headless --shots " DATA "no_such_file.txt",
        "--headless --frobnicate",
        "--level 1 --shots " DATA "base.txt",
        "--headless --frames 10",
        "--screenshot /tmp/x.png",
        "--frames 0",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        run_result *r = run(bad[i]);
        cr_expect_eq(r->code, 2, "'%s' exited %d", bad[i], r->code);
        cr_expect_gt(strlen(r->err), 10, "'%s' gave no message", bad[i]);
        cr_expect_str_eq(r->out, "", "'%s' printed a summary", bad[i]);
    }
    char past_last[64];
    snprintf(past_last, sizeof past_last, "--headless --level %d", level_count() + 1);
    cr_expect_eq(run(past_last)->code, 2, "'%s' was accepted", past_last);
    cr_expect(strstr(run("--headless --shots " DATA "no_such_file.txt")->err,
                     "no_such_file.txt: cannot open") != NULL);
    cr_expect_eq(run("--help")->code, 0);
}
