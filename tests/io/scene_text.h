/* Scene files written from a string for the scene-file tests: loading one, and expecting its
   error at a line and column. Criterion test files only. */
#ifndef CAIRN_TESTS_SCENE_TEXT_H
#define CAIRN_TESTS_SCENE_TEXT_H

#include <cairn/io.h>

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Writes text to a file of this process in /tmp (its name into path) and loads it. */
static inline bool load_text(const char *text, cairn_world **world, cairn_io_error *err, char *path,
                             size_t capacity)
{
    snprintf(path, capacity, "/tmp/cairn_scene_text_%d.yaml", (int)getpid());
    FILE *file = fopen(path, "w");
    cr_assert_not_null(file);
    fputs(text, file);
    fclose(file);
    bool loaded = cairn_scene_load(path, world, err);
    remove(path);
    return loaded;
}

/* The scene must fail to load, with message in its error at line:column of its own file. */
static inline void expect_error(const char *text, int line, int column, const char *message)
{
    char path[128];
    cairn_world *world = (cairn_world *)&path; /* must be reset to NULL */
    cairn_io_error err;
    cr_assert_not(load_text(text, &world, &err, path, sizeof path), "loaded:\n%s", text);
    cr_expect_null(world, "a failed load returned a world");
    cr_expect(strstr(err.message, message) != NULL, "message '%s' lacks '%s'", err.message,
              message);
    cr_expect_eq(err.line, line, "line %d, expected %d (%s)", err.line, line, err.message);
    cr_expect_eq(err.column, column, "column %d, expected %d (%s)", err.column, column,
                 err.message);
    cr_expect_str_eq(err.file, path);
}

#endif
