/* Sequential impulses over contact manifolds (Catto), warm-started, with substeps. Position
   error is corrected by soft contacts (soft step, the default), by a Baumgarte velocity bias,
   or by split impulses on pseudo-velocities that never reach the real velocities. The contacts
   are solved island group by island group (island_groups.h), in a group colour by colour
   (graph_color.h), several at once in lanes (contact_wide.h); the joints before them in every
   pass (joint_solver.h). */
#include "dynamics/contact_wide.h"
#include "dynamics/graph_color.h"
#include "dynamics/integrate.h"
#include "dynamics/island_groups.h"
#include "dynamics/joint_solver.h"

#include "core/team.h"
#include "core/timer.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The fewest contacts a worker takes at once: a colour of the 1,240-box pyramid (about 100
   contacts) is then solved by one worker, which on two cores is as fast as sharing it (measured
   with bench_threads: 1.02x against 0.89x with blocks of 8). */
enum { CONTACT_BLOCK = 64 };

/* Contacts of a colour are grouped by their number of points (1 to MANIFOLD_MAX_POINTS), so the
   lanes of a batch go through the same rows. */
enum { PLAN_GROUPS = GRAPH_BUCKETS * MANIFOLD_MAX_POINTS };

typedef struct solver {
    cairn_world *world;
    team *team;
    joint_solver joints; /* solved first in every pass, on the coordinator */
    const contact_wide_ops *wide;
    manifold_ref *plan; /* the manifolds solved, in the order of the solve */
    size_t plan_room;   /* room in plan: the contacts' manifolds, and one */
    /* By body index: in the awake set. The plan reads this rather than each contact's two bodies
       (304 bytes each, out of cache in a large world). */
    uint8_t *awake;
    /* By body index: a solved contact touches it (the joints read it); marked as the plan lists
       the contacts. */
    bool *touching;
    int contact_count;
    float warm;         /* the warm-start factor */
    void *batch_memory; /* as pushed on the scratch arena */
    /* The batches of the group being solved, contact_wide_ops.batch_bytes each, 32-byte aligned:
       batch b at index b - batch_base. Each worker that takes whole groups reuses one region of
       region_bytes for all of them, which stays in its caches (ten pyramids: 3 MB a worker
       instead of 33 MB written afresh every step). */
    void *batches;
    void *rolling_rows; /* the batches' rolling rows, indexed as they are */
    bool rolling;       /* a listed contact has rolling resistance (pass.rolling) */
    int batch_base;
    size_t region_bytes, rolling_region_bytes;
    int regions;
    int batch_count;
    int *batch_first; /* the first contact of each batch, and contact_count after the last */
    solve_group *groups;
    int group_count;
    const solve_group *group; /* the group being solved */
    uint32_t *group_bodies;   /* the awake bodies, group by group */
    solve_group *plan_groups; /* as pushed on the scratch arena */
    uint32_t *plan_bodies;    /* as pushed on the scratch arena */
    int *joint_groups;        /* the island group of each joint, by joint index (NULL: one) */
    size_t most_groups;       /* room in plan_groups */
    solve_group all_bodies;   /* the one group when no contact is solved */
    bool by_group;            /* the workers share whole groups, not each group's colours */
    float integrate_ms;       /* this solver's integration time (a worker's, in by_group) */
    /* by_group: each worker's integration time, by worker (outside the solver: the workers copy
       the solver while others write their times) */
    float *worker_integrate_ms;
    int batch_block; /* the fewest batches a worker takes at once */
    /* What the stage now running does: set by the coordinator before it starts the stage. */
    int stage_first; /* the stage's first batch */
    contact_pass_fn *stage_op;
    contact_pass pass;
    const motion_offset *offsets;
    bool last_substep; /* its position update ends the step: every body's inertia is synced */
    body_velocity *velocities; /* by body index */
    motion_offset *pseudo;     /* split impulse pseudo-velocities by body index */
    body_motion *moved;        /* motion since the step start by body index */
    float h;
    unsigned pass_count; /* solve passes so far, to alternate the point order */
} solver;

/* A body the step does not move (static, asleep) but a contact touches: at rest, no motion. */
static void rest_body(solver *s, uint32_t index)
{
    velocities_rest(s->velocities, index);
    s->moved[index] = (body_motion){v4_splat(0.0f), v4_splat(0.0f)};
    s->pseudo[index] = (motion_offset){glms_vec3_zero(), glms_vec3_zero()};
}

/* Solver constraints the contacts can need at most: one per manifold. */
static size_t manifold_total(const cairn_world *world)
{
    size_t total = (size_t)world->contacts.count;
    for (int i = 0; i < world->contacts.count; ++i)
        total += (size_t)(contact_manifold_count(&world->contacts.data[i]) - 1);
    return total;
}

