/* Private to cairn_io: the settings part of a file (`include:`, `world:`, `solver:`), shared by
   settings and scene files. */
#ifndef CAIRN_IO_SETTINGS_H
#define CAIRN_IO_SETTINGS_H

#include "yaml_reader.h"

#include <sys/types.h>

/* Include chains deeper than this are an error (and so is any cycle). */
#define IO_INCLUDE_DEPTH_MAX 16

/* The files being loaded, outermost first, by device and inode (so any spelling of a path
   is recognised). */
typedef struct io_include_chain {
    dev_t device[IO_INCLUDE_DEPTH_MAX];
    ino_t inode[IO_INCLUDE_DEPTH_MAX];
    int depth;
} io_include_chain;

/* Starts a chain holding the outermost file. */
void io_include_chain_begin(io_include_chain *chain, const char *path);

/* Applies the root mapping's `include:` (first), then `world:` and `solver:`, onto def. Other keys
   are the caller's to check. */
bool io_settings_apply_root(const io_reader *reader, struct fy_node *root, io_include_chain *chain,
                            cairn_world_def *def);

/* cairn_world_def_validate as a positioned error at `at`. */
bool io_check_world_def(const io_reader *reader, struct fy_node *at, const cairn_world_def *def);

/* A path relative to the reader's file (absolute paths stay as they are). */
bool io_resolve_relative(const io_reader *reader, struct fy_node *at, const char *relative,
                         char *out, size_t capacity);

#endif
