/* Persistent contacts: created and destroyed with broadphase pairs, kept sorted by body pair
   (a deterministic order for the solver), updated each step by the narrow phase with their
   simplex cache; manifold points inherit last step's impulses. Materials combine as
   friction = sqrt(fa * fb), restitution = max(ra, rb) and rolling resistance = max (a mesh
   triangle's material in place of the mesh body's, contact_manifold_material); a pair with a
   sensor only tests for overlap (sensor.c). */
#include "dynamics/world_state.h"

#include "collision/compound.h"
#include "collision/mesh_collide.h"
#include "collision/triangle_cache.h"
#include "geometry/shape.h"
#include "collision/query.h"
#include "collision/toi.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/tasks.h"
#include "core/validate.h"
#include "core/xform.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Points further apart than this on A between steps are new points (no warm start), m. */
static const float match_tolerance = 0.05f;

void contact_combine_materials(const cairn_world *world, contact *c)
{
    const body *ba = &world->bodies.data[c->body_a], *bb = &world->bodies.data[c->body_b];
    c->friction = sqrtf(ba->friction * bb->friction);
    c->restitution = fmaxf(ba->restitution, bb->restitution);
    c->rolling_resistance = fmaxf(ba->rolling_resistance, bb->rolling_resistance);
    c->material_override = false;
    c->surface_rolls = contact_surface_rolls(world, c);
}

bool contact_surface_rolls(const cairn_world *world, const contact *c)
{
    const material_table *ta = shape_material_table(world->bodies.data[c->body_a].shape);
    const material_table *tb = shape_material_table(world->bodies.data[c->body_b].shape);
    return (ta && ta->rolls) || (tb && tb->rolls);
}

static bool has_materials(const cairn_shape *shape)
{
    const material_table *table = shape_material_table(shape);
    return table != NULL && table->indices != NULL;
}

/* The deepest point of a manifold that has points (the first of equals). */
static const manifold_point *deepest_point(const manifold *m)
{
    const manifold_point *deepest = &m->points[0];
    for (int p = 1; p < m->point_count; ++p)
        if (m->points[p].separation < deepest->separation)
            deepest = &m->points[p];
    return deepest;
}

/* The triangle a mesh or heightfield manifold's deepest point came from: its feature id is
   (triangle * parts of the other shape + part) * 16 + local feature (mesh_collide.c). */
static int deepest_triangle(const manifold *m, const cairn_shape *other)
{
    if (m->point_count == 0)
        return -1;
    return (int)(deepest_point(m)->id / 16u / (uint32_t)shape_part_count(other));
}

cairn_surface_material contact_manifold_material(const cairn_world *world, const contact *c,
                                                 const manifold *m)
{
    cairn_surface_material own = {c->friction, c->restitution, c->rolling_resistance};
    const body *ba = &world->bodies.data[c->body_a], *bb = &world->bodies.data[c->body_b];
    bool mesh_is_a = has_materials(ba->shape);
    if (c->material_override || (!mesh_is_a && !has_materials(bb->shape)))
        return own;
    const body *mesh = mesh_is_a ? ba : bb, *other = mesh_is_a ? bb : ba;
    int index = cairn_shape_triangle_material(mesh->shape, deepest_triangle(m, other->shape));
    if (index < 0)
        return own;
    const cairn_surface_material *s = &shape_material_table(mesh->shape)->materials[index];
    return (cairn_surface_material){sqrtf(s->friction * other->friction),
                                    fmaxf(s->restitution, other->restitution),
                                    fmaxf(s->rolling_resistance, other->rolling_resistance)};
}

contact contact_make(const cairn_world *world, uint32_t a, uint32_t b)
{
    contact c;
    memset(&c, 0, sizeof c);
    c.body_a = a;
    c.body_b = b;
    c.is_sensor = world->bodies.data[a].is_sensor || world->bodies.data[b].is_sensor;
    c.sensor_stale = c.is_sensor;
    contact_combine_materials(world, &c);
    return c;
}

static void refresh_in(cairn_world *world, contact_array *contacts, uint32_t body_index)
{
    for (int i = 0; i < contacts->count; ++i) {
        contact *c = &contacts->data[i];
        if (c->body_a == body_index || c->body_b == body_index)
            contact_combine_materials(world, c);
    }
}

