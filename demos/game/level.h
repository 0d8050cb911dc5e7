/* The game's levels as plain data: a raised platform, the blocks standing on it, and either the
   launcher and the number of shots or where the walking player starts. No world is touched
   here; game.c turns a layout into bodies. */
#ifndef CAIRN_GAME_LEVEL_H
#define CAIRN_GAME_LEVEL_H

#include <cairn/cairn.h>

#define LEVEL_MAX_BLOCKS 64

/* Shared by every level: the ground's top face is y = 0, the platform's top face is
   y = LEVEL_PLATFORM_TOP, and every shot is made of one material; blocks are wood but for the
   walking level's crates. */
#define LEVEL_PLATFORM_TOP  4.0f    /* m */
#define LEVEL_GROUND_HALF   200.0f  /* m, half the ground's side: wide enough to catch any block */
#define LEVEL_BLOCK_DENSITY 600.0f  /* kg/m^3, wood */
#define LEVEL_BALL_RADIUS   0.25f   /* m */
#define LEVEL_BALL_DENSITY  7800.0f /* kg/m^3, steel */
#define LEVEL_FRICTION      0.6f
#define LEVEL_MIN_SPEED     1.0f  /* m/s, slowest shot */
#define LEVEL_MAX_SPEED     60.0f /* m/s, fastest shot */
/* The walking level's crates: light ones the character can push (friction mu m g = 340 N, under
   its 500 N push force) and stone ones it cannot (5,400 N). */
#define LEVEL_LIGHT_CRATE_DENSITY 150.0f  /* kg/m^3: 58 kg for a 0.8 x 0.6 x 0.8 m crate */
#define LEVEL_HEAVY_CRATE_DENSITY 2400.0f /* kg/m^3: 920 kg */

/* How the player plays a level: shooting balls from the launcher, or walking a character on
   the platform and pushing the blocks off. */
typedef enum level_kind { LEVEL_SHOOT, LEVEL_WALK } level_kind;

typedef struct level_block {
    vec3s centre;       /* m, world */
    vec3s half_extents; /* m */
    float density;      /* kg/m^3 */
} level_block;

typedef struct level_layout {
    const char *name;
    level_kind kind;
    vec3s platform_centre, platform_half_extents; /* m; top face at LEVEL_PLATFORM_TOP */
    level_block blocks[LEVEL_MAX_BLOCKS];
    int block_count;
    vec3s launcher;      /* m, where every shot starts */
    int shots;           /* shots allowed */
    float default_speed; /* m/s, the windowed game's starting shot speed */
    vec3s walker_start;  /* m, the walking character's centre at the start (LEVEL_WALK) */
    int goal;            /* blocks on the ground that win: all of them, or the crates it can push */
} level_layout;

/* Levels are numbered from 1. */
int level_count(void);
/* False when level is outside [1, level_count()]. */
bool level_build(int level, level_layout *out);

#endif
