/* Island groups of the solver. The islands of a step (the awake bodies joined by the solved
   contact manifolds and by joints) are solved in groups, one group after another, all of a group's
   passes before the next group's: a group's constraints stay in the caches between its passes,
   where the whole step's would not (ten pyramids side by side as one group: 1.7-1.8 times the
   contact solver's time of ten groups; bench_groups). Islands share no moving body, so the
   result is the same bit for bit, and with several workers whole groups can go to different
   workers. A group takes islands until the next would take it over its limit (an island is never
   split). Smaller groups cost lanes: each group's colours end in part-filled batches (the
   10,000-shape pile solved 4-6% slower in groups of 2,048 than in one), so a step of fewer than
   two default groups' manifolds is one group (contact_solver.c). */
#ifndef CAIRN_DYNAMICS_ISLAND_GROUPS_H
#define CAIRN_DYNAMICS_ISLAND_GROUPS_H

#include "dynamics/contact_rows.h"
#include "dynamics/graph_color.h"

enum { GROUP_MANIFOLDS = 8192 }; /* the default limit of a group */

typedef struct solve_group {
    /* The group's batches go colour by colour, the overflow last (one contact per batch): the
       first batch of each bucket. */
    int batch_color_first[GRAPH_BUCKETS + 1];
    int body_first, body_end; /* its awake bodies, in the array island_groups_bodies fills */
    int weight;               /* its contact manifolds and joints */
} solve_group;

/* The grouping's working memory, by body index (world bodies + 1 each). */
typedef struct island_grouping {
    uint32_t *island; /* union-find: the parent, UINT32_MAX for a body that is not awake */
    int *group_of;    /* by island root: its group, -1 before it has one */
    int *island_size; /* by island root: its manifolds */
} island_grouping;

/* The two bodies of a listed manifold, copied out of its contact as it is listed: the grouping
   walks the list three times, and the contacts (560 bytes each) are out of cache in a large
   world. */
typedef struct manifold_bodies {
    uint32_t a, b;
} manifold_bodies;

/* The islands of the manifolds of bodies[0..count) and the world's joints: static and sleeping
   bodies join nothing, as their state does not change during the step. */
void island_groups_join(island_grouping *g, const cairn_world *world, const manifold_bodies *bodies,
                        int count);
/* Each manifold's group (groups[k]), each group's manifolds (group_sizes) and its manifolds
   and joints (group_weights; both with room for island_groups_most): islands taken in the order
   of their first manifold, then of their first joint, a group closed when the next island would
   take its weight over limit. A manifold of no awake body joins the group being filled. Returns
   the number of groups (at least one). */
int island_groups_assign(island_grouping *g, const cairn_world *world,
                         const manifold_bodies *bodies, int count, int limit, int *groups,
                         int *group_sizes, int *group_weights);
/* The most groups a step of weight manifolds and joints can have in groups of at most limit. */
size_t island_groups_most(size_t weight, int limit);
/* The group of each joint by joint index (joint_group[i]; -1 for a joint without an awake
   body). */
void island_groups_of_joints(island_grouping *g, const cairn_world *world, int *joint_group);
/* The awake bodies, group by group, into bodies (room for every awake body), each group in awake
   order, and each group's range of them; the bodies without contacts or joints are shared out
   among the groups in equal runs of awake order. */
void island_groups_bodies(island_grouping *g, const cairn_world *world, solve_group *groups,
                          int group_count, uint32_t *bodies);

#endif