/* Room for the step's solver constraints (and one): the narrow phase's count of the contacts'
   manifolds, or a walk over the contacts when it has none (manifolds < 0). */
static size_t plan_room(const cairn_world *world, int manifolds)
{
    size_t total = manifolds >= 0 ? (size_t)manifolds : manifold_total(world);
    CAIRN_ASSERT(total == manifold_total(world));
    return total + 1;
}

/* Whether a body has mass: an awake one's was loaded with its velocity. */
static bool has_mass(const solver *s, uint32_t index)
{
    if (s->awake[index])
        return s->velocities[index].inverse_mass != 0.0f;
    return s->world->bodies.data[index].inverse_mass != 0.0f;
}

/* A touching contact with something awake to move: its manifolds are solved. */
static bool is_solved(const solver *s, const contact *c)
{
    if (!c->touching || (!s->awake[c->body_a] && !s->awake[c->body_b]) || c->disabled)
        return false;
    return has_mass(s, c->body_a) || has_mass(s, c->body_b);
}

static bool moves(const solver *s, uint32_t index)
{
    return s->velocities[index].inverse_mass > 0.0f;
}

/* The overflow keeps contact order: its contacts are solved one after the other. */
static int plan_group(int color, int point_count)
{
    int group = color * MANIFOLD_MAX_POINTS;
    return color == GRAPH_OVERFLOW ? group : group + point_count - 1;
}

/* How far ahead the plan's listing asks for a contact's header and first manifold: the walk is
   out of cache on a large world (the narrow phase last touched the contacts, half of them on the
   other core), and the 560-byte stride defeats the hardware's prefetch. Measured on the settled
   10,000-shape pile: the listing's samples fell by a third at 8 ahead, no further at 16 or 32. */
enum { LIST_PREFETCH = 8 };

static void prefetch_listing(const contact_array *contacts, int i)
{
    if (i >= contacts->count)
        return;
    const contact *ahead = &contacts->data[i];
    __builtin_prefetch(ahead);
    __builtin_prefetch(&ahead->extra);
    __builtin_prefetch(&ahead->manifold.point_count);
}

/* The manifolds to solve, in contact order with their bodies (pairs) and their plan groups (slots:
   colour and number of points), and the number per colour; the bodies the step does not move
   but a contact touches are put at rest. */
static int list_manifolds(solver *s, manifold_ref *listed, manifold_bodies *pairs, uint16_t *slots,
                          graph_mask *used, int *counts)
{
    cairn_world *w = s->world;
    int count = 0;
    for (int i = 0; i < w->contacts.count; ++i) {
        contact *c = &w->contacts.data[i];
        prefetch_listing(&w->contacts, i + LIST_PREFETCH);
        if (!is_solved(s, c))
            continue;
        if (!s->awake[c->body_a])
            rest_body(s, c->body_a);
        if (!s->awake[c->body_b])
            rest_body(s, c->body_b);
        for (int m = 0; m < contact_manifold_count(c); ++m) {
            manifold *solved = contact_manifold(c, m);
            if (solved->point_count == 0)
                continue;
            s->touching[c->body_a] = s->touching[c->body_b] = true;
            s->rolling |= c->rolling_resistance > 0.0f || c->surface_rolls;
            int color = graph_color_pick(used, c->body_a, moves(s, c->body_a), c->body_b,
                                         moves(s, c->body_b));
            counts[color]++;
            slots[count] = (uint16_t)plan_group(color, solved->point_count);
            pairs[count] = (manifold_bodies){c->body_a, c->body_b};
            listed[count++] = (manifold_ref){c, solved};
        }
    }
    return count;
}

/* The solve order: colour by colour, in a colour by number of points, each group in contact
   order (a counting sort of the list by slot). group_first[PLAN_GROUPS + 1]: where each group
   starts. */
static void plan_order(const manifold_ref *listed, const uint16_t *slots, int count,
                       manifold_ref *plan, int *group_first)
{
    int next[PLAN_GROUPS] = {0};
    for (int k = 0; k < count; ++k)
        next[slots[k]]++;
    group_first[0] = 0;
    for (int g = 0; g < PLAN_GROUPS; ++g) {
        group_first[g + 1] = group_first[g] + next[g];
        next[g] = group_first[g];
    }
    for (int k = 0; k < count; ++k)
        plan[next[slots[k]]++] = listed[k];
}

/* Each plan group in batches of as many contacts as there are lanes, the overflow one by one,
   from batch n on; the plan groups' contacts start at offset in the plan. Returns the next
   batch. The batches depend on the lane count, but a colour's constraints touch different
   moving bodies, so how they are batched does not change the result. */
