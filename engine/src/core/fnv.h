/* FNV-1a, 64 bits: the engine's one byte hash (state hashes, snapshot checksums, shape
   signatures). Not for hash tables of untrusted keys. */
#ifndef CAIRN_CORE_FNV_H
#define CAIRN_CORE_FNV_H

#include <stddef.h>
#include <stdint.h>

#define FNV_OFFSET 1469598103934665603ull

/* hash extended by the bytes (start from FNV_OFFSET). */
static inline uint64_t fnv1a(uint64_t hash, const void *data, size_t size)
{
    const unsigned char *bytes = data;
    for (size_t k = 0; k < size; ++k)
        hash = (hash ^ bytes[k]) * 1099511628211ull;
    return hash;
}

#endif
