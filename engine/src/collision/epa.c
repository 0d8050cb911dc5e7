/* Expanding polytope algorithm on the Minkowski difference of two cores. Fixed-size stores (no
   allocation), the closest live face found by a scan, silhouette expansion over face adjacency. */
#include "collision/epa.h"

#include <math.h>
#include <string.h>

static const double epa_relative_gap = 1e-6;

typedef struct epa_face {
    int vertex[3];   /* counter-clockwise seen from outside */
    int adjacent[3]; /* face across edge k (vertex[k] -> vertex[k + 1]) */
    int twin[3];     /* which edge of adjacent[k] is edge k reversed (no search when walking) */
    dvec3 normal;    /* unit, outwards */
    double distance; /* of the plane from the origin */
    bool obsolete;
} epa_face;

typedef struct horizon_edge {
    int face, edge;
} horizon_edge;

typedef struct polytope {
    /* One slot more than the store holds: each support point is written straight to the slot
       after the last vertex, and kept there only when it joins the polytope. */
    simplex_vertex vertices[EPA_MAX_VERTICES + 1];
    epa_face faces[EPA_MAX_FACES];
    horizon_edge horizon[EPA_MAX_FACES];
    int free_faces[EPA_MAX_FACES];
    /* Each face slot's distance, infinite once retired: the closest-face scan reads only these
       (8 bytes a face, not the whole face and its obsolete flag). */
    double live_distance[EPA_MAX_FACES];
    int vertex_count, face_count, horizon_count, free_count;
    double tolerance; /* distances below this are zero, metres */
} polytope;

/* The closest live face, or -1. A scan, not a heap: EPA keeps a few dozen faces and expands a
   handful of times, where pushing and popping every face cost more than looking at each. */
static int closest_face(const polytope *p)
{
    int best = -1;
    double best_distance = INFINITY;
    for (int f = 0; f < p->face_count; ++f)
        if (p->live_distance[f] < best_distance) {
            best_distance = p->live_distance[f];
            best = f;
        }
    return best;
}

/* A new face (a, b, c); -1 when the store is full or the triangle is degenerate. */
static inline int face_add(polytope *p, int a, int b, int c)
{
    dvec3 pa = p->vertices[a].w, pb = p->vertices[b].w, pc = p->vertices[c].w;
    dvec3 n = dvec3_cross(dvec3_sub(pb, pa), dvec3_sub(pc, pa));
    double length_sq = dvec3_length_sq(n);
    if (!(length_sq > 0.0)) /* as !(length > 0), decided without waiting for the root */
        return -1;
    double length = sqrt(length_sq);
    int index;
    if (p->free_count > 0)
        index = p->free_faces[--p->free_count];
    else if (p->face_count < EPA_MAX_FACES)
        index = p->face_count++;
    else
        return -1;
    epa_face *f = &p->faces[index];
    f->vertex[0] = a;
    f->vertex[1] = b;
    f->vertex[2] = c;
    f->normal = dvec3_scale(n, 1.0 / length);
    f->distance = dvec3_dot(f->normal, pa);
    f->obsolete = false;
    p->live_distance[index] = f->distance;
    return index;
}

static void face_retire(polytope *p, int face)
{
    p->faces[face].obsolete = true;
    p->live_distance[face] = INFINITY;
    p->free_faces[p->free_count++] = face;
}

/* Keeps the support point already written to the slot after the last vertex. */
static int vertex_add(polytope *p)
{
    if (p->vertex_count == EPA_MAX_VERTICES)
        return -1;
    return p->vertex_count++;
}

/* Links the tetrahedron's faces (on vertices 0-3): each directed edge belongs to one face, and
   the face across it owns the reversed edge, so a table by (from, to) finds it without a
   search over face pairs. */
