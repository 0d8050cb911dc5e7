/* The shot script reader: every line checked, every error with its file and line. */
#include "script.h"

#include "script_reader.h"

#include <math.h>
#include <stdio.h>

#define FIELDS 5

typedef struct shot_reading {
    int max_shots;
    shot_script *out;
} shot_reading;

static bool check_shot(const script_reader *r, const script_shot *shot, float previous_time)
{
    if (shot->time < 0.0f || shot->time > GAME_TIME_LIMIT) {
        return script_fail(r, "time %g s is outside [0, %g] s", shot->time, GAME_TIME_LIMIT);
    }
    if (shot->time < previous_time) {
        return script_fail(r, "time %g s is earlier than the shot before (%g s)", shot->time,
                           previous_time);
    }
    float coords[3] = {shot->aim.x, shot->aim.y, shot->aim.z};
    for (int k = 0; k < 3; ++k) {
        if (fabsf(coords[k]) > GAME_MAX_COORD) {
            return script_fail(r, "aim coordinate %g m is beyond %g m", coords[k], GAME_MAX_COORD);
        }
    }
    if (shot->speed < LEVEL_MIN_SPEED || shot->speed > LEVEL_MAX_SPEED) {
        return script_fail(r, "speed %g m/s is outside [%g, %g] m/s", shot->speed, LEVEL_MIN_SPEED,
                           LEVEL_MAX_SPEED);
    }
    return true;
}

/* One line of numbers: one shot appended to the script. */
static bool read_shot(const script_reader *r, const float *v, int count, void *user)
{
    shot_reading *reading = user;
    shot_script *out = reading->out;
    if (count != FIELDS) {
        return script_fail(r, "expected %d numbers (time x y z speed), found %d", FIELDS, count);
    }
    if (out->count >= reading->max_shots) {
        return script_fail(r, "one shot too many: the level allows %d", reading->max_shots);
    }
    script_shot shot = {v[0], {{v[1], v[2], v[3]}}, v[4]};
    float previous = out->count > 0 ? out->shots[out->count - 1].time : 0.0f;
    if (!check_shot(r, &shot, previous)) {
        return false;
    }
    out->shots[out->count++] = shot;
    return true;
}

bool script_load(const char *path, int max_shots, shot_script *out, char *error, size_t capacity)
{
    *out = (shot_script){0};
    shot_reading reading = {max_shots < GAME_MAX_SHOTS ? max_shots : GAME_MAX_SHOTS, out};
    return script_read(path, read_shot, &reading, error, capacity);
}

int script_fire_step(float time)
{
    /* The tolerance keeps a time written as k/60 on step k despite rounding. */
    return (int)ceil((double)time / (double)GAME_DT - 1e-3);
}