static int plan_batches(solver *s, solve_group *group, const int *group_first, int offset, int n)
{
    for (int c = 0; c < GRAPH_BUCKETS; ++c) {
        group->batch_color_first[c] = n;
        int width = c == GRAPH_OVERFLOW ? 1 : s->wide->lanes;
        for (int g = c * MANIFOLD_MAX_POINTS; g < (c + 1) * MANIFOLD_MAX_POINTS; ++g)
            for (int k = group_first[g]; k < group_first[g + 1]; k += width)
                s->batch_first[n++] = offset + k;
    }
    group->batch_color_first[GRAPH_BUCKETS] = n;
    return n;
}

/* The manifolds by island group (a stable counting sort into sorted and sorted_slots; next:
   room for a slot per group; one group needs no sort), then each group's solve order and
   batches. */
static void plan_groups(solver *s, const manifold_ref *listed, const uint16_t *slots,
                        const int *groups, const int *group_sizes, int *next, manifold_ref *sorted,
                        uint16_t *sorted_slots, manifold_ref *plan)
{
    const manifold_ref *from = listed;
    const uint16_t *from_slots = slots;
    if (s->group_count > 1) {
        for (int g = 0, first = 0; g < s->group_count; first += group_sizes[g++])
            next[g] = first;
        for (int k = 0; k < s->contact_count; ++k) {
            int at = next[groups[k]]++;
            sorted[at] = listed[k];
            sorted_slots[at] = slots[k];
        }
        from = sorted;
        from_slots = sorted_slots;
    }
    int n = 0, offset = 0, group_first[PLAN_GROUPS + 1];
    for (int g = 0; g < s->group_count; ++g) {
        plan_order(from + offset, from_slots + offset, group_sizes[g], plan + offset, group_first);
        n = plan_batches(s, &s->groups[g], group_first, offset, n);
        offset += group_sizes[g];
    }
    s->batch_first[n] = s->contact_count;
    s->batch_count = n;
}

/* Every awake body in one group (given: its batches are planned by plan_batches). */
static void whole_world_group(solver *s, solve_group *group)
{
    group->body_first = 0;
    group->body_end = s->world->awake.count;
    s->groups = group;
    s->group_count = 1;
    s->group_bodies = s->world->awake.data;
}

static int world_workers(const cairn_world *world)
{
    return world->def.enqueue_task ? world->def.worker_count : 1;
}

/* Room for the groups of a step of at most weight manifolds and joints (group_limit's). */
static size_t most_groups(const solver *s, size_t weight)
{
    if (s->world->solver_group_manifolds > 0)
        return island_groups_most(weight, s->world->solver_group_manifolds);
    /* several workers: a limit over weight / (4 workers) */
    size_t shared = 8 * (size_t)world_workers(s->world) + 3;
    size_t most = island_groups_most(weight, GROUP_MANIFOLDS);
    return most > shared ? most : shared;
}

/* The heaviest group of a step that solves weight manifolds and joints. On one worker: every
   island in one group when the step holds fewer than two groups' worth (their constraints fit
   the caches together, and a split only adds part-filled batches: the 10,000-shape pile's 11,600
   manifolds solved 3-4% slower in two groups), else group_size. On several: about four groups a
   worker, so that they can take whole groups (and none is left holding the largest), at most
   group_size. */
static int group_limit(const solver *s, int weight)
{
    int workers = world_workers(s->world);
    if (s->world->solver_group_manifolds > 0)
        return s->world->solver_group_manifolds;
    if (workers > 1) {
        int share = weight / (4 * workers) + 1;
        return share < GROUP_MANIFOLDS ? share : GROUP_MANIFOLDS;
    }
    return weight < 2 * GROUP_MANIFOLDS ? INT32_MAX : GROUP_MANIFOLDS;
}

/* Colours the manifolds, groups their islands and plans their order and batches (plan: room for
   total). False when scratch memory ran out. */