static void link_tetrahedron(polytope *p, const int faces[4])
{
    int owner[4][4] = {{0}}, edge_of[4][4] = {{0}};
    for (int i = 0; i < 4; ++i) {
        const epa_face *f = &p->faces[faces[i]];
        for (int k = 0; k < 3; ++k) {
            owner[f->vertex[k]][f->vertex[(k + 1) % 3]] = faces[i];
            edge_of[f->vertex[k]][f->vertex[(k + 1) % 3]] = k;
        }
    }
    for (int i = 0; i < 4; ++i) {
        epa_face *f = &p->faces[faces[i]];
        for (int k = 0; k < 3; ++k) {
            f->adjacent[k] = owner[f->vertex[(k + 1) % 3]][f->vertex[k]];
            f->twin[k] = edge_of[f->vertex[(k + 1) % 3]][f->vertex[k]];
        }
    }
}

/* Any unit vector perpendicular to e (any length): crossed with the axis e leans on least. (A
   test of |e.x| < 0.57 assumed a unit e: a short segment along x crossed x itself, giving
   0 / 0, and EPA from identical shapes at identical poses saw no volume at all.) */
static dvec3 perpendicular(dvec3 e)
{
    double x = fabs(e.x), y = fabs(e.y), z = fabs(e.z);
    dvec3 axis = x <= y && x <= z ? dvec3_make(1, 0, 0)
                 : y <= z         ? dvec3_make(0, 1, 0)
                                  : dvec3_make(0, 0, 1);
    dvec3 u = dvec3_cross(e, axis);
    return dvec3_scale(u, 1.0 / sqrt(dvec3_length_sq(u)));
}

static double distance_to_line(dvec3 q, dvec3 a, dvec3 b)
{
    dvec3 e = dvec3_sub(b, a);
    return sqrt(dvec3_length_sq(dvec3_cross(e, dvec3_sub(q, a))) / dvec3_length_sq(e));
}

/* Grows GJK's simplex to a tetrahedron with supports in directions that must add volume: along
   the axes from a point, around a segment, to both sides of a triangle (origin's side first). */
static bool grow_to_tetrahedron(polytope *p, const support_pair *pair)
{
    simplex_vertex *v = p->vertices;
    double tol = p->tolerance;
    static const dvec3 axes[6] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                  {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
    if (p->vertex_count == 1)
        for (int k = 0; k < 6 && p->vertex_count == 1; ++k) {
            support_pair_vertex_into(pair, axes[k], &v[1]);
            if (sqrt(dvec3_length_sq(dvec3_sub(v[1].w, v[0].w))) > tol)
                p->vertex_count++;
        }
    if (p->vertex_count == 2) {
        dvec3 e = dvec3_sub(v[1].w, v[0].w);
        dvec3 u = perpendicular(e);
        dvec3 t = dvec3_cross(dvec3_scale(e, 1.0 / sqrt(dvec3_length_sq(e))), u);
        for (int k = 0; k < 6 && p->vertex_count == 2; ++k) {
            double angle = k * GLM_PI / 3.0;
            dvec3 d = dvec3_add(dvec3_scale(u, cos(angle)), dvec3_scale(t, sin(angle)));
            support_pair_vertex_into(pair, d, &v[2]);
            if (distance_to_line(v[2].w, v[0].w, v[1].w) > tol)
                p->vertex_count++;
        }
    }
    if (p->vertex_count == 3) {
        dvec3 n = dvec3_cross(dvec3_sub(v[1].w, v[0].w), dvec3_sub(v[2].w, v[0].w));
        n = dvec3_scale(n, 1.0 / sqrt(dvec3_length_sq(n)));
        if (dvec3_dot(n, v[0].w) > 0.0)
            n = dvec3_neg(n); /* towards the origin's side first */
        for (int side = 0; side < 2 && p->vertex_count == 3; ++side) {
            dvec3 d = side == 0 ? n : dvec3_neg(n);
            support_pair_vertex_into(pair, d, &v[3]);
            if (fabs(dvec3_dot(n, dvec3_sub(v[3].w, v[0].w))) > tol)
                p->vertex_count++;
        }
    }
    return p->vertex_count == 4;
}

/* The tetrahedron's four faces, wound outwards, linked, queued; false when the difference is
   flat (p->vertex_count < 4 tells its dimension). */
static bool polytope_init(polytope *p, const support_pair *pair, const simplex *s)
{
    for (int i = 0; i < s->count; ++i)
        p->vertices[p->vertex_count++] = s->vertices[i];
    if (!grow_to_tetrahedron(p, pair))
        return false;
    static const int corners[4][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}};
    int faces[4];
    for (int f = 0; f < 4; ++f) {
        const int *c = corners[f];
        dvec3 a = p->vertices[c[0]].w, b = p->vertices[c[1]].w, d = p->vertices[c[2]].w;
        dvec3 normal = dvec3_cross(dvec3_sub(b, a), dvec3_sub(d, a));
        bool flip = dvec3_dot(normal, dvec3_sub(p->vertices[c[3]].w, a)) > 0.0;
        faces[f] = face_add(p, c[0], flip ? c[2] : c[1], flip ? c[1] : c[2]);
        if (faces[f] < 0)
            return false;
    }
    link_tetrahedron(p, faces);
    /* The origin may lie a little outside (GJK stops within its touch distance of the simplex,
       further than this tolerance, and a cached simplex can pass anywhere near it): faces it
       is outside of come first, with negative distances, and expanding them grows the polytope
       around it. Giving up here called deep overlaps touching (depth 0 for two coincident
       cylinders warm-started from a nearby pose). */
    return true;
}

