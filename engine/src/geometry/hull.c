/* Quickhull in double precision with thick planes and face merging during construction, then a
   compact half-edge output (one allocation) and support mappings over it. */
#include "geometry/hull.h"

#include "core/alloc.h"
#include "core/error.h"

#include <float.h>
#include <math.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* ---- double-precision vectors (the build never rounds to float until the output) ---- */

typedef struct dvec {
    double x, y, z;
} dvec;

static inline dvec dv(vec3s v)
{
    return (dvec){v.x, v.y, v.z};
}

static inline dvec dv_sub(dvec a, dvec b)
{
    return (dvec){a.x - b.x, a.y - b.y, a.z - b.z};
}

static inline dvec dv_add(dvec a, dvec b)
{
    return (dvec){a.x + b.x, a.y + b.y, a.z + b.z};
}

static inline dvec dv_scale(dvec a, double s)
{
    return (dvec){a.x * s, a.y * s, a.z * s};
}

static inline double dv_dot(dvec a, dvec b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

static inline dvec dv_cross(dvec a, dvec b)
{
    return (dvec){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

static inline double dv_length(dvec a)
{
    return sqrt(dv_dot(a, a));
}

/* ---- a growable int array (amortised doubling; the shared one is not ready yet) ---- */

typedef struct int_buffer {
    int *data;
    int count;
    int capacity;
} int_buffer;

/* Grows *data (item bytes each) to hold at least `needed` items; false when out of memory. */
static bool grow(void **data, int *capacity, size_t item, int needed)
{
    if (needed <= *capacity)
        return true;
    int capacity_new = *capacity < 16 ? 16 : *capacity;
    while (capacity_new < needed)
        capacity_new *= 2;
    void *grown = mem_realloc(*data, (size_t)*capacity * item, (size_t)capacity_new * item);
    if (grown == NULL)
        return false;
    *data = grown;
    *capacity = capacity_new;
    return true;
}

static bool ibuf_push(int_buffer *buffer, int value)
{
    if (!grow((void **)&buffer->data, &buffer->capacity, sizeof(int), buffer->count + 1))
        return false;
    buffer->data[buffer->count++] = value;
    return true;
}

static void ibuf_free(int_buffer *buffer)
{
    mem_free(buffer->data, (size_t)buffer->capacity * sizeof(int));
    *buffer = (int_buffer){0};
}

/* ---- the working mesh ---- */

enum face_mark { FACE_LIVE, FACE_NONCONVEX, FACE_DELETED, FACE_FREE };
enum merge_kind { MERGE_NONCONVEX_WRT_LARGER, MERGE_NONCONVEX };

typedef struct qh_face {
    dvec normal;
    double offset;
    dvec centroid;
    double area;
    int edge;         /* any half-edge of the loop; the free-list link when FACE_FREE */
    int outside;      /* head of the outside set (the farthest point), -1 when empty */
    int vertex_count; /* loop length */
    int mark;
} qh_face;

/* Half-edge from `origin` to origin(next), face on the left; next is the free-list link when
   the edge is free. */
typedef struct qh_edge {
    int origin, twin, next, prev, face;
} qh_edge;

typedef struct builder {
    dvec *points;
    int count;
    double tolerance;
    double width;    /* the cloud's extent across the first triangle's plane */
    int *point_next; /* links of the outside sets */
    qh_face *faces;
    int face_count, face_capacity, free_face;
    qh_edge *edges;
    int edge_count, edge_capacity, free_edge;
    int_buffer pending;   /* faces that received outside points (may hold stale ids) */
    int_buffer horizon;   /* horizon half-edges, counter-clockwise seen from the eye */
    int_buffer stack;     /* explicit DFS stack for the horizon: (face, stop, current) */
    int_buffer new_faces; /* the cone of the current iteration */
    int_buffer unclaimed; /* points of deleted faces, to reassign */
    int_buffer dead;      /* faces deleted in the current iteration, freed at its end */
} builder;

/* Planes are built as thick as a quarter of the promised tolerance: a point dropped as "on a
   plane" can end up a little further in front once later merges tilt that plane (measured up to
   2.7 build thicknesses on adversarial clouds), and the contract must still hold. */
#define BUILD_FRACTION 0.25

static inline qh_edge *E(builder *b, int e)
{
    return &b->edges[e];
}

static inline qh_face *F(builder *b, int f)
{
    return &b->faces[f];
}

static inline int twin_face(builder *b, int e)
{
    return b->edges[b->edges[e].twin].face;
}

static inline bool face_alive(const builder *b, int f)
{
    return b->faces[f].mark == FACE_LIVE || b->faces[f].mark == FACE_NONCONVEX;
}

static inline double face_distance(builder *b, int f, dvec p)
{
    return dv_dot(b->faces[f].normal, p) - b->faces[f].offset;
}

/* -1 when out of memory. Free slots are reused so memory stays proportional to the hull. */
static int new_face(builder *b)
{
    int f = b->free_face;
    if (f >= 0) {
        b->free_face = b->faces[f].edge;
    } else {
        if (!grow((void **)&b->faces, &b->face_capacity, sizeof(qh_face), b->face_count + 1))
            return -1;
        f = b->face_count++;
    }
    b->faces[f] = (qh_face){.edge = -1, .outside = -1, .mark = FACE_LIVE};
    return f;
}

static void release_face(builder *b, int f)
{
    b->faces[f].mark = FACE_FREE;
    b->faces[f].edge = b->free_face;
    b->free_face = f;
}

static int new_edge(builder *b)
{
    int e = b->free_edge;
    if (e >= 0) {
        b->free_edge = b->edges[e].next;
    } else {
        if (!grow((void **)&b->edges, &b->edge_capacity, sizeof(qh_edge), b->edge_count + 1))
            return -1;
        e = b->edge_count++;
    }
    b->edges[e] = (qh_edge){-1, -1, -1, -1, -1};
    return e;
}

static void release_edge(builder *b, int e)
{
    b->edges[e] = (qh_edge){-1, -1, b->free_edge, -1, -1};
    b->free_edge = e;
}

/* Newell's method about the centroid: the best plane of a slightly non-planar polygon. */
static void face_update_plane(builder *b, int f)
{
    qh_face *face = F(b, f);
    dvec sum = {0, 0, 0};
    int n = 0;
    int e = face->edge;
    do {
        sum = dv_add(sum, b->points[E(b, e)->origin]);
        n++;
        e = E(b, e)->next;
    } while (e != face->edge);
    dvec centroid = dv_scale(sum, 1.0 / n);
    dvec normal = {0, 0, 0};
    do {
        dvec p = dv_sub(b->points[E(b, e)->origin], centroid);
        dvec q = dv_sub(b->points[E(b, E(b, e)->next)->origin], centroid);
        normal = dv_add(normal, dv_cross(p, q));
        e = E(b, e)->next;
    } while (e != face->edge);
    double length = dv_length(normal);
    face->area = 0.5 * length;
    face->normal = length > 0 ? dv_scale(normal, 1.0 / length) : (dvec){0, 0, 0};
    face->centroid = centroid;
    face->offset = dv_dot(face->normal, centroid);
    face->vertex_count = n;
}

/* Triangle (a, b, c) counter-clockwise from outside; twins are left to the caller. */
static int make_triangle(builder *b, int a, int v1, int v2, int edges_out[3])
{
    int f = new_face(b);
    if (f < 0)
        return -1;
    int vertices[3] = {a, v1, v2};
    for (int i = 0; i < 3; i++) {
        edges_out[i] = new_edge(b);
        if (edges_out[i] < 0)
            return -1;
    }
    for (int i = 0; i < 3; i++) {
        qh_edge *edge = E(b, edges_out[i]);
        edge->origin = vertices[i];
        edge->face = f;
        edge->next = edges_out[(i + 1) % 3];
        edge->prev = edges_out[(i + 2) % 3];
    }
    F(b, f)->edge = edges_out[0];
    face_update_plane(b, f);
    return f;
}

static void link_twins(builder *b, int e0, int e1)
{
    E(b, e0)->twin = e1;
    E(b, e1)->twin = e0;
}

/* Keeps the farthest point at the head so choosing the next eye is O(1). */
static bool add_outside(builder *b, int f, int p)
{
    qh_face *face = F(b, f);
    if (face->outside < 0) {
        b->point_next[p] = -1;
        face->outside = p;
        return ibuf_push(&b->pending, f);
    }
    int head = face->outside;
    if (face_distance(b, f, b->points[p]) > face_distance(b, f, b->points[head])) {
        b->point_next[p] = head;
        face->outside = p;
    } else {
        b->point_next[p] = b->point_next[head];
        b->point_next[head] = p;
    }
    return true;
}

/* Moves a deleted face's outside points to `into` when above it, else to the unclaimed list. */
static bool move_outside_points(builder *b, int f, int into)
{
    int p = F(b, f)->outside;
    F(b, f)->outside = -1;
    while (p >= 0) {
        int next = b->point_next[p];
        bool ok = (into >= 0 && face_distance(b, into, b->points[p]) > b->tolerance)
                      ? add_outside(b, into, p)
                      : ibuf_push(&b->unclaimed, p);
        if (!ok)
            return false;
        p = next;
    }
    return true;
}

/* ---- initial simplex and degeneracy checks ---- */

static bool find_simplex(builder *b, int out[4])
{
    const dvec *pts = b->points;
    int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (int i = 1; i < b->count; i++) {
        double c[3] = {pts[i].x, pts[i].y, pts[i].z};
        for (int k = 0; k < 3; k++) {
            double l[3] = {pts[lo[k]].x, pts[lo[k]].y, pts[lo[k]].z};
            double h[3] = {pts[hi[k]].x, pts[hi[k]].y, pts[hi[k]].z};
            lo[k] = c[k] < l[k] ? i : lo[k];
            hi[k] = c[k] > h[k] ? i : hi[k];
        }
    }
    /* The widest axis gives two far-apart points. */
    double best = -1;
    for (int k = 0; k < 3; k++) {
        double d = dv_length(dv_sub(pts[hi[k]], pts[lo[k]]));
        if (d > best) {
            best = d;
            out[0] = lo[k];
            out[1] = hi[k];
        }
    }
    if (best <= b->tolerance)
        return error_set("hull_build: all %d points coincide (within tolerance %g)", b->count,
                         b->tolerance);
    dvec axis = dv_scale(dv_sub(pts[out[1]], pts[out[0]]), 1.0 / best);
    best = -1;
    for (int i = 0; i < b->count; i++) {
        double d = dv_length(dv_cross(dv_sub(pts[i], pts[out[0]]), axis));
        if (d > best) {
            best = d;
            out[2] = i;
        }
    }
    if (best <= b->tolerance)
        return error_set("hull_build: all %d points are collinear (within tolerance %g)", b->count,
                         b->tolerance);
    dvec normal = dv_cross(dv_sub(pts[out[1]], pts[out[0]]), dv_sub(pts[out[2]], pts[out[0]]));
    normal = dv_scale(normal, 1.0 / dv_length(normal));
    best = -1;
    double above = 0, below = 0;
    for (int i = 0; i < b->count; i++) {
        double signed_height = dv_dot(dv_sub(pts[i], pts[out[0]]), normal);
        above = fmax(above, signed_height);
        below = fmin(below, signed_height);
        if (fabs(signed_height) > best) {
            best = fabs(signed_height);
            out[3] = i;
        }
    }
    /* The promised tolerance, not the build's thinner planes: a cloud thinner than it would only
       merge flat later (faces back to back), and the contract calls it coplanar. */
    double promised = b->tolerance / BUILD_FRACTION;
    b->width = above - below;
    if (above - below <= promised)
        return error_set("hull_build: all %d points are coplanar (within tolerance %g)", b->count,
                         promised);
    return true;
}

/* Four triangles of the tetrahedron, wound so that every normal points away from the 4th point. */
static bool make_simplex(builder *b, const int v[4])
{
    const dvec *pts = b->points;
    dvec normal = dv_cross(dv_sub(pts[v[1]], pts[v[0]]), dv_sub(pts[v[2]], pts[v[0]]));
    bool above = dv_dot(normal, dv_sub(pts[v[3]], pts[v[0]])) > 0;
    int a = v[0], c = v[3];
    int p = above ? v[2] : v[1], q = above ? v[1] : v[2]; /* base a, p, q faces away from c */
    int tri[4][3] = {{a, p, q}, {c, p, a}, {c, q, p}, {c, a, q}};
    int edges[4][3], faces[4];
    for (int i = 0; i < 4; i++) {
        faces[i] = make_triangle(b, tri[i][0], tri[i][1], tri[i][2], edges[i]);
        if (faces[i] < 0)
            return false;
    }
    /* Twins: the half-edge u->w pairs with the one w->u. */
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 3; k++)
            for (int j = 0; j < 4; j++)
                for (int m = 0; m < 3; m++)
                    if (tri[j][m] == tri[i][(k + 1) % 3] && tri[j][(m + 1) % 3] == tri[i][k])
                        E(b, edges[i][k])->twin = edges[j][m];
    return true;
}

/* Each point goes to the face it is farthest above; points inside are dropped for good. */
static bool assign_initial_points(builder *b, const int simplex[4])
{
    for (int i = 0; i < b->count; i++) {
        if (i == simplex[0] || i == simplex[1] || i == simplex[2] || i == simplex[3])
            continue;
        int best_face = -1;
        double best = b->tolerance;
        for (int f = 0; f < 4; f++) {
            double d = face_distance(b, f, b->points[i]);
            if (d > best) {
                best = d;
                best_face = f;
            }
        }
        if (best_face >= 0 && !add_outside(b, best_face, i))
            return false;
    }
    return true;
}

/* ---- one iteration: horizon, cone, merges, reassignment ---- */

static bool delete_visible_face(builder *b, int f)
{
    F(b, f)->mark = FACE_DELETED;
    return ibuf_push(&b->dead, f) && move_outside_points(b, f, -1);
}

static bool push_frame(builder *b, int f, int stop, int current)
{
    return ibuf_push(&b->stack, f) && ibuf_push(&b->stack, stop) && ibuf_push(&b->stack, current);
}

/* Depth-first walk over the faces the eye sees; the horizon comes out as a closed,
   counter-clockwise chain of half-edges of visible faces. */
static bool compute_horizon(builder *b, dvec eye, int start)
{
    b->horizon.count = 0;
    b->stack.count = 0;
    if (!delete_visible_face(b, start) || !push_frame(b, start, F(b, start)->edge, -1))
        return false;
    while (b->stack.count > 0) {
        int *frame = &b->stack.data[b->stack.count - 3];
        int e = frame[2] < 0 ? frame[1] : frame[2];
        if (frame[2] >= 0 && e == frame[1]) {
            b->stack.count -= 3;
            continue;
        }
        frame[2] = E(b, e)->next;
        int other = twin_face(b, e);
        if (!face_alive(b, other))
            continue;
        if (face_distance(b, other, eye) > b->tolerance) {
            int twin = E(b, e)->twin;
            if (!delete_visible_face(b, other) || !push_frame(b, other, twin, E(b, twin)->next))
                return false;
        } else if (!ibuf_push(&b->horizon, e)) {
            return false;
        }
    }
    return true;
}

/* Thick planes should always give a visible region without holes; if rounding ever breaks that,
   fail loudly rather than build a broken mesh. */
static bool horizon_broken(void)
{
    return error_set("hull_build: numerical failure (the visible region is not a disk); "
                     "try a larger tolerance");
}

/* A fan of triangles from the eye to every horizon edge. */
static bool add_cone(builder *b, int eye)
{
    b->new_faces.count = 0;
    int first_side = -1, previous_side = -1;
    for (int i = 0; i < b->horizon.count; i++) {
        int h = b->horizon.data[i];
        int outer = E(b, h)->twin;
        int a = E(b, h)->origin, c = E(b, outer)->origin;
        int edges[3];
        int f = make_triangle(b, eye, a, c, edges);
        if (f < 0 || !ibuf_push(&b->new_faces, f))
            return false;
        link_twins(b, edges[1], outer);
        if (previous_side >= 0 && E(b, previous_side)->origin != a)
            return horizon_broken();
        if (previous_side >= 0)
            link_twins(b, previous_side, edges[0]);
        else
            first_side = edges[0];
        previous_side = edges[2];
    }
    if (E(b, previous_side)->origin != E(b, E(b, first_side)->next)->origin)
        return horizon_broken();
    link_twins(b, previous_side, first_side);
    return true;
}

/* Height of the neighbour's centroid above e's face: > -tolerance means not clearly convex. */
static double neighbour_height(builder *b, int e)
{
    return face_distance(b, E(b, e)->face, F(b, twin_face(b, e))->centroid);
}

/* Removes the vertex between consecutive edges prev_edge and edge of face f when both border
   the same face (it would have only two faces). Returns a face that collapsed, or -1. */
static int connect_edges(builder *b, int f, int prev_edge, int edge)
{
    if (twin_face(b, prev_edge) != twin_face(b, edge)) {
        E(b, prev_edge)->next = edge;
        E(b, edge)->prev = prev_edge;
        return -1;
    }
    int other = twin_face(b, edge);
    int discarded = -1, twin_new;
    int x = E(b, edge)->twin;
    if (F(b, f)->edge == prev_edge)
        F(b, f)->edge = edge;
    if (F(b, other)->vertex_count == 3) {
        /* The neighbour collapses to the single edge opposite the removed vertex. */
        twin_new = E(b, E(b, x)->prev)->twin;
        F(b, other)->mark = FACE_DELETED;
        discarded = other;
        release_edge(b, E(b, x)->prev);
        release_edge(b, E(b, x)->next);
    } else {
        twin_new = E(b, x)->next;
        if (F(b, other)->edge == x)
            F(b, other)->edge = twin_new;
        E(b, twin_new)->prev = E(b, x)->prev;
        E(b, E(b, x)->prev)->next = twin_new;
        E(b, twin_new)->origin = E(b, x)->origin;
    }
    E(b, edge)->prev = E(b, prev_edge)->prev;
    E(b, E(b, edge)->prev)->next = edge;
    E(b, edge)->origin = E(b, prev_edge)->origin;
    link_twins(b, edge, twin_new);
    release_edge(b, x);
    release_edge(b, prev_edge);
    if (discarded < 0)
        face_update_plane(b, other);
    return discarded;
}

/* Releases the half-edges from `first` up to (not including) `stop`. */
static void release_chain(builder *b, int first, int stop)
{
    for (int e = first; e != stop;) {
        int next = E(b, e)->next;
        release_edge(b, e);
        e = next;
    }
}

/* The half-edges just outside the chain f shares with the face across `shared`: in f before
   and after it (adj), and in the other face before and after it (opp). `whole`: the two faces
   share every edge (two faces back to back, from nearly flat input), so there is no outside. */
typedef struct chain_ends {
    int adj_prev, adj_next, opp_prev, opp_next;
    bool whole;
} chain_ends;

static chain_ends shared_chain(builder *b, int shared)
{
    int other = twin_face(b, shared), opposite = E(b, shared)->twin;
    chain_ends c = {E(b, shared)->prev, E(b, shared)->next, E(b, opposite)->prev,
                    E(b, opposite)->next, false};
    while (twin_face(b, c.adj_prev) == other) {
        if (c.adj_prev == shared) {
            c.whole = true;
            return c;
        }
        c.adj_prev = E(b, c.adj_prev)->prev;
        c.opp_next = E(b, c.opp_next)->next;
    }
    while (twin_face(b, c.adj_next) == other) {
        c.opp_prev = E(b, c.opp_prev)->prev;
        c.adj_next = E(b, c.adj_next)->next;
    }
    return c;
}

/* Absorbs the face across half-edge `shared` into f (the whole common chain goes). */
static bool merge_across(builder *b, int f, int shared)
{
    int other = twin_face(b, shared);
    int discarded_start = b->dead.count;
    F(b, other)->mark = FACE_DELETED;
    if (!ibuf_push(&b->dead, other))
        return false;
    chain_ends ends = shared_chain(b, shared);
    int adj_prev = ends.adj_prev, adj_next = ends.adj_next;
    int opp_prev = ends.opp_prev, opp_next = ends.opp_next;
    for (int e = opp_next; e != E(b, opp_prev)->next; e = E(b, e)->next)
        E(b, e)->face = f;
    release_chain(b, E(b, adj_prev)->next, adj_next);
    release_chain(b, E(b, opp_prev)->next, opp_next);
    F(b, f)->edge = adj_next;
    int collapsed = connect_edges(b, f, opp_prev, adj_next);
    if (collapsed >= 0 && !ibuf_push(&b->dead, collapsed))
        return false;
    collapsed = connect_edges(b, f, adj_prev, opp_next);
    if (collapsed >= 0 && !ibuf_push(&b->dead, collapsed))
        return false;
    face_update_plane(b, f);
    for (int i = discarded_start; i < b->dead.count; i++)
        if (!move_outside_points(b, b->dead.data[i], f))
            return false;
    return true;
}

/* Half-edges from `first` to `last` (inclusive) along next. */
static int run_length(builder *b, int first, int last)
{
    int count = 1;
    for (int e = first; e != last; e = E(b, e)->next)
        count++;
    return count;
}

/* Whether the face beyond junction half-edge `to` is a triangle whose third edge borders face f
   or g: the junction would collapse it into an edge of the merged face with itself. */
static bool triangle_wraps(builder *b, int to, int f, int g)
{
    int x = E(b, to)->twin;
    if (F(b, E(b, x)->face)->vertex_count != 3)
        return false;
    int third = twin_face(b, E(b, x)->prev);
    return third == f || third == g;
}

/* The face beyond both half-edges of a junction of the merged loop (from, then to), or -1 when
   they border different faces (then the junction vertex keeps three faces). */
static int junction_neighbour(builder *b, int from, int to)
{
    int face = twin_face(b, from);
    return face == twin_face(b, to) ? face : -1;
}

/* Whether the merge's junctions (the vertices at the ends of the shared chain) leave a proper
   loop. Where a single face lies beyond both edges at a junction, connect_edges removes the
   vertex, and nearly flat clouds, a few tolerances thick, fold into merges where that breaks the
   loop: fewer than three edges left, one face beyond both junctions, a face keeping a lone edge
   outside the chain (the first removal changes the second junction's neighbours), or a triangle
   beyond a junction that also borders one of the two faces (it would wrap the merged face). Each
   of these overflowed the heap or hung before it was refused here. */
static bool junctions_are_simple(builder *b, int shared, const chain_ends *c)
{
    int first = junction_neighbour(b, c->opp_prev, c->adj_next);
    int second = junction_neighbour(b, c->adj_prev, c->opp_next);
    if (first < 0 && second < 0)
        return true;
    if (first == second)
        return false;
    if (c->adj_prev == c->adj_next || c->opp_prev == c->opp_next)
        return false;
    int mine = E(b, shared)->face, theirs = twin_face(b, shared);
    if ((first >= 0 && triangle_wraps(b, c->adj_next, mine, theirs)) ||
        (second >= 0 && triangle_wraps(b, c->opp_next, mine, theirs)))
        return false;
    int removed = (first >= 0) + (second >= 0);
    return run_length(b, c->adj_next, c->adj_prev) + run_length(b, c->opp_next, c->opp_prev) -
               removed >=
           3;
}

/* Merging needs the two faces to touch along one chain and nowhere else: a slightly non-convex
   face can touch a neighbour twice, or at a lone vertex, and the merged loop would pass a vertex
   twice (a pinched face, then a face adjacent to itself). */
static bool merge_is_simple(builder *b, int shared)
{
    chain_ends c = shared_chain(b, shared);
    if (c.whole || !junctions_are_simple(b, shared, &c))
        return false;
    for (int e = c.adj_next;; e = E(b, e)->next) {
        for (int g = c.opp_next;; g = E(b, g)->next) {
            if (E(b, g)->origin == E(b, e)->origin)
                return false;
            if (g == c.opp_prev)
                break;
        }
        if (e == c.adj_prev)
            return true;
    }
}

/* Merges f with the first neighbour across an edge that is not clearly convex, so that every
   edge of the hull stays convex beyond tolerance (coplanar faces merge the same way).
   Returns 1 after a merge, 0 when none was needed, -1 when out of memory. */
static int merge_step(builder *b, int f, enum merge_kind kind)
{
    bool convex = true;
    double tol = b->tolerance;
    int e = F(b, f)->edge;
    do {
        int other = twin_face(b, e);
        double mine = neighbour_height(b, e), theirs = neighbour_height(b, E(b, e)->twin);
        bool merge;
        if (kind == MERGE_NONCONVEX) {
            merge = mine > -tol || theirs > -tol;
        } else {
            /* Trust the larger face's plane: its normal is the more accurate one. */
            bool larger = F(b, f)->area > F(b, other)->area;
            double trusted = larger ? mine : theirs, other_view = larger ? theirs : mine;
            merge = trusted > -tol;
            convex = convex && (merge || other_view <= -tol);
        }
        if (merge && merge_is_simple(b, e))
            return merge_across(b, f, e) ? 1 : -1;
        e = E(b, e)->next;
    } while (e != F(b, f)->edge);
    if (!convex)
        F(b, f)->mark = FACE_NONCONVEX;
    return 0;
}

static bool merge_new_faces(builder *b)
{
    for (int i = 0; i < b->new_faces.count; i++) {
        int f = b->new_faces.data[i], status;
        if (F(b, f)->mark != FACE_LIVE)
            continue;
        while ((status = merge_step(b, f, MERGE_NONCONVEX_WRT_LARGER)) == 1) {
        }
        if (status < 0)
            return false;
    }
    for (int i = 0; i < b->new_faces.count; i++) {
        int f = b->new_faces.data[i], status;
        if (F(b, f)->mark != FACE_NONCONVEX)
            continue;
        F(b, f)->mark = FACE_LIVE;
        while ((status = merge_step(b, f, MERGE_NONCONVEX)) == 1) {
        }
        if (status < 0)
            return false;
    }
    return true;
}

/* Points of deleted faces go to the new face they are farthest above, or are dropped. */
static bool resolve_unclaimed(builder *b)
{
    for (int i = 0; i < b->unclaimed.count; i++) {
        int p = b->unclaimed.data[i], best_face = -1;
        double best = b->tolerance;
        for (int k = 0; k < b->new_faces.count; k++) {
            int f = b->new_faces.data[k];
            if (!face_alive(b, f))
                continue;
            double d = face_distance(b, f, b->points[p]);
            if (d > best) {
                best = d;
                best_face = f;
            }
        }
        if (best_face >= 0 && !add_outside(b, best_face, p))
            return false;
    }
    b->unclaimed.count = 0;
    return true;
}

/* Frees the faces deleted in this iteration with the half-edges they still own. */
static void release_dead(builder *b)
{
    for (int i = 0; i < b->dead.count; i++) {
        int f = b->dead.data[i];
        if (F(b, f)->mark == FACE_FREE)
            continue;
        int e = F(b, f)->edge;
        bool owns_loop = e >= 0 && E(b, e)->face == f;
        if (owns_loop) {
            int first = e;
            do {
                int next = E(b, e)->next;
                release_edge(b, e);
                e = next;
            } while (e != first && E(b, e)->face == f);
        }
        release_face(b, f);
    }
    b->dead.count = 0;
}

static bool add_point(builder *b, int eye, int start)
{
    dvec p = b->points[eye];
    b->dead.count = 0;
    return compute_horizon(b, p, start) && add_cone(b, eye) && merge_new_faces(b) &&
           resolve_unclaimed(b);
}

/* The face whose plane the point is above, starting with its own face (merges may have moved
   that plane), then that face's neighbours; -1 when the point is now inside. */
static int eye_face(builder *b, int f, dvec p)
{
    if (face_distance(b, f, p) > b->tolerance)
        return f;
    int e = F(b, f)->edge;
    do {
        int other = twin_face(b, e);
        if (face_distance(b, other, p) > b->tolerance)
            return other;
        e = E(b, e)->next;
    } while (e != F(b, f)->edge);
    return -1;
}

/* Takes the farthest outside point of the most recently extended face. false when done. */
static bool next_eye(builder *b, int *eye, int *face)
{
    while (b->pending.count > 0) {
        int f = b->pending.data[b->pending.count - 1];
        if (!face_alive(b, f) || F(b, f)->outside < 0) {
            b->pending.count--;
            continue;
        }
        /* f stays on the stack: when the eye starts from a neighbour, f keeps its points. */
        int p = F(b, f)->outside;
        F(b, f)->outside = b->point_next[p];
        int start = eye_face(b, f, b->points[p]);
        if (start >= 0) {
            *eye = p;
            *face = start;
            return true;
        }
    }
    return false;
}

static bool run_quickhull(builder *b)
{
    int simplex[4] = {0, 0, 0, 0};
    if (!find_simplex(b, simplex) || !make_simplex(b, simplex) ||
        !assign_initial_points(b, simplex))
        return false;
    int eye, start;
    while (next_eye(b, &eye, &start)) {
        if (!add_point(b, eye, start))
            return false;
        release_dead(b);
    }
    return true;
}

/* ---- final pass: split the rare slightly non-convex face into convex pieces ---- */

/* Sine-like turn at corner (p, s, y) seen along normal, scaled by the chord so that a value below
   -tolerance means s lies more than tolerance inside the chord p-y. */
static double corner_margin(builder *b, int p, int s, int y, dvec normal)
{
    dvec a = b->points[p], c = b->points[s], d = b->points[y];
    double chord = dv_length(dv_sub(d, a));
    double turn = dv_dot(dv_cross(dv_sub(c, a), dv_sub(d, c)), normal);
    return chord > 0 ? turn / chord : 0;
}

static int origin_of(builder *b, int e)
{
    return E(b, e)->origin;
}

/* A reflex corner of f (the half-edge leaving it), or -1. */
static int find_reflex(builder *b, int f)
{
    int e = F(b, f)->edge;
    do {
        int p = origin_of(b, E(b, e)->prev), y = origin_of(b, E(b, e)->next);
        if (corner_margin(b, p, origin_of(b, e), y, F(b, f)->normal) < -b->tolerance)
            return e;
        e = E(b, e)->next;
    } while (e != F(b, f)->edge);
    return -1;
}

/* The diagonal from the reflex corner (edge ei leaves it) to the corner left by ej whose four new
   corners are all convex, the best-conditioned one; -1 when none is. */
static int best_diagonal(builder *b, int f, int ei)
{
    dvec n = F(b, f)->normal;
    int vi = origin_of(b, ei), before = origin_of(b, E(b, ei)->prev);
    int after = origin_of(b, E(b, ei)->next);
    int best = -1;
    double best_margin = -b->tolerance;
    for (int ej = E(b, E(b, ei)->next)->next; ej != E(b, ei)->prev; ej = E(b, ej)->next) {
        int vj = origin_of(b, ej);
        int vj_before = origin_of(b, E(b, ej)->prev), vj_after = origin_of(b, E(b, ej)->next);
        double m = fmin(
            fmin(corner_margin(b, before, vi, vj, n), corner_margin(b, vj, vi, after, n)),
            fmin(corner_margin(b, vi, vj, vj_after, n), corner_margin(b, vj_before, vj, vi, n)));
        if (m >= best_margin) {
            best_margin = m;
            best = ej;
        }
    }
    return best;
}

static int loop_length(builder *b, int e0)
{
    int n = 0, e = e0;
    do {
        n++;
        e = E(b, e)->next;
    } while (e != e0);
    return n;
}

/* Cuts f along vi -> vj (ei leaves vi, ej leaves vj): f keeps vj..vi, a new face takes vi..vj.
   Both keep f's plane, so the pieces stay exactly coplanar. Returns the new face or -1. */
static int split_face(builder *b, int f, int ei, int ej)
{
    int g = new_face(b), d1 = new_edge(b), d2 = new_edge(b);
    if (g < 0 || d1 < 0 || d2 < 0)
        return -1;
    int pi = E(b, ei)->prev, pj = E(b, ej)->prev;
    *E(b, d1) = (qh_edge){origin_of(b, ei), d2, ej, pi, f};
    *E(b, d2) = (qh_edge){origin_of(b, ej), d1, ei, pj, g};
    E(b, pi)->next = d1;
    E(b, ej)->prev = d1;
    E(b, pj)->next = d2;
    E(b, ei)->prev = d2;
    for (int e = ei; e != d2; e = E(b, e)->next)
        E(b, e)->face = g;
    qh_face plane = *F(b, f);
    *F(b, g) = plane;
    F(b, g)->edge = ei;
    F(b, g)->outside = -1;
    F(b, f)->edge = ej;
    F(b, f)->vertex_count = loop_length(b, ej);
    F(b, g)->vertex_count = loop_length(b, ei);
    return g;
}

/* Merging by centroid heights keeps the hull convex but can leave a face with a corner bent
   slightly the wrong way; splitting there restores convex faces without moving any plane. */
static bool split_nonconvex_faces(builder *b)
{
    b->stack.count = 0;
    for (int f = 0; f < b->face_count; f++)
        if (face_alive(b, f) && !ibuf_push(&b->stack, f))
            return false;
    while (b->stack.count > 0) {
        int f = b->stack.data[--b->stack.count];
        int ei = find_reflex(b, f);
        int ej = ei >= 0 ? best_diagonal(b, f, ei) : -1;
        if (ej < 0)
            continue;
        int g = split_face(b, f, ei, ej);
        if (g < 0 || !ibuf_push(&b->stack, f) || !ibuf_push(&b->stack, g))
            return false;
    }
    return true;
}

/* ---- output ---- */

/* Byte offsets of every output array inside the single block. */
typedef struct hull_layout {
    size_t vertices, faces, edges, vertex_edge, adjacency_start, adjacency, total;
} hull_layout;

static size_t align16(size_t size)
{
    return (size + 15) & ~(size_t)15;
}

static hull_layout layout_of(int vertex_count, int face_count, int edge_count)
{
    hull_layout l;
    size_t v = (size_t)vertex_count, f = (size_t)face_count, e = (size_t)edge_count;
    l.vertices = 0;
    l.faces = l.vertices + align16(v * sizeof(vec3s));
    l.edges = l.faces + align16(f * sizeof(hull_face));
    l.vertex_edge = l.edges + align16(e * sizeof(hull_half_edge));
    l.adjacency_start = l.vertex_edge + align16(v * sizeof(int));
    l.adjacency = l.adjacency_start + align16((v + 1) * sizeof(int));
    l.total = l.adjacency + align16(e * sizeof(int));
    return l;
}

static bool allocate_output(convex_hull *hull, int vertex_count, int face_count, int edge_count)
{
    hull_layout l = layout_of(vertex_count, face_count, edge_count);
    char *block = mem_alloc(l.total);
    if (block == NULL)
        return false;
    hull->vertex_count = vertex_count;
    hull->face_count = face_count;
    hull->edge_count = edge_count;
    hull->vertices = (vec3s *)(block + l.vertices);
    hull->faces = (hull_face *)(block + l.faces);
    hull->edges = (hull_half_edge *)(block + l.edges);
    hull->vertex_edge = (int *)(block + l.vertex_edge);
    hull->adjacency_start = (int *)(block + l.adjacency_start);
    hull->adjacency = (int *)(block + l.adjacency);
    return true;
}

/* Half-edges leaving v in turn order (twin then next), as the neighbours of v. */
static void fill_adjacency(convex_hull *hull)
{
    int *start = hull->adjacency_start;
    memset(start, 0, (size_t)(hull->vertex_count + 1) * sizeof(int));
    for (int e = 0; e < hull->edge_count; e++)
        start[hull->edges[e].origin + 1]++;
    for (int v = 0; v < hull->vertex_count; v++)
        start[v + 1] += start[v];
    for (int v = 0; v < hull->vertex_count; v++) {
        int e = hull->vertex_edge[v], k = start[v];
        do {
            hull->adjacency[k++] = hull->edges[hull->edges[e].twin].origin;
            e = hull->edges[hull->edges[e].twin].next;
        } while (e != hull->vertex_edge[v] && k < start[v + 1]);
        CAIRN_ASSERT(k == start[v + 1] && e == hull->vertex_edge[v]);
    }
}

/* The float plane must keep its own vertices behind it, so round the offset outwards. */
static float round_up(double value)
{
    float rounded = (float)value;
    return rounded < value ? nextafterf(rounded, INFINITY) : rounded;
}

/* Numbers live faces, their half-edges and vertices compactly, in face order. */
static bool emit_hull(builder *b, const vec3s *input, convex_hull *hull)
{
    int *vertex_map = mem_alloc((size_t)b->count * sizeof(int));
    int *edge_map = mem_alloc((size_t)(b->edge_count > 0 ? b->edge_count : 1) * sizeof(int));
    bool ok = vertex_map && edge_map;
    int vertex_count = 0, face_count = 0, edge_count = 0;
    if (ok) {
        for (int i = 0; i < b->count; i++)
            vertex_map[i] = -1;
        for (int f = 0; f < b->face_count; f++) {
            if (!face_alive(b, f))
                continue;
            face_count++;
            int e = F(b, f)->edge;
            do {
                edge_map[e] = edge_count++;
                if (vertex_map[E(b, e)->origin] < 0)
                    vertex_map[E(b, e)->origin] = vertex_count++;
                e = E(b, e)->next;
            } while (e != F(b, f)->edge);
        }
        ok = allocate_output(hull, vertex_count, face_count, edge_count);
    }
    if (ok) {
        dvec centroid = {0, 0, 0};
        for (int i = 0; i < b->count; i++) {
            if (vertex_map[i] >= 0) {
                hull->vertices[vertex_map[i]] = input[i];
                centroid = dv_add(centroid, b->points[i]);
            }
        }
        centroid = dv_scale(centroid, 1.0 / vertex_count);
        hull->interior = (vec3s){{(float)centroid.x, (float)centroid.y, (float)centroid.z}};
        int out_face = 0;
        for (int f = 0; f < b->face_count; f++) {
            if (!face_alive(b, f))
                continue;
            qh_face *face = F(b, f);
            int first = edge_map[face->edge], count = face->vertex_count;
            vec3s normal = {{(float)face->normal.x, (float)face->normal.y, (float)face->normal.z}};
            double offset = -INFINITY;
            int e = face->edge;
            do {
                const qh_edge *edge = E(b, e);
                int id = edge_map[e];
                hull->edges[id] = (hull_half_edge){vertex_map[edge->origin], edge_map[edge->twin],
                                                   edge_map[edge->next], out_face};
                hull->vertex_edge[vertex_map[edge->origin]] = id;
                offset = fmax(offset, dv_dot(dv(normal), b->points[edge->origin]));
                e = edge->next;
            } while (e != face->edge);
            hull->faces[out_face++] = (hull_face){normal, round_up(offset), first, count};
        }
        fill_adjacency(hull);
    }
    mem_free(vertex_map, (size_t)b->count * sizeof(int));
    mem_free(edge_map, (size_t)(b->edge_count > 0 ? b->edge_count : 1) * sizeof(int));
    return ok;
}

/* ---- public entry points ---- */

float hull_default_tolerance(const vec3s *points, int count)
{
    /* Float input is only known to half an ulp per coordinate (6e-8 of the largest magnitude),
       so planes through it wobble by a few ulps: the second term, with room to spare even after
       the quarter taken for the build (see BUILD_FRACTION). The first, 1e-5 of the extent, is
       what a physics shape can lose unnoticed (10 um on a 1 m body) and merges modelling noise
       into clean faces. */
    double extent = 0, magnitude = 0;
    vec3s lo = points[0], hi = points[0];
    for (int i = 0; i < count; i++) {
        lo = glms_vec3_minv(lo, points[i]);
        hi = glms_vec3_maxv(hi, points[i]);
    }
    for (int k = 0; k < 3; k++) {
        extent = fmax(extent, (double)hi.raw[k] - lo.raw[k]);
        magnitude += fmax(fabs(lo.raw[k]), fabs(hi.raw[k]));
    }
    return (float)fmax(1e-5 * extent, 16.0 * FLT_EPSILON * magnitude);
}

static bool check_input(const vec3s *points, int count)
{
    if (points == NULL && count > 0)
        return error_set("hull_build: points is NULL");
    if (count < 4)
        return error_set("hull_build: need at least 4 points, got %d", count);
    for (int i = 0; i < count; i++)
        if (!isfinite(points[i].x) || !isfinite(points[i].y) || !isfinite(points[i].z))
            return error_set("hull_build: point %d is not finite (%g, %g, %g)", i, points[i].x,
                             points[i].y, points[i].z);
    return true;
}

static void builder_free(builder *b)
{
    mem_free(b->points, (size_t)b->count * sizeof(dvec));
    mem_free(b->point_next, (size_t)b->count * sizeof(int));
    mem_free(b->faces, (size_t)b->face_capacity * sizeof(qh_face));
    mem_free(b->edges, (size_t)b->edge_capacity * sizeof(qh_edge));
    int_buffer *buffers[] = {&b->pending,   &b->horizon,   &b->stack,
                             &b->new_faces, &b->unclaimed, &b->dead};
    for (size_t i = 0; i < sizeof buffers / sizeof buffers[0]; i++)
        ibuf_free(buffers[i]);
}

/* How far the farthest input point lies in front of any face (<= 0 when all are behind).
   O(points x faces). */
static double worst_point_in_front(const convex_hull *hull, const vec3s *points, int count)
{
    double worst = -INFINITY;
    for (int f = 0; f < hull->face_count; f++) {
        dvec normal = dv(hull->faces[f].normal);
        double offset = hull->faces[f].offset;
        for (int i = 0; i < count; i++)
            worst = fmax(worst, dv_dot(normal, dv(points[i])) - offset);
    }
    return worst;
}

/* Clouds at most this many tolerances across get their hull checked against every point. The
   merges can tilt a face past points dropped earlier as on its plane; on random slabs 4, 16 and
   64 tolerances thick 22%, 1.7% and 0.03% of the hulls had a point in front, by up to 557
   tolerances, and none at 256 (3,000 each). Thicker clouds skip the O(points x faces) check. */
#define THIN_CLOUD 1024.0

/* One build at this tolerance. *too_flat: it failed because the cloud is nearly flat at this
   tolerance (no volume left, or a point beyond a face), where a larger tolerance may succeed. */
static bool build_once(const vec3s *points, int count, float tolerance, convex_hull *hull,
                       bool *too_flat)
{
    *too_flat = false;
    builder b = {
        .count = count, .tolerance = BUILD_FRACTION * tolerance, .free_face = -1, .free_edge = -1};
    b.points = mem_alloc((size_t)count * sizeof(dvec));
    b.point_next = mem_alloc((size_t)count * sizeof(int));
    bool ok = b.points && b.point_next;
    for (int i = 0; ok && i < count; i++)
        b.points[i] = dv(points[i]);
    ok = ok && run_quickhull(&b) && split_nonconvex_faces(&b) && emit_hull(&b, points, hull);
    builder_free(&b);
    if (!ok) {
        *hull = (convex_hull){0};
        return false;
    }
    *too_flat = true;
    bool thin = b.width <= THIN_CLOUD * tolerance;
    /* Points a little thicker than the build's planes but within the promised tolerance start a
       tetrahedron, then merge flat: what is left has no volume. */
    if (hull->vertex_count < 4 || hull->face_count < 4) {
        hull_destroy(hull);
        return error_set("hull_build: all %d points are coplanar (within tolerance %g)", count,
                         tolerance);
    }
    double in_front = thin ? worst_point_in_front(hull, points, count) : 0.0;
    if (in_front > tolerance) {
        hull_destroy(hull);
        return error_set("hull_build: the %d points are too close to flat for tolerance %g (a "
                         "face of their hull leaves a point %g in front); give a larger "
                         "tolerance or thicker points",
                         count, tolerance, in_front);
    }
    hull->tolerance = tolerance;
    return true;
}

bool hull_build_with_tolerance(const vec3s *points, int count, float tolerance, convex_hull *hull)
{
    *hull = (convex_hull){0};
    if (!check_input(points, count))
        return false;
    if (!(tolerance >= 0) || !isfinite(tolerance))
        return error_set("hull_build: tolerance %g must be finite and >= 0", tolerance);
    bool too_flat;
    return build_once(points, count, tolerance, hull, &too_flat);
}

/* Tolerances hull_build tries: the default, then 4 and 16 times it for nearly flat clouds. */
enum { DEFAULT_TOLERANCE_TRIES = 3, TOLERANCE_GROWTH = 4 };

bool hull_build(const vec3s *points, int count, convex_hull *hull)
{
    *hull = (convex_hull){0};
    if (!check_input(points, count))
        return false;
    float tolerance = hull_default_tolerance(points, count);
    bool too_flat = true;
    for (int k = 0; k < DEFAULT_TOLERANCE_TRIES && too_flat; k++, tolerance *= TOLERANCE_GROWTH)
        if (build_once(points, count, tolerance, hull, &too_flat))
            return true;
    return false;
}

void hull_destroy(convex_hull *hull)
{
    if (hull == NULL || hull->vertices == NULL)
        return;
    hull_layout l = layout_of(hull->vertex_count, hull->face_count, hull->edge_count);
    mem_free(hull->vertices, l.total);
    *hull = (convex_hull){0};
}

int hull_support_climb(const convex_hull *hull, vec3s direction, int start)
{
    int best = start;
    float best_dot = glms_vec3_dot(hull->vertices[start], direction);
    /* Move to any strictly better neighbour; on a convex polytope a vertex with no better
       neighbour is a global maximiser (plateaus included). */
    for (bool improved = true; improved;) {
        improved = false;
        int end = hull->adjacency_start[best + 1];
        for (int k = hull->adjacency_start[best]; k < end; k++) {
            int v = hull->adjacency[k];
            float d = glms_vec3_dot(hull->vertices[v], direction);
            if (d > best_dot) {
                best_dot = d;
                best = v;
                improved = true;
            }
        }
    }
    return best;
}

#if defined(__SSE2__)
/* Four consecutive vertices' dot products with (dx, dy, dz): the 12 floats x0 y0 z0 x1 | y1 z1 x2
   y2 | z2 x3 y3 z3 transposed in registers (a structure-of-arrays copy of the hull cost more in
   cache misses than it saved), summed in the scalar order (x dx + y dy) + z dz, so every dot
   product has the same bits as glms_vec3_dot. */
static inline __m128 dots4(const float *p, __m128 dx, __m128 dy, __m128 dz)
{
    __m128 a = _mm_loadu_ps(p), b = _mm_loadu_ps(p + 4), c = _mm_loadu_ps(p + 8);
    __m128 b2b3c0c1 = _mm_shuffle_ps(b, c, _MM_SHUFFLE(1, 0, 3, 2));
    __m128 x = _mm_shuffle_ps(a, b2b3c0c1, _MM_SHUFFLE(3, 0, 3, 0));
    __m128 y =
        _mm_shuffle_ps(_mm_shuffle_ps(a, b, _MM_SHUFFLE(0, 0, 1, 1)),
                       _mm_shuffle_ps(b, c, _MM_SHUFFLE(2, 2, 3, 3)), _MM_SHUFFLE(2, 0, 2, 0));
    __m128 z =
        _mm_shuffle_ps(_mm_shuffle_ps(a, b, _MM_SHUFFLE(1, 1, 2, 2)),
                       _mm_shuffle_ps(c, c, _MM_SHUFFLE(3, 3, 0, 0)), _MM_SHUFFLE(2, 0, 2, 0));
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(x, dx), _mm_mul_ps(y, dy)), _mm_mul_ps(z, dz));
}

