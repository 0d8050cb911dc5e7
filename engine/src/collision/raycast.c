/* Ray casts against one shape. Everything runs in the shape's local frame in doubles: the ray is
   brought into that frame once, the support points are exact floats (or, for the cylinder's rim,
   computed in doubles), so a ray passing 1e-6 m outside a silhouette is still told from one
   passing 1e-6 m inside it.

   Rays that start inside a shape (or on its surface) hit it at fraction 0 with the normal
   -direction. Box2D reports no hit instead, so that a ray cast from inside a body leaves it; we
   choose the hit because a game's line-of-sight or bullet query starting inside a wall must be
   blocked by that wall, not pass through it, and because the world's closest-hit query then
   stops at once (nothing can be closer than 0). There is no surface normal at an interior point;
   -direction is the one choice that always points against the ray. */
#include "collision/raycast.h"

#include "collision/compound.h"
#include "collision/mesh_collide.h"
#include "collision/gjk.h"
#include "geometry/shape.h"

#include <math.h>

/* GJK ray cast: the ray point is accepted as on the surface when its distance to the full shape
   is below ray_tolerance times the shape's size (at least 1 m). It has to be well below 1e-6 so
   that rays missing a silhouette by 1e-6 m stay misses (the brief's 1e-5 m would turn those into
   hits). Polytope cores (boxes, hulls, rounded or not) reach it exactly: their closest features
   are found in finitely many steps. The cylinder's curved core needs the simplex to follow the
   curved side to the tolerance: usually 10-40 iterations; rarely (about 1 ray in 10000 in the
   tests, sharp rims only) the iteration bound, and then the loose tolerance decides. */
static const double ray_tolerance = 1e-7;
/* When the iteration bound or a stalled simplex stops the loop, a ray point this close (relative)
   still counts as a hit; farther away the ray is a miss. */
static const double ray_loose_tolerance = 1e-5;

/* ---- small double helpers ---- */

static double dvec3_length(dvec3 a)
{
    return sqrt(dvec3_length_sq(a));
}

/* A unit quaternion in doubles (renormalised: a float rotation may be off by an ulp). */
typedef struct dquat {
    double x, y, z, w;
} dquat;

static dquat dquat_from(versors q)
{
    double x = q.x, y = q.y, z = q.z, w = q.w;
    double length = sqrt(x * x + y * y + z * z + w * w);
    if (!(length > 0.0))
        return (dquat){0, 0, 0, 1};
    return (dquat){x / length, y / length, z / length, w / length};
}

/* q v q*, or q* v q when inverse. */
static dvec3 dquat_rotate(dquat q, dvec3 v, bool inverse)
{
    dvec3 u = inverse ? dvec3_make(-q.x, -q.y, -q.z) : dvec3_make(q.x, q.y, q.z);
    dvec3 t = dvec3_scale(dvec3_cross(u, v), 2.0);
    return dvec3_add(dvec3_add(v, dvec3_scale(t, q.w)), dvec3_cross(u, t));
}

/* ---- closed forms ---- */

/* Entry parameter of the ray o + t d (origin outside the ball) into the ball (c, radius); false
   when the line misses it or the ball is behind. The perpendicular distance comes from a cross
   product and the root from the cancellation-free form, so grazing rays stay exact. */
static bool ray_ball(dvec3 o, dvec3 d, dvec3 c, double radius, double *t, dvec3 *normal)
{
    dvec3 m = dvec3_sub(o, c);
    double a = dvec3_dot(d, d);
    double b = dvec3_dot(m, d);
    double excess = dvec3_dot(m, m) - radius * radius; /* > 0: outside */
    if (b >= 0.0 || excess <= 0.0)
        return false;
    double perp_sq = dvec3_length_sq(dvec3_cross(m, d)) / a;
    double h_sq = radius * radius - perp_sq;
    if (h_sq < 0.0)
        return false;
    *t = excess / (-b + sqrt(a * h_sq));
    dvec3 p = dvec3_add(m, dvec3_scale(d, *t));
    double length = dvec3_length(p);
    *normal = length > 0.0 ? dvec3_scale(p, 1.0 / length) : dvec3_neg(d);
    return true;
}

