/* The walking level: a script pushes the light crates off and wins, the stone crates stay where
   the push force limit keeps them, a jump rises as high as its speed says, and malformed walk
   scripts exit 2 with file:line. Answers from the level's data and worked out by hand. */
#define _POSIX_C_SOURCE 200809L
#include "game.h"
#include "walk_script.h"
#include "walker.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run_program.h"
#include "game/walking_level.h"

#define DATA CAIRN_SOURCE_DIR "/tests/game/data/"
#define G    9.81 /* m/s^2, the default gravity the game keeps */

static void start(game *g)
{
    cr_assert(game_start(g, walking_level()), "%s", g->message);
    cr_assert_not_null(g->character);
}

/* Plays the script as the headless game does: until it is used up and everything rests. */
static void play_script(game *g, const char *path)
{
    walk_script script;
    char error[512];
    cr_assert(walk_script_load(path, &script, error, sizeof error), "%s", error);
    while (!game_over(g) && !(g->steps >= script.count && game_settled(g))) {
        cr_assert(game_walk(g, walk_script_input(&script, g->steps)), "%s", g->message);
        game_step(g);
    }
    walk_script_free(&script);
}

static bool is_light(const level_block *b)
{
    return b->density == LEVEL_LIGHT_CRATE_DENSITY;
}

static float block_mass(const level_block *b)
{
    vec3s h = b->half_extents;
    return b->density * 8.0f * h.x * h.y * h.z;
}

/* The level as a puzzle: every light crate can be pushed (friction mu m g under the push force)
   and no stone crate can (friction over it), and the goal is the light crates. */
Test(game_walk, light_crates_can_be_pushed_and_stone_ones_cannot)
{
    level_layout l;
    cr_assert(level_build(walking_level(), &l));
    float force = walk_character_def(l.walker_start).max_push_force;
    int light = 0;
    for (int b = 0; b < l.block_count; ++b) {
        float friction = LEVEL_FRICTION * block_mass(&l.blocks[b]) * (float)G;
        if (is_light(&l.blocks[b]))
            cr_expect_lt(friction, force, "light crate %d: friction %g N", b, friction);
        else
            cr_expect_gt(friction, force, "stone crate %d: friction %g N", b, friction);
        light += is_light(&l.blocks[b]);
    }
    cr_expect_eq(l.goal, light);
    cr_expect_gt(l.block_count, light, "no stone crate: no puzzle");
}

/* The script pushes every light crate off: each ends below the platform's top (on the ground)
   and scored, the stone crates stay within 1 cm of their start, and the character is still on
   the platform. The score read from the events equals the crates found below the platform. */
Test(game_walk, scripted_walk_pushes_every_light_crate_off_and_wins)
{
    game g;
    start(&g);
    play_script(&g, DATA "walk_win.txt");
    const level_layout *l = &g.layout;
    int below = 0;
    for (int b = 0; b < l->block_count; ++b) {
        vec3s p = cairn_body_transform(g.world, g.blocks[b]).position;
        if (is_light(&l->blocks[b])) {
            cr_expect_lt(p.y, LEVEL_PLATFORM_TOP, "light crate %d ends at y = %g m", b, p.y);
            cr_expect(g.grounded[b], "light crate %d did not score", b);
        } else {
            float moved = glms_vec3_distance(p, l->blocks[b].centre);
            cr_expect_lt(moved, 0.01f, "stone crate %d moved %g m", b, moved);
        }
        below += p.y < l->platform_centre.y - l->platform_half_extents.y;
    }
    cr_expect_eq(g.score, below);
    cr_expect(game_won(&g));
    cr_expect(game_over(&g), "won and settled: the round is over");
    cr_expect_not(game_character_fell(&g));
    cr_expect_geq(cairn_character_position(g.character).y, LEVEL_PLATFORM_TOP);
    game_stop(&g);
}

