/* A body's contacts for a game: is it grounded, what pushes it and how hard. Each touching
   manifold as the body sees it, the normal turned to point away from the body. */
#include "dynamics/world_state.h"

#include "core/error.h"

static void describe(const cairn_world *world, const contact *c, const manifold *m, bool body_is_a,
                     cairn_contact_data *out)
{
    out->other = body_id_at(world, body_is_a ? c->body_b : c->body_a);
    out->normal = body_is_a ? m->normal : glms_vec3_negate(m->normal);
    out->point_count = m->point_count;
    /* the solver keeps impulses per substep: over the substep's length they are a force */
    float per_second = world->last_substep > 0.0f ? 1.0f / world->last_substep : 0.0f;
    for (int i = 0; i < m->point_count; ++i) {
        out->points[i] = m->points[i].anchor_a; /* stored as world points */
        out->separations[i] = m->points[i].separation;
        out->normal_forces[i] = m->points[i].normal_impulse * per_second;
    }
}

/* Adds the body's manifolds in one contact array to out (while capacity lasts) and to total. */
static int collect(const cairn_world *world, const contact_array *contacts, uint32_t index,
                   cairn_contact_data *out, int capacity, int total)
{
    for (int i = 0; i < contacts->count; ++i) {
        const contact *c = &contacts->data[i];
        if (c->is_sensor || !c->touching || (c->body_a != index && c->body_b != index))
            continue;
        for (int k = 0; k < contact_manifold_count(c); ++k) {
            const manifold *m = contact_manifold_const(c, k);
            if (m->point_count == 0)
                continue;
            if (total < capacity)
                describe(world, c, m, c->body_a == index, &out[total]);
            ++total;
        }
    }
    return total;
}

int cairn_body_contacts(const cairn_world *world, cairn_body_id id, cairn_contact_data *out,
                        int capacity)
{
    if (!world_body(world, id, "cairn_body_contacts"))
        return -1;
    if (capacity < 0 || (capacity > 0 && out == NULL))
        return error_set("cairn_body_contacts: capacity %d with %s output", capacity,
                         out ? "an" : "no"),
               -1;
    int total = collect(world, &world->contacts, id.index, out, capacity, 0);
    return collect(world, &world->parked, id.index, out, capacity, total);
}
