/* World queries through the broadphase's fat AABBs, then the exact test per candidate: ray casts
   (closest, all hits), shape casts and overlaps, with a layer mask and the game's own filter
   callback. Results are sorted so that they do not depend on the broadphase's internal order. */
#include "dynamics/world_state.h"

#include <cairn/query.h>

#include "collision/compound.h"
#include "collision/mesh_collide.h"
#include "collision/query.h"
#include "collision/raycast.h"
#include "collision/toi.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/minmax.h"
#include "core/validate.h"

#include <math.h>
#include <stdlib.h>

static const float max_coordinate = 1e6f;

cairn_query_filter cairn_query_default_filter(void)
{
    return (cairn_query_filter){CAIRN_QUERY_ALL, NULL, NULL};
}

static cairn_query_filter filter_or_default(const cairn_query_filter *filter)
{
    return filter ? *filter : cairn_query_default_filter();
}

static cairn_query_filter mask_filter(uint32_t mask)
{
    return (cairn_query_filter){mask, NULL, NULL};
}

/* A live, enabled, solid body on one of the filter's layers that the filter's callback keeps.
   Sensors are not hit by queries (as in Box2D v3): they report overlaps through sensor events
   instead. The callback comes last, so it sees only bodies the query would test. */
static const body *query_body(const cairn_world *world, uint32_t index,
                              const cairn_query_filter *filter)
{
    const body *b = &world->bodies.data[index];
    if (!b->alive || !b->enabled || b->is_sensor || (b->layer & filter->mask) == 0)
        return NULL;
    if (filter->accept && !filter->accept(body_id_at(world, index), filter->context))
        return NULL;
    return b;
}

typedef struct ray_closest {
    const cairn_world *world;
    cairn_query_filter filter;
    vec3s origin, translation;
    bool found;
    uint32_t body;
    float fraction;
    vec3s normal;
} ray_closest;

/* Candidates arrive in order of entry into their fat AABB. Each hit clips the ray to its
   fraction, so candidates entering beyond it are skipped; a hit at fraction 0 (the origin inside
   a shape) stops the query. Equal fractions keep the earlier candidate (smaller entry, then
   smaller body index): a deterministic choice. */
static float closest_hit(void *context, uint32_t body_index, float t_enter)
{
    (void)t_enter;
    ray_closest *q = context;
    const body *b = query_body(q->world, body_index, &q->filter);
    if (b == NULL)
        return -1.0f;
    float max_fraction = q->found ? q->fraction : 1.0f;
    float fraction;
    vec3s normal;
    if (!shape_raycast(b->shape, b->transform, q->origin, q->translation, max_fraction, &fraction,
                       &normal))
        return -1.0f;
    if (q->found && !(fraction < q->fraction))
        return -1.0f;
    q->found = true;
    q->body = body_index;
    q->fraction = fraction;
    q->normal = normal;
    return fraction;
}

static bool check_ray(const char *function, const cairn_world *world, vec3s origin,
                      vec3s translation)
{
    if (world == NULL)
        return error_set("%s: world is NULL", function);
    if (!is_finite_vec3(origin))
        return error_set("%s: origin (%g, %g, %g) is not finite", function, (double)origin.x,
                         (double)origin.y, (double)origin.z);
    if (!is_finite_vec3(translation))
        return error_set("%s: translation (%g, %g, %g) is not finite", function,
                         (double)translation.x, (double)translation.y, (double)translation.z);
    return true;
}

/* The material of the mesh or heightfield triangle the ray meets first; -1 for other shapes or
   no materials. A second cast, paid only by shapes with materials, keeps shape_raycast's
   signature. */
static int hit_material(const body *b, vec3s origin, vec3s translation)
{
    if (cairn_shape_triangle_material(b->shape, 0) < 0)
        return -1;
    float fraction;
    vec3s normal;
    int triangle = -1;
    if (!mesh_shape_raycast(b->shape, b->transform, origin, translation, 1.0f, &fraction, &normal,
                            &triangle))
        return -1;
    return cairn_shape_triangle_material(b->shape, triangle);
}

