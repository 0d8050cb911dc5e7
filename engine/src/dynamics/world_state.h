/* The world's private state, shared by the pipeline stages (world.c, dynamics/). */
#ifndef CAIRN_DYNAMICS_WORLD_STATE_H
#define CAIRN_DYNAMICS_WORLD_STATE_H

#include "broadphase/broadphase.h"
#include "core/arena.h"
#include "core/array.h"
#include "core/id_pool.h"
#include "core/tasks.h"
#include "dynamics/body.h"
#include "dynamics/contact.h"

#include <cairn/character.h>
#include <cairn/joint.h>

typedef ARRAY(body) body_array;
typedef struct joint joint; /* dynamics/joint.h */
typedef ARRAY(joint) joint_array;
typedef ARRAY(contact) contact_array;

/* An event buffer replaced between steps while the game may still hold it: freed when the next
   step starts. */
typedef struct retired_events {
    void *data;
    size_t size;
} retired_events;

typedef struct event_arrays {
    ARRAY(retired_events) retired;
    ARRAY(cairn_contact_begin_event) begins;
    ARRAY(cairn_contact_end_event) ends;
    ARRAY(cairn_contact_hit_event) hits;
    ARRAY(cairn_sensor_event) sensor_begins;
    ARRAY(cairn_sensor_event) sensor_ends;
    ARRAY(cairn_joint_break_event) joint_breaks;
    ARRAY(cairn_body_exit_event) exits;
    /* End events a restore owes the next step: contacts of pairs pending removal at the save (a
       body moved or refiltered after its last step), which the saved world's next step would
       have ended and reported; the restored broadphase never had those pairs. */
    ARRAY(cairn_contact_end_event) owed_ends;
    ARRAY(cairn_sensor_event) owed_sensor_ends;
} event_arrays;

struct cairn_world {
    cairn_world_def def;
    id_pool ids;
    body_array bodies; /* indexed by id index; dead slots have alive == false */
    broadphase broadphase;
    contact_array contacts; /* sorted by (body_a, body_b): a deterministic solver order */
    contact_array parked;   /* contacts between bodies that all sleep (any order) */
    ARRAY(uint32_t) awake;  /* indices of the bodies the step moves (awake_set.c) */
    bool park_pending;      /* a body fell asleep: park its contacts at the island pass */
    bool unpark_pending;    /* a body woke: bring its parked contacts back */
    arena scratch;          /* per-step memory, empty between steps */
    event_arrays events;    /* cleared when a step starts */
    cairn_step_stats stats;
    float last_substep; /* s: the last step's substep, the time its stored impulses acted over */
    int sensor_bodies;  /* live sensor bodies: without any, no contact is a sensor pair */
    cairn_pair_filter_fn *pair_filter; /* NULL when none */
    void *pair_filter_context;
    cairn_character *characters; /* the world's characters, a list (character.c) */
    cairn_presolve_fn *presolve; /* NULL when none */
    void *presolve_context;
    id_pool joint_ids;
    joint_array joints;    /* indexed by joint id index; dead slots have alive == false */
    int joints_broken;     /* joints over their break force in this step: destroyed after it */
    bool refilter_pending; /* a joint that kept its bodies apart went: their pair may collide */
    bool stepping;         /* inside cairn_world_step: its callbacks may not change the world */
    /* Lanes of the contact solver (contact_wide.h): 0 for the build's default. Tests set it to
       compare the widths. */
    int solver_lanes;
    /* Manifolds per island group of the contact solver (contact_solver.c): 0 for the default
       size, INT32_MAX for every island in one group. Tests and benchmarks set it to compare
       sizes (the result is the same for every size). */
    int solver_group_manifolds;
    /* Whether the narrow phase (contact.c) and the awake bodies' bounds (world.c) are shared
       with the workers, from their work in the last step. */
    task_gate narrow_gate;
    task_gate bounds_gate;
};

/* The body behind an id, or NULL (and an error naming the function) when stale or null. */
body *world_body(const cairn_world *world, cairn_body_id id, const char *function);

