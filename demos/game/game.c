/* A round of the game: building the level as bodies (and the walking level's character), shots
   on a ballistic arc, walks, and the score read from begin-contact events with the ground after
   every step. */
#include "game.h"

#include "walker.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define GROUND_CELLS        50    /* per side of the ground mesh: 8 m squares */
#define BLOCK_CONVEX_RADIUS 0.02f /* m, rounds the blocks' edges; outer size unchanged */

static bool is_null(cairn_body_id id)
{
    return id.index == 0 && id.generation == 0;
}

static bool fail(game *g, const char *what)
{
    snprintf(g->message, sizeof g->message, "%s: %s", what, cairn_last_error());
    return false;
}

static cairn_body_id add_static_box(game *g, vec3s centre, vec3s half)
{
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_STATIC;
    def.transform.position = centre;
    def.friction = LEVEL_FRICTION;
    cairn_shape *shape = cairn_shape_box(half, 0.0f);
    if (!shape) {
        return (cairn_body_id){0, 0};
    }
    def.shape = shape;
    cairn_body_id id = cairn_body_create(g->world, &def);
    cairn_shape_release(shape); /* the body keeps its own reference */
    return id;
}

/* The ground: a static triangle mesh of GROUND_CELLS x GROUND_CELLS squares, top face y = 0, as
   a game's level geometry would be (the blocks score on their first touch of it). */
static cairn_body_id add_ground_mesh(game *g)
{
    enum { SIDE = GROUND_CELLS + 1 };
    static const float cell = 2.0f * LEVEL_GROUND_HALF / GROUND_CELLS;
    vec3s *vertices = malloc(sizeof *vertices * SIDE * SIDE);
    int *indices = malloc(sizeof *indices * 6 * GROUND_CELLS * GROUND_CELLS);
    cairn_body_id id = {0, 0};
    if (vertices && indices) {
        for (int j = 0; j < SIDE; ++j)
            for (int i = 0; i < SIDE; ++i)
                vertices[j * SIDE + i] = (vec3s){{-LEVEL_GROUND_HALF + cell * (float)i, 0.0f,
                                                  -LEVEL_GROUND_HALF + cell * (float)j}};
        int *t = indices;
        for (int j = 0; j < GROUND_CELLS; ++j)
            for (int i = 0; i < GROUND_CELLS; ++i) { /* counter-clockwise seen from above */
                int c = j * SIDE + i;
                int square[6] = {c, c + SIDE, c + 1, c + 1, c + SIDE, c + SIDE + 1};
                for (int k = 0; k < 6; ++k)
                    *t++ = square[k];
            }
        cairn_shape *shape =
            cairn_shape_mesh(vertices, SIDE * SIDE, indices, 2 * GROUND_CELLS * GROUND_CELLS);
        if (shape) {
            cairn_body_def def = cairn_body_default_def();
            def.type = CAIRN_STATIC;
            def.friction = LEVEL_FRICTION;
            def.shape = shape;
            id = cairn_body_create(g->world, &def);
            cairn_shape_release(shape);
        }
    }
    free(indices);
    free(vertices);
    return id;
}

static bool add_block(game *g, int i)
{
    const level_block *b = &g->layout.blocks[i];
    cairn_body_def def = cairn_body_default_def();
    def.transform.position = b->centre;
    def.density = b->density;
    def.friction = LEVEL_FRICTION;
    cairn_shape *shape = cairn_shape_box(b->half_extents, BLOCK_CONVEX_RADIUS);
    if (!shape) {
        return false;
    }
    def.shape = shape;
    g->blocks[i] = cairn_body_create(g->world, &def);
    cairn_shape_release(shape);
    return !is_null(g->blocks[i]);
}

static bool add_character(game *g)
{
    cairn_character_def def = walk_character_def(g->layout.walker_start);
    g->character = cairn_character_create(g->world, &def);
    return g->character != NULL;
}

static bool build(game *g)
{
    cairn_world_def def = cairn_world_default_def();
    g->world = cairn_world_create(&def);
    if (!g->world) {
        return fail(g, "cannot create the world");
    }
    g->ground = add_ground_mesh(g);
    g->platform = add_static_box(g, g->layout.platform_centre, g->layout.platform_half_extents);
    if (is_null(g->ground) || is_null(g->platform)) {
        return fail(g, "cannot create the ground and the platform");
    }
    for (int i = 0; i < g->layout.block_count; ++i) {
        if (!add_block(g, i)) {
            return fail(g, "cannot create a block");
        }
    }
    if (g->layout.kind == LEVEL_WALK && !add_character(g)) {
        return fail(g, "cannot create the character");
    }
    g->ball_shape = cairn_shape_sphere(LEVEL_BALL_RADIUS);
    return g->ball_shape != NULL || fail(g, "cannot create the ball shape");
}

