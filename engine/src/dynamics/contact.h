/* Persistent contacts: one per broadphase pair, its simplex cache, and a manifold of up to four
   points whose accumulated impulses carry over between steps (warm starting); pairs with a
   compound may have a few more manifolds, one per direction they touch along. */
#ifndef CAIRN_DYNAMICS_CONTACT_H
#define CAIRN_DYNAMICS_CONTACT_H

#include "geometry/shape.h"

#include <cairn/world.h>

struct triangle_cache;

enum {
    MANIFOLD_MAX_POINTS = 4,
    CONTACT_MAX_MANIFOLDS = 4 /* per body pair: compound pairs touching along several normals */
};

typedef struct manifold_point {
    vec3s anchor_a, anchor_b; /* contact point relative to each body's centre, world axes */
    vec3s local_a;            /* the point on A in A's frame (matches points across steps) */
    vec3s local_b;            /* the point on B in B's frame (re-measures a reused manifold) */
    float separation;         /* < 0 when penetrating, m */
    float normal_impulse;     /* accumulated, N s */
    float max_normal_impulse;
    float relative_velocity; /* normal approach speed before solving, for restitution */
    uint32_t id;             /* feature id */
} manifold_point;

typedef struct manifold {
    vec3s normal; /* unit, from A to B, world */
    /* Friction acts at the centre of the points (central friction): two tangent rows and a
       twist row about the normal per manifold, instead of two rows per point. */
    vec3s friction_impulse; /* accumulated tangent impulse at the centre, world, N s */
    float twist_impulse;    /* accumulated about the normal, N m s */
    /* accumulated against rolling (angular, perpendicular to the normal) and spinning (along
       it), world, N m s; zero while the contact has no rolling resistance */
    vec3s rolling_impulse;
    int point_count;
    manifold_point points[MANIFOLD_MAX_POINTS];
} manifold;

/* What the manifold was built from, to tell whether the next step may reuse it. */
typedef struct pair_cache {
    cairn_transform relative; /* B's pose in A's frame */
    vec3s local_normal;       /* the manifold normal in A's frame */
    float margin;             /* the speculative margin the points were kept within, m */
    /* A pair found apart (no points): the gap between the surfaces then, m, and how far B's
       shape reaches from B's origin, m. 0 and 0 for a pair with points or parts. */
    float gap, reach_b;
    bool valid;
    uint8_t symmetry_a, symmetry_b; /* shape_symmetry of the bodies' shapes (pair_cache_reuse) */
} pair_cache;

/* A contact's manifolds after its first: an L-shaped compound in the crook of another is pushed
   along two normals, and one manifold carries one normal. Allocated the first time a pair needs
   them and kept (count may drop to 0) until the contact goes. */
typedef struct manifold_extra {
    manifold manifolds[CONTACT_MAX_MANIFOLDS - 1];
    vec3s local_normals[CONTACT_MAX_MANIFOLDS - 1]; /* in A's frame, for the pair cache */
    int count;
} manifold_extra;

typedef struct contact {
    /* The header: what the solver reads of each contact besides its manifolds, first, so that
       it takes one or two cache lines of the 560 bytes (the prepare and the step's plan walk
       tens of thousands of contacts out of cache). */
    uint32_t body_a, body_b; /* body indices, a < b */
    float friction, restitution;
    float rolling_resistance; /* max of the bodies' (or the pre-solve callback's), [0, 1] */
    vec3s surface_velocity;   /* by the pre-solve callback: B's surface against A's, m/s */
    bool touching;            /* has manifold points */
    bool disabled;            /* by the pre-solve callback, for this step (contact_modify.c) */
    bool material_override;   /* the pre-solve callback changed friction, restitution or rolling
                                 resistance */
    bool surface_rolls;       /* a body's mesh materials have rolling resistance */
    bool was_touching;
    bool is_sensor;        /* one body is a sensor: overlap test only, never manifold points */
    bool overlapping;      /* sensor pairs: the full shapes overlapped at the last test */
    bool sensor_stale;     /* sensor pairs: test at the next step even if both bodies sleep */
    manifold_extra *extra; /* NULL until a compound pair needs more than one */
    /* A pair with a mesh or heightfield: its per-triangle simplex caches (triangle_cache.h),
       allocated at its first narrow phase with simplex caching on and kept until the contact
       goes; NULL otherwise. */
    struct triangle_cache *triangles;
    cairn_gjk_cache cache;
    pair_cache reuse;
    manifold manifold; /* the first (deepest) manifold */
} contact;

