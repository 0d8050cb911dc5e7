/* Islands and sleep: dynamic bodies linked by touching contacts form an island; it sleeps when
   every body in it stayed below the sleep velocities for time_to_sleep. Only awake bodies and
   the contacts the step walks take part, so a sleeping island costs nothing until it wakes;
   waking spreads through the parked contacts, breadth first over the island's links. */
#include "dynamics/joint.h"
#include "dynamics/world_state.h"

#include <string.h>

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

/* Returns whether an awake dynamic body has been slow for a while (sleep time above 0). */
static bool update_sleep_times(cairn_world *world, float dt)
{
    const cairn_solver_settings *s = &world->def.solver;
    bool any_slow = false;
    for (int k = 0; k < world->awake.count; ++k) {
        body *b = &world->bodies.data[world->awake.data[k]];
        if (b->type != CAIRN_DYNAMIC)
            continue;
        bool slow = glms_vec3_norm(b->linear_velocity) < s->sleep_linear_velocity &&
                    glms_vec3_norm(b->angular_velocity) < s->sleep_angular_velocity;
        b->sleep_time = b->allow_sleep && slow ? b->sleep_time + dt : 0.0f;
        any_slow |= b->sleep_time > 0.0f;
    }
    return any_slow;
}

/* A joint links its two bodies into one island when both are enabled dynamic bodies. */
static bool joint_links(const cairn_world *world, const joint *j)
{
    if (!j->alive || j->body_a == JOINT_WORLD)
        return false;
    const body *a = &world->bodies.data[j->body_a], *b = &world->bodies.data[j->body_b];
    return a->type == CAIRN_DYNAMIC && b->type == CAIRN_DYNAMIC && a->enabled && b->enabled;
}

static void union_slots(int *parent, const body *a, const body *b)
{
    if (a->awake_slot < 0 || b->awake_slot < 0)
        return;
    int ra = find_root(parent, a->awake_slot), rb = find_root(parent, b->awake_slot);
    if (ra != rb)
        parent[ra > rb ? ra : rb] = ra < rb ? ra : rb;
}

/* Jointed bodies share an island; a moving kinematic body keeps what it is jointed to awake. */
static void link_joints(cairn_world *world, int *parent)
{
    for (int i = 0; i < world->joints.count; ++i) {
        const joint *j = &world->joints.data[i];
        if (!j->alive || j->body_a == JOINT_WORLD)
            continue;
        body *a = &world->bodies.data[j->body_a], *b = &world->bodies.data[j->body_b];
        if (is_moving_kinematic(a))
            b->sleep_time = 0.0f;
        if (is_moving_kinematic(b))
            a->sleep_time = 0.0f;
        if (joint_links(world, j))
            union_slots(parent, a, b);
    }
}

/* Unions touching awake dynamic pairs (by their slots in the awake set); a moving kinematic
   body keeps what it touches awake. */