void contacts_refresh_material(cairn_world *world, uint32_t body_index)
{
    refresh_in(world, &world->contacts, body_index);
    refresh_in(world, &world->parked, body_index);
}

static bool is_parked_pair(const cairn_world *world, const contact *c)
{
    return !world->bodies.data[c->body_a].awake && !world->bodies.data[c->body_b].awake;
}

void contacts_park(cairn_world *world)
{
    world->park_pending = false;
    int parking = 0;
    for (int i = 0; i < world->contacts.count; ++i)
        parking += is_parked_pair(world, &world->contacts.data[i]);
    if (parking == 0 || !array_reserve(&world->parked, world->parked.count + parking))
        return; /* out of memory: the contacts stay in the walked array, which is still right */
    int kept = 0;
    for (int i = 0; i < world->contacts.count; ++i) {
        const contact *c = &world->contacts.data[i];
        if (is_parked_pair(world, c))
            world->parked.data[world->parked.count++] = *c;
        else
            world->contacts.data[kept++] = *c;
    }
    world->contacts.count = kept;
}

/* Moves the parked contacts that `wanted` selects back into the sorted array, and adds their
   manifolds to *manifolds (when not NULL). */
static bool unpark_where(cairn_world *world, bool all, int *manifolds)
{
    int moving = 0;
    for (int i = 0; i < world->parked.count; ++i)
        moving += all || !is_parked_pair(world, &world->parked.data[i]);
    /* twice the moving count: room for the merge to copy them past the end */
    if (!array_reserve(&world->contacts, world->contacts.count + 2 * moving))
        return false;
    int kept = 0, before = world->contacts.count;
    for (int i = 0; i < world->parked.count; ++i) {
        const contact *c = &world->parked.data[i];
        if (all || !is_parked_pair(world, c)) {
            world->contacts.data[world->contacts.count++] = *c;
            if (manifolds)
                *manifolds += contact_manifold_count(c);
        } else
            world->parked.data[kept++] = *c;
    }
    world->parked.count = kept;
    contacts_merge_sorted_tail(&world->contacts, before); /* parked contacts are in any order */
    return true;
}

/* The contacts of bodies woken since the last unparking, back in the array. */
static bool unpark_woken(cairn_world *world, int *manifolds)
{
    if (!world->unpark_pending)
        return true;
    world->unpark_pending = false;
    return unpark_where(world, false, manifolds);
}

bool contacts_unpark(cairn_world *world)
{
    return unpark_woken(world, NULL);
}

bool contacts_unpark_all(cairn_world *world)
{
    world->park_pending = true; /* what still sleeps is parked again at the next island pass */
    return unpark_where(world, true, NULL);
}

/* The contact's own blocks: extra manifolds, triangle caches (mem_free takes NULL). */
static void free_blocks(contact *c)
{
    mem_free(c->extra, sizeof *c->extra);
    mem_free(c->triangles, sizeof *c->triangles);
    c->extra = NULL;
    c->triangles = NULL;
}

void contact_dispose(cairn_world *world, contact *c)
{
    events_contact_gone(world, c);
    free_blocks(c);
}

static void free_all_blocks(contact_array *contacts)
{
    for (int i = 0; i < contacts->count; ++i)
        free_blocks(&contacts->data[i]);
}

void contacts_free(cairn_world *world)
{
    free_all_blocks(&world->contacts);
    free_all_blocks(&world->parked);
    array_free(&world->contacts);
    array_free(&world->parked);
}

static void remove_body_from(cairn_world *world, contact_array *contacts, uint32_t body_index)
{
    int kept = 0;
    for (int i = 0; i < contacts->count; ++i) {
        contact *c = &contacts->data[i];
        if (c->body_a != body_index && c->body_b != body_index)
            contacts->data[kept++] = *c;
        else
            contact_dispose(world, c);
    }
    contacts->count = kept;
}

void contacts_remove_body(cairn_world *world, uint32_t body_index)
{
    remove_body_from(world, &world->contacts, body_index);
    remove_body_from(world, &world->parked, body_index);
}