/* Capsule around the segment (0, -h, 0)..(0, h, 0): the lateral surface of the infinite cylinder
   (kept where |y| <= h) and the two end balls. For an origin outside the capsule the first entry
   into the union is the smallest of the entries (the flat ends of the finite cylinder lie inside
   the balls, so they are never the entry). */
static bool ray_capsule(dvec3 o, dvec3 d, double h, double radius, double *t, dvec3 *normal)
{
    bool hit = false;
    double best = INFINITY;
    double a = d.x * d.x + d.z * d.z;
    double b = o.x * d.x + o.z * d.z;
    double excess = o.x * o.x + o.z * o.z - radius * radius;
    if (h > 0.0 && a > 0.0 && b < 0.0 && excess > 0.0) {
        double cross = o.x * d.z - o.z * d.x;
        double h_sq = radius * radius - cross * cross / a;
        if (h_sq >= 0.0) {
            double tc = excess / (-b + sqrt(a * h_sq));
            double y = o.y + tc * d.y;
            if (fabs(y) <= h) {
                dvec3 p = dvec3_make(o.x + tc * d.x, 0.0, o.z + tc * d.z);
                double length = dvec3_length(p);
                if (length > 0.0) {
                    hit = true;
                    best = tc;
                    *normal = dvec3_scale(p, 1.0 / length);
                }
            }
        }
    }
    int ends = h > 0.0 ? 2 : 1; /* a sphere is the capsule with h = 0: one ball */
    for (int end = 0; end < ends; ++end) {
        double tb;
        dvec3 nb;
        dvec3 centre = dvec3_make(0.0, end == 0 ? h : -h, 0.0);
        if (ray_ball(o, d, centre, radius, &tb, &nb) && tb < best) {
            hit = true;
            best = tb;
            *normal = nb;
        }
    }
    *t = best;
    return hit;
}

/* ---- GJK ray cast ---- */

/* The core's support point in doubles. The cylinder's rim point is computed here in doubles (the
   float support would put it up to an ulp off the circle); boxes and hulls return exact float
   vertices through the shape's own support. */
static dvec3 core_support(const cairn_shape *shape, dvec3 d)
{
    switch (shape->type) {
    case CAIRN_SHAPE_BOX: {
        vec3s h = shape->box.core_half;
        return dvec3_make(d.x >= 0.0 ? h.x : -h.x, d.y >= 0.0 ? h.y : -h.y,
                          d.z >= 0.0 ? h.z : -h.z);
    }
    case CAIRN_SHAPE_CYLINDER: {
        double radius = shape->cylinder.core_radius;
        double half = shape->cylinder.core_half_height;
        double radial = sqrt(d.x * d.x + d.z * d.z);
        dvec3 p = dvec3_make(0.0, d.y >= 0.0 ? half : -half, 0.0);
        if (radial > 0.0) {
            p.x = radius * d.x / radial;
            p.z = radius * d.z / radial;
        }
        return p;
    }
    default: {
        /* Scale the direction so that its float version neither under- nor overflows. */
        double length = dvec3_length(d);
        dvec3 unit = length > 0.0 ? dvec3_scale(d, 1.0 / length) : d;
        return dvec3_from(cairn_shape_core_support(shape, dvec3_to_float(unit)));
    }
    }
}

/* The length scale of the tolerances: the largest coordinate of the local bounds, at least 1. */
static double shape_scale(const cairn_shape *shape)
{
    cairn_aabb b = shape->local_bounds;
    double scale = 1.0;
    for (int i = 0; i < 3; ++i)
        scale = fmax(scale, fmax(fabs((double)b.min.raw[i]), fabs((double)b.max.raw[i])));
    return scale;
}

typedef enum ray_outcome { RAY_MISS, RAY_HIT, RAY_INSIDE } ray_outcome;