bool game_start(game *g, int level)
{
    *g = (game){.level = level};
    if (!level_build(level, &g->layout)) {
        snprintf(g->message, sizeof g->message, "level %d does not exist (levels are 1 to %d)",
                 level, level_count());
        return false;
    }
    if (g->layout.shots > GAME_MAX_SHOTS) {
        snprintf(g->message, sizeof g->message, "level %d allows %d shots, more than %d", level,
                 g->layout.shots, GAME_MAX_SHOTS);
        return false;
    }
    if (!build(g)) {
        char message[sizeof g->message];
        snprintf(message, sizeof message, "%s", g->message);
        game_stop(g);
        snprintf(g->message, sizeof g->message, "%s", message);
        return false;
    }
    return true;
}

void game_stop(game *g)
{
    if (g->character) {
        cairn_character_destroy(g->character); /* before its world */
    }
    if (g->world) {
        cairn_world_destroy(g->world);
    }
    if (g->ball_shape) {
        cairn_shape_release(g->ball_shape);
    }
    *g = (game){0};
}

/* Low arc of the projectile through the aim point: tan(theta) = (v^2 - sqrt(v^4 - g (g x^2 +
   2 y v^2))) / (g x) for horizontal distance x and rise y. Straight at aim when out of reach. */
vec3s game_launch_velocity(const game *g, vec3s aim, float speed)
{
    vec3s d = glms_vec3_sub(aim, g->layout.launcher);
    float gravity = -cairn_world_default_def().gravity.y;
    vec3s horizontal = {{d.x, 0.0f, d.z}};
    float x = glms_vec3_norm(horizontal), y = d.y, v2 = speed * speed;
    float disc = v2 * v2 - gravity * (gravity * x * x + 2.0f * y * v2);
    if (x < 1e-3f || disc < 0.0f || gravity <= 0.0f) {
        return glms_vec3_scale(glms_vec3_normalize(d), speed);
    }
    float theta = atanf((v2 - sqrtf(disc)) / (gravity * x));
    vec3s across = glms_vec3_scale(horizontal, speed * cosf(theta) / x);
    return glms_vec3_add(across, (vec3s){{0.0f, speed * sinf(theta), 0.0f}});
}

/* Finite, and no coordinate beyond GAME_MAX_COORD. */
static bool reasonable_point(vec3s v)
{
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z) && fabsf(v.x) <= GAME_MAX_COORD &&
           fabsf(v.y) <= GAME_MAX_COORD && fabsf(v.z) <= GAME_MAX_COORD;
}

bool game_shoot(game *g, vec3s aim, float speed)
{
    if (game_shots_left(g) <= 0) {
        snprintf(g->message, sizeof g->message, "game_shoot: no shot left (level %d allows %d)",
                 g->level, g->layout.shots);
        return false;
    }
    if (!reasonable_point(aim)) {
        snprintf(g->message, sizeof g->message,
                 "game_shoot: aim point (%g, %g, %g) is not finite or beyond %g m", aim.x, aim.y,
                 aim.z, GAME_MAX_COORD);
        return false;
    }
    if (!(speed >= LEVEL_MIN_SPEED && speed <= LEVEL_MAX_SPEED)) {
        snprintf(g->message, sizeof g->message, "game_shoot: speed %g is outside [%g, %g] m/s",
                 speed, LEVEL_MIN_SPEED, LEVEL_MAX_SPEED);
        return false;
    }
    if (glms_vec3_distance(aim, g->layout.launcher) < 1e-3f) {
        snprintf(g->message, sizeof g->message, "game_shoot: aim point is the launcher itself");
        return false;
    }
    cairn_body_def def = cairn_body_default_def();
    def.transform.position = g->layout.launcher;
    def.linear_velocity = game_launch_velocity(g, aim, speed);
    def.shape = g->ball_shape;
    def.density = LEVEL_BALL_DENSITY;
    def.friction = LEVEL_FRICTION;
    cairn_body_id ball = cairn_body_create(g->world, &def);
    if (is_null(ball)) {
        return fail(g, "game_shoot: the engine refused the ball");
    }
    g->ball_fired_step[g->shots_fired] = g->steps;
    g->balls[g->shots_fired++] = ball;
    return true;
}