/* A flat difference (segment or polygon through the origin) has zero depth across its span:
   the normal is perpendicular to the segment or polygon; otherwise the fallback. */
static dvec3 flat_normal(const polytope *p, dvec3 fallback)
{
    const simplex_vertex *v = p->vertices;
    if (p->vertex_count == 3) {
        dvec3 n = dvec3_cross(dvec3_sub(v[1].w, v[0].w), dvec3_sub(v[2].w, v[0].w));
        if (dvec3_length_sq(n) > 0.0)
            return dvec3_dot(n, fallback) < 0.0 ? dvec3_neg(n) : n;
    }
    if (p->vertex_count == 2) {
        dvec3 e = dvec3_sub(v[1].w, v[0].w);
        if (dvec3_length_sq(e) > 0.0) {
            /* The fallback's part across the segment, or any perpendicular. */
            dvec3 across =
                dvec3_sub(fallback, dvec3_scale(e, dvec3_dot(fallback, e) / dvec3_length_sq(e)));
            return dvec3_length_sq(across) > 1e-12 * dvec3_length_sq(fallback) ? across
                                                                               : perpendicular(e);
        }
    }
    return fallback;
}

/* The cores touch without overlapping volume: depth 0 at GJK's closest points. */
static epa_result touching_result(const polytope *p, const simplex *s, dvec3 fallback_normal)
{
    epa_result r = {.status = EPA_TOUCHING, .depth = 0.0};
    dvec3 normal = p->vertex_count < 4 ? flat_normal(p, fallback_normal) : fallback_normal;
    double length = sqrt(dvec3_length_sq(normal));
    r.normal = length > 0.0 ? dvec3_scale(normal, 1.0 / length) : dvec3_make(0, 1, 0);
    double total = 0.0;
    for (int i = 0; i < s->count; ++i)
        total += s->lambda[i];
    for (int i = 0; i < s->count; ++i) {
        double weight = total > 0.0 ? s->lambda[i] / total : 1.0 / s->count;
        r.point_a = dvec3_add(r.point_a, dvec3_scale(s->vertices[i].a, weight));
        r.point_b = dvec3_add(r.point_b, dvec3_scale(s->vertices[i].b, weight));
    }
    /* Both witnesses at their midpoint, so point_a - point_b == depth * normal exactly. */
    dvec3 mid = dvec3_scale(dvec3_add(r.point_a, r.point_b), 0.5);
    r.point_a = r.point_b = mid;
    return r;
}

/* Depth-first over the faces visible from w, from the neighbours of the retired face `face`,
   collecting the horizon in order. An explicit stack, not recursion (a call per face visited cost
   more than the visit): each face's second neighbour waits under its first, so the faces are
   visited, and the horizon listed, in the order the recursive walk had. */
