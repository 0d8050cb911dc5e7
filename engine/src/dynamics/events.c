/* Contact and sensor events, recorded during the step in contact order and read afterwards. */
#include "dynamics/world_state.h"

#include "core/alloc.h"
#include "core/sort.h"

#include <float.h>
#include <string.h>

static void free_retired(event_arrays *events)
{
    for (int i = 0; i < events->retired.count; ++i)
        mem_free(events->retired.data[i].data, events->retired.data[i].size);
    array_clear(&events->retired);
}

void events_clear(cairn_world *world)
{
    free_retired(&world->events);
    array_clear(&world->events.begins);
    array_clear(&world->events.ends);
    array_clear(&world->events.hits);
    array_clear(&world->events.sensor_begins);
    array_clear(&world->events.sensor_ends);
    array_clear(&world->events.joint_breaks);
    array_clear(&world->events.exits);
}

void events_free(cairn_world *world)
{
    free_retired(&world->events);
    array_free(&world->events.retired);
    array_free(&world->events.owed_ends);
    array_free(&world->events.owed_sensor_ends);
    array_free(&world->events.begins);
    array_free(&world->events.ends);
    array_free(&world->events.hits);
    array_free(&world->events.sensor_begins);
    array_free(&world->events.sensor_ends);
    array_free(&world->events.joint_breaks);
    array_free(&world->events.exits);
}

/* Room for one more event in a buffer (data_field: the array's data pointer) that the game may be
   reading: end events come between steps too, from a body destroyed or disabled while the game
   walks the last step's events. A full buffer is not reallocated but copied into a larger one,
   and kept until the next step starts, so what the game read stays valid until then. */
static bool event_room(event_arrays *events, void *data_field, int count, int *capacity,
                       int elem_size)
{
    if (count < *capacity)
        return true;
    void *old;
    memcpy(&old, data_field, sizeof old);
    if (*capacity > INT32_MAX / 2 ||
        (old != NULL && !array_grow(&events->retired, events->retired.count + 1)))
        return false;
    int wanted = *capacity >= 8 ? 2 * *capacity : 8;
    void *grown = mem_alloc((size_t)wanted * (size_t)elem_size);
    if (grown == NULL)
        return false;
    if (old != NULL) {
        memcpy(grown, old, (size_t)count * (size_t)elem_size);
        size_t old_size = (size_t)*capacity * (size_t)elem_size;
        events->retired.data[events->retired.count++] = (retired_events){old, old_size};
    }
    memcpy(data_field, &grown, sizeof grown);
    *capacity = wanted;
    return true;
}

/* bool: appends an event to one of the world's arrays (a) that can grow between steps. */
#define event_push(events, a, ...)                                                                 \
    (event_room((events), &(a)->data, (a)->count, &(a)->capacity, array_elem_size_(a))             \
         ? ((a)->data[(a)->count++] = (__VA_ARGS__), true)                                         \
         : false)

/* Events are best effort under memory exhaustion: a failed push drops the event. */
void events_begin(cairn_world *world, const contact *c)
{
    cairn_contact_begin_event e = {body_id_at(world, c->body_a), body_id_at(world, c->body_b)};
    (void)array_push(&world->events.begins, e);
}

void events_end(cairn_world *world, const contact *c)
{
    cairn_contact_end_event e = {body_id_at(world, c->body_a), body_id_at(world, c->body_b)};
    (void)event_push(&world->events, &world->events.ends, e);
}

/* The sensor first, the body it sees second. */
static cairn_sensor_event sensor_event(const cairn_world *world, const contact *c)
{
    bool a_is_sensor = world->bodies.data[c->body_a].is_sensor;
    uint32_t sensor = a_is_sensor ? c->body_a : c->body_b;
    uint32_t visitor = a_is_sensor ? c->body_b : c->body_a;
    return (cairn_sensor_event){body_id_at(world, sensor), body_id_at(world, visitor)};
}

void events_sensor_begin(cairn_world *world, const contact *c)
{
    (void)array_push(&world->events.sensor_begins, sensor_event(world, c));
}

void events_sensor_end(cairn_world *world, const contact *c)
{
    (void)event_push(&world->events, &world->events.sensor_ends, sensor_event(world, c));
}

void events_contact_gone(cairn_world *world, const contact *c)
{
    if (c->is_sensor && c->overlapping)
        events_sensor_end(world, c);
    else if (!c->is_sensor && c->touching)
        events_end(world, c);
}

/* Moves an array's events into its owed twin (emptied first), by swapping their buffers: the
   twin's old buffer serves the next events. Each ARRAY(T) is a type of its own, so field by
   field. */
#define SWAP_INTO(owed, from)                                                                      \
    do {                                                                                           \
        __typeof__((owed)->data) data = (owed)->data;                                              \
        int capacity = (owed)->capacity;                                                           \
        (owed)->data = (from)->data;                                                               \
        (owed)->count = (from)->count;                                                             \
        (owed)->capacity = (from)->capacity;                                                       \
        (from)->data = data;                                                                       \
        (from)->count = 0;                                                                         \
        (from)->capacity = capacity;                                                               \
    } while (0)