/* A body that is dynamic and asleep, touched by an awake one, wakes with its island. */
static bool wake_on_touch(cairn_world *world, const contact *c)
{
    const body *a = &world->bodies.data[c->body_a], *b = &world->bodies.data[c->body_b];
    if (a->awake && !b->awake && b->type == CAIRN_DYNAMIC)
        islands_wake(world, c->body_b);
    else if (b->awake && !a->awake && a->type == CAIRN_DYNAMIC)
        islands_wake(world, c->body_a);
    else
        return false;
    return true;
}

/* How far the two bodies can close in on each other during one step: relative linear motion
   plus what rotation can sweep (angular speed times the shape's reach from its centre). */
static float turning_radius(const cairn_shape *shape)
{
    cairn_aabb bounds = cairn_shape_local_bounds(shape);
    return 0.5f * glms_vec3_distance(bounds.max, bounds.min);
}

static float turning_reach(const body *a, const body *b)
{
    return glms_vec3_norm(a->angular_velocity) * turning_radius(a->shape) +
           glms_vec3_norm(b->angular_velocity) * turning_radius(b->shape);
}

static float approach_bound(const body *a, const body *b, float dt)
{
    float linear = glms_vec3_norm(glms_vec3_sub(b->linear_velocity, a->linear_velocity));
    return (linear + turning_reach(a, b)) * dt;
}

/* How fast a body's turning can move its surface: its angular speed about the axes its shape is
   not symmetric about (turning about its centre of mass), times the shape's turning radius. A
   ball rolling, or a log or wheel rolling about its axis, moves none of it. */
static float surface_turn_speed(const body *x)
{
    vec3s w = x->angular_velocity, c = x->local_center;
    shape_symmetry symmetry = shape_symmetry_of(x->shape);
    if (symmetry == SYMMETRY_POINT && c.x == 0.0f && c.y == 0.0f && c.z == 0.0f)
        return 0.0f;
    if (symmetry == SYMMETRY_AXIS_Y && c.x == 0.0f && c.z == 0.0f) {
        vec3s axis = xform_vector(x->transform, (vec3s){{0.0f, 1.0f, 0.0f}});
        w = glms_vec3_sub(w, glms_vec3_scale(axis, glms_vec3_dot(w, axis)));
    }
    return glms_vec3_norm(w) * turning_radius(x->shape);
}

/* How far the pair closes along the manifold's normal (from A to B) in the step, the most over
   its points (stored as world points), which the solver sees moving with both bodies' turning
   too: a point of a spinning ball's manifold that is off the line through its centre (merged
   from a neighbouring triangle) closes at the ball's surface speed. */
static float manifold_closing(const body *a, const body *b, const manifold *m, float dt)
{
    float most = -INFINITY;
    for (int i = 0; i < m->point_count; ++i) {
        vec3s p = m->points[i].anchor_a;
        vec3s relative = glms_vec3_sub(body_point_velocity(b, p), body_point_velocity(a, p));
        most = fmaxf(most, -glms_vec3_dot(m->normal, relative) * dt);
    }
    return most;
}

/* Whether a pair may pass by in the step: its motion reaches further than the speculative
   distance (the margin is that distance plus how far the pair can close in). Speculative points
   hold the gap's closing along the start's normal, not along the path, so a body passing close
   by a corner bounced off the air beside it (measured: a 10 cm ball thrown at 10 m/s past a
   crate's corner lost up to 82% of its speed in 45 of 200 clear passes;
   tests/dynamics/test_passing_by.c). The sweep does not turn the bodies: a pair whose turning
   moves its surfaces further than the speculative distance keeps its points. */
static bool pair_may_pass_by(const body *a, const body *b, float margin, float dt,
                             float speculative_distance)
{
    return margin > 2.0f * speculative_distance &&
           (surface_turn_speed(a) + surface_turn_speed(b)) * dt <= speculative_distance;
}

/* Whether one of such a pair's manifolds, `gap` apart, is to be swept: found apart (beyond the
   speculative distance) and closing along its normal by more than a quarter of its gap. The
   others' points hold nothing in the step, and dropping them only changed the order the solver
   meets the rest in (the 1,240-box pyramid's settled drift went from 0.07 mm to 0.09-0.19 mm as
   its falling layers' side neighbours lost theirs). */
static bool manifold_may_pass_by(const body *a, const body *b, const manifold *m, float gap,
                                 float dt, float speculative_distance)
{
    return m->point_count > 0 && gap > speculative_distance &&
           manifold_closing(a, b, m, dt) > 0.25f * gap;
}

