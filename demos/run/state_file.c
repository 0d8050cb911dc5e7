/* Snapshot files for cairn-run (--save-state, --load-state). */
#include "state_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool state_file_save(const cairn_world *world, const char *path, char *why, size_t capacity)
{
    size_t size = cairn_world_snapshot_size(world);
    void *buffer = malloc(size ? size : 1);
    if (buffer == NULL || !cairn_world_snapshot(world, buffer, size)) {
        snprintf(why, capacity, "%s: %s", path, buffer ? cairn_last_error() : "out of memory");
        free(buffer);
        return false;
    }
    FILE *file = fopen(path, "wb");
    bool ok = file != NULL && fwrite(buffer, 1, size, file) == size;
    if (file != NULL && fclose(file) != 0)
        ok = false;
    if (!ok)
        snprintf(why, capacity, "%s: cannot write: %s", path, strerror(errno));
    free(buffer);
    return ok;
}

/* The whole file into memory; NULL with the reason. */
static void *read_all(const char *path, size_t *size, char *why, size_t capacity)
{
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        snprintf(why, capacity, "%s: cannot read: %s", path, strerror(errno));
        return NULL;
    }
    size_t used = 0, room = 1 << 16;
    unsigned char *data = malloc(room);
    size_t got;
    while (data != NULL && (got = fread(data + used, 1, room - used, file)) > 0) {
        used += got;
        if (used == room) {
            unsigned char *bigger = realloc(data, room * 2);
            if (bigger == NULL) {
                free(data);
                data = NULL;
                break;
            }
            data = bigger;
            room *= 2;
        }
    }
    fclose(file);
    if (data == NULL)
        snprintf(why, capacity, "%s: out of memory", path);
    *size = used;
    return data;
}

bool state_file_load(cairn_world *world, const char *path, char *why, size_t capacity)
{
    size_t size = 0;
    void *data = read_all(path, &size, why, capacity);
    if (data == NULL)
        return false;
    bool ok = cairn_world_restore(world, data, size);
    if (!ok)
        snprintf(why, capacity, "%s: %s", path, cairn_last_error());
    free(data);
    return ok;
}
