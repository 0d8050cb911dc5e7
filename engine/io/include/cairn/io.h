/* cairn_io: settings and scene files (YAML). A separate library; the engine never needs it. */
#ifndef CAIRN_IO_H
#define CAIRN_IO_H

#include <cairn/cairn.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where and why a file could not be used. line and column are 1-based; 0 when the error has
   no position. */
typedef struct cairn_io_error {
    char file[256];
    int line, column;
    char message[256];
} cairn_io_error;

/* Formats the error as "file:line:column: message" (the position parts that are known) into
   buffer; returns the length snprintf would have written. */
int cairn_io_error_format(const cairn_io_error *error, char *buffer, size_t capacity);

/* Loads a settings file (`world:`, `solver:`, `include:`) into def. def starts from
   cairn_world_default_def() and the file sets any subset. On failure def is unchanged and err
   says where and why (unknown key, wrong type or length, value outside its range, missing or
   cyclic include, YAML syntax). */
bool cairn_settings_load(const char *path, cairn_world_def *def, cairn_io_error *err);

/* The same, applied over the fields already in def (layering: a preset over a scene's
   settings). Only the fields the file (and its includes) set change; unchanged on failure. */
bool cairn_settings_apply(const char *path, cairn_world_def *def, cairn_io_error *err);

/* Loads a scene file (settings plus `bodies:` and `generators:`) into a new world. On failure
 *out_world is NULL and err says where and why. */
bool cairn_scene_load(const char *path, cairn_world **out_world, cairn_io_error *err);

/* Longest body name kept (including the terminating zero); longer names are an error. */
#define CAIRN_IO_NAME_CAPACITY 64

/* One body as the scene created it, passed to cairn_scene_options.on_body. The pointers are
   valid during the call only. */
typedef struct cairn_scene_body {
    cairn_body_id id;
    const char *name;          /* as written, or `<generator>_<n>`, or `body_<n>` when unnamed */
    const cairn_body_def *def; /* def.shape is the body's shape (retain it to keep it) */
    int index;                 /* creation order, from 0 */
} cairn_scene_body;

typedef void cairn_scene_body_fn(void *user, const cairn_scene_body *body);

typedef struct cairn_scene_options {
    /* A settings file applied over the scene's own settings (cairn_settings_apply); NULL for
       none. Errors in it are reported with its own file name. */
    const char *settings_path;
    /* Called once per body, in creation order, right after the body is created. When the load
       fails later, the world and with it those bodies are destroyed. */
    cairn_scene_body_fn *on_body;
    void *user;
    /* When not NULL, receives the world definition the world was created with. */
    cairn_world_def *world_def;
} cairn_scene_options;

cairn_scene_options cairn_scene_default_options(void);

/* cairn_scene_load with options (NULL means the defaults). */
bool cairn_scene_load_ex(const char *path, const cairn_scene_options *options,
                         cairn_world **out_world, cairn_io_error *err);

#ifdef __cplusplus
}
#endif

#endif