/* Whether B's shape, moved along its motion relative to A lengthened by twice the speculative
   distance (so that bodies about to meet keep their points), misses A's: meets no part of it,
   or only grazes parts, going no deeper than the linear slop past them by the end (the next
   step's contact holds that, as it holds a resting one). Grazes do not count so that a body
   rolling fast along a mesh floor, whose cast meets the floor's next triangles edge-on, is
   still seen to pass a bump beside it. A mesh or heightfield is always the one cast against. */
static bool sweep_misses(const body *a, const body *b, float dt,
                         const cairn_solver_settings *settings)
{
    vec3s motion = glms_vec3_scale(glms_vec3_sub(b->linear_velocity, a->linear_velocity), dt);
    float length = glms_vec3_norm(motion);
    motion = glms_vec3_scale(motion, (length + 2.0f * settings->speculative_distance) / length);
    if (shape_is_triangles(b->shape))
        return !toi_cast_goes_deeper(b->shape, b->transform, a->shape, a->transform,
                                     glms_vec3_negate(motion), settings->linear_slop);
    return !toi_cast_goes_deeper(a->shape, a->transform, b->shape, b->transform, motion,
                                 settings->linear_slop);
}

/* A pair with parts keeps, of its manifolds next[0, count), those it does not pass by (one sweep
   of the whole shapes answers for every manifold that may): returns how many. A ball thrown past
   a mesh crate's corner met the air beside it as it did a convex crate's (at 10 m/s, 29 of 200
   passes 1-29 cm clear lost over 1% of their speed, at 40 m/s 148). */
static int drop_passing(const body *a, const body *b, manifold *next, int count, float margin,
                        float dt, const cairn_solver_settings *settings)
{
    float speculative_distance = settings->speculative_distance;
    if (!pair_may_pass_by(a, b, margin, dt, speculative_distance))
        return count;
    bool may[CONTACT_MAX_MANIFOLDS], any = false;
    for (int i = 0; i < count; ++i) {
        may[i] = manifold_may_pass_by(a, b, &next[i], deepest_point(&next[i])->separation, dt,
                                      speculative_distance);
        any |= may[i];
    }
    if (!any || !sweep_misses(a, b, dt, settings))
        return count;
    int kept = 0;
    for (int i = 0; i < count; ++i)
        if (!may[i])
            next[kept++] = next[i];
    return kept;
}

/* Pairs whose contacts come from many part pairs: compound children, mesh triangles. */
static bool has_parts(const body *a, const body *b)
{
    return shape_is_compound(a->shape) || shape_is_compound(b->shape) ||
           shape_is_triangles(a->shape) || shape_is_triangles(b->shape);
}

/* Carries impulses over to a new manifold from the old one facing its way (within the
   compound merge angle, about 25 degrees), if any. */
static void match_facing(const contact *c, manifold *m)
{
    const manifold *best = NULL;
    float best_cosine = COMPOUND_MERGE_COSINE;
    for (int i = 0; i < contact_manifold_count(c); ++i) {
        const manifold *old = contact_manifold_const(c, i);
        float cosine = glms_vec3_dot(old->normal, m->normal);
        if (old->point_count > 0 && cosine >= best_cosine)
            best = old, best_cosine = cosine;
    }
    if (best)
        manifold_match(best, m, match_tolerance);
}

/* The contact's manifolds become next[0, count): the first in place, the others in its extra
   block, allocated on first need (without memory the pair keeps only its deepest manifold). */
static void store_manifolds(contact *c, const manifold *next, int count)
{
    if (count > 0)
        c->manifold = next[0];
    else
        c->manifold.point_count = 0; /* no points: the old normal stays, nothing reads it */
    if (count > 1 && !c->extra && (c->extra = mem_alloc(sizeof *c->extra)) != NULL)
        c->extra->count = 0;
    if (c->extra) {
        int extra = count > 1 ? count - 1 : 0;
        memcpy(c->extra->manifolds, next + 1, (size_t)extra * sizeof *next);
        c->extra->count = extra;
    }
}

/* One worker's counts of its narrow-phase queries, merged into the step statistics in worker
   order. Padded to a cache line: workers write theirs at the same time. */
