/* Game queries: shape casts between two shapes, and ray casts, shape casts and overlap tests
   against the bodies of a world. Results go to caller arrays or structs; nothing to free. */
#ifndef CAIRN_QUERY_H
#define CAIRN_QUERY_H

#include <cairn/world.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A body takes part in a query when (its layer & mask) != 0 (cairn_body_def.layer, 1 by
   default). Sensor and disabled bodies never take part. This mask takes every layer. */
#define CAIRN_QUERY_ALL 0xFFFFFFFFu

/* The first contact of a shape cast. */
typedef struct cairn_cast_hit {
    float fraction; /* time of impact in [0, 1]: B has moved by fraction * translation */
    vec3s point;    /* the contact point on A's surface at that time, world, m */
    vec3s normal;   /* unit, from A towards B at that time (A's surface normal) */
    int iterations; /* conservative-advancement steps taken */
} cairn_cast_hit;

/* Sweeps B from xb along translation (no rotation) against A held at xa and finds the first time
   of impact by conservative advancement on the GJK distance: each step moves B by the gap over
   the closing speed along the current normal, so it never passes the contact; it stops when the
   gap is below 1e-5 m (relative to the shapes' size beyond 1 m). True and *hit on a contact;
   shapes already overlapping at t = 0 hit at fraction 0 with the penetration normal. False
   without an error when B misses A (a zero translation only tests the start). Either shape may
   be a compound (the earliest hit over the child pairs). False and an error on invalid input:
   NULL shapes or hit, non-finite or non-unit transforms, a non-finite translation or one longer
   than 2e6 m. */
CAIRN_API bool cairn_shape_cast(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                                cairn_transform xb, vec3s translation, cairn_cast_hit *hit);

/* cairn_world_raycast restricted to the bodies on the mask's layers. */
CAIRN_API bool cairn_world_raycast_mask(const cairn_world *world, vec3s origin, vec3s translation,
                                        uint32_t mask, cairn_ray_hit *hit);

/* Every body hit by the segment origin + t * translation, t in [0, 1], one hit per body (its
   first), sorted by fraction with ties by body index. Writes the first min(total, capacity) of
   them to hits (NULL allowed when capacity is 0) and returns the total; -1 and an error on
   invalid input (NULL world, non-finite vectors, negative capacity, NULL hits with capacity > 0).
   A zero translation hits nothing. */
CAIRN_API int cairn_world_raycast_all(const cairn_world *world, vec3s origin, vec3s translation,
                                      uint32_t mask, cairn_ray_hit *hits, int capacity);

/* The first body hit by a shape moving from xf along translation. */
typedef struct cairn_shape_cast_hit {
    cairn_body_id body;
    vec3s point;    /* on the body's surface at the time of impact, world */
    vec3s normal;   /* unit, the body's surface normal there (towards the cast shape) */
    float fraction; /* in [0, 1] */
} cairn_shape_cast_hit;

/* Sweeps the shape through the world: the bodies whose bounds meet the swept bounds, in order of
   entry, each by cairn_shape_cast with the body as A, keeping the earliest hit (ties: the body
   entered first, then the smaller index). Bodies the shape overlaps at the start hit at 0. False
   without an error when nothing is hit; false and an error on invalid input (NULL world, shape
   or hit, a non-finite or non-unit transform, a non-finite translation). */
CAIRN_API bool cairn_world_shape_cast(const cairn_world *world, const cairn_shape *shape,
                                      cairn_transform xf, vec3s translation, uint32_t mask,
                                      cairn_shape_cast_hit *hit);

/* Bodies whose full shape overlaps the shape placed at xf (cairn_overlap, after a broadphase
   prefilter), in body index order. Writes min(total, capacity) ids, returns the total; -1 and an
   error on invalid input. */
CAIRN_API int cairn_world_overlap_shape(const cairn_world *world, const cairn_shape *shape,
                                        cairn_transform xf, uint32_t mask, cairn_body_id *bodies,
                                        int capacity);

/* Bodies whose bounds (cairn_shape_bounds at their transform, not the broadphase's fattened
   box) overlap box (closed intervals), in body index order. Writes min(total, capacity) ids,
   returns the total; -1 and an error on invalid input (non-finite box, min > max). */
CAIRN_API int cairn_world_overlap_aabb(const cairn_world *world, cairn_aabb box, uint32_t mask,
                                       cairn_body_id *bodies, int capacity);

/* ---- the game's own filter ----
   Which bodies a query sees beyond the layer mask: not the player's own body, not its team's,
   not what it carries (Jolt's BodyFilter, Bullet's needsCollision). accept is called for each
   body the query would otherwise test (alive, enabled, not a sensor, on the filter's layers),
   at most once per query and body, before its shape is tested: true keeps it, false skips it.
   It runs inside the query, on the calling thread: it may read the world (getters, user data),
   never change it. */
typedef bool cairn_query_body_fn(cairn_body_id body, void *context);
typedef struct cairn_query_filter {
    uint32_t mask;               /* layers, as the other queries' mask */
    cairn_query_body_fn *accept; /* NULL keeps every body on the layers */
    void *context;               /* passed to accept */
} cairn_query_filter;
/* Every layer, no callback: the same answers as the queries without a filter. */
CAIRN_API cairn_query_filter cairn_query_default_filter(void);

/* The world queries above with a filter instead of a mask (NULL: the default filter); their
   answers, order and errors are those of the mask versions. */
CAIRN_API bool cairn_world_raycast_filtered(const cairn_world *world, vec3s origin,
                                            vec3s translation, const cairn_query_filter *filter,
                                            cairn_ray_hit *hit);
CAIRN_API int cairn_world_raycast_all_filtered(const cairn_world *world, vec3s origin,
                                               vec3s translation, const cairn_query_filter *filter,
                                               cairn_ray_hit *hits, int capacity);
CAIRN_API bool cairn_world_shape_cast_filtered(const cairn_world *world, const cairn_shape *shape,
                                               cairn_transform xf, vec3s translation,
                                               const cairn_query_filter *filter,
                                               cairn_shape_cast_hit *hit);
CAIRN_API int cairn_world_overlap_shape_filtered(const cairn_world *world, const cairn_shape *shape,
                                                 cairn_transform xf,
                                                 const cairn_query_filter *filter,
                                                 cairn_body_id *bodies, int capacity);
CAIRN_API int cairn_world_overlap_aabb_filtered(const cairn_world *world, cairn_aabb box,
                                                const cairn_query_filter *filter,
                                                cairn_body_id *bodies, int capacity);

/* A ray against the triangles of one mesh or heightfield placed at xf. */
typedef struct cairn_triangle_hit {
    vec3s point;    /* world */
    vec3s normal;   /* unit, world, the triangle's normal facing against the ray */
    float fraction; /* along the translation, in [0, 1] */
    int triangle;   /* index as in cairn_shape_triangle */
} cairn_triangle_hit;
/* The closest triangle hit by origin + t * translation, t in [0, 1]; either side of a triangle
   counts. False when nothing is hit, or on bad input with an error (NULL shape or hit, a shape
   that is not a mesh or heightfield, a non-finite or non-unit transform, a non-finite origin or
   translation). The world ray casts hit meshes and heightfields too; this adds the triangle. */
CAIRN_API bool cairn_shape_raycast_triangle(const cairn_shape *shape, cairn_transform xf,
                                            vec3s origin, vec3s translation,
                                            cairn_triangle_hit *hit);

#ifdef __cplusplus
}
#endif

#endif