static bool plan_contacts(solver *s, manifold_ref *plan, size_t total)
{
    cairn_world *w = s->world;
    size_t bodies = (size_t)w->bodies.count + 1;
    manifold_ref *listed = arena_push(&w->scratch, sizeof *listed * total, "manifolds listed");
    manifold_ref *sorted = arena_push(&w->scratch, sizeof *sorted * total, "manifolds grouped");
    manifold_bodies *pairs = arena_push(&w->scratch, sizeof *pairs * total, "manifold bodies");
    uint16_t *slots = arena_push(&w->scratch, sizeof *slots * 2 * total, "manifold slots");
    size_t most = s->most_groups;
    int *groups =
        arena_push(&w->scratch, sizeof(int) * (total + 3 * most + 2 * bodies), "manifold groups");
    uint32_t *island = arena_push(&w->scratch, sizeof *island * bodies, "islands");
    graph_mask *used = arena_push(&w->scratch, sizeof *used * bodies, "body colours");
    bool ok = listed && sorted && pairs && slots && groups && island && used;
    if (ok) {
        memset(used, 0, sizeof *used * bodies);
        int *group_sizes = groups + total, *group_next = group_sizes + most;
        int *group_weights = group_next + most;
        island_grouping grouping = {island, group_weights + most, group_weights + most + bodies};
        int counts[GRAPH_BUCKETS] = {0};
        s->contact_count = list_manifolds(s, listed, pairs, slots, used, counts);
        int weight = s->contact_count + w->joints.count, limit = group_limit(s, weight);
        if (limit == INT32_MAX) { /* one group: no islands to find */
            whole_world_group(s, s->plan_groups);
            group_sizes[0] = s->contact_count;
            group_weights[0] = weight;
        } else {
            island_groups_join(&grouping, w, pairs, s->contact_count);
            s->group_count = island_groups_assign(&grouping, w, pairs, s->contact_count, limit,
                                                  groups, group_sizes, group_weights);
            island_groups_bodies(&grouping, w, s->groups, s->group_count, s->group_bodies);
            island_groups_of_joints(&grouping, w, s->joint_groups);
        }
        plan_groups(s, listed, slots, groups, group_sizes, group_next, sorted, slots + total, plan);
        for (int g = 0; g < s->group_count; ++g)
            s->groups[g].weight = group_weights[g];
        for (int c = 0; c < GRAPH_COLOR_COUNT; ++c)
            w->stats.colors += counts[c] > 0;
        w->stats.overflow_contacts = counts[GRAPH_OVERFLOW];
        w->stats.island_groups = s->group_count;
    }
    void *pushed[] = {used, island, groups, slots, pairs, sorted, listed};
    for (int i = 0; i < 7; ++i)
        if (pushed[i])
            arena_pop(&w->scratch, pushed[i]);
    return ok;
}

/* How far ahead the prepare asks for memory: the contacts two batches of 8 ahead, then their
   bodies one batch ahead (the prepare takes a whole batch at once; measured on the pyramid, about
   2% faster than 8 and 4, and 24 and 12 no better). */
enum { PREFETCH_CONTACT = 16, PREFETCH_BODIES = 8 };

/* Every cache line the bytes touch: a contact (560 bytes) or a manifold (304) starts anywhere in
   a line, so one more line than bytes / 64 may hold its end. */
static void prefetch_range(const void *start, size_t bytes)
{
    uintptr_t first = (uintptr_t)start & ~(uintptr_t)63, end = (uintptr_t)start + bytes;
    for (uintptr_t line = first; line < end; line += 64)
        __builtin_prefetch((const void *)line);
}

/* A colour's contacts are spread over the whole contact array (and their bodies over the
   bodies), so the prepare waits on memory unless it asks early: a contact's header and its
   manifold PREFETCH_CONTACT manifolds ahead, and the bodies of the one PREFETCH_BODIES ahead,
   whose contact has arrived by then. (The header's second line, when it has one, was missed
   before: prefetching it made the ten pyramids' prepare about 40% faster.) */
static void prefetch_plan(const solver *s, int k, int end)
{
    if (k + PREFETCH_CONTACT < end) {
        const manifold_ref *r = &s->plan[k + PREFETCH_CONTACT];
        prefetch_range(r->contact, offsetof(contact, cache));
        prefetch_range(r->manifold, sizeof *r->manifold);
    }
    if (k + PREFETCH_BODIES < end) {
        const contact *c = s->plan[k + PREFETCH_BODIES].contact;
        const body *bodies = s->world->bodies.data;
        prefetch_range(&bodies[c->body_a], sizeof(body));
        prefetch_range(&bodies[c->body_b], sizeof(body));
    }
}

/* Each batch's manifolds made into its constraints, lane by lane. */
static void stage_prepare(void *context, int start, int end, int worker)
{
    (void)worker;
    solver *s = context;
    const contact_setup setup = {s->world, s->velocities, s->warm, s->world->bodies.count,
                                 s->rolling ? s->rolling_rows : NULL};
    start += s->stage_first;
    end += s->stage_first;
    int last = s->batch_first[end];
    for (int b = start; b < end; ++b) {
        int first = s->batch_first[b], count = s->batch_first[b + 1] - first;
        for (int l = 0; l < count; ++l)
            prefetch_plan(s, first + l, last);
        s->wide->prepare(s->batches, b - s->batch_base, &s->plan[first], count, &setup);
    }
}

/* The batches of the largest island group. */
static int most_group_batches(const solver *s)
{
    int most = 0;
    for (int g = 0; g < s->group_count; ++g) {
        const int *color_first = s->groups[g].batch_color_first;
        int batches = color_first[GRAPH_BUCKETS] - color_first[0];
        most = batches > most ? batches : most;
    }
    return most;
}