static void silhouette(polytope *p, int face, dvec3 w)
{
    static const int mod3[5] = {0, 1, 2, 0, 1};
    horizon_edge stack[EPA_MAX_FACES + 3]; /* a visit pops one and pushes two */
    int depth = 0;
    const epa_face *retired = &p->faces[face];
    for (int k = 2; k >= 0; --k)
        stack[depth++] = (horizon_edge){retired->adjacent[k], retired->twin[k]};
    while (depth > 0) {
        horizon_edge at = stack[--depth];
        const epa_face *f = &p->faces[at.face];
        if (f->obsolete)
            continue;
        /* w's height over the face's plane, from the face alone (its distance, not a vertex
           read through its index) */
        if (dvec3_dot(f->normal, w) - f->distance <= p->tolerance) {
            p->horizon[p->horizon_count++] = at;
            continue;
        }
        face_retire(p, at.face);
        for (int k = 2; k >= 1; --k) {
            int next = mod3[at.edge + k];
            stack[depth++] = (horizon_edge){f->adjacent[next], f->twin[next]};
        }
    }
}

/* Links the new faces (a_k, b_k, w) around w: the horizon is one closed loop, so b_k starts
   exactly one other face, found through a table indexed by vertex (O(h), no pair search). The
   fan's a_k and b_k come as arrays (not read back from the faces). */
static bool link_fan(polytope *p, const int *fan, const int *from, const int *to, int count)
{
    int starting_at[EPA_MAX_VERTICES];
    for (int k = 0; k < count; ++k)
        starting_at[to[k]] = -1;
    for (int k = 0; k < count; ++k)
        starting_at[from[k]] = fan[k];
    for (int k = 0; k < count; ++k) {
        epa_face *f = &p->faces[fan[k]];
        int next = starting_at[to[k]];
        if (next < 0)
            return false;      /* the horizon is not one loop: numerical trouble */
        f->adjacent[1] = next; /* b_k -> w */
        f->twin[1] = 2;
        p->faces[next].adjacent[2] = fan[k]; /* w -> a_next, with a_next == b_k */
        p->faces[next].twin[2] = 1;
    }
    return true;
}

/* Replaces the faces visible from new vertex w_index by a fan to the horizon. */
static bool expand(polytope *p, int face, int w_index)
{
    p->horizon_count = 0;
    face_retire(p, face);
    silhouette(p, face, p->vertices[w_index].w);
    static const int next_edge[3] = {1, 2, 0};
    int fan[EPA_MAX_FACES], from[EPA_MAX_FACES], to[EPA_MAX_FACES];
    for (int h = 0; h < p->horizon_count; ++h) {
        const horizon_edge *e = &p->horizon[h];
        const epa_face *g = &p->faces[e->face];
        /* The new face runs along the horizon edge in the opposite direction to g's. */
        from[h] = g->vertex[next_edge[e->edge]];
        to[h] = g->vertex[e->edge];
        int created = face_add(p, from[h], to[h], w_index);
        if (created < 0)
            return false;
        fan[h] = created;
        p->faces[created].adjacent[0] = e->face;
        p->faces[created].twin[0] = e->edge;
        p->faces[e->face].adjacent[e->edge] = created;
        p->faces[e->face].twin[e->edge] = 0;
    }
    if (!link_fan(p, fan, from, to, p->horizon_count))
        return false;
    return p->horizon_count >= 3;
}

/* Barycentric weights (u, v, t) of the origin's projection q onto face f's plane. */
static void face_weights(const polytope *p, const epa_face *f, double weights[3])
{
    dvec3 a = p->vertices[f->vertex[0]].w, b = p->vertices[f->vertex[1]].w,
          c = p->vertices[f->vertex[2]].w;
    dvec3 q = dvec3_scale(f->normal, f->distance);
    dvec3 n = dvec3_cross(dvec3_sub(b, a), dvec3_sub(c, a));
    double area = dvec3_length_sq(n);
    weights[0] = dvec3_dot(n, dvec3_cross(dvec3_sub(b, q), dvec3_sub(c, q))) / area;
    weights[1] = dvec3_dot(n, dvec3_cross(dvec3_sub(c, q), dvec3_sub(a, q))) / area;
    weights[2] = 1.0 - weights[0] - weights[1];
}

static bool weights_inside(const double weights[3])
{
    const double slack = -1e-9;
    return weights[0] >= slack && weights[1] >= slack && weights[2] >= slack;
}