bool game_walk(game *g, game_input in)
{
    if (!g->character) {
        snprintf(g->message, sizeof g->message, "game_walk: level %d is not a walking level",
                 g->level);
        return false;
    }
    float speed = sqrtf(in.vx * in.vx + in.vz * in.vz);
    if (!(speed <= GAME_MAX_WALK)) { /* also refuses NaN */
        snprintf(g->message, sizeof g->message,
                 "game_walk: walk (%g, %g) m/s is not finite or faster than %g m/s", in.vx, in.vz,
                 GAME_MAX_WALK);
        return false;
    }
    vec3s velocity =
        walk_move_velocity(g->character, (vec3s){{in.vx, 0.0f, in.vz}}, in.jump, GAME_DT);
    return cairn_character_move(g->character, velocity, GAME_DT) ||
           fail(g, "game_walk: the character refused to move");
}

static int block_of(const game *g, cairn_body_id id)
{
    for (int i = 0; i < g->layout.block_count; ++i) {
        if (cairn_body_id_equal(g->blocks[i], id)) {
            return i;
        }
    }
    return -1;
}

static int ball_of(const game *g, cairn_body_id id)
{
    for (int i = 0; i < g->shots_fired; ++i) {
        if (cairn_body_id_equal(g->balls[i], id)) {
            return i;
        }
    }
    return -1;
}

/* Scores blocks on their first touch of the ground; marks balls that reached it. The events
   array belongs to the world, so balls are only destroyed after the walk. */
static void read_ground_contacts(game *g, bool *ball_landed)
{
    cairn_contact_events events = cairn_world_contact_events(g->world);
    for (int e = 0; e < events.begin_count; ++e) {
        cairn_body_id a = events.begins[e].body_a, b = events.begins[e].body_b;
        cairn_body_id other;
        if (cairn_body_id_equal(a, g->ground)) {
            other = b;
        } else if (cairn_body_id_equal(b, g->ground)) {
            other = a;
        } else {
            continue;
        }
        int block = block_of(g, other);
        if (block >= 0 && !g->grounded[block]) {
            g->grounded[block] = true;
            g->score++;
        }
        int ball = ball_of(g, other);
        if (ball >= 0) {
            ball_landed[ball] = true;
        }
    }
}

static bool below_kill_plane(const game *g, cairn_body_id id)
{
    return !is_null(id) && cairn_body_transform(g->world, id).position.y < GAME_KILL_Y;
}

static void remove_body(game *g, cairn_body_id *id)
{
    cairn_body_destroy(g->world, *id);
    *id = (cairn_body_id){0, 0};
}

void game_step(game *g)
{
    cairn_world_step(g->world, GAME_DT);
    g->steps++;
    bool ball_landed[GAME_MAX_SHOTS] = {false};
    read_ground_contacts(g, ball_landed);
    for (int i = 0; i < g->shots_fired; ++i) {
        bool expired = (float)(g->steps - g->ball_fired_step[i]) * GAME_DT >= GAME_BALL_LIFE;
        if (!is_null(g->balls[i]) &&
            (ball_landed[i] || expired || below_kill_plane(g, g->balls[i]))) {
            remove_body(g, &g->balls[i]);
        }
    }
    for (int i = 0; i < g->layout.block_count; ++i) {
        if (below_kill_plane(g, g->blocks[i])) {
            remove_body(g, &g->blocks[i]);
        }
    }
}

int game_shots_left(const game *g)
{
    return g->layout.shots - g->shots_fired;
}

float game_time(const game *g)
{
    return (float)g->steps * GAME_DT;
}

static bool resting(const game *g, cairn_body_id id)
{
    return is_null(id) || !cairn_body_is_awake(g->world, id);
}

bool game_character_fell(const game *g)
{
    return g->character &&
           cairn_body_id_equal(cairn_character_ground_state(g->character).body, g->ground);
}

bool game_won(const game *g)
{
    return g->score >= g->layout.goal;
}

bool game_settled(const game *g)
{
    if (g->character && !cairn_character_ground_state(g->character).on_ground) {
        return false;
    }
    for (int i = 0; i < g->layout.block_count; ++i) {
        if (!resting(g, g->blocks[i])) {
            return false;
        }
    }
    for (int i = 0; i < g->shots_fired; ++i) {
        if (!resting(g, g->balls[i])) {
            return false;
        }
    }
    return true;
}

bool game_over(const game *g)
{
    if (game_time(g) >= GAME_TIME_LIMIT) {
        return true;
    }
    if (g->layout.kind == LEVEL_WALK) {
        return (game_won(g) || game_character_fell(g)) && game_settled(g);
    }
    return game_shots_left(g) == 0 && game_settled(g);
}