/* The shorter script pushes the north crate only: that one crate off, one point, no win. */
Test(game_walk, scripted_walk_pushes_one_crate_off)
{
    game g;
    start(&g);
    play_script(&g, DATA "walk_north.txt");
    int north = 0;
    for (int b = 1; b < g.layout.block_count; ++b)
        if (g.layout.blocks[b].centre.z < g.layout.blocks[north].centre.z)
            north = b;
    cr_assert(is_light(&g.layout.blocks[north]), "the northmost crate is a light one");
    for (int b = 0; b < g.layout.block_count; ++b) {
        vec3s p = cairn_body_transform(g.world, g.blocks[b]).position;
        if (b == north)
            cr_expect_lt(p.y, LEVEL_PLATFORM_TOP, "the north crate ends at y = %g m", p.y);
        else
            cr_expect_lt(glms_vec3_distance(p, g.layout.blocks[b].centre), 0.01f, "crate %d", b);
    }
    cr_expect_eq(g.score, 1);
    cr_expect_not(game_won(&g));
    game_stop(&g);
}

/* Walking off the edge (4 m at 4 m/s from the centre, the edge 3 m away): the character lands on
   the ground, 4 m down, and the round is over and lost with nothing scored. */
Test(game_walk, walking_off_the_edge_loses_the_round)
{
    game g;
    start(&g);
    play_script(&g, DATA "walk_fall.txt");
    vec3s p = cairn_character_position(g.character);
    cr_expect_lt(p.x, -g.layout.platform_half_extents.x, "x = %g m", p.x);
    cr_expect(fabsf(p.y - (WALK_HALF_HEIGHT + WALK_RADIUS)) < 0.02f, "on the ground: y = %g m",
              p.y);
    cr_expect(game_character_fell(&g));
    cr_expect(game_over(&g));
    cr_expect_not(game_won(&g));
    cr_expect_eq(g.score, 0);
    game_stop(&g);
}

/* What a crate did while the character walked into it for 2 s from 1 m away. */
typedef struct push_result {
    float travel;       /* m from its start */
    float acceleration; /* m/s^2, mean over the 2nd to the 14th step of contact */
} push_result;

/* The push force F limits the crate's speed to (F / m) t after t s of contact, and its travel
   to (F / m) t^2 / 2 (checked at every step); m from the crate's size and density (the rounded
   edges make it 0.2% lighter: 1% slack). */
static push_result push_crate(int which)
{
    game g;
    start(&g);
    const level_block *b = &g.layout.blocks[which];
    float force = walk_character_def(g.layout.walker_start).max_push_force;
    float limit = 1.01f * force / block_mass(b); /* m/s^2 */
    vec3s at = {{b->centre.x, g.layout.walker_start.y, b->centre.z + 1.0f}};
    cr_assert(cairn_character_set_position(g.character, at));
    float face = b->centre.z + b->half_extents.z + WALK_RADIUS;
    int contact = -1;
    float early_speed = 0.0f;
    push_result result = {0.0f, 0.0f};
    for (int s = 0; s < 120; ++s) {
        cr_assert(game_walk(&g, (game_input){0.0f, -WALK_SPEED, false}), "%s", g.message);
        game_step(&g);
        if (contact < 0 && cairn_character_position(g.character).z < face + 0.01f)
            contact = s;
        float speed = glms_vec3_norm(cairn_body_linear_velocity(g.world, g.blocks[which]));
        float t = contact < 0 ? 0.0f : (float)(s - contact + 1) * GAME_DT;
        cr_expect_leq(speed, limit * t + 1e-3f, "step %d: %g m/s after %g s of contact", s, speed,
                      t);
        if (contact >= 0 && s == contact + 2)
            early_speed = speed;
        if (contact >= 0 && s == contact + 14)
            result.acceleration = (speed - early_speed) / (12.0f * GAME_DT);
    }
    cr_assert_geq(contact, 0, "the character never reached the crate");
    float t = (float)(120 - contact) * GAME_DT;
    vec3s p = cairn_body_transform(g.world, g.blocks[which]).position;
    result.travel = glms_vec3_distance(p, b->centre);
    cr_expect_leq(result.travel, 0.5f * limit * t * t + 1e-3f, "travelled %g m in %g s",
                  result.travel, t);
    game_stop(&g);
    return result;
}

