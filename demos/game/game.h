/* One round of the game on a cairn_world: a level's platform and blocks, a ground below, shots
   fired from the launcher, and the score (blocks that reached the ground). Public API only. */
#ifndef CAIRN_GAME_GAME_H
#define CAIRN_GAME_GAME_H

#include "level.h"

#define GAME_DT         (1.0f / 60.0f) /* s, one step */
#define GAME_TIME_LIMIT 120.0f         /* s, a round ends here whatever moves */
#define GAME_KILL_Y     (-10.0f)       /* m, bodies falling below are removed */
#define GAME_MAX_SHOTS  16
#define GAME_BALL_LIFE  8.0f /* s after its shot a ball is removed (a slow roll would last) */
#define GAME_MAX_COORD  1e4f /* m, the largest aim coordinate */

typedef struct game {
    cairn_world *world;
    level_layout layout;
    int level;
    cairn_shape *ball_shape;
    cairn_body_id ground, platform;
    cairn_body_id blocks[LEVEL_MAX_BLOCKS]; /* in layout order; null once removed */
    bool grounded[LEVEL_MAX_BLOCKS];        /* scored: touched the ground */
    cairn_body_id balls[GAME_MAX_SHOTS];    /* null once removed */
    int ball_fired_step[GAME_MAX_SHOTS];    /* g->steps when each ball was fired */
    int shots_fired;
    int score;
    int steps;
    char message[256]; /* why the last failed call failed */
} game;

/* Builds the level (1-based) in a new world. False with g->message on a bad level or when the
   engine refuses (g is then empty and game_stop is still safe). */
bool game_start(game *g, int level);
void game_stop(game *g);

/* Fires a ball from the launcher at speed (m/s) on the low ballistic arc through aim (m, world);
   straight at aim when the speed cannot reach it. False with g->message when no shot is left,
   aim is not finite or has a coordinate beyond GAME_MAX_COORD, aim is the launcher, or the speed
   is outside [LEVEL_MIN_SPEED, LEVEL_MAX_SPEED]. */
bool game_shoot(game *g, vec3s aim, float speed);
/* The launch velocity game_shoot would use (no shot is fired). */
vec3s game_launch_velocity(const game *g, vec3s aim, float speed);

/* One step of GAME_DT: scores blocks whose first contact with the ground began, removes balls
   that reached the ground or are GAME_BALL_LIFE old, and bodies that fell below GAME_KILL_Y. */
void game_step(game *g);

int game_shots_left(const game *g);
float game_time(const game *g); /* s since the start */
/* Every dynamic body asleep (nothing more will happen without a shot). */
bool game_settled(const game *g);
/* Shots used up and settled, or the time limit reached. */
bool game_over(const game *g);

#endif
