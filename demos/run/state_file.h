/* cairn-run's snapshot files: the world's snapshot written to a file, and read back into the
   loaded scene. */
#ifndef CAIRN_RUN_STATE_FILE_H
#define CAIRN_RUN_STATE_FILE_H

#include <cairn/cairn.h>
#include <stddef.h>

/* False with the reason in why (the file's name and what was wrong). */
bool state_file_save(const cairn_world *world, const char *path, char *why, size_t capacity);
bool state_file_load(cairn_world *world, const char *path, char *why, size_t capacity);

#endif
