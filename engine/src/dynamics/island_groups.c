/* Island groups of the contact solver: a union-find over the awake bodies, then the islands
   packed into groups in the order of their first manifold (island_groups.h). */
#include "dynamics/island_groups.h"

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

void island_groups_join(island_grouping *g, const cairn_world *world, const manifold_ref *listed,
                        int count)
{
    size_t bodies = (size_t)world->bodies.count + 1;
    memset(g->island, 0xff, sizeof *g->island * bodies);
    for (int k = 0; k < world->awake.count; ++k)
        g->island[world->awake.data[k]] = world->awake.data[k];
    for (size_t i = 0; i < bodies; ++i) {
        g->group_of[i] = -1;
        g->island_size[i] = 0;
    }
    for (int k = 0; k < count; ++k) {
        uint32_t a = listed[k].contact->body_a, b = listed[k].contact->body_b;
        if (g->island[a] == UINT32_MAX || g->island[b] == UINT32_MAX)
            continue;
        a = island_root(g->island, a);
        b = island_root(g->island, b);
        if (a != b)
            g->island[a > b ? a : b] = a < b ? a : b;
    }
}

/* The island of a manifold: its root, or UINT32_MAX when neither body is awake. */
static uint32_t manifold_island(uint32_t *island, const manifold_ref *m)
{
    uint32_t a = m->contact->body_a, b = m->contact->body_b;
    uint32_t side = island[a] != UINT32_MAX ? a : b;
    return island[side] != UINT32_MAX ? island_root(island, side) : UINT32_MAX;
}

int island_groups_assign(island_grouping *g, const manifold_ref *listed, int count, int limit,
                         int *groups, int *group_sizes)
{
    for (int k = 0; k < count; ++k) {
        uint32_t root = manifold_island(g->island, &listed[k]);
        if (root != UINT32_MAX)
            g->island_size[root]++;
    }
    int current = 0;
    group_sizes[0] = 0;
    for (int k = 0; k < count; ++k) {
        uint32_t root = manifold_island(g->island, &listed[k]);
        if (root == UINT32_MAX) {
            groups[k] = current;
            group_sizes[current]++;
            continue;
        }
        if (g->group_of[root] < 0) {
            int size = g->island_size[root];
            if (group_sizes[current] > 0 && group_sizes[current] + size > limit)
                group_sizes[++current] = 0;
            g->group_of[root] = current;
            group_sizes[current] += size;
        }
        groups[k] = g->group_of[root];
    }
    return current + 1;
}

/* The group of an awake body: its island's, or the first group for a body without contacts. */
static int body_group(island_grouping *g, uint32_t index)
{
    int group = g->group_of[island_root(g->island, index)];
    return group < 0 ? 0 : group;
}

void island_groups_bodies(island_grouping *g, const cairn_world *world, solve_group *groups,
                          int group_count, uint32_t *bodies)
{
    for (int k = 0; k < group_count; ++k)
        groups[k].body_end = 0; /* first the counts */
    for (int k = 0; k < world->awake.count; ++k)
        groups[body_group(g, world->awake.data[k])].body_end++;
    int first = 0;
    for (int k = 0; k < group_count; ++k) {
        groups[k].body_first = first;
        first += groups[k].body_end;
        groups[k].body_end = groups[k].body_first; /* then the next free slot */
    }
    for (int k = 0; k < world->awake.count; ++k) {
        uint32_t index = world->awake.data[k];
        bodies[groups[body_group(g, index)].body_end++] = index;
    }
}