/* Where mask is set, a; elsewhere b. */
static inline __m128i select_epi32(__m128i mask, __m128i a, __m128i b)
{
    return _mm_or_si128(_mm_and_si128(mask, a), _mm_andnot_si128(mask, b));
}

/* Lane-wise minimum of signed integers (SSE2 has no _mm_min_epi32). */
static inline __m128i min_epi32(__m128i a, __m128i b)
{
    return select_epi32(_mm_cmplt_epi32(a, b), a, b);
}

/* Each lane keeps the dot product and index of the group's vertex when it is strictly greater:
   an earlier vertex wins ties. */
static inline void keep_greater(__m128 dots, __m128i index, __m128 *best, __m128i *best_index)
{
    __m128i better = _mm_castps_si128(_mm_cmpgt_ps(dots, *best));
    *best = _mm_max_ps(dots, *best); /* dots where greater, else best */
    *best_index = select_epi32(better, index, *best_index);
}

/* hull_support_scan four vertices at a time (count >= 4), with the same answer: each lane keeps
   the first of its vertices with the largest dot product (its indices only grow, the last group
   overlapping the one before when count is not a multiple of four), then of the lanes at the
   largest value the smallest index wins: the first maximiser overall, as in the scalar scan.
   Branch-free after the loop: which lane wins is as unpredictable as which vertex does. */