/* The id of the live body at this index. */
static inline cairn_body_id body_id_at(const cairn_world *world, uint32_t index)
{
    return (cairn_body_id){index, world->bodies.data[index].generation};
}

/* True when the world may be changed; else false, with an error naming function: the world is
   inside cairn_world_step, and a callback of the step (the pair filter, the pre-solve callback)
   tried to change it. A NULL world passes (the function reports that itself). */
bool world_unlocked(const cairn_world *world, const char *function);

/* Contacts: follow the broadphase's added/removed pairs, then run the narrow phase. */
bool contacts_update_pairs(cairn_world *world);
/* Parking (contact.c): contacts whose bodies all sleep leave the array the step walks, and
   come back (sorted in) when one of their bodies wakes. */
void contacts_park(cairn_world *world);
bool contacts_unpark(cairn_world *world);
/* Brings every parked contact back (before a change that must see them all, e.g. refiltering). */
bool contacts_unpark_all(cairn_world *world);
/* Sorts contacts appended after the first sorted_count (already sorted ones are left as they
   are) and merges them into the sorted run before them, O(n + k) apart from that sort. Needs
   capacity for as many again as were appended: the merge copies them past the end. */
void contacts_merge_sorted_tail(contact_array *contacts, int sorted_count);
/* The awake set (awake_set.c). Reserve room for every body at creation, so that waking never
   allocates; body_set_awake keeps body->awake and the set in step (static, disabled and dead
   bodies are never awake). */
/* Takes an enabled body out of the broadphase, the contacts and the solver (as
   cairn_body_set_enabled(false), without its checks: the step disables bodies leaving the
   world). */
void body_disable(cairn_world *world, uint32_t index);

bool awake_set_reserve(cairn_world *world, int bodies);
void body_set_awake(cairn_world *world, uint32_t index, bool awake);
/* The narrow phase; returns the contacts' manifolds after it (the solver's room), or -1 when it
   could not count them. */
int contacts_collide(cairn_world *world, float dt);
/* Event recording (events.c). */
void events_clear(cairn_world *world);
/* After a restore: the end events its reconciling made become owed to the next step. */
void events_owe(cairn_world *world);
/* Then the end events the saved world still owed (it had been restored since its last step)
   join them: records holds end_count contact end events, then sensor_end_count sensor ones, as
   a snapshot stores them (not aligned). */
void events_owe_saved(cairn_world *world, const void *records, int end_count, int sensor_end_count);
/* In the step: the owed end events join the step's own. */
void events_pay_owed(cairn_world *world);
/* At the end of the step: the end events in pair order. */
void events_finish_step(cairn_world *world);
void events_free(cairn_world *world);
void events_begin(cairn_world *world, const contact *c);
void events_end(cairn_world *world, const contact *c);
/* A hit when the bodies approach faster than the threshold at the deepest point. */
void events_hit(cairn_world *world, const contact *c);
/* Removes every contact of a body (it is being destroyed). */
void contacts_remove_body(cairn_world *world, uint32_t body_index);
/* The end of a contact: the event it owes (events_contact_gone) and its extra manifolds. Every
   path that drops a contact goes through here. */
void contact_dispose(cairn_world *world, contact *c);
/* Frees the contact arrays with what their contacts own (world destroy). */
void contacts_free(cairn_world *world);
/* The pair's friction sqrt(fa fb), restitution max(ra, rb) and rolling resistance (max) into
   the contact, and whether a mesh body's materials may give it rolling resistance. */
void contact_combine_materials(const cairn_world *world, contact *c);
/* Whether a body of c is a mesh or heightfield with a material of rolling resistance
   (contact.surface_rolls). */
bool contact_surface_rolls(const cairn_world *world, const contact *c);
/* The friction, restitution and rolling resistance manifold m of c is solved with: c's own when
   the pre-solve callback changed them or no body is a mesh with materials, else the material of
   the mesh triangle under m's deepest point combined with the other body's. */
cairn_surface_material contact_manifold_material(const cairn_world *world, const contact *c,
                                                 const manifold *m);