/* Coplanar triangles tie on distance, and the origin projects into only one of them: the one
   whose vertices lie on the features of A and B that really touch. Find it among the live
   faces in the closest face's plane. The weights are left for the face returned. */
static epa_face face_containing_projection(const polytope *p, epa_face face, double weights[3])
{
    face_weights(p, &face, weights);
    if (weights_inside(weights))
        return face;
    for (int g = 0; g < p->face_count; ++g) {
        const epa_face *other = &p->faces[g];
        if (other->obsolete || dvec3_dot(other->normal, face.normal) < 1.0 - 1e-9 ||
            fabs(other->distance - face.distance) > p->tolerance)
            continue;
        double other_weights[3];
        face_weights(p, other, other_weights);
        if (weights_inside(other_weights)) {
            for (int k = 0; k < 3; ++k)
                weights[k] = other_weights[k];
            return *other;
        }
    }
    return face;
}

/* The result at face f (a copy: its slot may have been recycled since): witnesses from the
   barycentric weights of the origin's projection, clamped into the triangle when round-off puts
   it just outside. */
static epa_result face_result(const polytope *p, epa_face face, epa_status status, int iterations)
{
    double weights[3];
    epa_face f = face_containing_projection(p, face, weights);
    const simplex_vertex *a = &p->vertices[f.vertex[0]], *b = &p->vertices[f.vertex[1]],
                         *c = &p->vertices[f.vertex[2]];
    double u = fmin(fmax(weights[0], 0.0), 1.0);
    double v = fmin(fmax(weights[1], 0.0), 1.0 - u);
    double t = 1.0 - u - v;
    epa_result r = {.status = status, .normal = f.normal, .iterations = iterations};
    r.depth = fmax(f.distance, 0.0);
    r.point_a =
        dvec3_add(dvec3_add(dvec3_scale(a->a, u), dvec3_scale(b->a, v)), dvec3_scale(c->a, t));
    r.point_b =
        dvec3_add(dvec3_add(dvec3_scale(a->b, u), dvec3_scale(b->b, v)), dvec3_scale(c->b, t));
    return r;
}

enum { EPA_REFINE_SEEDS = 12 };

/* The normals of the closest live faces (at most EPA_REFINE_SEEDS): the closest point of the
   difference's boundary lies beyond one of the faces nearer than the upper bound. */
static int closest_normals(const polytope *p, dvec3 *normals)
{
    double distances[EPA_REFINE_SEEDS];
    int count = 0;
    for (int f = 0; f < p->face_count; ++f) {
        const epa_face *face = &p->faces[f];
        if (face->obsolete)
            continue;
        if (count == EPA_REFINE_SEEDS && !(face->distance < distances[count - 1]))
            continue;
        int at = count < EPA_REFINE_SEEDS ? count++ : count - 1;
        for (; at > 0 && distances[at - 1] > face->distance; --at) {
            distances[at] = distances[at - 1];
            normals[at] = normals[at - 1];
        }
        distances[at] = face->distance;
        normals[at] = face->normal;
    }
    return count;
}

/* What expansion has proved so far. The depth lies between the two: the lower bound is the
   distance of the closest face of a convex polytope inside the difference (it never decreases),
   the upper bound the smallest support value seen: moving B that far along its normal does
   separate the cores, so it is an answer, if not the best one. */
typedef struct epa_bounds {
    epa_face lower_face;
    depth_bound upper;
} epa_bounds;

/* The answer along the upper bound's normal, at its depth: a real separation. The witnesses are
   its support points, which touch once B has moved by it, or the closest face's when that face
   lies along the same normal (they sit where the origin projects, not on a corner). */
static epa_result upper_result(const polytope *p, const epa_bounds *bounds, epa_status status,
                               int iterations)
{
    epa_result r = face_result(p, bounds->lower_face, status, iterations);
    if (dvec3_dot(r.normal, bounds->upper.normal) >= 1.0 - 1e-12 &&
        bounds->upper.depth - r.depth <= p->tolerance)
        return r;
    r.normal = bounds->upper.normal;
    r.depth = fmax(bounds->upper.depth, 0.0);
    r.point_a = bounds->upper.vertex.a;
    r.point_b = bounds->upper.vertex.b;
    return r;
}

