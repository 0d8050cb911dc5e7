/* The walk script reader: each line checked (a whole positive number of steps, a walk no faster
   than GAME_MAX_WALK, jump 0 or 1, the total within the time limit), each error with its line. */
#include "walk_script.h"

#include "script_reader.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define FIELDS 4

static bool check_stretch(const script_reader *r, const float *v, int steps_so_far)
{
    if (!(v[0] >= 1.0f && v[0] == floorf(v[0]))) {
        return script_fail(r, "steps %g is not a whole number of at least 1", v[0]);
    }
    if (v[0] > (float)(GAME_MAX_STEPS - steps_so_far)) {
        return script_fail(r, "%g more steps run past the time limit (%d steps in all)", v[0],
                           GAME_MAX_STEPS);
    }
    if (sqrtf(v[1] * v[1] + v[2] * v[2]) > GAME_MAX_WALK) {
        return script_fail(r, "walk (%g, %g) m/s is faster than %g m/s", v[1], v[2], GAME_MAX_WALK);
    }
    if (v[3] != 0.0f && v[3] != 1.0f) {
        return script_fail(r, "jump %g is neither 0 nor 1", v[3]);
    }
    return true;
}

/* One line of numbers: its steps appended to the script. */
static bool read_stretch(const script_reader *r, const float *v, int count, void *user)
{
    walk_script *out = user;
    if (count != FIELDS) {
        return script_fail(r, "expected %d numbers (steps vx vz jump), found %d", FIELDS, count);
    }
    if (!check_stretch(r, v, out->count)) {
        return false;
    }
    game_input in = {v[1], v[2], v[3] == 1.0f};
    for (int s = 0; s < (int)v[0]; ++s) {
        out->inputs[out->count++] = in;
    }
    return true;
}

bool walk_script_load(const char *path, walk_script *out, char *error, size_t capacity)
{
    *out = (walk_script){0};
    out->inputs = malloc(GAME_MAX_STEPS * sizeof *out->inputs);
    if (!out->inputs) {
        snprintf(error, capacity, "%s: out of memory", path);
        return false;
    }
    if (!script_read(path, read_stretch, out, error, capacity)) {
        walk_script_free(out);
        return false;
    }
    return true;
}

void walk_script_free(walk_script *script)
{
    free(script->inputs);
    *script = (walk_script){0};
}

game_input walk_script_input(const walk_script *script, int step)
{
    if (step < 0 || step >= script->count) {
        return (game_input){0.0f, 0.0f, false};
    }
    return script->inputs[step];
}