/* van den Bergen, "Ray casting against general convex objects with application to continuous
   collision detection" (2004), on the core with the convex radius as a margin: the full shape is
   core + ball(radius), so the distance from a point x to it is dist(x, core) - radius, and a
   plane separating x from the core by more than radius separates x from the full shape.

   x = s + lambda r starts at the origin. Each iteration takes v = x - (closest point of the
   simplex's hull to x), an upper bound on dist(x, core), and the core's support point p along v.
   If the plane through p (pushed out by radius) separates x, x advances along the ray to that
   plane (conservative advancement: no part of the shape lies before it), or the ray misses when it
   does not head towards the plane. Then p joins the simplex and v is recomputed. The ray point is
   on the surface when |v| - radius <= tolerance. The normal is the last separating direction; with
   a convex radius the final v (from the core to the ray point, through the rounded surface) is
   used, which is the same direction made exact by the last iterations. */
static ray_outcome gjk_raycast(const cairn_shape *shape, dvec3 s, dvec3 r, double max_lambda,
                               double *lambda_out, dvec3 *normal_out, int *iterations)
{
    const double radius = shape->convex_radius;
    const double scale = shape_scale(shape);
    const double tolerance = ray_tolerance * scale;
    double lambda = 0.0;
    dvec3 x = s;
    dvec3 n = {0, 0, 0};
    simplex sx;
    sx.count = 0;
    dvec3 v = dvec3_sub(x, core_support(shape, dvec3_neg(r)));
    double distance = dvec3_length(v);
    bool converged = false;
    int iteration = 0;
    for (; iteration < RAYCAST_MAX_ITERATIONS; ++iteration) {
        if (distance - radius <= tolerance) {
            converged = true;
            break;
        }
        dvec3 p = core_support(shape, v);
        double vw = dvec3_dot(v, dvec3_sub(x, p));
        bool advanced = false;
        if (vw > radius * distance) {
            double vr = dvec3_dot(v, r);
            if (vr >= 0.0) {
                *iterations = iteration + 1;
                return RAY_MISS; /* parallel to or leaving a separating plane */
            }
            lambda += (vw - radius * distance) / -vr;
            if (lambda > max_lambda) {
                *iterations = iteration + 1;
                return RAY_MISS;
            }
            x = dvec3_add(s, dvec3_scale(r, lambda));
            n = v;
            advanced = true;
            for (int i = 0; i < sx.count; ++i)
                sx.vertices[i].w = dvec3_sub(x, sx.vertices[i].a);
        }
        bool duplicate = false;
        for (int i = 0; i < sx.count; ++i)
            duplicate |=
                sx.vertices[i].a.x == p.x && sx.vertices[i].a.y == p.y && sx.vertices[i].a.z == p.z;
        if (duplicate && !advanced)
            break; /* no new support point and x did not move: no progress possible */
        if (!duplicate) {
            simplex_vertex *vertex = &sx.vertices[sx.count++];
            vertex->a = p;
            vertex->b = dvec3_make(0, 0, 0);
            vertex->w = dvec3_sub(x, p);
            vertex->a_local = dvec3_to_float(p);
            vertex->b_local = glms_vec3_zero();
        }
        bool inside;
        dvec3 closest;
        simplex_solve(&sx, &closest, &inside);
        v = closest;
        distance = inside ? 0.0 : dvec3_length(v);
        if (inside) {
            converged = true;
            ++iteration;
            break;
        }
    }
    *iterations = iteration;
    if (!converged && distance - radius > ray_loose_tolerance * scale)
        return RAY_MISS;
    if (lambda == 0.0)
        return RAY_INSIDE; /* the origin itself is in the shape (or within the tolerance) */
    *lambda_out = lambda;
    if (radius > 0.0 && distance > 0.5 * radius)
        n = v;
    *normal_out = dvec3_scale(n, 1.0 / dvec3_length(n));
    return RAY_HIT;
}

/* The outward normal of the (rounded) cylinder at a local point on its surface, in closed form.
   The GJK ray cast's last separating direction is exact on flat faces and on the rounded edges
   of polytope cores, but the cylinder's core is curved: the separating plane through the hit
   point touches the rim up to sqrt(2 radius tolerance) away from it, so that direction is only
   good to ~1e-4. Here the region of the point decides: beyond both the side and the cap of the
   core (the rounded rim, or the sharp edge when the convex radius is 0, where any direction of
   the edge's normal cone is valid), on the side, or on a cap. */
