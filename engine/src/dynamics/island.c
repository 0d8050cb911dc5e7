/* Islands and sleep: dynamic bodies linked by touching contacts form an island; it sleeps when
   every body in it stayed below the sleep velocities for time_to_sleep. Only awake bodies and
   the contacts the step walks take part, so a sleeping island costs nothing until it wakes;
   waking spreads through the parked contacts. */
#include "dynamics/world_state.h"

static int find_root(int *parent, int i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

static bool is_moving_kinematic(const body *b)
{
    return b->type == CAIRN_KINEMATIC && (glms_vec3_norm2(b->linear_velocity) > 0.0f ||
                                          glms_vec3_norm2(b->angular_velocity) > 0.0f);
}

static void update_sleep_times(cairn_world *world, float dt)
{
    const cairn_solver_settings *s = &world->def.solver;
    for (int k = 0; k < world->awake.count; ++k) {
        body *b = &world->bodies.data[world->awake.data[k]];
        if (b->type != CAIRN_DYNAMIC)
            continue;
        bool slow = glms_vec3_norm(b->linear_velocity) < s->sleep_linear_velocity &&
                    glms_vec3_norm(b->angular_velocity) < s->sleep_angular_velocity;
        b->sleep_time = b->allow_sleep && slow ? b->sleep_time + dt : 0.0f;
    }
}

/* Unions touching awake dynamic pairs (by their slots in the awake set); a moving kinematic
   body keeps what it touches awake. */
static void link_islands(cairn_world *world, int *parent)
{
    for (int i = 0; i < world->contacts.count; ++i) {
        const contact *c = &world->contacts.data[i];
        if (!c->touching)
            continue;
        body *a = &world->bodies.data[c->body_a], *b = &world->bodies.data[c->body_b];
        if (is_moving_kinematic(a))
            b->sleep_time = 0.0f;
        if (is_moving_kinematic(b))
            a->sleep_time = 0.0f;
        if (a->type == CAIRN_DYNAMIC && b->type == CAIRN_DYNAMIC && a->awake_slot >= 0 &&
            b->awake_slot >= 0) {
            int ra = find_root(parent, a->awake_slot), rb = find_root(parent, b->awake_slot);
            if (ra != rb)
                parent[ra > rb ? ra : rb] = ra < rb ? ra : rb;
        }
    }
}

/* The awake dynamic bodies whose whole island has been slow for long enough. */
static int find_sleepers(cairn_world *world, int *parent, float *island_time, uint32_t *out)
{
    int n = world->awake.count, count = 0;
    for (int k = 0; k < n; ++k) {
        parent[k] = k;
        island_time[k] = 1e30f;
    }
    link_islands(world, parent);
    for (int k = 0; k < n; ++k) {
        const body *b = &world->bodies.data[world->awake.data[k]];
        if (b->type == CAIRN_DYNAMIC) {
            int root = find_root(parent, k);
            island_time[root] =
                island_time[root] < b->sleep_time ? island_time[root] : b->sleep_time;
        }
    }
    for (int k = 0; k < n; ++k) {
        uint32_t index = world->awake.data[k];
        if (world->bodies.data[index].type == CAIRN_DYNAMIC &&
            island_time[find_root(parent, k)] >= world->def.solver.time_to_sleep)
            out[count++] = index;
    }
    return count;
}

static void fall_asleep(cairn_world *world, uint32_t index)
{
    body *b = &world->bodies.data[index];
    body_set_awake(world, index, false);
    b->sleep_time = 0.0f;
    b->linear_velocity = glms_vec3_zero();
    b->angular_velocity = glms_vec3_zero();
}

void islands_update(cairn_world *world, float dt)
{
    update_sleep_times(world, dt);
    int n = world->awake.count;
    if (n > 0) {
        size_t count = (size_t)n;
        int *parent = arena_push(&world->scratch, sizeof(int) * count, "island parents");
        float *island_time = arena_push(&world->scratch, sizeof(float) * count, "island times");
        uint32_t *sleepers = arena_push(&world->scratch, sizeof(uint32_t) * count, "sleepers");
        /* Found first, then put to sleep: sleeping reorders the awake set. */
        int sleeping = find_sleepers(world, parent, island_time, sleepers);
        for (int i = 0; i < sleeping; ++i)
            fall_asleep(world, sleepers[i]);
        arena_pop(&world->scratch, sleepers);
        arena_pop(&world->scratch, island_time);
        arena_pop(&world->scratch, parent);
    }
    if (world->park_pending)
        contacts_park(world);
}

/* A touching contact between two enabled dynamic bodies: they share an island. */
static bool links_dynamic_pair(const contact *c, const body *a, const body *b)
{
    return c->touching && a->type == CAIRN_DYNAMIC && b->type == CAIRN_DYNAMIC && a->enabled &&
           b->enabled;
}

/* One sweep over a contact array: wakes (or puts to sleep) the far side of every link whose
   two bodies disagree. Returns whether anything changed. */
static bool spread(cairn_world *world, const contact_array *contacts, bool awake)
{
    bool changed = false;
    for (int i = 0; i < contacts->count; ++i) {
        const contact *c = &contacts->data[i];
        body *a = &world->bodies.data[c->body_a], *b = &world->bodies.data[c->body_b];
        if (!links_dynamic_pair(c, a, b) || a->awake == b->awake)
            continue;
        uint32_t other = a->awake == awake ? c->body_b : c->body_a;
        if (awake) {
            body_set_awake(world, other, true);
            world->bodies.data[other].sleep_time = 0.0f;
        } else {
            fall_asleep(world, other);
        }
        changed = true;
    }
    return changed;
}

void islands_wake(cairn_world *world, uint32_t body_index)
{
    body *start = &world->bodies.data[body_index];
    if (!start->enabled)
        return;
    if (start->type != CAIRN_DYNAMIC || start->awake) {
        start->sleep_time = 0.0f;
        return;
    }
    body_set_awake(world, body_index, true);
    start->sleep_time = 0.0f;
    /* Spread until nothing changes (islands are small and waking is an event, not a step). */
    while (spread(world, &world->parked, true) | spread(world, &world->contacts, true)) {
    }
}

static void wake_touching_in(cairn_world *world, const contact_array *contacts, uint32_t body_index)
{
    for (int i = 0; i < contacts->count; ++i) {
        const contact *c = &contacts->data[i];
        if (!c->touching)
            continue;
        if (c->body_a == body_index)
            islands_wake(world, c->body_b);
        else if (c->body_b == body_index)
            islands_wake(world, c->body_a);
    }
}

void islands_wake_touching(cairn_world *world, uint32_t body_index)
{
    wake_touching_in(world, &world->contacts, body_index);
    wake_touching_in(world, &world->parked, body_index);
}

void islands_sleep(cairn_world *world, uint32_t body_index)
{
    body *start = &world->bodies.data[body_index];
    if (start->type != CAIRN_DYNAMIC || !start->enabled || !start->awake)
        return;
    fall_asleep(world, body_index);
    /* The whole island, or a touching awake neighbour would wake the body at the next step. */
    while (spread(world, &world->contacts, false) | spread(world, &world->parked, false)) {
    }
}