/* Stopped before the bounds met: the upper bound is a real separation, the lower bound is not
   (B moved by it still overlaps), so the answer is the upper bound, refined, along its own
   normal. The witnesses are its support points, which touch once B has moved by it. */
static epa_result bound_result(const polytope *p, const support_pair *pair, epa_bounds *bounds,
                               int iterations)
{
    dvec3 seeds[EPA_REFINE_SEEDS];
    int seed_count = closest_normals(p, seeds);
    depth_refine(pair, seeds, seed_count, &bounds->upper);
    return upper_result(p, bounds, EPA_LIMIT, iterations);
}

/* The upper bound's vertex, from where the loop left it (none when no support value was below
   infinity). */
static void upper_vertex_copy(const polytope *p, epa_bounds *bounds, int upper_vertex)
{
    if (upper_vertex >= 0)
        bounds->upper.vertex = p->vertices[upper_vertex];
}

static epa_result epa_run(polytope *p, const support_pair *pair, const simplex *s,
                          dvec3 fallback_normal)
{
    p->vertex_count = p->face_count = p->free_count = 0;
    p->tolerance = 1e-7 * support_pair_scale(pair);
    if (!polytope_init(p, pair, s))
        return touching_result(p, s, fallback_normal);
    epa_bounds bounds = {.upper = {.depth = INFINITY}};
    /* The upper bound's vertex stays in the store (or in the slot after it, until the loop
       ends) and is copied out only when an answer needs it. */
    int upper_vertex = -1;
    int iterations = 0;
    while (iterations < EPA_MAX_ITERATIONS) {
        int face = closest_face(p);
        if (face < 0)
            break;
        bounds.lower_face = p->faces[face];
        ++iterations;
        const simplex_vertex *w = &p->vertices[p->vertex_count];
        support_pair_vertex_into(pair, bounds.lower_face.normal, &p->vertices[p->vertex_count]);
        double support = dvec3_dot(bounds.lower_face.normal, w->w);
        if (support < bounds.upper.depth) {
            bounds.upper.normal = bounds.lower_face.normal;
            bounds.upper.depth = support;
            upper_vertex = p->vertex_count;
        }
        /* Stop when the support bound and the face distance agree (the upper-bound gap). The
           face's own normal is the answer only when its own support agrees too: a long face
           can lie within the gap of the depth while tilted (a 100 m plate: 6e-3 rad, which
           doubles the overlap along it); otherwise the normal of the upper bound is. */
        double gap = epa_relative_gap * fabs(bounds.upper.depth) + p->tolerance;
        if (bounds.upper.depth - bounds.lower_face.distance <= gap) {
            if (support - bounds.lower_face.distance <= gap)
                return face_result(p, bounds.lower_face, EPA_CONVERGED, iterations);
            upper_vertex_copy(p, &bounds, upper_vertex);
            return upper_result(p, &bounds, EPA_CONVERGED, iterations);
        }
        int w_index = vertex_add(p);
        if (w_index < 0 || !expand(p, face, w_index)) {
            upper_vertex_copy(p, &bounds, upper_vertex);
            return bound_result(p, pair, &bounds, iterations);
        }
    }
    if (iterations == 0)
        return touching_result(p, s, fallback_normal);
    upper_vertex_copy(p, &bounds, upper_vertex);
    return bound_result(p, pair, &bounds, iterations);
}

epa_result epa_penetration(const support_pair *pair, const simplex *s, dvec3 fallback_normal)
{
    polytope p;
    return epa_run(&p, pair, s, fallback_normal);
}

epa_result epa_penetration_faces(const support_pair *pair, const simplex *s, dvec3 fallback_normal,
                                 epa_face_fn *fn, void *context)
{
    polytope p;
    epa_result result = epa_run(&p, pair, s, fallback_normal);
    for (int i = 0; i < p.face_count; ++i) {
        const epa_face *f = &p.faces[i];
        if (!f->obsolete)
            fn(context, p.vertices[f->vertex[0]].w, p.vertices[f->vertex[1]].w,
               p.vertices[f->vertex[2]].w);
    }
    return result;
}
