/* The game's rules against answers worked out by hand: the ballistic aim passes through the aim
   point, the scripted misses never come near a block, a shot at the tower's base knocks off at
   least the blocks in its path, an untouched level stands still, and bad shots change nothing. */
#include "game.h"
#include "script.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#define DATA CAIRN_SOURCE_DIR "/tests/game/data/"
#define G    9.81 /* m/s^2, the default gravity the game keeps */
#define PI   3.14159265358979323846

/* Runs until everything rests (at least one step) or the time limit. */
static void run_until_settled(game *g)
{
    do {
        game_step(g);
    } while (!game_settled(g) && game_time(g) < GAME_TIME_LIMIT);
}

/* Position at time t of a point thrown from p0 with velocity v (closed form). */
static void parabola(vec3s p0, vec3s v, double t, double out[3])
{
    out[0] = p0.x + v.x * t;
    out[1] = p0.y + v.y * t - 0.5 * G * t * t;
    out[2] = p0.z + v.z * t;
}

Test(game_rules, launch_velocity_has_the_speed_and_hits_the_aim_point)
{
    game g;
    cr_assert(game_start(&g, 1), "%s", g.message);
    static const float aims[][4] = {
        {0.0f, 4.3f, 0.0f, 25.0f}, {-0.3f, 6.5f, 0.3f, 16.0f}, {1.0f, 4.0f, -1.0f, 40.0f}};
    for (int i = 0; i < 3; ++i) {
        vec3s aim = {{aims[i][0], aims[i][1], aims[i][2]}};
        vec3s v = game_launch_velocity(&g, aim, aims[i][3]);
        cr_expect(fabs(glms_vec3_norm(v) - aims[i][3]) < 1e-3 * aims[i][3]);
        vec3s p0 = g.layout.launcher;
        /* time to cover the horizontal distance, then the height reached there */
        double dx = aim.x - p0.x, dz = aim.z - p0.z;
        double t = sqrt(dx * dx + dz * dz) / sqrt((double)v.x * v.x + (double)v.z * v.z);
        double p[3];
        parabola(p0, v, t, p);
        cr_expect(fabs(p[0] - aim.x) < 1e-3 && fabs(p[1] - aim.y) < 1e-3 &&
                      fabs(p[2] - aim.z) < 1e-3,
                  "shot %d arrives at (%g %g %g)", i, p[0], p[1], p[2]);
        /* the low arc: rising less steeply than 45 degrees */
        cr_expect_lt(v.y, sqrtf(v.x * v.x + v.z * v.z));
    }
    /* out of reach (12 m up and 30 m away at 5 m/s): straight at the point */
    vec3s far = {{0.0f, 20.0f, -16.0f}};
    vec3s v = game_launch_velocity(&g, far, 5.0f);
    vec3s d = glms_vec3_normalize(glms_vec3_sub(far, g.layout.launcher));
    cr_expect(glms_vec3_norm(glms_vec3_sub(v, glms_vec3_scale(d, 5.0f))) < 1e-4f);
    game_stop(&g);
}

/* Distance from a point to a box given by its centre and half extents (0 inside). */
static double box_distance(const double p[3], vec3s centre, vec3s half)
{
    const float c[3] = {centre.x, centre.y, centre.z}, h[3] = {half.x, half.y, half.z};
    double sum = 0.0;
    for (int k = 0; k < 3; ++k) {
        double out = fabs(p[k] - c[k]) - h[k];
        sum += out > 0.0 ? out * out : 0.0;
    }
    return sqrt(sum);
}

/* The closed-form flight of every shot in miss.txt stays over a metre clear of the platform and
   of every block's starting box until it is below the ground, so those shots score nothing. */
Test(game_rules, scripted_misses_pass_clear_of_every_shooting_level)
{
    for (int level = 1; level <= level_count(); ++level) {
        game g;
        cr_assert(game_start(&g, level), "%s", g.message);
        if (g.layout.kind != LEVEL_SHOOT) {
            game_stop(&g);
            continue;
        }
        shot_script script;
        char error[512];
        cr_assert(script_load(DATA "miss.txt", g.layout.shots, &script, error, sizeof error), "%s",
                  error);
        cr_assert_eq(script.count, 2);
        for (int s = 0; s < script.count; ++s) {
            vec3s v = game_launch_velocity(&g, script.shots[s].aim, script.shots[s].speed);
            double closest = 1e9, p[3];
            for (double t = 0.0; t < 10.0; t += 1e-3) {
                parabola(g.layout.launcher, v, t, p);
                if (p[1] < 0.0)
                    break;
                closest = fmin(closest, box_distance(p, g.layout.platform_centre,
                                                     g.layout.platform_half_extents));
                for (int b = 0; b < g.layout.block_count; ++b)
                    closest = fmin(closest, box_distance(p, g.layout.blocks[b].centre,
                                                         g.layout.blocks[b].half_extents));
            }
            cr_expect_gt(closest, LEVEL_BALL_RADIUS + 1.0, "level %d shot %d passes %g m close",
                         level, s + 1, closest);
        }
        game_stop(&g);
    }
}

