/* World queries: the closest ray hit, through the broadphase's fat AABBs and the exact ray cast
   against each candidate's shape. */
#include "dynamics/world_state.h"

#include "collision/raycast.h"
#include "core/error.h"
#include "core/validate.h"

typedef struct ray_closest {
    const cairn_world *world;
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
    const body *b = &q->world->bodies.data[body_index];
    if (!b->alive)
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

bool cairn_world_raycast(const cairn_world *world, vec3s origin, vec3s translation,
                         cairn_ray_hit *hit)
{
    if (world == NULL)
        return error_set("cairn_world_raycast: world is NULL");
    if (hit == NULL)
        return error_set("cairn_world_raycast: hit is NULL");
    if (!is_finite_vec3(origin))
        return error_set("cairn_world_raycast: origin (%g, %g, %g) is not finite", (double)origin.x,
                         (double)origin.y, (double)origin.z);
    if (!is_finite_vec3(translation))
        return error_set("cairn_world_raycast: translation (%g, %g, %g) is not finite",
                         (double)translation.x, (double)translation.y, (double)translation.z);
    /* A zero translation is an empty segment: valid input, nothing to hit, no error. */
    if (translation.x == 0.0f && translation.y == 0.0f && translation.z == 0.0f)
        return false;
    ray_closest q = {.world = world, .origin = origin, .translation = translation};
    if (broadphase_query_ray(&world->broadphase, origin, translation, closest_hit, &q) < 0)
        return false; /* error set by the broadphase (out of memory) */
    if (!q.found)
        return false;
    const body *b = &world->bodies.data[q.body];
    hit->body = (cairn_body_id){q.body, b->generation};
    hit->fraction = q.fraction;
    hit->normal = q.normal;
    hit->point = glms_vec3_add(origin, glms_vec3_scale(translation, q.fraction));
    return true;
}