/* Each manifold of a touching contact with something awake to move will be a solver
   constraint: the colours, the solve order and the batches, and the batches' memory. On the
   calling thread, before the team starts (sharing_pays reads the plan). False when scratch
   memory ran out (no contact is solved). */
static bool plan_step(solver *s)
{
    cairn_world *w = s->world;
    const cairn_solver_settings *settings = &w->def.solver;
    s->warm = settings->warm_starting ? settings->warm_start_factor : 0.0f;
    size_t total = s->plan_room;
    s->batch_first = arena_push(&w->scratch, sizeof(int) * (total + PLAN_GROUPS + 1), "batches");
    s->most_groups = most_groups(s, total + (size_t)w->joints.count);
    s->plan_groups = arena_push(&w->scratch, sizeof(solve_group) * s->most_groups, "island groups");
    s->plan_bodies =
        arena_push(&w->scratch, sizeof(uint32_t) * ((size_t)w->awake.count + 1), "bodies by group");
    s->joint_groups =
        arena_push(&w->scratch, sizeof(int) * ((size_t)w->joints.count + 1), "joint groups");
    if (!s->plan || !s->awake || !s->touching || !s->batch_first || !s->plan_groups ||
        !s->plan_bodies || !s->joint_groups)
        return false;
    s->groups = s->plan_groups;
    s->group_bodies = s->plan_bodies;
    if (!plan_contacts(s, s->plan, total))
        return false;
    s->regions = s->group_count > 1 ? world_workers(w) : 1;
    /* whole cache lines, so that two workers' regions share none */
    size_t most = (size_t)most_group_batches(s);
    s->region_bytes = (s->wide->batch_bytes * most + 63u) & ~(size_t)63u;
    s->rolling_region_bytes = (s->wide->rolling_bytes * most + 63u) & ~(size_t)63u;
    /* regions start on a cache line (the kernels need 32 bytes); the arena aligns to 16 */
    size_t bytes = (s->region_bytes + s->rolling_region_bytes) * (size_t)s->regions + 64;
    s->batch_memory = arena_push(&w->scratch, bytes, "contact batches");
    return s->batch_memory != NULL;
}

/* The batch memory of a worker that solves whole groups (worker 0 for every group otherwise),
   and its rolling rows', after every worker's batches. */
static void *batch_region(const solver *s, int worker)
{
    uintptr_t first = ((uintptr_t)s->batch_memory + 63u) & ~(uintptr_t)63u;
    return (void *)(first + (size_t)worker * s->region_bytes);
}

static void *rolling_region(const solver *s, int worker)
{
    uintptr_t rows = (uintptr_t)batch_region(s, s->regions);
    return (void *)(rows + (size_t)worker * s->rolling_region_bytes);
}

/* Whether the workers share the solve: when the colours large enough to split (more than one
   block) hold at least three quarters of the constraints (joints counted as shareable).
   Otherwise the coordinator solves most colours alone while the others wait for the next shared
   stage, and is slowed by them: the 1,240-box pyramid (about half of its contacts in colours
   over 64) ran at 0.59 times its one-worker speed on two workers, 0.94 with the solve on one;
   ten pyramids side by side (nearly all in large colours) ran at 1.26-1.78 times shared, 1.03
   alone (bench_threads). The broadphase's and the narrow phase's parallel parts stay shared
   either way; the integration, part of the solve, goes with it. */
static bool sharing_pays(const solver *s)
{
    int shared = 0;
    for (int g = 0; g < s->group_count; ++g)
        for (int c = 0; c < GRAPH_COLOR_COUNT; ++c) {
            const int *color_first = s->groups[g].batch_color_first;
            int first = color_first[c], end = color_first[c + 1];
            if (end - first > s->batch_block)
                shared += s->batch_first[end] - s->batch_first[first];
        }
    int joints = s->world->joints.count;
    return 4 * (shared + joints) >= 3 * (s->contact_count + joints);
}

static void for_each_color(solver *s, team_stage_fn *stage)
{
    graph_color_run(s->team, s->group->batch_color_first, &s->stage_first, stage, s,
                    s->batch_block);
}

/* The pass now running over one stage of batches. */
static void stage_wide(void *context, int start, int end, int worker)
{
    (void)worker;
    solver *s = context;
    int base = s->stage_first - s->batch_base;
    s->stage_op(s->batches, base + start, base + end, &s->pass);
}

static void run_pass(solver *s, contact_pass_fn *op)
{
    s->stage_op = op;
    for_each_color(s, stage_wide);
}

static void solve_contacts(solver *s, bias_mode mode)
{
    s->pass.pass = s->pass_count++;
    s->pass.mode = mode;
    run_pass(s, s->wide->solve);
}