/* Blocks whose box the horizontal line x = aim.x, y = aim.y crosses: the ball's path through
   the tower, which arrives nearly level (checked below). */
static int blocks_in_path(const level_layout *l, vec3s aim, int *above)
{
    int count = 0;
    *above = 0;
    for (int b = 0; b < l->block_count; ++b) {
        const level_block *k = &l->blocks[b];
        bool same_column = fabsf(aim.x - k->centre.x) < k->half_extents.x &&
                           fabsf(aim.z - k->centre.z) < l->platform_half_extents.z;
        if (same_column && fabsf(aim.y - k->centre.y) < k->half_extents.y)
            count++;
        else if (same_column && k->centre.y > aim.y && fabsf(aim.z - k->centre.z) < 1e-3f)
            ++*above;
    }
    return count;
}

/* A 25 m/s steel ball at the centre of the tower's bottom-left front cube. In its path are the k
   cubes of that bottom row (front and back). With restitution 0 the ball and those cubes move on
   together at least at the inelastic common speed u = M v / (M + k m). A bottom cube under n
   cubes is braked by friction on both faces, at most mu g (2 n + 1); it leaves the platform
   (its centre past the far edge, distance d) when u^2 > 2 mu g (2 n + 1) d. The geometry
   below gives u about 16 m/s against 13 m/s needed, so all k cubes reach the ground. */
Test(game_rules, shot_at_the_tower_base_knocks_off_the_blocks_in_its_path)
{
    game g;
    cr_assert(game_start(&g, 1), "%s", g.message);
    const level_layout *l = &g.layout;
    const level_block *target = &l->blocks[0];
    for (int b = 1; b < l->block_count; ++b) /* lowest, then leftmost, then front-most cube */
        if (l->blocks[b].centre.y < target->centre.y - 1e-3f ||
            (fabsf(l->blocks[b].centre.y - target->centre.y) < 1e-3f &&
             (l->blocks[b].centre.x < target->centre.x - 1e-3f ||
              (fabsf(l->blocks[b].centre.x - target->centre.x) < 1e-3f &&
               l->blocks[b].centre.z > target->centre.z))))
            target = &l->blocks[b];
    vec3s aim = target->centre;
    float speed = 25.0f;
    int above, k = blocks_in_path(l, aim, &above);
    cr_assert_eq(k, 2, "the path through a 2 x 2 tower's bottom row crosses 2 cubes, not %d", k);
    vec3s v = game_launch_velocity(&g, aim, speed);
    double horizontal = sqrt((double)v.x * v.x + (double)v.z * v.z);
    double dx = aim.x - l->launcher.x, dz = aim.z - l->launcher.z;
    double arrival_slope = fabs(v.y - G * sqrt(dx * dx + dz * dz) / horizontal) / horizontal;
    cr_assert_lt(arrival_slope * 2.0 * target->half_extents.z * k, target->half_extents.y,
                 "the ball crosses the row nearly level");
    double r = LEVEL_BALL_RADIUS, big_m = LEVEL_BALL_DENSITY * 4.0 / 3.0 * PI * r * r * r;
    vec3s h = target->half_extents;
    double m = LEVEL_BLOCK_DENSITY * 8.0 * h.x * h.y * h.z;
    double u = big_m * horizontal / (big_m + k * m);
    cr_assert_lt(v.z, 0.0f, "the launcher shoots towards -Z");
    double d = target->centre.z - (l->platform_centre.z - l->platform_half_extents.z);
    double needed = sqrt(2.0 * LEVEL_FRICTION * G * (2.0 * above + 1.0) * d);
    cr_assert_gt(u, needed, "common speed %g m/s, needed %g m/s", u, needed);
    cr_assert(game_shoot(&g, aim, speed), "%s", g.message);
    run_until_settled(&g);
    cr_expect_geq(g.score, k, "score %d, at least %d expected", g.score, k);
    game_stop(&g);
}

/* Scoring against the final state: a block counts exactly when it rests below the platform's
   underside, where only the ground is. */
Test(game_rules, score_counts_the_blocks_resting_on_the_ground)
{
    for (int level = 1; level <= level_count(); ++level) {
        game g;
        cr_assert(game_start(&g, level), "%s", g.message);
        if (g.layout.kind != LEVEL_SHOOT) { /* test_walk.c pushes its crates off */
            game_stop(&g);
            continue;
        }
        cr_assert(game_shoot(&g, (vec3s){{-0.6f, 4.2f, 0.0f}}, 30.0f), "%s", g.message);
        for (int n = 0; n < 60; ++n)
            game_step(&g);
        cr_assert(game_shoot(&g, (vec3s){{0.5f, 4.5f, 0.0f}}, 30.0f), "%s", g.message);
        run_until_settled(&g);
        float underside = g.layout.platform_centre.y - g.layout.platform_half_extents.y;
        int below = 0;
        for (int b = 0; b < g.layout.block_count; ++b) {
            cr_assert(cairn_body_is_valid(g.world, g.blocks[b]), "level %d block %d", level, b);
            below += cairn_body_transform(g.world, g.blocks[b]).position.y < underside;
        }
        cr_expect_gt(below, 0, "level %d: the two shots knocked nothing down", level);
        cr_expect_eq(g.score, below, "level %d: score %d, %d blocks on the ground", level, g.score,
                     below);
        game_stop(&g);
    }
}

