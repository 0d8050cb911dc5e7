/* Island groups of the contact solver: a union-find over the awake bodies, then the islands
   packed into groups in the order of their first manifold (island_groups.h). */
#include "dynamics/island_groups.h"

#include "dynamics/joint.h"
#include "dynamics/world_state.h"

#include <string.h>

static uint32_t island_root(uint32_t *island, uint32_t i)
{
    while (island[i] != i) {
        island[i] = island[island[i]];
        i = island[i];
    }
    return i;
}

static void join(uint32_t *island, uint32_t a, uint32_t b)
{
    if (island[a] == UINT32_MAX || island[b] == UINT32_MAX)
        return;
    a = island_root(island, a);
    b = island_root(island, b);
    if (a != b)
        island[a > b ? a : b] = a < b ? a : b;
}

/* A joint's awake side (UINT32_MAX for none): its island is the joint's. */
static uint32_t joint_side(const uint32_t *island, const joint *j)
{
    if (!j->alive)
        return UINT32_MAX;
    if (island[j->body_b] != UINT32_MAX)
        return j->body_b;
    return j->body_a != JOINT_WORLD && island[j->body_a] != UINT32_MAX ? j->body_a : UINT32_MAX;
}

void island_groups_join(island_grouping *g, const cairn_world *world, const manifold_bodies *bodies,
                        int count)
{
    size_t slots = (size_t)world->bodies.count + 1;
    memset(g->island, 0xff, sizeof *g->island * slots);
    for (int k = 0; k < world->awake.count; ++k)
        g->island[world->awake.data[k]] = world->awake.data[k];
    for (size_t i = 0; i < slots; ++i) {
        g->group_of[i] = -1;
        g->island_size[i] = 0;
    }
    for (int k = 0; k < count; ++k)
        join(g->island, bodies[k].a, bodies[k].b);
    for (int i = 0; i < world->joints.count; ++i) {
        const joint *j = &world->joints.data[i];
        if (j->alive && j->body_a != JOINT_WORLD)
            join(g->island, j->body_a, j->body_b);
    }
}

/* The island of a manifold: its root, or UINT32_MAX when neither body is awake. */
static uint32_t manifold_island(uint32_t *island, const manifold_bodies *m)
{
    uint32_t side = island[m->a] != UINT32_MAX ? m->a : m->b;
    return island[side] != UINT32_MAX ? island_root(island, side) : UINT32_MAX;
}

size_t island_groups_most(size_t weight, int limit)
{
    /* a group is closed when the next island would take it over the limit, so any two groups in
       a row weigh more than the limit; and no group is empty but the first */
    size_t most = 2 * (weight / (size_t)limit) + 3;
    return most < weight + 1 ? most : weight + 1;
}

/* The group filling up (*current) takes the island of root, or a new group does when the
   island would take it over limit. */
static void place_island(island_grouping *g, uint32_t root, int limit, int *current,
                         int *group_sizes, int *group_weights)
{
    if (g->group_of[root] >= 0)
        return;
    int weight = g->island_size[root];
    if (group_weights[*current] > 0 && group_weights[*current] + weight > limit) {
        ++*current;
        group_sizes[*current] = group_weights[*current] = 0;
    }
    g->group_of[root] = *current;
    group_weights[*current] += weight;
}

int island_groups_assign(island_grouping *g, const cairn_world *world,
                         const manifold_bodies *bodies, int count, int limit, int *groups,
                         int *group_sizes, int *group_weights)
{
    for (int k = 0; k < count; ++k) {
        uint32_t root = manifold_island(g->island, &bodies[k]);
        if (root != UINT32_MAX)
            g->island_size[root]++;
    }
    for (int i = 0; i < world->joints.count; ++i) {
        uint32_t side = joint_side(g->island, &world->joints.data[i]);
        if (side != UINT32_MAX)
            g->island_size[island_root(g->island, side)]++;
    }
    int current = 0;
    group_sizes[0] = group_weights[0] = 0;
    for (int k = 0; k < count; ++k) {
        uint32_t root = manifold_island(g->island, &bodies[k]);
        if (root == UINT32_MAX) {
            groups[k] = current;
            group_weights[current]++;
        } else {
            place_island(g, root, limit, &current, group_sizes, group_weights);
            groups[k] = g->group_of[root];
        }
        group_sizes[groups[k]]++;
    }
    for (int i = 0; i < world->joints.count; ++i) {
        uint32_t side = joint_side(g->island, &world->joints.data[i]);
        if (side != UINT32_MAX)
            place_island(g, island_root(g->island, side), limit, &current, group_sizes,
                         group_weights);
    }
    return current + 1;
}

void island_groups_of_joints(island_grouping *g, const cairn_world *world, int *joint_group)
{
    for (int i = 0; i < world->joints.count; ++i) {
        uint32_t side = joint_side(g->island, &world->joints.data[i]);
        joint_group[i] = side == UINT32_MAX ? -1 : g->group_of[island_root(g->island, side)];
    }
}

/* The group of an awake body: its island's, or -1 for a body alone (no contact, no joint). */
static int island_group(island_grouping *g, uint32_t index)
{
    return g->group_of[island_root(g->island, index)];
}

/* Bodies alone go to the groups in equal runs, in awake order: their integration is all the
   work they bring, and a worker that takes a group takes its share of it. In one group they
   would all be one worker's (the 10,000-shape pile, mostly falling: 1.65 ms of integration on
   one worker, 2.48 ms summed over two). Alone body s (of alone) goes to group
   s * group_count / alone, so group k's run starts at the first s with s * group_count >=
   k * alone. */
static int alone_first(int alone, int group_count, int k)
{
    return (int)(((long long)k * alone + group_count - 1) / group_count);
}

void island_groups_bodies(island_grouping *g, const cairn_world *world, solve_group *groups,
                          int group_count, uint32_t *bodies)
{
    for (int k = 0; k < group_count; ++k)
        groups[k].body_end = 0; /* first the counts */
    int alone = 0;
    for (int k = 0; k < world->awake.count; ++k) {
        int group = island_group(g, world->awake.data[k]);
        if (group >= 0)
            groups[group].body_end++;
        else
            alone++;
    }
    int first = 0;
    for (int k = 0; k < group_count; ++k) {
        groups[k].body_end +=
            alone_first(alone, group_count, k + 1) - alone_first(alone, group_count, k);
        groups[k].body_first = first;
        first += groups[k].body_end;
        groups[k].body_end = groups[k].body_first; /* then the next free slot */
    }
    for (int k = 0, seen = 0; k < world->awake.count; ++k) {
        uint32_t index = world->awake.data[k];
        int group = island_group(g, index);
        if (group < 0)
            group = (int)((long long)seen++ * group_count / alone);
        bodies[groups[group].body_end++] = index;
    }
}
