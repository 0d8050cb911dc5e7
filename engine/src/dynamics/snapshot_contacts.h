/* Contacts in a snapshot: a record of variable length that holds only what is in use (the
   simplex cache's points, the manifolds' live points, the pair cache when valid, the triangle
   caches' live entries), about a third of the contact structure's size for a pair that does
   not touch. */
#ifndef CAIRN_DYNAMICS_SNAPSHOT_CONTACTS_H
#define CAIRN_DYNAMICS_SNAPSHOT_CONTACTS_H

#include "collision/triangle_cache.h"
#include "dynamics/contact.h"
#include "dynamics/snapshot_cursor.h"
#include "dynamics/world_state.h"

/* Writes (or with c->data NULL, counts) every contact of the array. */
void snapshot_put_contacts(cursor *c, const contact_array *contacts);

/* What a contact record holds beyond the contact structure: its blocks' contents. */
typedef struct contact_blocks {
    manifold_extra extra;
    triangle_cache triangles;
    bool has_extra, has_triangles;
} contact_blocks;

/* Reads one contact into *out (its block pointers NULL) and the contents of its blocks, if it
   has any, into *blocks. False on a short read (c->short_read) or a record out of range (error
   set; index names the contact in the message); body_slots bounds the body indices. */
bool snapshot_take_contact(cursor *c, uint32_t index, int body_slots, contact *out,
                           contact_blocks *blocks);

#endif
