/* The world's private state, shared by the pipeline stages (world.c, dynamics/). */
#ifndef CAIRN_DYNAMICS_WORLD_STATE_H
#define CAIRN_DYNAMICS_WORLD_STATE_H

#include "broadphase/broadphase.h"
#include "core/arena.h"
#include "core/array.h"
#include "core/id_pool.h"
#include "dynamics/body.h"
#include "dynamics/contact.h"

typedef ARRAY(body) body_array;
typedef ARRAY(contact) contact_array;

typedef struct event_arrays {
    ARRAY(cairn_contact_begin_event) begins;
    ARRAY(cairn_contact_end_event) ends;
    ARRAY(cairn_contact_hit_event) hits;
} event_arrays;

struct cairn_world {
    cairn_world_def def;
    id_pool ids;
    body_array bodies; /* indexed by id index; dead slots have alive == false */
    broadphase broadphase;
    contact_array contacts; /* sorted by (body_a, body_b): a deterministic solver order */
    arena scratch;          /* per-step memory, empty between steps */
    event_arrays events;    /* cleared when a step starts */
    cairn_step_stats stats;
};

/* The body behind an id, or NULL (and an error naming the function) when stale or null. */
body *world_body(const cairn_world *world, cairn_body_id id, const char *function);

/* Contacts: follow the broadphase's added/removed pairs, then run the narrow phase. */
bool contacts_update_pairs(cairn_world *world);
void contacts_collide(cairn_world *world, float dt);
/* Event recording (events.c). */
void events_clear(cairn_world *world);
void events_free(cairn_world *world);
void events_begin(cairn_world *world, const contact *c);
void events_end(cairn_world *world, const contact *c);
/* A hit when the bodies approach faster than the threshold at the deepest point. */
void events_hit(cairn_world *world, const contact *c);
/* Removes every contact of a body (it is being destroyed). */
void contacts_remove_body(cairn_world *world, uint32_t body_index);

/* Sequential impulses over the touching contacts; integrates velocities and positions. */
void solver_step(cairn_world *world, float dt);
/* Sleep: islands of touching dynamic bodies that stayed slow long enough. */
void islands_update(cairn_world *world, float dt);
/* Wakes a body and every sleeping body touching it, transitively. */
void islands_wake(cairn_world *world, uint32_t body_index);

#endif
