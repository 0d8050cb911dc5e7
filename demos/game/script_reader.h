/* The line reader both game scripts share: numbers separated by blanks, '#' comments, and every
   error as "file:line: what is wrong". Each script format checks its own lines. */
#ifndef CAIRN_GAME_SCRIPT_READER_H
#define CAIRN_GAME_SCRIPT_READER_H

#include <stdbool.h>
#include <stddef.h>

#define SCRIPT_MAX_FIELDS 8 /* numbers kept per line; more are counted, not kept */

typedef struct script_reader {
    const char *path;
    int line;
    char *error;
    size_t capacity;
} script_reader;

/* Called for each line with numbers on it: values[0 .. min(count, SCRIPT_MAX_FIELDS)) and the
   count found; returns false after script_fail to stop the reading. */
typedef bool (*script_line_fn)(const script_reader *r, const float *values, int count, void *user);

/* Reads path line by line. False with the message in error: "path:line: ..." for a bad line
   (a word that is not a finite number, a line too long, or what on_line says), "path: ..." when
   the file cannot be read. */
bool script_read(const char *path, script_line_fn on_line, void *user, char *error,
                 size_t capacity);

/* Writes "path:line: what" into the reader's error; returns false. */
__attribute__((format(printf, 2, 3))) bool script_fail(const script_reader *r, const char *format,
                                                       ...);

#endif
