/* A capsule against one triangle in closed form (capsule_triangle.h). */
#include "collision/capsule_triangle.h"

#include "collision/query.h"
#include "collision/triangle_shape.h"

#include <math.h>

/* Below this core gap (m) the core counts as touching the triangle: the gap's direction would
   be rounding, so SAT decides (the bound sphere_triangle uses to fall back on the face). */
static const double touching_gap = 1e-9;

/* Keeps the pair (a on the core, b on the triangle) when it is closer than *best (squared). */
static void keep_closer(dvec3 a, dvec3 b, double *best, dvec3 *on_core, dvec3 *on_tri)
{
    double d = dvec3_length_sq(dvec3_sub(a, b));
    if (d < *best) {
        *best = d;
        *on_core = a;
        *on_tri = b;
    }
}

/* The closest pair of segment p0-p1 and the triangle when the segment does not pierce it: the
   pair is either an end against the whole triangle or the segment against an edge. Returns the
   squared distance. Ties keep the first found, so a segment parallel to the plane over the face
   gets its end p0 (stable; the manifold clips the rest from the normal). */
static double closest_pair(dvec3 p0, dvec3 p1, const dvec3 c[3], dvec3 *on_core, dvec3 *on_tri)
{
    double corners[3][3];
    for (int v = 0; v < 3; ++v) {
        corners[v][0] = c[v].x;
        corners[v][1] = c[v].y;
        corners[v][2] = c[v].z;
    }
    double best = INFINITY;
    const dvec3 ends[2] = {p0, p1};
    for (int i = 0; i < 2; ++i) {
        double end[3] = {ends[i].x, ends[i].y, ends[i].z}, nearest[3];
        triangle_closest_point(corners, end, nearest);
        keep_closer(ends[i], dvec3_make(nearest[0], nearest[1], nearest[2]), &best, on_core,
                    on_tri);
    }
    for (int e = 0; e < 3; ++e) {
        dvec3 a, b;
        segment_closest(p0, p1, c[e], c[(e + 1) % 3], &a, &b);
        keep_closer(a, b, &best, on_core, on_tri);
    }
    return best;
}

/* Whether the segment crosses the triangle's plane inside the triangle (its edges included),
   the one contact closest_pair does not see. A segment lying in the plane is closest_pair's:
   its distance there is 0 when it meets the triangle. */
static bool pierces(dvec3 p0, dvec3 p1, const dvec3 c[3], dvec3 face)
{
    double h0 = dvec3_dot(face, dvec3_sub(p0, c[0])), h1 = dvec3_dot(face, dvec3_sub(p1, c[0]));
    if ((h0 > 0.0 && h1 > 0.0) || (h0 < 0.0 && h1 < 0.0) || h0 == h1)
        return false;
    dvec3 x = dvec3_add(p0, dvec3_scale(dvec3_sub(p1, p0), h0 / (h0 - h1)));
    for (int e = 0; e < 3; ++e) {
        dvec3 edge = dvec3_sub(c[(e + 1) % 3], c[e]);
        if (dvec3_dot(dvec3_cross(edge, dvec3_sub(x, c[e])), face) < 0.0)
            return false;
    }
    return true;
}

/* A candidate axis of the minimum translation: unit u from the triangle towards the core, the
   overlap along it, and the edge whose closest pair with the core gives the witnesses (-1: the
   face, whose witness is the core's deepest point). */
typedef struct sat_axis {
    dvec3 u;
    double overlap;
    int edge;
} sat_axis;

/* How far the core must move along unit u to clear the triangle: the triangle's highest point
   along u minus the core's lowest. */
static double overlap_along(dvec3 u, dvec3 p0, dvec3 p1, const dvec3 c[3])
{
    double high = fmax(dvec3_dot(u, c[0]), fmax(dvec3_dot(u, c[1]), dvec3_dot(u, c[2])));
    return high - fmin(dvec3_dot(u, p0), dvec3_dot(u, p1));
}

/* Tries unit u both ways; keeps a smaller overlap than the best so far (ties keep the earlier
   axis: the face first). */
static void try_axis(dvec3 u, int edge, dvec3 p0, dvec3 p1, const dvec3 c[3], sat_axis *best)
{
    for (int s = 0; s < 2; ++s) {
        dvec3 v = s ? dvec3_neg(u) : u;
        double overlap = overlap_along(v, p0, p1, c);
        if (overlap < best->overlap)
            *best = (sat_axis){v, overlap, edge};
    }
}

