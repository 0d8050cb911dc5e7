/* The closest point of a 1-4 point simplex to the origin (Voronoi regions, Johnson-style) and
   the next GJK search direction, computed exactly perpendicular to the closest edge or face. */
#include "collision/gjk.h"

#include <math.h>

/* Region tests return picks: candidates (the faces of a tetrahedron, the edges of a collinear
   triangle) are compared as picks and only the winner is applied; copying whole simplices (four
   vertices with both witnesses) for each candidate cost more than the tests. */

/* Keeps the picked vertices (in order) with their weights. */
void simplex_apply(simplex *s, const simplex_pick *pick)
{
    /* Picks list their indices in increasing order, so keep[i] >= i: moving down in place never
       overwrites a vertex still to be moved, and vertices already in place are not copied. */
    for (int i = 0; i < pick->count; ++i) {
        if (pick->keep[i] != i)
            s->vertices[i] = s->vertices[pick->keep[i]];
        s->lambda[i] = pick->lambda[i];
    }
    s->count = pick->count;
}

static dvec3 closest_of(const simplex *s, const simplex_pick *pick)
{
    dvec3 p = {0, 0, 0};
    for (int i = 0; i < pick->count; ++i)
        p = dvec3_add(p, dvec3_scale(s->vertices[pick->keep[i]].w, pick->lambda[i]));
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

static dvec3 pick_vertex(const simplex *s, int index, simplex_pick *pick)
{
    *pick = (simplex_pick){.keep = {index}, .lambda = {1.0}, .count = 1};
    return dvec3_neg(s->vertices[index].w);
}

static dvec3 pick_edge(const simplex *s, int ia, int ib, double ta, double tb, simplex_pick *pick)
{
    /* total is |b - a|^2: zero when a warm start re-evaluates two cached vertices to the same
       point (identical shapes at identical poses map a_local == b_local to w = 0 twice), where
       the weights would be 0 / 0 */
    double total = ta + tb;
    if (!(total > 0.0))
        return pick_vertex(s, ia, pick);
    *pick = (simplex_pick){.keep = {ia, ib}, .lambda = {ta / total, tb / total}, .count = 2};
    return edge_direction(s->vertices[ia].w, s->vertices[ib].w);
}

/* Segment (ia, ib) of s. */
static dvec3 pick_segment(const simplex *s, int ia, int ib, simplex_pick *pick)
{
    dvec3 a = s->vertices[ia].w, b = s->vertices[ib].w;
    dvec3 e = dvec3_sub(b, a);
    double u = dvec3_dot(b, e);  /* weight of a, times |e|^2 */
    double v = -dvec3_dot(a, e); /* weight of b, times |e|^2 */
    if (v <= 0.0)
        return pick_vertex(s, ia, pick);
    if (u <= 0.0)
        return pick_vertex(s, ib, pick);
    return pick_edge(s, ia, ib, u, v, pick);
}

/* The face normal oriented towards the origin. */
static dvec3 face_direction(dvec3 a, dvec3 b, dvec3 c)
{
    dvec3 n = dvec3_cross(dvec3_sub(b, a), dvec3_sub(c, a));
    return dvec3_dot(n, a) > 0.0 ? dvec3_neg(n) : n;
}

/* A collinear triangle (ia, ib, ic) has no face: the closest of its three edges. */
static dvec3 pick_collinear(const simplex *s, int ia, int ib, int ic, simplex_pick *pick)
{
    int pairs[3][2] = {{ia, ib}, {ia, ic}, {ib, ic}};
    simplex_pick edges[3];
    int best = 0;
    double best_distance = INFINITY;
    for (int k = 0; k < 3; ++k) {
        pick_segment(s, pairs[k][0], pairs[k][1], &edges[k]);
        double distance = dvec3_length_sq(closest_of(s, &edges[k]));
        if (distance < best_distance) {
            best_distance = distance;
            best = k;
        }
    }
    *pick = edges[best];
    const simplex_vertex *v = s->vertices;
    return pick->count == 2 ? edge_direction(v[pick->keep[0]].w, v[pick->keep[1]].w)
                            : dvec3_neg(v[pick->keep[0]].w);
}

/* Triangle (ia, ib, ic) of s: Ericson's region tests, all divisions guarded. */
static dvec3 pick_triangle(const simplex *s, int ia, int ib, int ic, simplex_pick *pick)
{
    dvec3 a = s->vertices[ia].w, b = s->vertices[ib].w, c = s->vertices[ic].w;
    dvec3 ab = dvec3_sub(b, a), ac = dvec3_sub(c, a);
    double d1 = -dvec3_dot(ab, a), d2 = -dvec3_dot(ac, a);
    if (d1 <= 0.0 && d2 <= 0.0)
        return pick_vertex(s, ia, pick);
    double d3 = -dvec3_dot(ab, b), d4 = -dvec3_dot(ac, b);
    if (d3 >= 0.0 && d4 <= d3)
        return pick_vertex(s, ib, pick);
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0)
        return pick_edge(s, ia, ib, -d3, d1, pick);
    double d5 = -dvec3_dot(ab, c), d6 = -dvec3_dot(ac, c);
    if (d6 >= 0.0 && d5 <= d6)
        return pick_vertex(s, ic, pick);
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0)
        return pick_edge(s, ia, ic, -d6, d2, pick);
    double va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0)
        return pick_edge(s, ib, ic, d5 - d6, d4 - d3, pick);
    /* In exact arithmetic total == |ab x ac|^2; round-off leaves it a little positive for
       collinear vertices (a stale cached simplex along one line), whose face normal is zero:
       below a sine of 1e-7 between the edges, the triangle is a segment. */
    double total = va + vb + vc;
    if (!(total > 1e-14 * dvec3_length_sq(ab) * dvec3_length_sq(ac)))
        return pick_collinear(s, ia, ib, ic, pick);
    *pick = (simplex_pick){
        .keep = {ia, ib, ic}, .lambda = {va / total, vb / total, vc / total}, .count = 3};
    return face_direction(a, b, c);
}

