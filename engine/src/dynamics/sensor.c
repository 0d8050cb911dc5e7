/* Sensor pairs: a sensor never gives the solver a manifold point; each step its pairs with an
   awake body run the boolean overlap test on the full shapes, and a change of the answer is a
   begin or an end event. */
#include "dynamics/world_state.h"

void sensor_update(cairn_world *world, contact *c)
{
    const body *a = &world->bodies.data[c->body_a], *b = &world->bodies.data[c->body_b];
    bool overlapping = cairn_overlap(a->shape, a->transform, b->shape, b->transform);
    if (overlapping && !c->overlapping)
        events_sensor_begin(world, c);
    else if (!overlapping && c->overlapping)
        events_sensor_end(world, c);
    c->overlapping = overlapping;
}