/* Integrates positions and accumulates each body's motion since the step start. */
static void stage_move_bodies(void *context, int start, int end, int worker)
{
    (void)worker;
    solver *s = context;
    const motion_offset *offsets = s->offsets;
    const uint32_t *bodies = s->group_bodies + s->group->body_first;
    integrate_positions(s->world, s->h, s->velocities, offsets, s->last_substep, bodies, start,
                        end);
    v4 h = v4_splat(s->h);
    for (int k = start; k < end; ++k) {
        uint32_t i = bodies[k];
        v4 v = v4_from(s->velocities[i].linear), w = v4_from(s->velocities[i].angular);
        if (offsets) {
            v += v4_from(offsets[i].linear);
            w += v4_from(offsets[i].angular);
        }
        s->moved[i].linear += v * h;
        s->moved[i].angular += w * h;
    }
}

/* Bodies per block of the integration stages. */
enum { BODY_BLOCK = 64 };

static int group_body_count(const solver *s)
{
    return s->group->body_end - s->group->body_first;
}

static void move_bodies(solver *s, const motion_offset *offsets)
{
    uint64_t start = timer_ticks();
    s->offsets = offsets;
    team_stage_run(s->team, TEAM_INTEGRATION, stage_move_bodies, s, group_body_count(s),
                   BODY_BLOCK);
    s->integrate_ms += (float)timer_ms_since(start);
}

static void stage_integrate_velocities(void *context, int start, int end, int worker)
{
    (void)worker;
    solver *s = context;
    integrate_velocities(s->world, s->h, s->velocities, s->group_bodies + s->group->body_first,
                         start, end);
}

static void store_impulses(manifold *m, const contact_impulses *impulses)
{
    for (int p = 0; p < m->point_count; ++p) {
        m->points[p].normal_impulse = impulses->normal[p];
        m->points[p].max_normal_impulse = impulses->max_normal[p];
    }
    m->friction_impulse = impulses->friction;
    m->twist_impulse = impulses->twist;
    m->rolling_impulse = impulses->rolling;
}

/* The step's last pass, restitution, then its impulses back to the manifolds, to warm-start
   the next step: batch by batch while the batch is in cache. The manifolds are asked for before
   the restitution pass (in a large world they left the cache during the substeps). */
static void stage_restitution_and_store(void *context, int start, int end, int worker)
{
    (void)worker;
    solver *s = context;
    int base = s->stage_first - s->batch_base;
    int last = s->batch_first[s->stage_first + end];
    for (int k = s->batch_first[s->stage_first + start]; k < last; ++k)
        prefetch_range(s->plan[k].manifold, sizeof(manifold));
    s->wide->restitution(s->batches, base + start, base + end, &s->pass);
    contact_impulses lanes[CONTACT_WIDE_MAX_LANES];
    for (int b = s->stage_first + start; b < s->stage_first + end; ++b) {
        s->wide->unpack(s->batches, b - s->batch_base, lanes);
        for (int k = s->batch_first[b]; k < s->batch_first[b + 1]; ++k)
            store_impulses(s->plan[k].manifold, &lanes[k - s->batch_first[b]]);
    }
}

/* Iteration counts are per step, spread over the substeps (at least one pass each). */
static int passes(int total, int substeps)
{
    return (total + substeps - 1) / substeps;
}

/* Split impulse: penetrating points pushed apart through pseudo-velocities, from zero in each
   substep. */
static void split_impulse_positions(solver *s)
{
    const cairn_solver_settings *settings = &s->world->def.solver;
    for (int k = s->group->body_first; k < s->group->body_end; ++k)
        s->pseudo[s->group_bodies[k]] = (motion_offset){glms_vec3_zero(), glms_vec3_zero()};
    for (int k = 0; k < passes(settings->position_iterations, settings->substeps); ++k) {
        s->pass.pass = s->pass_count++;
        s->pass.restart_pseudo = k == 0;
        run_pass(s, s->wide->pseudo);
    }
    move_bodies(s, s->pseudo);
}

/* The world inverse inertia of the bodies with joints, after their position passes (the next
   substep's joints read it, and the next step's contacts): once a body, in one pass over the
   group's bodies. Bringing it up to date at each shift of a pose costs a sync per joint and
   pass (the chains, one substep: body_sync_inertia 5.5% of the samples against 3.2%). */
static void stage_sync_jointed(void *context, int start, int end, int worker)
{
    (void)worker;
    solver *s = context;
    integrate_sync_jointed(s->world, s->group_bodies + s->group->body_first, start, end);
}

/* Split impulse mode: the joints' position passes, after the bodies moved. */
static void correct_joint_positions(solver *s)
{
    const cairn_solver_settings *settings = &s->world->def.solver;
    if (s->joints.group == NULL)
        return;
    for (int k = 0; k < passes(settings->position_iterations, settings->substeps); ++k)
        joints_correct_positions(&s->joints, s->moved);
    uint64_t start = timer_ticks();
    team_stage_run(s->team, TEAM_INTEGRATION, stage_sync_jointed, s, group_body_count(s),
                   BODY_BLOCK);
    s->integrate_ms += (float)timer_ms_since(start);
}

