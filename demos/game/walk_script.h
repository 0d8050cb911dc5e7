/* Walk scripts for the headless walking level: one stretch per line, "steps vx vz jump" (steps
   of 1/60 s, the walk in m/s along world x and z, jump 0 or 1 held throughout); blank lines and
   text after '#' are ignored. */
#ifndef CAIRN_GAME_WALK_SCRIPT_H
#define CAIRN_GAME_WALK_SCRIPT_H

#include "game.h"

#include <stddef.h>

/* The script spelled out step by step: inputs[s] is what the player asks for before step s. */
typedef struct walk_script {
    game_input *inputs; /* GAME_MAX_STEPS of room: a script cannot outlast the time limit */
    int count;
} walk_script;

/* Reads path. False with "path:line: what is wrong" (or "path: ..." when the file cannot be
   read or memory runs out) in error; out is then empty. Free with walk_script_free. */
bool walk_script_load(const char *path, walk_script *out, char *error, size_t capacity);
void walk_script_free(walk_script *script);

/* What the script asks for before step s: nothing (stand still) after its end. */
game_input walk_script_input(const walk_script *script, int step);

#endif