/* A fresh contact for the pair a < b, materials combined. */
contact contact_make(const cairn_world *world, uint32_t a, uint32_t b);
/* Recomputes the combined friction and restitution of every contact of a body. */
void contacts_refresh_material(cairn_world *world, uint32_t body_index);
/* Whether a broadphase pair gets a contact: sensor rules, at least one dynamic body otherwise,
   both enabled, and the user pair filter (contact_filter.c). */
bool contact_wanted(const cairn_world *world, uint32_t a, uint32_t b);
/* The pre-solve callback on a touching contact (contact_modify.c). */
void contact_presolve(cairn_world *world, contact *c);
/* Sensor pairs: the overlap test at the step's final positions and begin/end events instead
   of a manifold (sensor.c). */
void sensors_update(cairn_world *world);
/* The body moved outside the step: its sensor pairs are tested at the next step. */
void sensors_mark_stale(cairn_world *world, uint32_t body_index);
/* The end event a contact owes when it goes away: a touch end or a sensor end. */
void events_contact_gone(cairn_world *world, const contact *c);
void events_sensor_begin(cairn_world *world, const contact *c);
void events_sensor_end(cairn_world *world, const contact *c);

/* Creates the body's broadphase proxy from its bounds and filter bits (body.c). */
bool body_create_proxy(cairn_world *world, body *b, uint32_t index);
/* Forces and torques act for one step: cleared when it ends (body_motion.c). */
void bodies_clear_forces(cairn_world *world);

/* Joints (joint.c): the joints that keep a pair of bodies from colliding, the joint links of
   islands, and the joints' part of body destruction and of the step's end. */
bool joints_allow_collision(const cairn_world *world, uint32_t a, uint32_t b);
/* Calls visit(world, other, context) for each body jointed to this one (the world excluded). */
void joints_for_each_partner(cairn_world *world, uint32_t body_index,
                             void (*visit)(cairn_world *, uint32_t, void *), void *context);
void joints_destroy_body(cairn_world *world, uint32_t body_index);
/* Destroys the joints that broke in the step and records their events. */
void joints_break(cairn_world *world);
void joints_free(cairn_world *world);
/* Re-decides every broadphase pair's contact (contact_filter.c). */
bool contacts_refilter(cairn_world *world);
/* Re-decides the contacts of one body's pairs in the pair set (its type or shape changed): drops
   those the rules now reject, their touches ending now, and makes contacts for the pairs they
   now accept. Scans of the pairs and contacts, a search for the body's own only. When memory
   runs out, false, and every pair is decided again at the next step instead (error set). */
bool contacts_refilter_body(cairn_world *world, uint32_t body_index);
/* After a restore has published the broadphase pairs of the saved boxes: drops the contacts
   whose pair is gone and makes the contacts the next step would have made for pairs that were
   still pending when the snapshot was taken (bodies created or moved after the last step), so
   the world steps on as the saved one would. False when memory ran out (error set): the pairs
   are then decided again at the next step (refilter_pending). */
bool contacts_reconcile(cairn_world *world);

/* The world is going: its characters stay, but can no longer move (character.c). */
void characters_orphan(cairn_world *world);
/* Disables the bodies the step carried out of the valid range and records their events
   (world_bounds.c). */
void bodies_leave_world(cairn_world *world);

/* Sequential impulses over the touching contacts; integrates velocities and positions.
   manifolds: the contacts' manifolds as contacts_collide counted them (-1: not counted, the
   solver walks the contacts; counting is cheaper, as a large world's are out of cache). */
void solver_step(cairn_world *world, float dt, int manifolds);
/* Sleep: islands of touching dynamic bodies that stayed slow long enough. */
void islands_update(cairn_world *world, float dt);
/* Wakes a body and every sleeping body touching it, transitively (disabled bodies never wake). */
void islands_wake(cairn_world *world, uint32_t body_index);
/* Wakes every body touching this one (it moves, vanishes or changes). */
void islands_wake_touching(cairn_world *world, uint32_t body_index);
/* Puts a dynamic body and its island (touching dynamic bodies, transitively) to sleep now. */
void islands_sleep(cairn_world *world, uint32_t body_index);

#endif