static void substep(solver *s, int mode, bool first)
{
    const cairn_solver_settings *settings = &s->world->def.solver;
    uint64_t start = timer_ticks();
    team_stage_run(s->team, TEAM_INTEGRATION, stage_integrate_velocities, s, group_body_count(s),
                   BODY_BLOCK);
    s->integrate_ms += (float)timer_ms_since(start);
    joints_prepare(&s->joints, first);
    joints_warm_start(&s->joints);
    run_pass(s, s->wide->warm_start);
    int velocity_passes = passes(settings->velocity_iterations, settings->substeps);
    if (mode == CAIRN_SOFT_STEP) {
        for (int k = 0; k < velocity_passes; ++k) {
            joints_solve(&s->joints, false);
            solve_contacts(s, BIAS_SOFT);
        }
        move_bodies(s, NULL);
        int relax = passes(settings->position_iterations, settings->substeps);
        for (int k = 0; k < (relax > 0 ? relax : 1); ++k) {
            joints_solve(&s->joints, true);
            solve_contacts(s, BIAS_RELAX);
        }
        return;
    }
    /* Rigid modes: Baumgarte bias on contacts and joints, or split impulse: contacts through
       pseudo-velocities, joints through position passes. */
    bias_mode contact_mode = mode == CAIRN_BAUMGARTE ? BIAS_BAUMGARTE : BIAS_NONE;
    for (int k = 0; k < velocity_passes; ++k) {
        joints_solve(&s->joints, false);
        solve_contacts(s, contact_mode);
    }
    if (mode == CAIRN_BAUMGARTE) {
        move_bodies(s, NULL);
        return;
    }
    split_impulse_positions(s);
    correct_joint_positions(s);
}

/* After a failed prepare (out of scratch memory): no contact is solved. */
static void drop_contacts(solver *s)
{
    s->contact_count = 0;
    s->batch_count = 0;
    if (s->touching)
        memset(s->touching, 0, (size_t)s->world->bodies.count + 1);
    s->all_bodies = (solve_group){0};
    whole_world_group(s, &s->all_bodies);
}

/* One island group's whole solve, in the batch memory of worker: its constraints made, the
   substeps, restitution. */
static void solve_group_alone(solver *s, int index, int worker)
{
    const cairn_solver_settings *settings = &s->world->def.solver;
    const solve_group *group = &s->groups[index];
    s->group = group;
    s->batches = batch_region(s, worker);
    s->rolling_rows = rolling_region(s, worker);
    s->batch_base = group->batch_color_first[0];
    joints_use_group(&s->joints, index);
    s->pass_count = 0; /* every group sees the same pass order */
    int first = group->batch_color_first[0];
    s->stage_first = first;
    team_stage_run(s->team, TEAM_CONSTRAINTS, stage_prepare, s,
                   group->batch_color_first[GRAPH_BUCKETS] - first, s->batch_block);
    for (int i = 0; i < settings->substeps; ++i) {
        s->last_substep = i == settings->substeps - 1;
        substep(s, settings->position_correction, i == 0);
    }
    for_each_color(s, stage_restitution_and_store);
}

/* Whole groups on the workers, each solved alone on the worker that took it, with a copy of the
   solver (the copy's stages run inline). Groups share no moving body: no worker waits for
   another until the last group is done. */
static void stage_solve_groups(void *context, int start, int end, int worker)
{
    solver *shared = context;
    team alone = {.workers = 1};
    for (int g = start; g < end; ++g) {
        solver s = *shared;
        s.team = &alone;
        s.integrate_ms = 0.0f;
        s.joints.team = &alone;
        solve_group_alone(&s, g, worker);
        shared->worker_integrate_ms[worker] += s.integrate_ms;
    }
    team_recharge(shared->team, worker, TEAM_CONSTRAINTS, TEAM_INTEGRATION,
                  alone.clocks[0].busy_ns[TEAM_INTEGRATION]);
}

/* Whether the workers share whole groups: with at least two groups per worker, none of them
   more than a worker's share of the manifolds and joints (ten pyramids side by side: ten groups
   of a tenth). Otherwise they share each group's colours, one colour after another. */
static bool groups_shared(const solver *s)
{
    int workers = world_workers(s->world);
    if (workers < 2 || s->group_count < 2 * workers)
        return false;
    int64_t total = 0;
    for (int g = 0; g < s->group_count; ++g)
        total += s->groups[g].weight;
    for (int g = 0; g < s->group_count; ++g)
        if ((int64_t)s->groups[g].weight * workers > total)
            return false;
    return true;
}

