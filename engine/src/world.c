/* The step pipeline: broadphase -> narrow phase -> solver -> islands, data flowing one way. */
#include "dynamics/joint.h"
#include "dynamics/world_state.h"

#include "core/alloc.h"
#include "core/error.h"
#include "core/fnv.h"
#include "core/tasks.h"
#include "core/timer.h"
#include "core/validate.h"

#include <string.h>

enum { SCRATCH_BYTES = 1 << 20 };

cairn_world *cairn_world_create(const cairn_world_def *def)
{
    if (!cairn_world_def_validate(def))
        return NULL;
    cairn_world *world = mem_calloc(1, sizeof *world);
    if (world == NULL)
        return NULL;
    world->def = *def;
    if (!id_pool_init(&world->ids, 64) || !id_pool_init(&world->joint_ids, 0) ||
        !arena_init(&world->scratch, SCRATCH_BYTES) || !broadphase_init(&world->broadphase, 64)) {
        cairn_world_destroy(world);
        return NULL;
    }
    return world;
}

void cairn_world_destroy(cairn_world *world)
{
    if (!world_unlocked(world, "cairn_world_destroy"))
        return;
    if (world == NULL)
        return;
    characters_orphan(world);
    for (int i = 0; i < world->bodies.count; ++i)
        if (world->bodies.data[i].alive)
            cairn_shape_release(world->bodies.data[i].shape);
    broadphase_destroy(&world->broadphase);
    array_free(&world->bodies);
    contacts_free(world);
    array_free(&world->awake);
    joints_free(world);
    events_free(world);
    arena_destroy(&world->scratch);
    id_pool_destroy(&world->ids);
    mem_free(world, sizeof *world);
}

typedef struct bounds_task {
    const cairn_world *world;
    cairn_aabb *bounds; /* by awake position */
} bounds_task;

static void awake_bounds(int start, int end, int worker, void *context)
{
    (void)worker;
    bounds_task *t = context;
    for (int k = start; k < end; ++k) {
        const body *b = &t->world->bodies.data[t->world->awake.data[k]];
        t->bounds[k] = cairn_shape_bounds(b->shape, b->transform);
    }
}

/* Bodies per range of the parallel bounds at least, and the least work (ms, the last step's,
   summed over the workers) that is shared: the bounds are cheap, and the bodies and bounds a
   worker touches then reach the tree's update on this thread from the other core. Shared, the
   1,240-box pyramid's 0.04 ms of bounds took its broadphase from 0.043 to 0.086 ms on two
   workers, and neither the 10,000-shape pile (0.3 ms of bounds) nor ten pyramids gained
   (bench_threads): only a world of tens of thousands of awake bodies shares them. */
enum { BOUNDS_MIN_RANGE = 256 };
#define BOUNDS_SHARED_MS 1.0f

/* Awake moving bodies report their new bounds (computed on the workers when that pays) and the
   motion expected over the next step (the tree is updated in awake order, on this thread). */
static void update_broadphase(cairn_world *world, float dt)
{
    int count = world->awake.count;
    bounds_task t = {world, arena_push(&world->scratch, sizeof(cairn_aabb) * (size_t)(count + 1),
                                       "awake bounds")};
    if (t.bounds != NULL)
        tasks_parallel_for_gated(&world->def, &world->bounds_gate, BOUNDS_SHARED_MS, awake_bounds,
                                 count, BOUNDS_MIN_RANGE, &t, world->stats.broadphase_worker_ms);
    for (int k = 0; k < count; ++k) {
        const body *b = &world->bodies.data[world->awake.data[k]];
        cairn_aabb bounds = t.bounds ? t.bounds[k] : cairn_shape_bounds(b->shape, b->transform);
        broadphase_move_proxy(&world->broadphase, b->proxy, bounds,
                              glms_vec3_scale(b->linear_velocity, dt));
    }
    if (t.bounds != NULL)
        arena_pop(&world->scratch, t.bounds);
    broadphase_update_pairs(&world->broadphase);
}

static void count_bodies(cairn_world *world)
{
    world->stats.bodies = id_pool_count(&world->ids);
    for (int k = 0; k < world->awake.count; ++k)
        world->stats.awake_bodies += world->bodies.data[world->awake.data[k]].type == CAIRN_DYNAMIC;
    world->stats.pairs = broadphase_pair_count(&world->broadphase);
    world->stats.joints = id_pool_count(&world->joint_ids);
    world->stats.workers = world->def.worker_count;
}

