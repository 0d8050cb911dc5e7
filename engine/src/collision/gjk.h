/* GJK on the cores of two shapes, in A's frame: distance with closest points, overlap (ISA-GJK),
   and the simplex that EPA and the frame-to-frame cache start from. */
#ifndef CAIRN_COLLISION_GJK_H
#define CAIRN_COLLISION_GJK_H

#include <cairn/collision.h>

/* Doubles for the simplex arithmetic: the support points are floats, but differences and
   cross products of nearly equal points lose everything in single precision. */
typedef struct dvec3 {
    double x, y, z;
} dvec3;

/* The pair being queried, with B expressed in A's frame. */
typedef struct support_pair {
    const cairn_shape *a, *b;
    cairn_transform b_in_a; /* B's local frame -> A's local frame */
    mat3s rotation;         /* b_in_a's rotation as a matrix: support queries run on it */
    double scale;           /* support_pair_scale, computed once */
} support_pair;

/* One vertex of the Minkowski difference A - B (of the cores). */
typedef struct simplex_vertex {
    vec3s a_local; /* point of A's core, A's frame */
    vec3s b_local; /* point of B's core, B's frame (re-evaluated under new transforms) */
    dvec3 a, b;    /* both in A's frame */
    dvec3 w;       /* a - b */
} simplex_vertex;

typedef struct simplex {
    simplex_vertex vertices[4];
    double lambda[4]; /* barycentric weights of the closest point */
    int count;
} simplex;

typedef enum gjk_status {
    GJK_SEPARATED,   /* cores apart: distance > 0, closest points valid */
    GJK_CORES_TOUCH, /* origin within tolerance of (or inside) the Minkowski difference */
} gjk_status;

typedef struct gjk_result {
    gjk_status status;
    double distance;        /* between the cores */
    dvec3 point_a, point_b; /* closest points on the cores, A's frame */
    dvec3 closest;          /* point_a - point_b: the closest point of A - B to the origin */
    dvec3 direction;        /* the last search direction, towards the origin (from A to B) */
    int iterations;
} gjk_result;

enum { GJK_MAX_ITERATIONS = 64 };

support_pair support_pair_make(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                               cairn_transform xb);
/* The pair of a and b at pose's relative transform (its b_in_a and rotation): a pair made by
   support_pair_make for other shapes at the same two transforms. The triangles of a mesh share
   the mesh's transform, so one pose per convex part serves them all. */
support_pair support_pair_posed(const support_pair *pose, const cairn_shape *a,
                                const cairn_shape *b);
/* The Minkowski-difference vertex farthest along direction (A's frame). */
simplex_vertex support_pair_vertex(const support_pair *pair, dvec3 direction);
/* support_pair_vertex written straight to *out (no copy of the vertex through the caller). */
void support_pair_vertex_into(const support_pair *pair, dvec3 direction, simplex_vertex *out);
/* Sum of the diagonals of both shapes' local bounds: the length scale of tolerances. */
double support_pair_scale(const support_pair *pair);
/* Re-evaluates a vertex from its local points under the pair's current transform. */
simplex_vertex support_pair_reevaluate(const support_pair *pair, vec3s a_local, vec3s b_local);

/* Runs GJK from *s (count 0 starts fresh from `direction`; otherwise a warm start). On return *s
   is the final simplex; for GJK_CORES_TOUCH it is the simplex EPA starts from. */
gjk_result gjk_distance(const support_pair *pair, simplex *s, dvec3 direction);

/* ISA-GJK: true when the cores, each grown by its radius, intersect; stops at the first
   direction that separates them. */
bool gjk_overlap(const support_pair *pair, double radius_sum, dvec3 direction, int *iterations);

/* Closest point of the simplex to the origin: reduces *s to the sub-simplex of the closest
   feature and sets s->lambda. Returns the search direction towards the origin, computed exactly
   perpendicular to the closest edge or face; sets *inside when the origin is in a tetrahedron. */
dvec3 simplex_solve(simplex *s, dvec3 *closest, bool *inside);

/* What simplex_solve keeps of a simplex: vertex indices in increasing order, with weights. */
typedef struct simplex_pick {
    int keep[4];
    double lambda[4];
    int count;
} simplex_pick;

/* simplex_solve in two steps, so a caller can look at the result before committing to it (GJK
   keeps the previous simplex when the new one is no closer, without saving a copy): the pick
   and the closest point it gives, *s unchanged; then applying the pick. */
dvec3 simplex_closest(const simplex *s, simplex_pick *pick, dvec3 *closest, bool *inside);
void simplex_apply(simplex *s, const simplex_pick *pick);

static inline dvec3 dvec3_make(double x, double y, double z)
{
    return (dvec3){x, y, z};
}
static inline dvec3 dvec3_from(vec3s v)
{
    return (dvec3){v.x, v.y, v.z};
}
static inline vec3s dvec3_to_float(dvec3 v)
{
    return (vec3s){{(float)v.x, (float)v.y, (float)v.z}};
}
static inline dvec3 dvec3_add(dvec3 a, dvec3 b)
{
    return (dvec3){a.x + b.x, a.y + b.y, a.z + b.z};
}
static inline dvec3 dvec3_sub(dvec3 a, dvec3 b)
{
    return (dvec3){a.x - b.x, a.y - b.y, a.z - b.z};
}
static inline dvec3 dvec3_scale(dvec3 a, double s)
{
    return (dvec3){a.x * s, a.y * s, a.z * s};
}
static inline dvec3 dvec3_neg(dvec3 a)
{
    return (dvec3){-a.x, -a.y, -a.z};
}
static inline double dvec3_dot(dvec3 a, dvec3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
static inline dvec3 dvec3_cross(dvec3 a, dvec3 b)
{
    return (dvec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
static inline double dvec3_length_sq(dvec3 a)
{
    return dvec3_dot(a, a);
}

/* support_pair_reevaluate written straight to *out. */
static inline void support_pair_reevaluate_into(const support_pair *pair, vec3s a_local,
                                                vec3s b_local, simplex_vertex *out)
{
    out->a_local = a_local;
    out->b_local = b_local;
    out->a = dvec3_from(a_local);
    out->b =
        dvec3_from(glms_vec3_add(glms_mat3_mulv(pair->rotation, b_local), pair->b_in_a.position));
    out->w = dvec3_sub(out->a, out->b);
}

#endif
