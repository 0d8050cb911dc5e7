/* The viewer's snapshots: one kept by hand and a ring of the last frames. */
#include "history.h"

#include <stdlib.h>

#define HISTORY_BUDGET      ((size_t)512 << 20) /* bytes of snapshots the ring may hold */
#define HISTORY_FRAME_BYTES ((size_t)2 << 20)   /* worlds above this are kept every k frames */

static void frame_free(history_frame *f)
{
    free(f->data);
    *f = (history_frame){NULL, 0};
}

static bool frame_take(history_frame *f, const cairn_world *world)
{
    size_t size = cairn_world_snapshot_size(world);
    unsigned char *data = size ? malloc(size) : NULL;
    if (data == NULL || !cairn_world_snapshot(world, data, size)) {
        free(data);
        return false;
    }
    frame_free(f);
    *f = (history_frame){data, size};
    return true;
}

static void drop_oldest(history *r)
{
    int oldest = (r->head - r->count + HISTORY_FRAMES) % HISTORY_FRAMES;
    r->bytes -= r->frames[oldest].size;
    frame_free(&r->frames[oldest]);
    r->count--;
}

void history_record(history *r, const cairn_world *world)
{
    size_t size = cairn_world_snapshot_size(world);
    /* a snapshot costs about 1.3 ms per MB: large worlds keep every k-th frame, so that the
       history never costs a frame more than about 3 ms */
    int every = (int)(size / HISTORY_FRAME_BYTES) + 1;
    if (++r->skipped < every)
        return;
    r->skipped = 0;
    r->budget = r->budget ? r->budget : HISTORY_BUDGET;
    while (r->count > 0 && (r->count == HISTORY_FRAMES || r->bytes + size > r->budget))
        drop_oldest(r);
    if (size > r->budget || !frame_take(&r->frames[r->head], world))
        return;
    r->bytes += size;
    r->head = (r->head + 1) % HISTORY_FRAMES;
    r->count++;
}

bool history_step_back(history *r, cairn_world *world, const char **why)
{
    if (r->count < 2) {
        *why = "step back: no earlier frame kept";
        return false;
    }
    int newest = (r->head - 1 + HISTORY_FRAMES) % HISTORY_FRAMES;
    int before = (newest - 1 + HISTORY_FRAMES) % HISTORY_FRAMES;
    if (!cairn_world_restore(world, r->frames[before].data, r->frames[before].size)) {
        *why = cairn_last_error();
        return false;
    }
    r->bytes -= r->frames[newest].size;
    frame_free(&r->frames[newest]);
    r->head = newest;
    r->count--;
    return true;
}

bool history_save(history *r, const cairn_world *world, const char **why)
{
    if (!frame_take(&r->saved, world)) {
        *why = "F5: the snapshot could not be taken";
        return false;
    }
    return true;
}

bool history_load(history *r, cairn_world *world, const char **why)
{
    if (r->saved.data == NULL) {
        *why = "F9: nothing saved yet (F5 saves)";
        return false;
    }
    if (!cairn_world_restore(world, r->saved.data, r->saved.size)) {
        *why = cairn_last_error();
        return false;
    }
    return true;
}

void history_clear(history *r)
{
    for (int i = 0; i < HISTORY_FRAMES; ++i)
        frame_free(&r->frames[i]);
    frame_free(&r->saved);
    r->head = r->count = r->skipped = 0;
    r->bytes = 0;
}