bool world_unlocked(const cairn_world *world, const char *function)
{
    if (world == NULL || !world->stepping)
        return true;
    return error_set("%s: the world is stepping (called from its pair filter or pre-solve "
                     "callback?); a callback may read the world but not change it",
                     function);
}

/* The step itself, once its arguments are checked: the world is locked meanwhile. */
static void step_world(cairn_world *world, float dt);

void cairn_world_step(cairn_world *world, float dt)
{
    if (world == NULL) {
        error_set("cairn_world_step: world is NULL");
        return;
    }
    if (!world_unlocked(world, "cairn_world_step"))
        return;
    if (!is_finite_float(dt) || dt < 0.0f || dt > CAIRN_MAX_TIME_STEP) {
        error_set("cairn_world_step: dt = %g s is outside [0, %g] (finite; larger steps throw "
                  "bodies past what the solver can hold: step several times)",
                  (double)dt, (double)CAIRN_MAX_TIME_STEP);
        return;
    }
    if (dt == 0.0f)
        return;
    world->stepping = true;
    step_world(world, dt);
    world->stepping = false;
}

static void step_world(cairn_world *world, float dt)
{
    memset(&world->stats, 0, sizeof world->stats);
    events_clear(world);
    uint64_t start = timer_ticks(), stage = start;
    update_broadphase(world, dt);
    world->stats.broadphase_ms = (float)timer_ms_since(stage);
    stage = timer_ticks();
    contacts_update_pairs(world);
    /* a joint came or went between two bodies it keeps apart: their pair is decided again */
    if (world->refilter_pending)
        world->refilter_pending = !contacts_refilter(world);
    int manifolds = contacts_collide(world, dt);
    world->stats.narrowphase_ms = (float)timer_ms_since(stage);
    stage = timer_ticks();
    solver_step(world, dt, manifolds);
    joints_break(world);
    bodies_leave_world(world);
    bodies_clear_forces(world);
    world->stats.solver_ms = (float)timer_ms_since(stage);
    stage = timer_ticks();
    sensors_update(world);
    world->stats.narrowphase_ms += (float)timer_ms_since(stage);
    stage = timer_ticks();
    islands_update(world, dt);
    world->stats.islands_ms = (float)timer_ms_since(stage);
    events_finish_step(world);
    count_bodies(world);
    world->stats.total_ms = (float)timer_ms_since(start);
    arena_reset(&world->scratch);
}

cairn_step_stats cairn_world_step_stats(const cairn_world *world)
{
    cairn_step_stats none = {0};
    return world ? world->stats : none;
}

int cairn_world_body_count(const cairn_world *world)
{
    return world ? id_pool_count(&world->ids) : 0;
}

/* Each live joint's id and accumulated impulses: what the next step starts from. */
static uint64_t hash_joints(const cairn_world *world, uint64_t hash)
{
    for (int i = 0; i < world->joints.count; ++i) {
        const joint *j = &world->joints.data[i];
        if (!j->alive)
            continue;
        uint32_t id[2] = {(uint32_t)i, j->generation};
        float impulses[7] = {j->point.impulse.x, j->point.impulse.y, j->point.impulse.z,
                             j->free_axis.lower, j->free_axis.upper, j->free_axis.motor,
                             j->free_axis.spring};
        hash = fnv1a(hash, id, sizeof id);
        hash = fnv1a(hash, impulses, sizeof impulses);
    }
    return hash;
}

/* FNV-1a over the bytes of every live body's state, in id order, then the joints'. */
uint64_t cairn_world_state_hash(const cairn_world *world)
{
    uint64_t hash = FNV_OFFSET;
    for (int i = 0; world != NULL && i < world->bodies.count; ++i) {
        const body *b = &world->bodies.data[i];
        if (!b->alive)
            continue;
        float state[13] = {
            b->transform.position.x, b->transform.position.y, b->transform.position.z,
            b->transform.rotation.x, b->transform.rotation.y, b->transform.rotation.z,
            b->transform.rotation.w, b->linear_velocity.x,    b->linear_velocity.y,
            b->linear_velocity.z,    b->angular_velocity.x,   b->angular_velocity.y,
            b->angular_velocity.z};
        hash = fnv1a(hash, state, sizeof state);
    }
    return world ? hash_joints(world, hash) : hash;
}
