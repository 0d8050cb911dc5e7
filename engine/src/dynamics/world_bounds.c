/* The valid range of positions: a body the step carries beyond 1e6 m from the origin (or to a
   non-finite position) is disabled and reported, like Jolt's and Box2D's world bounds, instead
   of going on with positions that float precision no longer resolves. */
#include "dynamics/world_state.h"

#include "core/validate.h"

#define WORLD_LIMIT 1e6f /* m, as every position the API accepts */

static bool outside(const body *b)
{
    return !is_finite_vec3(b->transform.position) ||
           glms_vec3_norm(b->transform.position) > WORLD_LIMIT ||
           !is_finite_vec3(b->linear_velocity) || !is_finite_vec3(b->angular_velocity);
}

void bodies_leave_world(cairn_world *world)
{
    /* found first, then disabled: disabling reorders the awake set */
    int count = 0;
    uint32_t *leaving = NULL;
    for (int k = 0; k < world->awake.count; ++k) {
        const body *b = &world->bodies.data[world->awake.data[k]];
        if (!outside(b))
            continue;
        if (leaving == NULL) {
            leaving = arena_push(&world->scratch, sizeof(uint32_t) * (size_t)world->awake.count,
                                 "bodies leaving");
            if (leaving == NULL)
                return;
        }
        leaving[count++] = world->awake.data[k];
    }
    for (int i = 0; i < count; ++i) {
        body *b = &world->bodies.data[leaving[i]];
        cairn_body_exit_event e = {body_id_at(world, leaving[i]), b->transform.position};
        (void)array_push(&world->events.exits, e); /* best effort, like the other events */
        b->linear_velocity = glms_vec3_zero();
        b->angular_velocity = glms_vec3_zero();
        if (b->enabled)
            body_disable(world, leaving[i]);
    }
    if (leaving)
        arena_pop(&world->scratch, leaving);
}

cairn_body_exit_events cairn_world_exit_events(const cairn_world *world)
{
    cairn_body_exit_events none = {NULL, 0};
    if (world == NULL)
        return none;
    return (cairn_body_exit_events){world->events.exits.data, world->events.exits.count};
}
