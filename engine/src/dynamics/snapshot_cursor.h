/* The byte cursor that writes and reads snapshots (snapshot.c, snapshot_contacts.c). */
#ifndef CAIRN_DYNAMICS_SNAPSHOT_CURSOR_H
#define CAIRN_DYNAMICS_SNAPSHOT_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* A cursor over the buffer; with data NULL it only counts. */
typedef struct cursor {
    unsigned char *data;
    const unsigned char *source;
    size_t size, at;
    bool short_read;
    bool failed; /* out of memory while writing */
} cursor;

static inline void put(cursor *c, const void *bytes, size_t n)
{
    /* An empty array may have a NULL base (no characters, no joints): memcpy forbids it even
       for zero bytes. */
    if (n > 0 && c->data && c->at + n <= c->size)
        memcpy(c->data + c->at, bytes, n);
    c->at += n;
}

static inline bool take(cursor *c, void *bytes, size_t n)
{
    if (c->at + n > c->size) {
        c->short_read = true;
        return false;
    }
    if (n > 0)
        memcpy(bytes, c->source + c->at, n);
    c->at += n;
    return true;
}

#endif