static bool is_zero(vec3s v)
{
    return v.x == 0.0f && v.y == 0.0f && v.z == 0.0f;
}

static bool raycast_closest(const char *function, const cairn_world *world, vec3s origin,
                            vec3s translation, cairn_query_filter filter, cairn_ray_hit *hit)
{
    if (!check_ray(function, world, origin, translation))
        return false;
    if (hit == NULL)
        return error_set("%s: hit is NULL", function);
    /* A zero translation is an empty segment: valid input, nothing to hit, no error. */
    if (is_zero(translation))
        return false;
    ray_closest q = {
        .world = world, .filter = filter, .origin = origin, .translation = translation};
    if (broadphase_query_ray(&world->broadphase, origin, translation, closest_hit, &q) < 0)
        return false; /* error set by the broadphase (out of memory) */
    if (!q.found)
        return false;
    hit->body = body_id_at(world, q.body);
    hit->fraction = q.fraction;
    hit->normal = q.normal;
    hit->point = glms_vec3_add(origin, glms_vec3_scale(translation, q.fraction));
    hit->material = hit_material(&world->bodies.data[q.body], origin, translation);
    return true;
}

bool cairn_world_raycast(const cairn_world *world, vec3s origin, vec3s translation,
                         cairn_ray_hit *hit)
{
    return raycast_closest("cairn_world_raycast", world, origin, translation,
                           cairn_query_default_filter(), hit);
}

bool cairn_world_raycast_mask(const cairn_world *world, vec3s origin, vec3s translation,
                              uint32_t mask, cairn_ray_hit *hit)
{
    return raycast_closest("cairn_world_raycast_mask", world, origin, translation,
                           mask_filter(mask), hit);
}

bool cairn_world_raycast_filtered(const cairn_world *world, vec3s origin, vec3s translation,
                                  const cairn_query_filter *filter, cairn_ray_hit *hit)
{
    return raycast_closest("cairn_world_raycast_filtered", world, origin, translation,
                           filter_or_default(filter), hit);
}

/* ---- every hit ---- */

static bool hit_before(const cairn_ray_hit *x, const cairn_ray_hit *y)
{
    return x->fraction < y->fraction ||
           (x->fraction == y->fraction && x->body.index < y->body.index);
}

typedef struct ray_all {
    const cairn_world *world;
    cairn_query_filter filter;
    vec3s origin, translation;
    cairn_ray_hit *hits;
    int capacity, count; /* count: every hit; the best min(count, capacity) are kept sorted */
} ray_all;

/* Inserts into the sorted prefix, dropping the last kept hit when full. */
static void keep_hit(ray_all *q, cairn_ray_hit hit)
{
    int kept = q->count < q->capacity ? q->count : q->capacity;
    q->count++;
    if (kept == q->capacity && (kept == 0 || !hit_before(&hit, &q->hits[kept - 1])))
        return;
    int i = kept < q->capacity ? kept : kept - 1;
    for (; i > 0 && hit_before(&hit, &q->hits[i - 1]); --i)
        q->hits[i] = q->hits[i - 1];
    q->hits[i] = hit;
}

/* Never clips the ray: every candidate is tested. */
static float every_hit(void *context, uint32_t body_index, float t_enter)
{
    (void)t_enter;
    ray_all *q = context;
    const body *b = query_body(q->world, body_index, &q->filter);
    float fraction;
    vec3s normal;
    if (b && shape_raycast(b->shape, b->transform, q->origin, q->translation, 1.0f, &fraction,
                           &normal)) {
        vec3s point = glms_vec3_add(q->origin, glms_vec3_scale(q->translation, fraction));
        keep_hit(q, (cairn_ray_hit){body_id_at(q->world, body_index), point, normal, fraction,
                                    hit_material(b, q->origin, q->translation)});
    }
    return -1.0f;
}

