/* One round of the game on a cairn_world: a level's platform and blocks, a ground below, shots
   fired from the launcher or a character walked on the platform, and the score (blocks that
   reached the ground). Public API only. */
#ifndef CAIRN_GAME_GAME_H
#define CAIRN_GAME_GAME_H

#include "level.h"

#define GAME_DT         (1.0f / 60.0f) /* s, one step */
#define GAME_TIME_LIMIT 120.0f         /* s, a round ends here whatever moves */
#define GAME_KILL_Y     (-10.0f)       /* m, bodies falling below are removed */
#define GAME_MAX_SHOTS  16
#define GAME_BALL_LIFE  8.0f  /* s after its shot a ball is removed (a slow roll would last) */
#define GAME_MAX_COORD  1e4f  /* m, the largest aim coordinate */
#define GAME_MAX_STEPS  7200  /* steps in GAME_TIME_LIMIT */
#define GAME_MAX_WALK   12.0f /* m/s, the fastest walk asked for (the window: Shift, diagonal) */

/* What the walking player asks for during one step. */
typedef struct game_input {
    float vx, vz; /* m/s, world: the horizontal walk */
    bool jump;    /* held: jumps when on the ground */
} game_input;

typedef struct game {
    cairn_world *world;
    level_layout layout;
    int level;
    cairn_shape *ball_shape;
    cairn_body_id ground, platform;
    cairn_character *character; /* the walking level's player; NULL on the shooting levels */
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

/* Moves the character for the next step (call before game_step) with the walker's rule: the
   walk, a jump from the ground, gravity in the air. False with g->message on a shooting level or
   a walk that is not finite or faster than GAME_MAX_WALK. */
bool game_walk(game *g, game_input in);

/* One step of GAME_DT: scores blocks whose first contact with the ground began, removes balls
   that reached the ground or are GAME_BALL_LIFE old, and bodies that fell below GAME_KILL_Y. */
void game_step(game *g);

int game_shots_left(const game *g);
float game_time(const game *g); /* s since the start */
/* Every dynamic body asleep and the character, if any, on the ground (nothing more will happen
   without a shot or a walk). */
bool game_settled(const game *g);
/* The score reached the level's goal: every block, or every crate the character can push. */
bool game_won(const game *g);
/* The character stands on the ground below the platform: it cannot climb back. */
bool game_character_fell(const game *g);
/* The time limit reached, or settled with the shots used up (shooting) or with the level won or
   the character fallen (walking). */
bool game_over(const game *g);

#endif
