/* A scene file loaded with its bodies' names and ids in file order (cairn_scene_options.on_body),
   for tests that find bodies by name. */
#ifndef CAIRN_TESTS_IO_NAMED_SCENE_H
#define CAIRN_TESTS_IO_NAMED_SCENE_H

#include <cairn/io.h>

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#define NAMED_SCENE_MAX 600

typedef struct scene {
    cairn_world *world;
    int bodies;
    char names[NAMED_SCENE_MAX][CAIRN_IO_NAME_CAPACITY];
    cairn_body_id ids[NAMED_SCENE_MAX];
} scene;

static inline void named_scene_keep(void *user, const cairn_scene_body *body)
{
    scene *s = user;
    cr_assert_lt(s->bodies, NAMED_SCENE_MAX);
    snprintf(s->names[s->bodies], CAIRN_IO_NAME_CAPACITY, "%s", body->name);
    s->ids[s->bodies++] = body->id;
}

/* The scene at path, loaded or the test stopped with the loader's file:line:column error. One
   scene at a time: the returned scene is static (it is large). */
static inline scene *load_path(const char *path)
{
    static scene s;
    memset(&s, 0, sizeof s);
    cairn_scene_options options = cairn_scene_default_options();
    options.on_body = named_scene_keep;
    options.user = &s;
    cairn_io_error err;
    cr_assert(cairn_scene_load_ex(path, &options, &s.world, &err), "%s:%d:%d: %s", err.file,
              err.line, err.column, err.message);
    return &s;
}

#endif