/* The strict order of end events: by pair (a < b; a sensor event names the sensor first, which
   may be either), then by generations, which tell apart a destroyed body's events from those of
   the body made in its slot. */
static bool end_before(cairn_body_id a1, cairn_body_id b1, cairn_body_id a2, cairn_body_id b2)
{
    bool swap1 = b1.index < a1.index, swap2 = b2.index < a2.index;
    cairn_body_id low1 = swap1 ? b1 : a1, high1 = swap1 ? a1 : b1;
    cairn_body_id low2 = swap2 ? b2 : a2, high2 = swap2 ? a2 : b2;
    int order = body_pair_order(low1.index, high1.index, low2.index, high2.index);
    if (order != 0)
        return order < 0;
    if (low1.generation != low2.generation)
        return low1.generation < low2.generation;
    return high1.generation < high2.generation;
}

static bool contact_end_before(const cairn_contact_end_event *x, const cairn_contact_end_event *y)
{
    return end_before(x->body_a, x->body_b, y->body_a, y->body_b);
}

static bool sensor_end_before(const cairn_sensor_event *x, const cairn_sensor_event *y)
{
    return end_before(x->sensor, x->visitor, y->sensor, y->visitor);
}

SORT_DEFINE(sort_contact_ends, cairn_contact_end_event, contact_end_before)
SORT_DEFINE(sort_sensor_ends, cairn_sensor_event, sensor_end_before)

void events_owe(cairn_world *world)
{
    event_arrays *e = &world->events;
    SWAP_INTO(&e->owed_ends, &e->ends);
    SWAP_INTO(&e->owed_sensor_ends, &e->sensor_ends);
}

/* Appends n events (bytes, which need not be aligned) to an array, best effort when memory runs
   out (as paying them is). */
#define APPEND(array, events, n)                                                                   \
    do {                                                                                           \
        if ((n) > 0 && array_grow((array), (array)->count + (n))) {                                \
            memcpy((array)->data + (array)->count, (events), sizeof *(array)->data * (size_t)(n)); \
            (array)->count += (n);                                                                 \
        }                                                                                          \
    } while (0)

void events_owe_saved(cairn_world *world, const void *records, int end_count, int sensor_end_count)
{
    const unsigned char *at = records;
    APPEND(&world->events.owed_ends, at, end_count);
    at += sizeof(cairn_contact_end_event) * (size_t)end_count;
    APPEND(&world->events.owed_sensor_ends, at, sensor_end_count);
}

void events_pay_owed(cairn_world *world)
{
    event_arrays *e = &world->events;
    APPEND(&e->ends, e->owed_ends.data, e->owed_ends.count);
    APPEND(&e->sensor_ends, e->owed_sensor_ends.data, e->owed_sensor_ends.count);
    array_clear(&e->owed_ends); /* paid, or dropped when memory ran out */
    array_clear(&e->owed_sensor_ends);
}

/* End events come from several places in a step (the pairs the broadphase removed, the
   contacts that stopped touching, those a refilter or a broken joint ended, those a restore
   owed), each in its own order: sorted once at the end, a step reports them in pair order
   however they came, as the API promises and as a restored world must to repeat the saved one. */
void events_finish_step(cairn_world *world)
{
    sort_contact_ends(world->events.ends.data, world->events.ends.count);
    sort_sensor_ends(world->events.sensor_ends.data, world->events.sensor_ends.count);
}

void events_hit(cairn_world *world, const contact *c)
{
    const body *a = &world->bodies.data[c->body_a], *b = &world->bodies.data[c->body_b];
    const manifold *m = &c->manifold;
    float fastest = -FLT_MAX;
    vec3s where = glms_vec3_zero();
    for (int i = 0; i < m->point_count; ++i) {
        vec3s p = m->points[i].anchor_a;
        vec3s relative = glms_vec3_sub(body_point_velocity(b, p), body_point_velocity(a, p));
        float approach = -glms_vec3_dot(relative, m->normal);
        if (approach > fastest) {
            fastest = approach;
            where = p;
        }
    }
    if (fastest <= world->def.hit_event_threshold)
        return;
    cairn_contact_hit_event e = {body_id_at(world, c->body_a), body_id_at(world, c->body_b), where,
                                 m->normal, fastest};
    (void)array_push(&world->events.hits, e);
}

cairn_contact_events cairn_world_contact_events(const cairn_world *world)
{
    cairn_contact_events events = {0};
    if (world == NULL)
        return events;
    events.begins = world->events.begins.data;
    events.begin_count = world->events.begins.count;
    events.ends = world->events.ends.data;
    events.end_count = world->events.ends.count;
    events.hits = world->events.hits.data;
    events.hit_count = world->events.hits.count;
    return events;
}

cairn_sensor_events cairn_world_sensor_events(const cairn_world *world)
{
    cairn_sensor_events events = {0};
    if (world == NULL)
        return events;
    events.begins = world->events.sensor_begins.data;
    events.begin_count = world->events.sensor_begins.count;
    events.ends = world->events.sensor_ends.data;
    events.end_count = world->events.sensor_ends.count;
    return events;
}