typedef struct narrow_tally {
    int queries, reused, gjk_iterations, epa_calls, epa_cap_stops, cache_hits;
    int touching, points; /* the step's statistics: every contact counts, collided or not */
    int manifolds;        /* the same way: the solver's room (contacts_collide) */
    char padding[64 - 9 * sizeof(int)];
} narrow_tally;
_Static_assert(sizeof(narrow_tally) == 64, "a tally fills one cache line");

/* The contact's triangle caches, allocated on first need (NULL without memory: the pair runs
   uncached, as with simplex caching off, and without last step's touched triangles). */
static triangle_cache *triangle_caches(contact *c)
{
    if (!c->triangles && (c->triangles = mem_alloc(sizeof *c->triangles)) != NULL) {
        c->triangles->count = 0;
        c->triangles->touched_count = 0;
    }
    return c->triangles;
}

/* A pair with a compound, mesh or heightfield: one manifold per direction its part pairs (child
   pairs, part-triangle pairs) touch along, impulses matched, less those it passes by (returns
   whether any were left out for that). Mesh pairs keep a simplex cache per part-triangle pair
   when simplex caching is on; compound pairs none (the contact's one cache cannot serve several
   child pairs). */
static bool compound_narrow_phase(const cairn_world *world, contact *c, const body *a,
                                  const body *b, float margin, float dt, narrow_tally *tally)
{
    const cairn_solver_settings *settings = &world->def.solver;
    compound_stats stats = {0};
    manifold next[CONTACT_MAX_MANIFOLDS];
    vec3s previous[CONTACT_MAX_MANIFOLDS];
    int previous_count = 0;
    for (int i = 0; i < contact_manifold_count(c); ++i)
        if (contact_manifold(c, i)->point_count > 0)
            previous[previous_count++] = contact_manifold(c, i)->normal;
    bool triangles = shape_is_triangles(a->shape) || shape_is_triangles(b->shape);
    int count;
    if (triangles) {
        triangle_cache *memory = triangle_caches(c);
        mesh_history history = {previous, previous_count, memory ? memory->touched : NULL,
                                memory ? memory->touched_count : 0};
        count = mesh_manifolds(a->shape, a->transform, b->shape, b->transform, margin, &history,
                               settings->simplex_caching ? memory : NULL, next, &stats);
        if (memory) {
            memcpy(memory->touched, history.touched_now, sizeof memory->touched);
            memory->touched_count = history.touched_now_count;
        }
    } else {
        count = compound_manifolds(a->shape, a->transform, b->shape, b->transform, margin, previous,
                                   previous_count, next, &stats);
    }
    tally->gjk_iterations += stats.gjk_iterations;
    tally->cache_hits += stats.cache_hits;
    tally->epa_calls += stats.epa_calls;
    tally->epa_cap_stops += stats.epa_cap_stops;
    int kept = drop_passing(a, b, next, count, margin, dt, settings);
    for (int i = 0; i < kept; ++i)
        match_facing(c, &next[i]);
    store_manifolds(c, next, kept);
    return kept < count;
}

/* The narrow phase proper: GJK/EPA from the simplex cache, then clipping. */
static void build_manifold(const cairn_world *world, contact *c, const body *a, const body *b,
                           float margin, float dt, narrow_tally *tally)
{
    if (has_parts(a, b)) {
        bool passing = compound_narrow_phase(world, c, a, b, margin, dt, tally);
        pair_cache_store(c, a->shape, a->transform, b->shape, b->transform, margin, 0.0f, 0.0f);
        c->reuse.valid &= !passing; /* manifolds were left out: look again next step */
        return;
    }
    cairn_gjk_cache *cache = world->def.solver.simplex_caching ? &c->cache : NULL;
    unsigned char cold[sizeof c->cache.opaque] = {0};
    tally->cache_hits += cache && memcmp(cache->opaque, cold, sizeof cold) != 0;
    cairn_query_result query;
    bool epa_capped;
    if (!query_collide(a->shape, a->transform, b->shape, b->transform, cache, &query,
                       &epa_capped)) {
        c->manifold.point_count = 0;
        c->reuse.valid = false;
        return;
    }
    tally->gjk_iterations += query.gjk_iterations;
    tally->epa_calls += query.epa_iterations > 0;
    tally->epa_cap_stops += epa_capped;
    manifold next;
    manifold_build(a->shape, a->transform, b->shape, b->transform, &query, margin, &next);
    const cairn_solver_settings *settings = &world->def.solver;
    float speculative_distance = settings->speculative_distance;
    bool passing = pair_may_pass_by(a, b, margin, dt, speculative_distance) &&
                   manifold_may_pass_by(a, b, &next, query.distance, dt, speculative_distance) &&
                   sweep_misses(a, b, dt, settings);
    if (passing)
        next.point_count = 0;
    manifold_match(&c->manifold, &next, match_tolerance);
    c->manifold = next;
    float gap = next.point_count == 0 ? query.distance : 0.0f;
    pair_cache_store(c, a->shape, a->transform, b->shape, b->transform, margin, gap,
                     shape_reach(b->shape));
    c->reuse.valid &= !passing; /* its gap is inside the margin: look again next step */
}

