/* For tests that rewrite a snapshot's bytes to check that the restore refuses nonsense: where a
   field's bytes stand, and the checksum made whole again, so that it is the content, not the
   checksum, that is refused. */
#ifndef CAIRN_TESTS_SNAPSHOT_RESEAL_H
#define CAIRN_TESTS_SNAPSHOT_RESEAL_H

#include "core/fnv.h"

#include <stdint.h>
#include <string.h>

/* The FNV-1a checksum of everything before the snapshot's last 8 bytes, written into them (the
   format's last field, engine/src/dynamics/snapshot.c). */
static inline void snapshot_reseal(unsigned char *snapshot, size_t size)
{
    uint64_t sum = fnv1a(FNV_OFFSET, snapshot, size - sizeof sum);
    memcpy(snapshot + size - sizeof sum, &sum, sizeof sum);
}

/* The first place the `length` bytes of pattern stand in the snapshot; NULL if nowhere. */
static inline unsigned char *snapshot_find(unsigned char *snapshot, size_t size,
                                           const void *pattern, size_t length)
{
    for (size_t k = 0; k + length <= size; ++k)
        if (memcmp(snapshot + k, pattern, length) == 0)
            return snapshot + k;
    return NULL;
}

#endif
