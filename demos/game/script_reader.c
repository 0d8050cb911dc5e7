/* Reading a script file: lines, comments, numbers, and errors with their file and line. */
#include "script_reader.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 512

bool script_fail(const script_reader *r, const char *format, ...)
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
static bool parse_numbers(const script_reader *r, const char *text, float *values, int *count)
{
    *count = 0;
    const char *p = text + strspn(text, " \t\r\n");
    while (*p != '\0') {
        int length = (int)strcspn(p, " \t\r\n");
        char *end = NULL;
        errno = 0;
        float value = strtof(p, &end);
        if (end != p + length) {
            return script_fail(r, "'%.*s' is not a number", length, p);
        }
        if (!isfinite(value) || errno == ERANGE) {
            return script_fail(r, "%.*s is not a finite number", length, p);
        }
        if (*count < SCRIPT_MAX_FIELDS) {
            values[*count] = value;
        }
        ++*count;
        p += length;
        p += strspn(p, " \t\r\n");
    }
    return true;
}

/* One line: nothing to do when blank or a comment, else its numbers to on_line. */
static bool read_line(const script_reader *r, char *text, script_line_fn on_line, void *user)
{
    char *comment = strchr(text, '#');
    if (comment) {
        *comment = '\0';
    }
    float values[SCRIPT_MAX_FIELDS];
    int count;
    if (!parse_numbers(r, text, values, &count)) {
        return false;
    }
    return count == 0 || on_line(r, values, count, user);
}

bool script_read(const char *path, script_line_fn on_line, void *user, char *error, size_t capacity)
{
    script_reader r = {path, 0, error, capacity};
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
            ok = script_fail(&r, "line longer than %d characters", MAX_LINE - 2);
        } else {
            ok = read_line(&r, text, on_line, user);
        }
    }
    if (ok && ferror(f)) {
        snprintf(error, capacity, "%s: read error", path);
        ok = false;
    }
    fclose(f);
    return ok;
}
