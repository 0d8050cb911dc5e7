/* Persistent contacts: one per broadphase pair, its simplex cache, and a manifold of up to four
   points whose accumulated impulses carry over between steps (warm starting). */
#ifndef CAIRN_DYNAMICS_CONTACT_H
#define CAIRN_DYNAMICS_CONTACT_H

#include <cairn/world.h>

enum { MANIFOLD_MAX_POINTS = 4 };

typedef struct manifold_point {
    vec3s anchor_a, anchor_b; /* contact point relative to each body's centre, world axes */
    vec3s local_a;            /* the point on A in A's frame (matches points across steps) */
    float separation;         /* < 0 when penetrating, m */
    float normal_impulse;     /* accumulated, N s */
    float tangent_impulse[2];
    float max_normal_impulse;
    float relative_velocity; /* normal approach speed before solving, for restitution */
    uint32_t id;             /* feature id */
} manifold_point;

typedef struct manifold {
    vec3s normal; /* unit, from A to B, world */
    vec3s tangent[2];
    int point_count;
    manifold_point points[MANIFOLD_MAX_POINTS];
} manifold;

typedef struct contact {
    uint32_t body_a, body_b; /* body indices, a < b */
    cairn_gjk_cache cache;
    manifold manifold;
    float friction, restitution;
    bool touching; /* has manifold points */
    bool was_touching;
    bool is_sensor;    /* one body is a sensor: overlap test only, never manifold points */
    bool overlapping;  /* sensor pairs: the full shapes overlapped at the last test */
    bool sensor_stale; /* sensor pairs: test at the next step even if both bodies sleep */
} contact;

/* Builds a manifold for the pair at their transforms from a query result (normal from A to B):
   the supporting faces clipped against each other, points within speculative_distance kept,
   reduced to four (deepest, then largest area). */
int manifold_build(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                   cairn_transform xb, const cairn_query_result *query, float speculative_distance,
                   manifold *out);

/* Copies accumulated impulses from the old manifold's points to the new one's, matching by
   feature id or, failing that, by position on A within `tolerance`. */
void manifold_match(const manifold *old_manifold, manifold *new_manifold, float tolerance);

#endif