/* The step's solve, on the coordinator of the world's workers (core/team.h). */
static void solve_step(team *t, void *context)
{
    solver *s = context;
    cairn_world *world = s->world;
    s->team = t;
    joints_begin(&s->joints, world, t, s->velocities, s->h, s->touching, s->joint_groups,
                 s->group_count);
    if (s->by_group)
        team_stage_run_blocks(t, TEAM_CONSTRAINTS, stage_solve_groups, s, s->group_count, 1);
    else
        for (int g = 0; g < s->group_count; ++g)
            solve_group_alone(s, g, 0);
    joints_end(&s->joints);
}

/* What every contact pass reads. */
static contact_pass make_pass(const solver *s, float h)
{
    const cairn_solver_settings *settings = &s->world->def.solver;
    float inverse_h = 1.0f / h;
    return (contact_pass){
        .velocities = s->velocities,
        .moved = s->moved,
        .pseudo = s->pseudo,
        .inverse_h = inverse_h,
        /* Stiffer than a quarter of the substep rate is not stable. */
        .soft = make_soft(fminf(settings->contact_hertz, 0.25f * inverse_h),
                          settings->contact_damping_ratio, h),
        .max_push_velocity = settings->max_push_velocity,
        .linear_slop = settings->linear_slop,
        .baumgarte = settings->baumgarte,
        .max_linear_correction = settings->max_linear_correction,
        .restitution_threshold = settings->restitution_threshold,
    };
}

void solver_step(cairn_world *world, float dt, int manifolds)
{
    const cairn_solver_settings *settings = &world->def.solver;
    solver s = {.world = world, .wide = contact_wide_select(world->solver_lanes)};
    if (s.wide == NULL) /* a width this processor cannot run: the build's default */
        s.wide = contact_wide_select(0);
    s.batch_block = CONTACT_BLOCK / s.wide->lanes;
    s.h = dt / (float)settings->substeps;
    world->last_substep = s.h;
    size_t bodies = (size_t)world->bodies.count + 1;
    s.plan_room = plan_room(world, manifolds);
    s.plan = arena_push(&world->scratch, sizeof *s.plan * s.plan_room, "plan");
    s.velocities = arena_push(&world->scratch, sizeof(body_velocity) * bodies, "body velocities");
    velocities_load(world, s.velocities);
    s.pseudo = arena_push(&world->scratch, sizeof(motion_offset) * bodies, "pseudo velocities");
    s.moved = arena_push(&world->scratch, sizeof(body_motion) * bodies, "motion this step");
    s.awake = arena_push(&world->scratch, bodies, "bodies awake");
    if (s.awake)
        memset(s.awake, 0, bodies);
    s.touching = arena_push(&world->scratch, bodies, "bodies touching");
    if (s.touching)
        memset(s.touching, 0, bodies);
    for (int k = 0; k < world->awake.count; ++k) {
        s.moved[world->awake.data[k]] = (body_motion){v4_splat(0.0f), v4_splat(0.0f)};
        if (s.awake)
            s.awake[world->awake.data[k]] = 1;
    }
    rest_body(&s, (uint32_t)world->bodies.count); /* the body of the batches' empty lanes */
    s.pass = make_pass(&s, s.h);
    if (!plan_step(&s))
        drop_contacts(&s);
    s.pass.rolling = s.rolling;
    team_times times = {world->stats.solver_worker_ms, world->stats.integrate_worker_ms,
                        &world->stats.solver_stages, &world->stats.solver_shared_stages};
    float worker_integrate_ms[CAIRN_MAX_WORKERS] = {0};
    s.worker_integrate_ms = worker_integrate_ms;
    s.by_group = groups_shared(&s);
    world->stats.island_groups_shared = s.by_group;
    bool share = s.by_group || sharing_pays(&s);
    world->stats.solver_workers = team_run(&world->def, share, solve_step, &s, times);
    world->stats.integrate_ms += s.integrate_ms;
    for (int w = 0; w < CAIRN_MAX_WORKERS; ++w)
        world->stats.integrate_ms += worker_integrate_ms[w];
    void *pushed[] = {s.batch_memory, s.joint_groups, s.plan_bodies, s.plan_groups, s.batch_first};
    for (int i = 0; i < 5; ++i)
        if (pushed[i])
            arena_pop(&world->scratch, pushed[i]);
    velocities_store(world, s.velocities);
    if (s.touching)
        arena_pop(&world->scratch, s.touching);
    if (s.awake)
        arena_pop(&world->scratch, s.awake);
    arena_pop(&world->scratch, s.moved);
    arena_pop(&world->scratch, s.pseudo);
    arena_pop(&world->scratch, s.velocities);
    arena_pop(&world->scratch, s.plan);
}