static int raycast_all(const char *function, const cairn_world *world, vec3s origin,
                       vec3s translation, cairn_query_filter filter, cairn_ray_hit *hits,
                       int capacity)
{
    if (!check_ray(function, world, origin, translation))
        return -1;
    if (capacity < 0 || (hits == NULL && capacity > 0))
        return error_set("%s: capacity %d with hits %s", function, capacity,
                         hits ? "given" : "NULL"),
               -1;
    if (is_zero(translation))
        return 0;
    ray_all q = {world, filter, origin, translation, hits, capacity, 0};
    if (broadphase_query_ray(&world->broadphase, origin, translation, every_hit, &q) < 0)
        return -1;
    return q.count;
}

int cairn_world_raycast_all(const cairn_world *world, vec3s origin, vec3s translation,
                            uint32_t mask, cairn_ray_hit *hits, int capacity)
{
    return raycast_all("cairn_world_raycast_all", world, origin, translation, mask_filter(mask),
                       hits, capacity);
}

int cairn_world_raycast_all_filtered(const cairn_world *world, vec3s origin, vec3s translation,
                                     const cairn_query_filter *filter, cairn_ray_hit *hits,
                                     int capacity)
{
    return raycast_all("cairn_world_raycast_all_filtered", world, origin, translation,
                       filter_or_default(filter), hits, capacity);
}

/* ---- candidates from the broadphase, in body index order ---- */

typedef struct candidates {
    uint32_t *bodies;
    int count;
} candidates;