/* Counts whether the narrow phase ran or the pair cache re-measured the manifold. Touches
   only the contact: contacts can be collided on different workers at the same time. */
static void collide_one(const cairn_world *world, contact *c, float dt, pair_cache_limits limits,
                        narrow_tally *tally)
{
    const cairn_solver_settings *settings = &world->def.solver;
    const body *a = &world->bodies.data[c->body_a], *b = &world->bodies.data[c->body_b];
    /* Speculative points: kept while the gap could close within this step, so fast bodies
       meet thin geometry instead of passing between two steps. */
    float margin = settings->speculative_distance + approach_bound(a, b, dt);
    bool reused = pair_cache_reuse(c, a->transform, b->transform, margin, limits);
    if (!reused)
        build_manifold(world, c, a, b, margin, dt, tally);
    c->was_touching = c->touching;
    c->touching = c->manifold.point_count > 0;
    tally->queries += !reused;
    tally->reused += reused;
}

static void record_events(cairn_world *world, const contact *c)
{
    if (c->touching && !c->was_touching) {
        events_begin(world, c);
        events_hit(world, c);
    } else if (!c->touching && c->was_touching) {
        events_end(world, c);
    }
}

/* Contacts per range of the parallel narrow phase at least: below that a task costs more than
   it saves. */
enum { NARROW_MIN_RANGE = 64 };

/* The least narrow-phase work (ms, the last step's, summed over the workers) that is shared
   with the workers. Handing the pairs to two workers of the thread pool and taking the result
   back costs about 0.1-0.2 ms on this project's 2-core machine, and the manifolds the workers
   write then reach the solver's thread from the other core (bench_threads): the 40 ragdolls'
   narrow phase took 0.34 ms on one worker and about 0.5 ms on two; the 1,240-box pyramid's
   (0.61-0.67 ms) made its whole step 0.85 times as fast on two workers as on one when shared,
   0.97 times kept on one; the 10,000-shape pile's (15 ms) and ten pyramids' (8 ms) gain. The
   result is the same either way (each contact alone, merged in contact order). */
#define NARROW_SHARED_MS 1.0f

/* A contact's marks from the parallel pass: collided there, and work left for the serial pass
   (an event to record, or a touch that may wake a sleeping body). */
enum { COLLIDED = 1, SERIAL_WORK = 2 };

typedef struct narrow_phase {
    cairn_world *world;
    float dt;
    pair_cache_limits limits;
    uint8_t *marks;        /* by contact */
    narrow_tally *tallies; /* by worker */
} narrow_phase;

static bool needs_collide(const cairn_world *world, const contact *c)
{
    /* sensors are tested after the solver moved the bodies (sensor.c) */
    return !c->is_sensor &&
           (world->bodies.data[c->body_a].awake || world->bodies.data[c->body_b].awake);
}

/* Whether a collided contact leaves work to the serial pass: a touch begun or ended, or a touch
   with a body asleep (a body asleep now can only wake before the serial pass reaches it; one
   awake stays awake). */
static bool serial_work(const cairn_world *world, const contact *c)
{
    if (c->touching != c->was_touching)
        return true;
    return c->touching &&
           (!world->bodies.data[c->body_a].awake || !world->bodies.data[c->body_b].awake);
}