/* A stone crate: friction (mu m g > F) holds it still as well. */
Test(game_walk, stone_crate_moves_no_faster_than_the_push_force_allows)
{
    level_layout l;
    cr_assert(level_build(walking_level(), &l));
    int stones = 0;
    for (int b = 0; b < l.block_count; ++b) {
        if (is_light(&l.blocks[b]))
            continue;
        float travel = push_crate(b).travel;
        cr_expect_lt(travel, 1e-3f, "stone crate %d moved %g m: friction exceeds the push", b,
                     travel);
        stones++;
    }
    cr_expect_gt(stones, 0);
}

/* A light crate: the push at full force F against sliding friction mu m g accelerates it at
   (F - mu m g) / m (2.8 m/s^2; mu = sqrt(0.6 * 0.6)), within 5%. (Before the character's
   pushes waited for its path, its step-climb trial pushed a second time: 10.9 m/s^2.) */
Test(game_walk, light_crate_moves_no_faster_than_the_push_force_allows)
{
    level_layout l;
    cr_assert(level_build(walking_level(), &l));
    float force = walk_character_def(l.walker_start).max_push_force;
    for (int b = 0; b < l.block_count; ++b) {
        if (!is_light(&l.blocks[b]))
            continue;
        float m = block_mass(&l.blocks[b]);
        double expected = (force - LEVEL_FRICTION * m * G) / m;
        push_result pushed = push_crate(b);
        cr_expect(fabs(pushed.acceleration - expected) < 0.05 * expected,
                  "light crate %d: %g m/s^2, %g expected", b, pushed.acceleration, expected);
        cr_expect_gt(pushed.travel, 0.1f, "light crate %d was not pushed", b);
    }
}

/* Space on the ground: the first move rises at the jump speed v, each later one at dt g less,
   so the top is dt (v (K + 1) - g dt K (K + 1) / 2) above the start, K = floor(v / (g dt)):
   1.588 m for 5.5 m/s (v^2 / 2g = 1.542 m in continuous time). */
Test(game_walk, a_jump_rises_as_high_as_its_speed_says)
{
    game g;
    start(&g);
    for (int s = 0; s < 60 && !cairn_character_ground_state(g.character).on_ground; ++s) {
        cr_assert(game_walk(&g, (game_input){0.0f, 0.0f, false}), "%s", g.message);
        game_step(&g); /* it starts 5 cm up */
    }
    cr_assert(cairn_character_ground_state(g.character).on_ground);
    float ground_y = cairn_character_position(g.character).y, top = ground_y;
    for (int s = 0; s < 90; ++s) {
        cr_assert(game_walk(&g, (game_input){0.0f, 0.0f, s == 0}), "%s", g.message);
        game_step(&g);
        top = fmaxf(top, cairn_character_position(g.character).y);
    }
    double v = WALK_JUMP_SPEED, dt = GAME_DT;
    double k = floor(v / (WALK_GRAVITY * dt));
    double expected = dt * (v * (k + 1.0) - WALK_GRAVITY * dt * k * (k + 1.0) / 2.0);
    cr_expect(fabs(top - ground_y - expected) < 0.01, "rose %g m, %g expected", top - ground_y,
              expected);
    cr_expect(cairn_character_ground_state(g.character).on_ground, "landed again");
    cr_expect_lt(fabsf(cairn_character_position(g.character).y - ground_y), 0.01f);
    game_stop(&g);
}

static run_result *run(const char *args)
{
    return run_program(CAIRN_GAME_PATH, args);
}