static int support_scan4(const vec3s *vertices, int count, vec3s direction)
{
    const float *p = vertices[0].raw;
    __m128 dx = _mm_set1_ps(direction.x), dy = _mm_set1_ps(direction.y),
           dz = _mm_set1_ps(direction.z);
    __m128i lanes = _mm_setr_epi32(0, 1, 2, 3), four = _mm_set1_epi32(4);
    __m128 best = dots4(p, dx, dy, dz);
    __m128i best_index = lanes, group = lanes;
    int next = 4;
    for (; next + 4 <= count; next += 4) {
        group = _mm_add_epi32(group, four);
        keep_greater(dots4(p + 3 * next, dx, dy, dz), group, &best, &best_index);
    }
    if (next < count) { /* the last group overlaps the one before */
        int first = count - 4;
        keep_greater(dots4(p + 3 * first, dx, dy, dz), _mm_add_epi32(_mm_set1_epi32(first), lanes),
                     &best, &best_index);
    }
    __m128 top = _mm_max_ps(best, _mm_shuffle_ps(best, best, _MM_SHUFFLE(2, 3, 0, 1)));
    top = _mm_max_ps(top, _mm_shuffle_ps(top, top, _MM_SHUFFLE(1, 0, 3, 2)));
    __m128 at_top = _mm_cmpeq_ps(best, top);
    if (_mm_movemask_ps(at_top) == 0)
        return 0; /* NaN dot products: the scalar scan keeps vertex 0 */
    __m128i index = select_epi32(_mm_castps_si128(at_top), best_index, _mm_set1_epi32(count));
    index = min_epi32(index, _mm_shuffle_epi32(index, _MM_SHUFFLE(2, 3, 0, 1)));
    index = min_epi32(index, _mm_shuffle_epi32(index, _MM_SHUFFLE(1, 0, 3, 2)));
    return _mm_cvtsi128_si32(index);
}
#endif

int hull_support_scan(const convex_hull *hull, vec3s direction)
{
#if defined(__SSE2__)
    if (hull->vertex_count >= 4)
        return support_scan4(hull->vertices, hull->vertex_count, direction);
#endif
    int best = 0;
    float best_dot = glms_vec3_dot(hull->vertices[0], direction);
    for (int v = 1; v < hull->vertex_count; v++) {
        float d = glms_vec3_dot(hull->vertices[v], direction);
        if (d > best_dot) {
            best_dot = d;
            best = v;
        }
    }
    return best;
}