/* Adds (sign 1) or takes back (-1) what the step's statistics count of a contact. */
static void tally_contact(narrow_tally *tally, const contact *c, int sign)
{
    tally->touching += sign * c->touching;
    tally->manifolds += sign * contact_manifold_count(c);
    for (int m = 0; m < contact_manifold_count(c); ++m)
        tally->points += sign * contact_manifold_const(c, m)->point_count;
}

/* The parallel pass: the contacts with an awake body at the step start, each alone. */
static void collide_range(int start, int end, int worker, void *context)
{
    narrow_phase *np = context;
    for (int i = start; i < end; ++i) {
        contact *c = &np->world->contacts.data[i];
        uint8_t mark = 0;
        if (needs_collide(np->world, c)) {
            collide_one(np->world, c, np->dt, np->limits, &np->tallies[worker]);
            mark = COLLIDED | (serial_work(np->world, c) ? SERIAL_WORK : 0);
        }
        np->marks[i] = mark;
        tally_contact(&np->tallies[worker], c, 1);
    }
}

static void add_tally(cairn_step_stats *stats, const narrow_tally *t, int *queries)
{
    *queries += t->queries;
    stats->manifolds_reused += t->reused;
    stats->gjk_iterations += (float)t->gjk_iterations;
    stats->epa_calls += t->epa_calls;
    stats->epa_cap_stops += t->epa_cap_stops;
    stats->cache_hits += t->cache_hits;
    stats->contacts += t->touching;
    stats->points += t->points;
}

/* The serial pass, in contact order: wakes, the presolve callback and events. A body woken
   here brings its later contacts into this step, as when the narrow phase was one loop. Until
   then (and without a presolve callback, which sees every touching contact) only the marked
   contacts have anything to do: the pass reads a byte per contact, not the contact (tens of
   thousands of them are out of cache by now in a large world). */
static void after_collide(narrow_phase *np)
{
    cairn_world *world = np->world;
    bool every = world->presolve != NULL;
    for (int i = 0; i < world->contacts.count; ++i) {
        if (!every && !(np->marks[i] & SERIAL_WORK))
            continue;
        contact *c = &world->contacts.data[i];
        if (!(np->marks[i] & COLLIDED) && needs_collide(world, c)) {
            tally_contact(&np->tallies[0], c, -1);
            collide_one(world, c, np->dt, np->limits, &np->tallies[0]);
            tally_contact(&np->tallies[0], c, 1);
            np->marks[i] |= COLLIDED;
        }
        if (np->marks[i] & COLLIDED) {
            if (c->touching)
                every |= wake_on_touch(world, c);
            if (c->touching && world->presolve)
                contact_presolve(world, c);
            record_events(world, c);
        }
    }
}

int contacts_collide(cairn_world *world, float dt)
{
    int manifolds = -1;
    int workers = world->def.worker_count, count = world->contacts.count;
    narrow_phase np = {
        .world = world,
        .dt = dt,
        .limits = pair_cache_limits_make(world->def.solver.pair_cache_distance,
                                         world->def.solver.pair_cache_angle),
        .tallies = arena_push(&world->scratch, sizeof(narrow_tally) * (size_t)workers, "tallies"),
    };
    np.marks = arena_push(&world->scratch, (size_t)count + 1, "contact marks");
    if (np.tallies != NULL && np.marks != NULL) {
        memset(np.tallies, 0, sizeof(narrow_tally) * (size_t)workers);
        tasks_parallel_for_gated(&world->def, &world->narrow_gate, NARROW_SHARED_MS, collide_range,
                                 count, NARROW_MIN_RANGE, &np, world->stats.narrowphase_worker_ms);
        after_collide(&np);
        int queries = 0;
        manifolds = 0;
        for (int w = 0; w < workers; ++w) {
            add_tally(&world->stats, &np.tallies[w], &queries);
            manifolds += np.tallies[w].manifolds;
        }
        world->stats.gjk_iterations =
            queries > 0 ? world->stats.gjk_iterations / (float)queries : 0.0f;
    }
    if (np.marks)
        arena_pop(&world->scratch, np.marks);
    if (np.tallies)
        arena_pop(&world->scratch, np.tallies);
    /* Bodies woken by a touch bring their parked contacts (with valid manifolds: nothing moved
       while they slept) into this step's solve. */
    unpark_woken(world, manifolds >= 0 ? &manifolds : NULL);
    return manifolds;
}
