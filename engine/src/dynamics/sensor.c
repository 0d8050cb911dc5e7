/* Sensor pairs: a sensor never gives the solver a manifold point. After the solver has moved
   the bodies, each sensor pair with an awake body runs the boolean overlap test on the full
   shapes, and a change of the answer is a begin or an end event: the events describe the
   positions the step ends with. A new pair, or one whose body was teleported, is tested once
   even when both bodies sleep (a static sensor placed over a sleeping body sees it). */
#include "dynamics/world_state.h"

static void sensor_update(cairn_world *world, contact *c)
{
    const body *a = &world->bodies.data[c->body_a], *b = &world->bodies.data[c->body_b];
    bool overlapping = cairn_overlap(a->shape, a->transform, b->shape, b->transform);
    if (overlapping && !c->overlapping)
        events_sensor_begin(world, c);
    else if (!overlapping && c->overlapping)
        events_sensor_end(world, c);
    c->overlapping = overlapping;
}

void sensors_update(cairn_world *world)
{
    if (world->sensor_bodies == 0)
        return; /* no sensor pair to find: skip the pass over the contacts */
    for (int i = 0; i < world->contacts.count; ++i) {
        contact *c = &world->contacts.data[i];
        if (!c->is_sensor)
            continue;
        const body *a = &world->bodies.data[c->body_a], *b = &world->bodies.data[c->body_b];
        if (a->awake || b->awake || c->sensor_stale)
            sensor_update(world, c);
        c->sensor_stale = false;
    }
}

void sensors_mark_stale(cairn_world *world, uint32_t body_index)
{
    for (int i = 0; i < world->contacts.count; ++i) {
        contact *c = &world->contacts.data[i];
        if (c->is_sensor && (c->body_a == body_index || c->body_b == body_index))
            c->sensor_stale = true;
    }
}