static dvec3 cylinder_normal(const cairn_shape *shape, dvec3 x)
{
    double radial = sqrt(x.x * x.x + x.z * x.z);
    double side = radial - shape->cylinder.core_radius;
    double cap = fabs(x.y) - shape->cylinder.core_half_height;
    dvec3 out = radial > 0.0 ? dvec3_make(x.x / radial, 0.0, x.z / radial) : dvec3_make(1, 0, 0);
    dvec3 up = dvec3_make(0.0, x.y >= 0.0 ? 1.0 : -1.0, 0.0);
    if (side > 0.0 && cap > 0.0) {
        dvec3 n = dvec3_add(dvec3_scale(out, side), dvec3_scale(up, cap));
        return dvec3_scale(n, 1.0 / dvec3_length(n));
    }
    return side >= cap && radial > 0.0 ? out : up;
}

/* ---- entry points ---- */

static bool raycast(const cairn_shape *shape, cairn_transform xf, vec3s origin, vec3s translation,
                    float max_fraction, bool force_gjk, float *fraction, vec3s *normal,
                    int *iterations)
{
    *iterations = 0;
    dvec3 delta = dvec3_from(translation);
    if (dvec3_length_sq(delta) == 0.0 || !(max_fraction >= 0.0f))
        return false;
    dquat q = dquat_from(xf.rotation);
    dvec3 o = dquat_rotate(q, dvec3_sub(dvec3_from(origin), dvec3_from(xf.position)), true);
    dvec3 d = dquat_rotate(q, delta, true);
    double t = 0.0;
    dvec3 n = {0, 0, 0};
    ray_outcome outcome;
    if (force_gjk || (shape->type != CAIRN_SHAPE_SPHERE && shape->type != CAIRN_SHAPE_CAPSULE)) {
        outcome = gjk_raycast(shape, o, d, max_fraction, &t, &n, iterations);
        if (outcome == RAY_HIT && shape->type == CAIRN_SHAPE_CYLINDER) {
            dvec3 exact = cylinder_normal(shape, dvec3_add(o, dvec3_scale(d, t)));
            if (dvec3_dot(exact, d) < 0.0)
                n = exact; /* else a sharp rim grazed edge-on: keep the separating direction */
        }
    } else {
        double radius = shape->convex_radius;
        double h = shape->type == CAIRN_SHAPE_CAPSULE ? shape->capsule.half_height : 0.0;
        double axial = fmax(fabs(o.y) - h, 0.0);
        if (o.x * o.x + o.z * o.z + axial * axial <= radius * radius)
            outcome = RAY_INSIDE;
        else if (ray_capsule(o, d, h, radius, &t, &n))
            outcome = t <= max_fraction ? RAY_HIT : RAY_MISS;
        else
            outcome = RAY_MISS;
    }
    if (outcome == RAY_MISS)
        return false;
    if (outcome == RAY_INSIDE) {
        *fraction = 0.0f;
        *normal = dvec3_to_float(dvec3_scale(delta, -1.0 / dvec3_length(delta)));
        return true;
    }
    *fraction = (float)t;
    dvec3 world_normal = dquat_rotate(q, n, false);
    *normal = dvec3_to_float(dvec3_scale(world_normal, 1.0 / dvec3_length(world_normal)));
    return true;
}

bool shape_raycast(const cairn_shape *shape, cairn_transform xf, vec3s origin, vec3s translation,
                   float max_fraction, float *fraction, vec3s *normal)
{
    if (shape_is_compound(shape))
        return compound_raycast(shape, xf, origin, translation, max_fraction, fraction, normal);
    if (shape_is_triangles(shape))
        return mesh_shape_raycast(shape, xf, origin, translation, max_fraction, fraction, normal,
                                  NULL);
    int iterations;
    return raycast(shape, xf, origin, translation, max_fraction, false, fraction, normal,
                   &iterations);
}

bool shape_raycast_gjk(const cairn_shape *shape, cairn_transform xf, vec3s origin,
                       vec3s translation, float max_fraction, float *fraction, vec3s *normal,
                       int *iterations)
{
    int count;
    bool hit =
        raycast(shape, xf, origin, translation, max_fraction, true, fraction, normal, &count);
    if (iterations != NULL)
        *iterations = count;
    return hit;
}