/* The game's own summary agrees with the in-process round: won, every crate it can push. */
Test(game_walk, headless_walk_wins)
{
    char args[512];
    snprintf(args, sizeof args, "--headless --level %d --walk " DATA "walk_win.txt",
             walking_level());
    run_result *r = run(args);
    cr_assert_eq(r->code, 0, "stderr: %s", r->err);
    cr_expect_str_eq(run_summary(r, "won"), "1", "%s", r->out);
    cr_expect_str_eq(run_summary(r, "fell"), "0", "%s", r->out);
    char goal[32];
    snprintf(goal, sizeof goal, "%s", run_summary(r, "goal"));
    cr_expect_str_eq(run_summary(r, "score"), goal, "%s", r->out);
}

/* Each malformed walk script names its file and the line of the first bad stretch. */
Test(game_walk, malformed_walk_scripts_exit_2_with_the_line)
{
    static const struct {
        const char *file;
        int line;
        const char *what;
    } bad[] = {
        {"walk_bad_word.txt", 3, "'x' is not a number"},
        {"walk_bad_count.txt", 2, "expected 4 numbers (steps vx vz jump), found 3"},
        {"walk_bad_steps.txt", 2, "steps 2.5 is not a whole number"},
        {"walk_bad_speed.txt", 1, "faster than 12 m/s"},
        {"walk_bad_jump.txt", 3, "jump 2 is neither 0 nor 1"},
        {"walk_too_long.txt", 2, "run past the time limit"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        char args[512], expected[256];
        snprintf(args, sizeof args, "--headless --level %d --walk " DATA "%s", walking_level(),
                 bad[i].file);
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

/* A walk script or --replay on a shooting level (headless or in the window), a shot script on
   the walking one, or both: exit 2 with a message and no summary. */
Test(game_walk, scripts_of_the_wrong_kind_exit_2)
{
    static const struct {
        const char *format; /* of the level */
        bool walking;       /* on the walking level, else a shooting one */
    } bad[] = {
        {"--headless --level %d --walk " DATA "walk_win.txt", false},
        {"--headless --level %d --shots " DATA "base.txt", true},
        {"--headless --level %d --walk " DATA "walk_win.txt --shots " DATA "base.txt", true},
        {"--level %d --walk " DATA "walk_win.txt", false}, /* the window checks it too */
        {"--level %d --replay", false},
    };
    int walking = walking_level(), shooting = walking == 1 ? 2 : 1;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        char args[1024];
        snprintf(args, sizeof args, bad[i].format, bad[i].walking ? walking : shooting);
        run_result *r = run(args);
        cr_expect_eq(r->code, 2, "'%s' exited %d", args, r->code);
        cr_expect_gt(strlen(r->err), 10, "'%s' gave no message", args);
        cr_expect_str_eq(r->out, "", "'%s' printed a summary", args);
    }
}

/* A walk that is not finite or too fast is refused before the character moves; shooting levels
   have no character to walk. */
Test(game_walk, bad_walks_are_refused)
{
    game g;
    start(&g);
    vec3s before = cairn_character_position(g.character);
    static const game_input bad[] = {
        {NAN, 0.0f, false}, {0.0f, INFINITY, false}, {9.0f, 9.0f, true}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        cr_expect_not(game_walk(&g, bad[i]), "bad walk %zu accepted", i);
        cr_expect(strstr(g.message, "not finite or faster") != NULL, "%s", g.message);
    }
    vec3s after = cairn_character_position(g.character);
    cr_expect(glms_vec3_distance(before, after) == 0.0f);
    /* the window's fastest: Shift on a diagonal, twice the walk speed along x and z */
    float run = 2.0f * WALK_SPEED;
    cr_expect(game_walk(&g, (game_input){run, run, false}), "%s", g.message);
    game_stop(&g);
    cr_assert(game_start(&g, walking_level() == 1 ? 2 : 1), "%s", g.message);
    cr_expect_not(game_walk(&g, (game_input){1.0f, 0.0f, false}));
    cr_expect(strstr(g.message, "not a walking level") != NULL, "%s", g.message);
    game_stop(&g);
}