/* Signed volume of (b - a, c - a, d - a). */
static double tetra_volume(dvec3 a, dvec3 b, dvec3 c, dvec3 d)
{
    return dvec3_dot(dvec3_sub(b, a), dvec3_cross(dvec3_sub(c, a), dvec3_sub(d, a)));
}

/* The closest face the origin is beyond; inside (all four weights 1/4) when beyond none. False
   when no face gave a comparable distance (NaN): s stays as it is. */
static bool pick_tetrahedron(const simplex *s, simplex_pick *pick, dvec3 *direction, bool *inside)
{
    static const int faces[4][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}};
    dvec3 w[4];
    for (int i = 0; i < 4; ++i)
        w[i] = s->vertices[i].w;
    double volume = tetra_volume(w[0], w[1], w[2], w[3]);
    double best_distance = INFINITY;
    bool outside_any = false, found = false;
    *direction = dvec3_make(0, 0, 0);
    for (int f = 0; f < 4; ++f) {
        const int *t = faces[f];
        /* The origin is beyond face f when it is on the other side from the fourth vertex.
           A flat tetrahedron (volume 0) has no inside: every face is a candidate. */
        double origin_side = tetra_volume(w[t[0]], w[t[1]], w[t[2]], dvec3_make(0, 0, 0));
        double vertex_side = tetra_volume(w[t[0]], w[t[1]], w[t[2]], w[t[3]]);
        if (volume != 0.0 && origin_side * vertex_side > 0.0)
            continue;
        outside_any = true;
        simplex_pick candidate;
        dvec3 candidate_direction = pick_triangle(s, t[0], t[1], t[2], &candidate);
        double distance = dvec3_length_sq(closest_of(s, &candidate));
        if (distance < best_distance) {
            best_distance = distance;
            *pick = candidate;
            *direction = candidate_direction;
            found = true;
        }
    }
    if (!outside_any) {
        *inside = true;
        *pick =
            (simplex_pick){.keep = {0, 1, 2, 3}, .lambda = {0.25, 0.25, 0.25, 0.25}, .count = 4};
        return true;
    }
    return found;
}

dvec3 simplex_closest(const simplex *s, simplex_pick *pick, dvec3 *closest, bool *inside)
{
    *inside = false;
    dvec3 direction;
    bool picked = true;
    switch (s->count) {
    case 1:
        direction = pick_vertex(s, 0, pick);
        break;
    case 2:
        direction = pick_segment(s, 0, 1, pick);
        break;
    case 3:
        direction = pick_triangle(s, 0, 1, 2, pick);
        break;
    default:
        picked = pick_tetrahedron(s, pick, &direction, inside);
        break;
    }
    if (!picked) { /* keep everything as it is */
        *pick = (simplex_pick){.keep = {0, 1, 2, 3}, .count = s->count};
        for (int i = 0; i < s->count; ++i)
            pick->lambda[i] = s->lambda[i];
    }
    *closest = *inside ? dvec3_make(0, 0, 0) : closest_of(s, pick);
    return direction;
}

dvec3 simplex_solve(simplex *s, dvec3 *closest, bool *inside)
{
    simplex_pick pick;
    dvec3 direction = simplex_closest(s, &pick, closest, inside);
    simplex_apply(s, &pick);
    return direction;
}