/* SAT over the axes that can separate a segment from a triangle: the face normal and the
   segment's direction crossed with each edge. The edges' in-plane normals join for the
   degenerate cases (a segment parallel to an edge, or of length 0): any extra axis is harmless,
   the overlap along every direction being at least the depth. */
static sat_axis min_axis(dvec3 p0, dvec3 p1, const dvec3 c[3], dvec3 face)
{
    sat_axis best = {face, INFINITY, -1};
    try_axis(face, -1, p0, p1, c, &best);
    dvec3 d = dvec3_sub(p1, p0);
    for (int e = 0; e < 3; ++e) {
        dvec3 edge = dvec3_sub(c[(e + 1) % 3], c[e]);
        dvec3 n = dvec3_cross(d, edge);
        double n2 = dvec3_length_sq(n);
        /* nearly parallel (sine under 1e-6): the direction would be rounding */
        if (n2 > 1e-12 * dvec3_length_sq(d) * dvec3_length_sq(edge))
            try_axis(dvec3_scale(n, 1.0 / sqrt(n2)), e, p0, p1, c, &best);
    }
    for (int e = 0; e < 3; ++e) {
        dvec3 m = dvec3_cross(dvec3_sub(c[(e + 1) % 3], c[e]), face);
        double m2 = dvec3_length_sq(m);
        if (m2 > 0.0)
            try_axis(dvec3_scale(m, 1.0 / sqrt(m2)), e, p0, p1, c, &best);
    }
    return best;
}

/* The core's deepest point along -u; when the core lies across u (its ends level within
   rounding), its point nearest the triangle's centroid, so the witness sits over the face. */
static dvec3 deepest_core_point(dvec3 u, dvec3 p0, dvec3 p1, const dvec3 c[3])
{
    double a0 = dvec3_dot(u, p0), a1 = dvec3_dot(u, p1);
    if (fabs(a0 - a1) > 1e-12 * (1.0 + sqrt(dvec3_length_sq(dvec3_sub(p1, p0)))))
        return a0 < a1 ? p0 : p1;
    dvec3 centroid = dvec3_scale(dvec3_add(c[0], dvec3_add(c[1], c[2])), 1.0 / 3.0), on_core,
          unused;
    segment_closest(p0, p1, centroid, centroid, &on_core, &unused);
    return on_core;
}

/* The core crossing (or touching) the triangle: the minimum translation and its witnesses. */
static void deep(dvec3 p0, dvec3 p1, const dvec3 c[3], dvec3 face, capsule_triangle_result *out)
{
    sat_axis a = min_axis(p0, p1, c, face);
    if (a.edge >= 0) {
        segment_closest(p0, p1, c[a.edge], c[(a.edge + 1) % 3], &out->on_core, &out->on_triangle);
    } else {
        out->on_core = deepest_core_point(a.u, p0, p1, c);
        out->on_triangle = dvec3_add(out->on_core, dvec3_scale(a.u, a.overlap));
    }
    out->core_distance = -a.overlap;
    out->normal = a.u;
}

void capsule_triangle(dvec3 p0, dvec3 p1, double radius, const dvec3 corners[3], dvec3 face,
                      capsule_triangle_result *out)
{
    /* relative to a corner: coordinates far from the mesh's origin keep their digits */
    dvec3 origin = corners[0];
    const dvec3 c[3] = {dvec3_make(0.0, 0.0, 0.0), dvec3_sub(corners[1], origin),
                        dvec3_sub(corners[2], origin)};
    p0 = dvec3_sub(p0, origin);
    p1 = dvec3_sub(p1, origin);
    double gap_sq = closest_pair(p0, p1, c, &out->on_core, &out->on_triangle);
    if (gap_sq > touching_gap * touching_gap && !pierces(p0, p1, c, face)) {
        out->core_distance = sqrt(gap_sq);
        out->normal =
            dvec3_scale(dvec3_sub(out->on_core, out->on_triangle), 1.0 / out->core_distance);
    } else {
        deep(p0, p1, c, face, out);
    }
    out->distance = out->core_distance - radius;
    out->on_core = dvec3_add(out->on_core, origin);
    out->on_triangle = dvec3_add(out->on_triangle, origin);
}
