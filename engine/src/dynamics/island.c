/* Islands and sleep: dynamic bodies linked by touching contacts form an island; it sleeps when
   every body in it stayed below the sleep velocities for time_to_sleep. Sleeping bodies are
   skipped by the broadphase, the narrow phase (unless touched) and the solver. */
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
    for (int i = 0; i < world->bodies.count; ++i) {
        body *b = &world->bodies.data[i];
        if (!b->alive || !b->awake || b->type != CAIRN_DYNAMIC)
            continue;
        bool slow = glms_vec3_norm(b->linear_velocity) < s->sleep_linear_velocity &&
                    glms_vec3_norm(b->angular_velocity) < s->sleep_angular_velocity;
        b->sleep_time = b->allow_sleep && slow ? b->sleep_time + dt : 0.0f;
    }
}

/* Unions touching dynamic pairs; a moving kinematic body keeps what it touches awake. */
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
        if (a->type == CAIRN_DYNAMIC && b->type == CAIRN_DYNAMIC) {
            int ra = find_root(parent, (int)c->body_a), rb = find_root(parent, (int)c->body_b);
            if (ra != rb)
                parent[ra > rb ? ra : rb] = ra < rb ? ra : rb;
        }
    }
}

void islands_update(cairn_world *world, float dt)
{
    update_sleep_times(world, dt);
    int n = world->bodies.count;
    if (n == 0)
        return;
    int *parent = arena_push(&world->scratch, sizeof(int) * (size_t)n, "island parents");
    float *island_time = arena_push(&world->scratch, sizeof(float) * (size_t)n, "island times");
    for (int i = 0; i < n; ++i) {
        parent[i] = i;
        island_time[i] = 1e30f;
    }
    link_islands(world, parent);
    for (int i = 0; i < n; ++i) {
        const body *b = &world->bodies.data[i];
        if (b->alive && b->awake && b->type == CAIRN_DYNAMIC) {
            int root = find_root(parent, i);
            island_time[root] =
                island_time[root] < b->sleep_time ? island_time[root] : b->sleep_time;
        }
    }
    for (int i = 0; i < n; ++i) {
        body *b = &world->bodies.data[i];
        if (!b->alive || !b->awake || b->type != CAIRN_DYNAMIC)
            continue;
        if (island_time[find_root(parent, i)] >= world->def.solver.time_to_sleep) {
            b->awake = false;
            b->linear_velocity = glms_vec3_zero();
            b->angular_velocity = glms_vec3_zero();
        }
    }
    arena_pop(&world->scratch, island_time);
    arena_pop(&world->scratch, parent);
}

/* A touching contact between two enabled dynamic bodies: they share an island. */
static bool links_dynamic_pair(const contact *c, const body *a, const body *b)
{
    return c->touching && a->type == CAIRN_DYNAMIC && b->type == CAIRN_DYNAMIC && a->enabled &&
           b->enabled;
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
    start->awake = true;
    start->sleep_time = 0.0f;
    /* Spread over touching contacts until nothing changes (islands are small and this is rare). */
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < world->contacts.count; ++i) {
            const contact *c = &world->contacts.data[i];
            body *a = &world->bodies.data[c->body_a], *b = &world->bodies.data[c->body_b];
            if (!links_dynamic_pair(c, a, b) || a->awake == b->awake)
                continue;
            body *sleeper = a->awake ? b : a;
            sleeper->awake = true;
            sleeper->sleep_time = 0.0f;
            changed = true;
        }
    }
}

void islands_wake_touching(cairn_world *world, uint32_t body_index)
{
    for (int i = 0; i < world->contacts.count; ++i) {
        const contact *c = &world->contacts.data[i];
        if (!c->touching)
            continue;
        if (c->body_a == body_index)
            islands_wake(world, c->body_b);
        else if (c->body_b == body_index)
            islands_wake(world, c->body_a);
    }
}

static void fall_asleep(body *b)
{
    b->awake = false;
    b->sleep_time = 0.0f;
    b->linear_velocity = glms_vec3_zero();
    b->angular_velocity = glms_vec3_zero();
}

void islands_sleep(cairn_world *world, uint32_t body_index)
{
    body *start = &world->bodies.data[body_index];
    if (start->type != CAIRN_DYNAMIC || !start->enabled || !start->awake)
        return;
    fall_asleep(start);
    /* The whole island, or a touching awake neighbour would wake the body at the next step. */
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < world->contacts.count; ++i) {
            const contact *c = &world->contacts.data[i];
            body *a = &world->bodies.data[c->body_a], *b = &world->bodies.data[c->body_b];
            if (!links_dynamic_pair(c, a, b) || a->awake == b->awake)
                continue;
            fall_asleep(a->awake ? a : b);
            changed = true;
        }
    }
}
