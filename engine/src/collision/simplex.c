/* The closest point of a 1-4 point simplex to the origin (Voronoi regions, Johnson-style) and
   the next GJK search direction, computed exactly perpendicular to the closest edge or face. */
#include "collision/gjk.h"

#include <math.h>

/* Keeps the listed vertices (in order) with their weights. */
static void simplex_keep(simplex *s, const int *keep, const double *lambda, int count)
{
    simplex_vertex kept[4];
    for (int i = 0; i < count; ++i)
        kept[i] = s->vertices[keep[i]];
    for (int i = 0; i < count; ++i) {
        s->vertices[i] = kept[i];
        s->lambda[i] = lambda[i];
    }
    s->count = count;
}

static dvec3 closest_of(const simplex *s)
{
    dvec3 p = {0, 0, 0};
    for (int i = 0; i < s->count; ++i)
        p = dvec3_add(p, dvec3_scale(s->vertices[i].w, s->lambda[i]));
    return p;
}

/* Towards the origin, perpendicular to edge e = b - a. The plane through the edge and the origin
   has normal n = e x (-a); normalising n first makes a planar (2D) configuration give exactly
   (e.y, -e.x, 0), whose dot product with e is exactly zero even in floats (seed 000). */
static dvec3 edge_direction(dvec3 a, dvec3 b)
{
    dvec3 e = dvec3_sub(b, a);
    dvec3 n = dvec3_cross(e, dvec3_neg(a));
    double length = sqrt(dvec3_length_sq(n));
    if (length == 0.0)
        return dvec3_make(0, 0, 0); /* the origin is on the edge's line */
    n = dvec3_scale(n, 1.0 / length);
    return dvec3_cross(n, e);
}

static dvec3 solve_vertex(simplex *s, int index)
{
    const double one = 1.0;
    simplex_keep(s, &index, &one, 1);
    return dvec3_neg(s->vertices[0].w);
}

static dvec3 solve_edge(simplex *s, int ia, int ib, double ta, double tb)
{
    dvec3 a = s->vertices[ia].w, b = s->vertices[ib].w;
    int keep[2] = {ia, ib};
    double total = ta + tb;
    double lambda[2] = {ta / total, tb / total};
    simplex_keep(s, keep, lambda, 2);
    return edge_direction(a, b);
}

static dvec3 solve_segment(simplex *s)
{
    dvec3 a = s->vertices[0].w, b = s->vertices[1].w;
    dvec3 e = dvec3_sub(b, a);
    double u = dvec3_dot(b, e);  /* weight of a, times |e|^2 */
    double v = -dvec3_dot(a, e); /* weight of b, times |e|^2 */
    if (v <= 0.0)
        return solve_vertex(s, 0);
    if (u <= 0.0)
        return solve_vertex(s, 1);
    return solve_edge(s, 0, 1, u, v);
}

/* The face normal oriented towards the origin. */
static dvec3 face_direction(dvec3 a, dvec3 b, dvec3 c)
{
    dvec3 n = dvec3_cross(dvec3_sub(b, a), dvec3_sub(c, a));
    return dvec3_dot(n, a) > 0.0 ? dvec3_neg(n) : n;
}