static int compare_index(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

/* Bodies whose fat AABB overlaps box. False (error set) when out of memory. */
static bool candidates_find(const cairn_world *world, cairn_aabb box, candidates *out)
{
    out->bodies = NULL;
    out->count = broadphase_query_aabb(&world->broadphase, box, NULL, 0);
    if (out->count == 0)
        return true;
    out->bodies = mem_alloc((size_t)out->count * sizeof *out->bodies);
    if (out->bodies == NULL)
        return false;
    broadphase_query_aabb(&world->broadphase, box, out->bodies, out->count);
    qsort(out->bodies, (size_t)out->count, sizeof *out->bodies, compare_index);
    return true;
}

static void candidates_free(candidates *c)
{
    mem_free(c->bodies, (size_t)c->count * sizeof *c->bodies);
}

static bool check_output(const char *function, const cairn_world *world, const void *out,
                         int capacity)
{
    if (world == NULL)
        return error_set("%s: world is NULL", function);
    if (capacity < 0 || (out == NULL && capacity > 0))
        return error_set("%s: capacity %d with bodies %s", function, capacity,
                         out ? "given" : "NULL");
    return true;
}

/* ---- overlaps ---- */

typedef bool body_test_fn(const body *b, const void *context);

/* Writes the candidates passing `test`, in index order; returns how many passed. */
static int collect(const cairn_world *world, const candidates *c, const cairn_query_filter *filter,
                   body_test_fn *test, const void *context, cairn_body_id *out, int capacity)
{
    int total = 0;
    for (int i = 0; i < c->count; ++i) {
        const body *b = query_body(world, c->bodies[i], filter);
        if (b == NULL || !test(b, context))
            continue;
        if (total < capacity)
            out[total] = body_id_at(world, c->bodies[i]);
        total++;
    }
    return total;
}

static bool bounds_overlap(const body *b, const void *context)
{
    return aabb_overlap(cairn_shape_bounds(b->shape, b->transform), *(const cairn_aabb *)context);
}

static int overlap_aabb(const char *function, const cairn_world *world, cairn_aabb box,
                        cairn_query_filter filter, cairn_body_id *bodies, int capacity)
{
    if (!check_output(function, world, bodies, capacity))
        return -1;
    if (!is_finite_vec3(box.min) || !is_finite_vec3(box.max))
        return error_set("%s: box is not finite", function), -1;
    if (box.min.x > box.max.x || box.min.y > box.max.y || box.min.z > box.max.z)
        return error_set("%s: box.min (%g, %g, %g) is above box.max on an axis", function,
                         (double)box.min.x, (double)box.min.y, (double)box.min.z),
               -1;
    candidates c;
    if (!candidates_find(world, box, &c))
        return -1;
    int total = collect(world, &c, &filter, bounds_overlap, &box, bodies, capacity);
    candidates_free(&c);
    return total;
}

int cairn_world_overlap_aabb(const cairn_world *world, cairn_aabb box, uint32_t mask,
                             cairn_body_id *bodies, int capacity)
{
    return overlap_aabb("cairn_world_overlap_aabb", world, box, mask_filter(mask), bodies,
                        capacity);
}

int cairn_world_overlap_aabb_filtered(const cairn_world *world, cairn_aabb box,
                                      const cairn_query_filter *filter, cairn_body_id *bodies,
                                      int capacity)
{
    return overlap_aabb("cairn_world_overlap_aabb_filtered", world, box, filter_or_default(filter),
                        bodies, capacity);
}

typedef struct placed_shape {
    const cairn_shape *shape;
    cairn_transform xf;
} placed_shape;

static bool shape_overlap(const body *b, const void *context)
{
    const placed_shape *s = context;
    return cairn_overlap(b->shape, b->transform, s->shape, s->xf);
}

static int overlap_shape(const char *function, const cairn_world *world, const cairn_shape *shape,
                         cairn_transform xf, cairn_query_filter filter, cairn_body_id *bodies,
                         int capacity)
{
    if (!check_output(function, world, bodies, capacity))
        return -1;
    if (shape == NULL)
        return error_set("%s: shape is NULL", function), -1;
    if (!query_check_transform(function, "xf", xf))
        return -1;
    xf.rotation = glms_quat_normalize(xf.rotation);
    candidates c;
    if (!candidates_find(world, cairn_shape_bounds(shape, xf), &c))
        return -1;
    placed_shape s = {shape, xf};
    int total = collect(world, &c, &filter, shape_overlap, &s, bodies, capacity);
    candidates_free(&c);
    return total;
}

int cairn_world_overlap_shape(const cairn_world *world, const cairn_shape *shape,
                              cairn_transform xf, uint32_t mask, cairn_body_id *bodies,
                              int capacity)
{
    return overlap_shape("cairn_world_overlap_shape", world, shape, xf, mask_filter(mask), bodies,
                         capacity);
}

int cairn_world_overlap_shape_filtered(const cairn_world *world, const cairn_shape *shape,
                                       cairn_transform xf, const cairn_query_filter *filter,
                                       cairn_body_id *bodies, int capacity)
{
    return overlap_shape("cairn_world_overlap_shape_filtered", world, shape, xf,
                         filter_or_default(filter), bodies, capacity);
}

/* ---- shape cast ---- */

typedef struct cast_candidate {
    float t_enter;
    uint32_t body;
} cast_candidate;

static int compare_entry(const void *x, const void *y)
{
    const cast_candidate *a = x, *b = y;
    if (a->t_enter != b->t_enter)
        return a->t_enter < b->t_enter ? -1 : 1;
    return (a->body > b->body) - (a->body < b->body);
}

/* When the moving box `start` (translated by t * translation) first meets `target`, t in
   [0, 1]; false when it never does. */
static bool box_entry(cairn_aabb start, vec3s translation, cairn_aabb target, float *t_enter)
{
    float t0 = 0.0f, t1 = 1.0f;
    for (int axis = 0; axis < 3; ++axis) {
        float lo = target.min.raw[axis] - start.max.raw[axis];
        float hi = target.max.raw[axis] - start.min.raw[axis];
        float d = translation.raw[axis];
        if (d == 0.0f) {
            if (lo > 0.0f || hi < 0.0f)
                return false;
            continue;
        }
        float ta = lo / d, tb = hi / d;
        t0 = max_float(t0, min_float(ta, tb));
        t1 = min_float(t1, max_float(ta, tb));
        if (t0 > t1)
            return false;
    }
    *t_enter = t0;
    return true;
}

static bool check_shape_cast(const char *function, const cairn_world *world,
                             const cairn_shape *shape, cairn_transform xf, vec3s translation,
                             cairn_shape_cast_hit *hit)
{
    if (world == NULL)
        return error_set("%s: world is NULL", function);
    if (shape == NULL)
        return error_set("%s: shape is NULL", function);
    if (hit == NULL)
        return error_set("%s: hit is NULL", function);
    if (!is_finite_vec3(translation))
        return error_set("%s: translation (%g, %g, %g) is not finite", function,
                         (double)translation.x, (double)translation.y, (double)translation.z);
    if (glms_vec3_norm(translation) > 2.0f * max_coordinate)
        return error_set("%s: |translation| is above %g m", function,
                         (double)(2.0f * max_coordinate));
    return query_check_transform(function, "xf", xf);
}

/* The body's bounds grown a little: casts stop within their tolerance (1e-5 m) before touching,
   possibly just before the exact bounds meet. */
static cairn_aabb body_cast_bounds(const body *b)
{
    cairn_aabb box = cairn_shape_bounds(b->shape, b->transform);
    return (cairn_aabb){glms_vec3_subs(box.min, 1e-3f), glms_vec3_adds(box.max, 1e-3f)};
}

typedef struct cast_list {
    cast_candidate *items;
    int count, allocated;
} cast_list;

/* The bodies the swept bounds meet, with their entry times, sorted by entry then index. False
   (error set) when out of memory. */
static bool cast_candidates(const cairn_world *world, cairn_aabb start, vec3s translation,
                            const cairn_query_filter *filter, cast_list *out)
{
    cairn_aabb swept = aabb_sweep(start, translation);
    candidates c;
    if (!candidates_find(world, swept, &c))
        return false;
    *out = (cast_list){NULL, 0, c.count};
    if (c.count > 0 && (out->items = mem_alloc((size_t)c.count * sizeof *out->items)) == NULL) {
        candidates_free(&c);
        return false;
    }
    for (int i = 0; i < c.count; ++i) {
        const body *b = query_body(world, c.bodies[i], filter);
        float t;
        if (b && box_entry(start, translation, body_cast_bounds(b), &t))
            out->items[out->count++] = (cast_candidate){t, c.bodies[i]};
    }
    candidates_free(&c);
    if (out->count > 1)
        qsort(out->items, (size_t)out->count, sizeof *out->items, compare_entry);
    return true;
}

static bool shape_cast(const char *function, const cairn_world *world, const cairn_shape *shape,
                       cairn_transform xf, vec3s translation, cairn_query_filter filter,
                       cairn_shape_cast_hit *hit)
{
    if (!check_shape_cast(function, world, shape, xf, translation, hit))
        return false;
    xf.rotation = glms_quat_normalize(xf.rotation);
    cast_list list;
    if (!cast_candidates(world, cairn_shape_bounds(shape, xf), translation, &filter, &list))
        return false;
    bool found = false;
    float best = 1.0f;
    /* In order of entry: a body entered after the best hit so far cannot be hit sooner. */
    for (int i = 0; i < list.count && list.items[i].t_enter <= best; ++i) {
        uint32_t index = list.items[i].body;
        const body *b = &world->bodies.data[index];
        cairn_cast_hit h;
        if (!toi_cast(b->shape, b->transform, shape, xf, translation, best, &h) ||
            (found && !(h.fraction < best)))
            continue;
        found = true;
        best = h.fraction;
        *hit = (cairn_shape_cast_hit){body_id_at(world, index), h.point, h.normal, h.fraction};
    }
    mem_free(list.items, (size_t)list.allocated * sizeof *list.items);
    return found;
}

bool cairn_world_shape_cast(const cairn_world *world, const cairn_shape *shape, cairn_transform xf,
                            vec3s translation, uint32_t mask, cairn_shape_cast_hit *hit)
{
    return shape_cast("cairn_world_shape_cast", world, shape, xf, translation, mask_filter(mask),
                      hit);
}

bool cairn_world_shape_cast_filtered(const cairn_world *world, const cairn_shape *shape,
                                     cairn_transform xf, vec3s translation,
                                     const cairn_query_filter *filter, cairn_shape_cast_hit *hit)
{
    return shape_cast("cairn_world_shape_cast_filtered", world, shape, xf, translation,
                      filter_or_default(filter), hit);
}
