/* Shot scripts for the headless game: one shot per line, "time x y z speed" (seconds, the aim
   point in metres, m/s); blank lines and text after '#' are ignored. */
#ifndef CAIRN_GAME_SCRIPT_H
#define CAIRN_GAME_SCRIPT_H

#include "game.h"

#include <stddef.h>

typedef struct script_shot {
    float time;  /* s from the start, non-decreasing down the file */
    vec3s aim;   /* m */
    float speed; /* m/s */
} script_shot;

typedef struct shot_script {
    script_shot shots[GAME_MAX_SHOTS];
    int count;
} shot_script;

/* Reads path; at most max_shots shots. False with "path:line: what is wrong" (or "path: ..."
   when the file cannot be read) in error. */
bool script_load(const char *path, int max_shots, shot_script *out, char *error, size_t capacity);

/* The step before which a shot at time t (s) is fired: the first step starting at or after t. */
int script_fire_step(float time);

#endif