/* Triangle (ia, ib, ic) of s: Ericson's region tests, all divisions guarded. */
static dvec3 solve_triangle_of(simplex *s, int ia, int ib, int ic)
{
    dvec3 a = s->vertices[ia].w, b = s->vertices[ib].w, c = s->vertices[ic].w;
    dvec3 ab = dvec3_sub(b, a), ac = dvec3_sub(c, a);
    double d1 = -dvec3_dot(ab, a), d2 = -dvec3_dot(ac, a);
    if (d1 <= 0.0 && d2 <= 0.0)
        return solve_vertex(s, ia);
    double d3 = -dvec3_dot(ab, b), d4 = -dvec3_dot(ac, b);
    if (d3 >= 0.0 && d4 <= d3)
        return solve_vertex(s, ib);
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0)
        return solve_edge(s, ia, ib, -d3, d1);
    double d5 = -dvec3_dot(ab, c), d6 = -dvec3_dot(ac, c);
    if (d6 >= 0.0 && d5 <= d6)
        return solve_vertex(s, ic);
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0)
        return solve_edge(s, ia, ic, -d6, d2);
    double va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0)
        return solve_edge(s, ib, ic, d5 - d6, d4 - d3);
    /* In exact arithmetic total == |ab x ac|^2; round-off leaves it a little positive for
       collinear vertices (a stale cached simplex along one line), whose face normal is zero:
       below a sine of 1e-7 between the edges, the triangle is a segment. */
    double total = va + vb + vc;
    if (!(total > 1e-14 * dvec3_length_sq(ab) * dvec3_length_sq(ac))) {
        /* Collinear: the closest of the three edges (a degenerate triangle has no face). */
        simplex edges[3] = {*s, *s, *s};
        int pairs[3][2] = {{ia, ib}, {ia, ic}, {ib, ic}};
        int best = 0;
        double best_distance = INFINITY;
        for (int k = 0; k < 3; ++k) {
            int keep[2] = {pairs[k][0], pairs[k][1]};
            double half[2] = {0.5, 0.5};
            simplex_keep(&edges[k], keep, half, 2);
            solve_segment(&edges[k]);
            double distance = dvec3_length_sq(closest_of(&edges[k]));
            if (distance < best_distance) {
                best_distance = distance;
                best = k;
            }
        }
        *s = edges[best];
        return s->count == 2 ? edge_direction(s->vertices[0].w, s->vertices[1].w)
                             : dvec3_neg(s->vertices[0].w);
    }
    int keep[3] = {ia, ib, ic};
    double lambda[3] = {va / total, vb / total, vc / total};
    simplex_keep(s, keep, lambda, 3);
    return face_direction(a, b, c);
}

/* Signed volume of (b - a, c - a, d - a). */
static double tetra_volume(dvec3 a, dvec3 b, dvec3 c, dvec3 d)
{
    return dvec3_dot(dvec3_sub(b, a), dvec3_cross(dvec3_sub(c, a), dvec3_sub(d, a)));
}

static dvec3 solve_tetrahedron(simplex *s, bool *inside)
{
    static const int faces[4][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}};
    dvec3 w[4];
    for (int i = 0; i < 4; ++i)
        w[i] = s->vertices[i].w;
    double volume = tetra_volume(w[0], w[1], w[2], w[3]);
    double best_distance = INFINITY;
    simplex best = *s;
    dvec3 best_direction = {0, 0, 0};
    bool outside_any = false;
    for (int f = 0; f < 4; ++f) {
        const int *t = faces[f];
        /* The origin is beyond face f when it is on the other side from the fourth vertex.
           A flat tetrahedron (volume 0) has no inside: every face is a candidate. */
        double origin_side = tetra_volume(w[t[0]], w[t[1]], w[t[2]], dvec3_make(0, 0, 0));
        double vertex_side = tetra_volume(w[t[0]], w[t[1]], w[t[2]], w[t[3]]);
        if (volume != 0.0 && origin_side * vertex_side > 0.0)
            continue;
        outside_any = true;
        simplex candidate = *s;
        dvec3 direction = solve_triangle_of(&candidate, t[0], t[1], t[2]);
        double distance = dvec3_length_sq(closest_of(&candidate));
        if (distance < best_distance) {
            best_distance = distance;
            best = candidate;
            best_direction = direction;
        }
    }
    if (!outside_any) {
        *inside = true;
        double lambda[4] = {0.25, 0.25, 0.25, 0.25};
        int keep[4] = {0, 1, 2, 3};
        simplex_keep(s, keep, lambda, 4);
        return dvec3_make(0, 0, 0);
    }
    *s = best;
    return best_direction;
}

dvec3 simplex_solve(simplex *s, dvec3 *closest, bool *inside)
{
    *inside = false;
    dvec3 direction;
    switch (s->count) {
    case 1:
        direction = solve_vertex(s, 0);
        break;
    case 2:
        direction = solve_segment(s);
        break;
    case 3:
        direction = solve_triangle_of(s, 0, 1, 2);
        break;
    default:
        direction = solve_tetrahedron(s, inside);
        break;
    }
    *closest = *inside ? dvec3_make(0, 0, 0) : closest_of(s);
    return direction;
}