/* How many manifolds the contact has: the first, plus the extra ones in use. */
static inline int contact_manifold_count(const contact *c)
{
    return 1 + (c->extra ? c->extra->count : 0);
}

/* Manifold i of contact_manifold_count: 0 is the first. */
static inline manifold *contact_manifold(contact *c, int i)
{
    return i == 0 ? &c->manifold : &c->extra->manifolds[i - 1];
}

static inline const manifold *contact_manifold_const(const contact *c, int i)
{
    return i == 0 ? &c->manifold : &c->extra->manifolds[i - 1];
}

/* The order of body pairs (by a, then b): the solver's deterministic contact order. */
static inline int body_pair_order(uint32_t a0, uint32_t b0, uint32_t a1, uint32_t b1)
{
    if (a0 != a1)
        return a0 < a1 ? -1 : 1;
    return b0 != b1 ? (b0 < b1 ? -1 : 1) : 0;
}

/* qsort/bsearch comparator of contacts by body pair. */
static inline int contact_compare(const void *x, const void *y)
{
    const contact *a = x, *b = y;
    return body_pair_order(a->body_a, a->body_b, b->body_a, b->body_b);
}

/* Builds a manifold for the pair at their transforms from a query result (normal from A to B):
   the supporting faces clipped against each other, points within speculative_distance kept,
   reduced to four (deepest, then largest area). */
int manifold_build(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                   cairn_transform xb, const cairn_query_result *query, float speculative_distance,
                   manifold *out);

/* Reduces count points (anchors: world midpoints; separations along normal) to at most four the
   way manifold_build does: deepest first, then largest area; but the second point is the
   farthest of those within `band` of the deepest's depth when one of them lies at least half as
   far as the farthest of all (band < 0: as manifold_build). Returns how many were written to out
   (which may not alias points). */
int manifold_reduce(const manifold_point *points, int count, vec3s normal, float band,
                    manifold_point *out);

/* Copies accumulated impulses from the old manifold's points to the new one's, matching by
   feature id or, failing that, by position on A within `tolerance`. */
void manifold_match(const manifold *old_manifold, manifold *new_manifold, float tolerance);

/* Remembers the relative pose, normal and margin the contact's manifold was just built with, and
   which of the two shapes a and b can roll; gap: the surfaces' distance when the manifold is
   empty (0 otherwise), reach_b: how far B's shape reaches from B's origin. */
void pair_cache_store(contact *c, const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                      cairn_transform xb, float margin, float gap, float reach_b);

/* How far a pair may move relative to itself and keep its manifold; made once per step from
   the settings (the angle as the cosine of its half, so no pair computes a cosine). */
typedef struct pair_cache_limits {
    float distance;       /* m; 0 disables the cache */
    float cos_half_angle; /* cos(max_angle / 2); above 1 when the angle limit is 0 (disabled) */
} pair_cache_limits;

pair_cache_limits pair_cache_limits_make(float max_distance, float max_angle);

/* When B moved less than the limits relative to A since the manifold was built, and the
   speculative margin did not grow, re-measures the manifold's points at the new poses (their
   impulses stay for warm starting) and returns true. A pair found apart keeps its empty manifold
   (true) while B cannot have moved, relative to A, by more than the gap has left above the
   margin: most pairs of a broadphase are near, not touching. Otherwise false: the caller runs
   the narrow phase. A body that can roll (shape_symmetry) is re-measured without the turning
   its shape does not show. */
bool pair_cache_reuse(contact *c, cairn_transform xa, cairn_transform xb, float margin,
                      pair_cache_limits limits);

#endif
