/* The shot script reader: every line checked, every error with its file and line. */
#include "script.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 512
#define FIELDS   5

typedef struct reader {
    const char *path;
    int line;
    char *error;
    size_t capacity;
} reader;

__attribute__((format(printf, 2, 3))) static bool fail(const reader *r, const char *format, ...)
{
    char what[256];
    va_list args;
    va_start(args, format);
    vsnprintf(what, sizeof what, format, args);
    va_end(args);
    snprintf(r->error, r->capacity, "%s:%d: %s", r->path, r->line, what);
    return false;
}

/* Reads the whitespace-separated numbers of text; false on a word that is not one. */
static bool parse_numbers(const reader *r, const char *text, float *values, int *count)
{
    *count = 0;
    const char *p = text + strspn(text, " \t\r\n");
    while (*p != '\0') {
        int length = (int)strcspn(p, " \t\r\n");
        char *end = NULL;
        errno = 0;
        float value = strtof(p, &end);
        if (end != p + length) {
            return fail(r, "'%.*s' is not a number", length, p);
        }
        if (!isfinite(value) || errno == ERANGE) {
            return fail(r, "%.*s is not a finite number", length, p);
        }
        if (*count < FIELDS) {
            values[*count] = value;
        }
        ++*count;
        p += length;
        p += strspn(p, " \t\r\n");
    }
    return true;
}

static bool check_shot(const reader *r, const script_shot *shot, float previous_time)
{
    if (shot->time < 0.0f || shot->time > GAME_TIME_LIMIT) {
        return fail(r, "time %g s is outside [0, %g] s", shot->time, GAME_TIME_LIMIT);
    }
    if (shot->time < previous_time) {
        return fail(r, "time %g s is earlier than the shot before (%g s)", shot->time,
                    previous_time);
    }
    float coords[3] = {shot->aim.x, shot->aim.y, shot->aim.z};
    for (int k = 0; k < 3; ++k) {
        if (fabsf(coords[k]) > GAME_MAX_COORD) {
            return fail(r, "aim coordinate %g m is beyond %g m", coords[k], GAME_MAX_COORD);
        }
    }
    if (shot->speed < LEVEL_MIN_SPEED || shot->speed > LEVEL_MAX_SPEED) {
        return fail(r, "speed %g m/s is outside [%g, %g] m/s", shot->speed, LEVEL_MIN_SPEED,
                    LEVEL_MAX_SPEED);
    }
    return true;
}

/* One line: nothing (blank or comment) or one shot appended to out. */
static bool read_line(const reader *r, char *text, int max_shots, shot_script *out)
{
    char *comment = strchr(text, '#');
    if (comment) {
        *comment = '\0';
    }
    float v[FIELDS];
    int count;
    if (!parse_numbers(r, text, v, &count)) {
        return false;
    }
    if (count == 0) {
        return true;
    }
    if (count != FIELDS) {
        return fail(r, "expected %d numbers (time x y z speed), found %d", FIELDS, count);
    }
    if (out->count >= max_shots) {
        return fail(r, "one shot too many: the level allows %d", max_shots);
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
    reader r = {path, 0, error, capacity};
    if (max_shots > GAME_MAX_SHOTS) {
        max_shots = GAME_MAX_SHOTS;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(error, capacity, "%s: cannot open: %s", path, strerror(errno));
        return false;
    }
    char text[MAX_LINE];
    bool ok = true;
    while (ok && fgets(text, sizeof text, f)) {
        ++r.line;
        if (!strchr(text, '\n') && !feof(f)) {
            ok = fail(&r, "line longer than %d characters", MAX_LINE - 2);
        } else {
            ok = read_line(&r, text, max_shots, out);
        }
    }
    if (ok && ferror(f)) {
        snprintf(error, capacity, "%s: read error", path);
        ok = false;
    }
    fclose(f);
    return ok;
}

int script_fire_step(float time)
{
    /* The tolerance keeps a time written as k/60 on step k despite rounding. */
    return (int)ceil((double)time / (double)GAME_DT - 1e-3);
}
