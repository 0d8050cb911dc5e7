/* Contact and sensor events, recorded during the step in contact order and read afterwards. */
#include "dynamics/world_state.h"

#include <float.h>

void events_clear(cairn_world *world)
{
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
    array_free(&world->events.begins);
    array_free(&world->events.ends);
    array_free(&world->events.hits);
    array_free(&world->events.sensor_begins);
    array_free(&world->events.sensor_ends);
    array_free(&world->events.joint_breaks);
    array_free(&world->events.exits);
}

/* Events are best effort under memory exhaustion: a failed push drops the event. */
void events_begin(cairn_world *world, const contact *c)
{
    cairn_contact_begin_event e = {body_id_at(world, c->body_a), body_id_at(world, c->body_b)};
    (void)array_push(&world->events.begins, e);
}

void events_end(cairn_world *world, const contact *c)
{
    cairn_contact_end_event e = {body_id_at(world, c->body_a), body_id_at(world, c->body_b)};
    (void)array_push(&world->events.ends, e);
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
    (void)array_push(&world->events.sensor_ends, sensor_event(world, c));
}

void events_contact_gone(cairn_world *world, const contact *c)
{
    if (c->is_sensor && c->overlapping)
        events_sensor_end(world, c);
    else if (!c->is_sensor && c->touching)
        events_end(world, c);
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