static void link_islands(cairn_world *world, int *parent)
{
    link_joints(world, parent);
    for (int i = 0; i < world->contacts.count; ++i) {
        const contact *c = &world->contacts.data[i];
        if (!c->touching)
            continue;
        body *a = &world->bodies.data[c->body_a], *b = &world->bodies.data[c->body_b];
        if (is_moving_kinematic(a))
            b->sleep_time = 0.0f;
        if (is_moving_kinematic(b))
            a->sleep_time = 0.0f;
        if (a->type == CAIRN_DYNAMIC && b->type == CAIRN_DYNAMIC)
            union_slots(parent, a, b);
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
    /* With every awake body's sleep time at 0 (all moving, or none allowed to sleep), no
       island can sleep and the links' resets to 0 change nothing: the walk over the contacts
       is skipped. */
    bool any_slow = update_sleep_times(world, dt);
    int n = world->awake.count;
    if (n > 0 && (any_slow || !(world->def.solver.time_to_sleep > 0.0f))) {
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

/* A body takes its linked neighbour's state: woken (its sleep timer restarted) or asleep. */
static void follow(cairn_world *world, uint32_t index, bool awake)
{
    if (awake) {
        body_set_awake(world, index, true);
        world->bodies.data[index].sleep_time = 0.0f;
    } else {
        fall_asleep(world, index);
    }
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
        follow(world, a->awake == awake ? c->body_b : c->body_a, awake);
        changed = true;
    }
    return changed;
}

/* spread over the joints: the same, for the bodies joints link. */
static bool spread_joints(cairn_world *world, bool awake)
{
    bool changed = false;
    for (int i = 0; i < world->joints.count; ++i) {
        const joint *j = &world->joints.data[i];
        if (!joint_links(world, j))
            continue;
        body *a = &world->bodies.data[j->body_a], *b = &world->bodies.data[j->body_b];
        if (a->awake == b->awake)
            continue;
        follow(world, a->awake == awake ? j->body_b : j->body_a, awake);
        changed = true;
    }
    return changed;
}

/* The dynamic links of both contact arrays as adjacency lists: body i's linked bodies are
   linked[first[i]] to linked[first[i + 1] - 1]. Built for one wake or sleep event: O(bodies +
   contacts), where sweeping the arrays until nothing changes cost O(contacts x island depth). */
typedef struct link_graph {
    int32_t *first;
    uint32_t *linked;
} link_graph;

/* Counts (linked NULL: into first[i + 1]) or places (at cursor[i]) the links of one array. */
static void collect_links(const cairn_world *world, const contact_array *contacts, int32_t *first,
                          int32_t *cursor, uint32_t *linked)
{
    for (int i = 0; i < contacts->count; ++i) {
        const contact *c = &contacts->data[i];
        const body *a = &world->bodies.data[c->body_a], *b = &world->bodies.data[c->body_b];
        if (!links_dynamic_pair(c, a, b))
            continue;
        if (!linked) {
            first[c->body_a + 1]++;
            first[c->body_b + 1]++;
            continue;
        }
        linked[cursor[c->body_a]++] = c->body_b;
        linked[cursor[c->body_b]++] = c->body_a;
    }
}

/* The same for the joints' links. */
static void collect_joint_links(const cairn_world *world, int32_t *first, int32_t *cursor,
                                uint32_t *linked)
{
    for (int i = 0; i < world->joints.count; ++i) {
        const joint *j = &world->joints.data[i];
        if (!joint_links(world, j))
            continue;
        if (!linked) {
            first[j->body_a + 1]++;
            first[j->body_b + 1]++;
            continue;
        }
        linked[cursor[j->body_a]++] = j->body_b;
        linked[cursor[j->body_b]++] = j->body_a;
    }
}

/* Pops a scratch push that succeeded (a failed one pushed nothing). */
static void pop_pushed(cairn_world *world, void *memory)
{
    if (memory)
        arena_pop(&world->scratch, memory);
}

/* Wakes (awake) or puts to sleep every body of start's island; start is in that state already.
   False (nothing done) when scratch memory ran out. */
static bool spread_island(cairn_world *world, uint32_t start, bool awake)
{
    int bodies = world->bodies.count;
    int32_t *first = arena_push(&world->scratch, sizeof(int32_t) * (size_t)(bodies + 1), "links");
    int32_t *cursor = arena_push(&world->scratch, sizeof(int32_t) * (size_t)bodies, "cursors");
    if (!first || !cursor) {
        pop_pushed(world, cursor);
        pop_pushed(world, first);
        return false;
    }
    memset(first, 0, sizeof(int32_t) * (size_t)(bodies + 1));
    collect_links(world, &world->contacts, first, NULL, NULL);
    collect_links(world, &world->parked, first, NULL, NULL);
    collect_joint_links(world, first, NULL, NULL);
    for (int i = 0; i < bodies; ++i)
        first[i + 1] += first[i];
    memcpy(cursor, first, sizeof(int32_t) * (size_t)bodies);
    uint32_t *linked =
        arena_push(&world->scratch, sizeof(uint32_t) * (size_t)first[bodies], "linked");
    uint32_t *queue =
        arena_push(&world->scratch, sizeof(uint32_t) * (size_t)bodies, "island queue");
    bool ok = linked && queue;
    if (ok) {
        collect_links(world, &world->contacts, first, cursor, linked);
        collect_links(world, &world->parked, first, cursor, linked);
        collect_joint_links(world, first, cursor, linked);
        int head = 0, tail = 0;
        queue[tail++] = start;
        while (head < tail) {
            uint32_t at = queue[head++];
            for (int32_t k = first[at]; k < first[at + 1]; ++k) {
                uint32_t other = linked[k];
                if (world->bodies.data[other].awake == awake)
                    continue;
                follow(world, other, awake);
                queue[tail++] = other;
            }
        }
    }
    pop_pushed(world, queue);
    pop_pushed(world, linked);
    pop_pushed(world, cursor);
    pop_pushed(world, first);
    return ok;
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
    if (spread_island(world, body_index, true))
        return;
    /* No scratch memory: sweep the arrays until nothing changes, which needs none. */
    bool changed;
    do { /* every list each round: a change in one can open another */
        changed = spread(world, &world->parked, true);
        changed |= spread(world, &world->contacts, true);
        changed |= spread_joints(world, true);
    } while (changed);
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

static void wake_partner(cairn_world *world, uint32_t other, void *context)
{
    (void)context;
    islands_wake(world, other);
}

void islands_wake_touching(cairn_world *world, uint32_t body_index)
{
    wake_touching_in(world, &world->contacts, body_index);
    wake_touching_in(world, &world->parked, body_index);
    joints_for_each_partner(world, body_index, wake_partner, NULL);
}

void islands_sleep(cairn_world *world, uint32_t body_index)
{
    body *start = &world->bodies.data[body_index];
    if (start->type != CAIRN_DYNAMIC || !start->enabled || !start->awake)
        return;
    fall_asleep(world, body_index);
    /* The whole island, or a touching awake neighbour would wake the body at the next step. */
    if (spread_island(world, body_index, false))
        return;
    bool changed;
    do {
        changed = spread(world, &world->contacts, false);
        changed |= spread(world, &world->parked, false);
        changed |= spread_joints(world, false);
    } while (changed);
}