/* Left alone, every level stands: nothing scores and no block moves 1 cm in 5 s (the walking
   level's character stands still, asking for no walk). */
Test(game_rules, untouched_levels_stand_still)
{
    for (int level = 1; level <= level_count(); ++level) {
        game g;
        cr_assert(game_start(&g, level), "%s", g.message);
        for (int n = 0; n < 300; ++n) {
            if (g.character)
                cr_assert(game_walk(&g, (game_input){0.0f, 0.0f, false}), "%s", g.message);
            game_step(&g);
        }
        cr_expect_eq(g.score, 0, "level %d", level);
        cr_expect(game_settled(&g), "level %d still moves after 5 s", level);
        for (int b = 0; b < g.layout.block_count; ++b) {
            vec3s now = cairn_body_transform(g.world, g.blocks[b]).position;
            float moved = glms_vec3_distance(now, g.layout.blocks[b].centre);
            cr_expect_lt(moved, 0.01f, "level %d block %d moved %g m", level, b, moved);
        }
        game_stop(&g);
    }
}

Test(game_rules, bad_shots_are_refused_and_change_nothing)
{
    game g;
    cr_assert(game_start(&g, 1), "%s", g.message);
    int bodies = cairn_world_body_count(g.world);
    static const struct {
        vec3s aim;
        float speed;
        const char *what;
    } bad[] = {
        {{{NAN, 4.0f, 0.0f}}, 25.0f, "not finite"},
        {{{0.0f, INFINITY, 0.0f}}, 25.0f, "not finite"},
        {{{0.0f, 4.0f, 2e4f}}, 25.0f, "beyond"},
        {{{0.0f, 4.0f, 0.0f}}, 0.0f, "speed 0 is outside"},
        {{{0.0f, 4.0f, 0.0f}}, 61.0f, "speed 61 is outside"},
        {{{0.0f, 4.0f, 0.0f}}, NAN, "speed nan is outside"},
        {{{0.0f, 5.5f, 14.0f}}, 25.0f, "the launcher itself"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        cr_expect_not(game_shoot(&g, bad[i].aim, bad[i].speed), "bad shot %zu accepted", i);
        cr_expect(strstr(g.message, bad[i].what) != NULL, "shot %zu: %s", i, g.message);
        cr_expect_eq(g.shots_fired, 0);
        cr_expect_eq(cairn_world_body_count(g.world), bodies);
    }
    for (int s = 0; s < g.layout.shots; ++s)
        cr_expect(game_shoot(&g, (vec3s){{0.0f, 4.3f, 0.0f}}, 25.0f), "%s", g.message);
    cr_expect_not(game_shoot(&g, (vec3s){{0.0f, 4.3f, 0.0f}}, 25.0f));
    cr_expect(strstr(g.message, "no shot left") != NULL, "%s", g.message);
    cr_expect_eq(g.shots_fired, g.layout.shots);
    cr_expect_eq(cairn_world_body_count(g.world), bodies + g.layout.shots);
    game_stop(&g);
    cr_expect_not(game_start(&g, 0));
    cr_expect(strstr(g.message, "level 0 does not exist") != NULL, "%s", g.message);
    cr_expect_not(game_start(&g, level_count() + 1));
    game_stop(&g); /* safe on a game that failed to start */
}

/* A shot at time t goes before the first step that starts at or after t. */
Test(game_rules, script_times_map_to_steps)
{
    cr_expect_eq(script_fire_step(0.0f), 0);
    cr_expect_eq(script_fire_step(1.0f / 60.0f), 1);
    cr_expect_eq(script_fire_step(0.5f), 30);
    cr_expect_eq(script_fire_step(0.501f), 31);
    cr_expect_eq(script_fire_step(2.0f), 120);
    shot_script script;
    char error[512];
    cr_assert(script_load(DATA "three_shots.txt", 3, &script, error, sizeof error), "%s", error);
    cr_assert_eq(script.count, 3);
    cr_expect_float_eq(script.shots[1].time, 2.0f, 1e-6f);
    cr_expect_float_eq(script.shots[1].aim.x, 0.305f, 1e-6f);
    cr_expect_float_eq(script.shots[2].aim.y, 5.5f, 1e-6f);
    cr_expect_float_eq(script.shots[2].speed, 25.0f, 1e-6f);
    cr_expect_not(script_load(DATA "three_shots.txt", 2, &script, error, sizeof error));
    cr_expect(strstr(error, "three_shots.txt:5: one shot too many") != NULL, "%s", error);
}
