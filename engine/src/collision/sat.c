/* Separating-axis test for boxes and hulls on their cores: face normals of both, and edge-edge
   axes only for edge pairs that form a face of the Minkowski difference (Gauss-map test).
   Separations are measured as support-point distances to planes, so containment yields the
   true minimum translation. Separated cores get their exact distance from GJK. */
#include "collision/query.h"

#include "core/error.h"
#include "core/xform.h"
#include "geometry/shape.h"

#include <math.h>

enum { BOX_VERTICES = 8 };

/* A polytope core in A's frame: topology, core vertices (topology's indexing) and how far the
   core's faces lie inside the topology's planes. */
typedef struct sat_polytope {
    const convex_hull *hull;
    const vec3s *vertices;
    float shrink;
    cairn_transform xf; /* local -> A's frame */
    vec3s box_core[BOX_VERTICES];
} sat_polytope;

static bool sat_polytope_make(const cairn_shape *shape, cairn_transform xf, sat_polytope *p)
{
    p->xf = xf;
    if (shape->type == CAIRN_SHAPE_HULL) {
        p->hull = &shape->hull.core;
        p->vertices = p->hull->vertices;
        p->shrink = 0.0f;
        return true;
    }
    if (shape->type != CAIRN_SHAPE_BOX)
        return false;
    p->hull = &shape->box.outer;
    box_core_corners(shape, p->box_core);
    p->vertices = p->box_core;
    p->shrink = shape->convex_radius;
    return true;
}

static dvec3 to_frame(const sat_polytope *p, vec3s local)
{
    return dvec3_from(xform_point(p->xf, local));
}

static dvec3 normal_to_frame(const sat_polytope *p, vec3s local)
{
    return dvec3_from(xform_vector(p->xf, local));
}

/* The core vertex farthest along d (A's frame). */
static dvec3 sat_support(const sat_polytope *p, dvec3 d)
{
    vec3s local = xform_inverse_vector(p->xf, dvec3_to_float(d));
    int best;
    if (p->vertices == p->hull->vertices && p->hull->vertex_count >= HULL_CLIMB_MIN_VERTICES) {
        best = hull_support_climb(p->hull, local, 0);
    } else {
        best = 0;
        for (int v = 1; v < p->hull->vertex_count; ++v)
            if (glms_vec3_dot(p->vertices[v], local) > glms_vec3_dot(p->vertices[best], local))
                best = v;
    }
    return to_frame(p, p->vertices[best]);
}

typedef enum axis_kind { AXIS_FACE_A, AXIS_FACE_B, AXIS_EDGES } axis_kind;

typedef struct sat_axis {
    axis_kind kind;
    double separation; /* > 0: separated; <= 0: minus the core penetration along the axis */
    dvec3 normal;      /* from A towards B */
    dvec3 point_a, point_b;
} sat_axis;

/* Faces of `faces` against the other polytope: signed distance of the other's deepest vertex. */
static void query_faces(const sat_polytope *faces, const sat_polytope *other, axis_kind kind,
                        sat_axis *best)
{
    for (int f = 0; f < faces->hull->face_count; ++f) {
        const hull_face *face = &faces->hull->faces[f];
        dvec3 n = normal_to_frame(faces, face->normal);
        dvec3 on_plane = dvec3_scale(dvec3_from(face->normal), face->offset - faces->shrink);
        dvec3 plane_point = to_frame(faces, dvec3_to_float(on_plane));
        dvec3 deepest = sat_support(other, dvec3_neg(n));
        double separation = dvec3_dot(n, dvec3_sub(deepest, plane_point));
        if (separation <= best->separation)
            continue;
        best->separation = separation;
        best->kind = kind;
        dvec3 projected = dvec3_sub(deepest, dvec3_scale(n, separation));
        /* The deepest vertex belongs to `other`; its projection lies on `faces`' plane. */
        best->normal = kind == AXIS_FACE_A ? n : dvec3_neg(n);
        best->point_a = kind == AXIS_FACE_A ? projected : deepest;
        best->point_b = kind == AXIS_FACE_A ? deepest : projected;
    }
}

/* Arcs a-b and c-d of the Gauss map cross: the two edges form a face of A - B (c and d are
   already negated normals of B). */
static bool arcs_cross(dvec3 a, dvec3 b, dvec3 c, dvec3 d)
{
    dvec3 bxa = dvec3_cross(b, a), dxc = dvec3_cross(d, c);
    double cba = dvec3_dot(c, bxa), dba = dvec3_dot(d, bxa);
    double adc = dvec3_dot(a, dxc), bdc = dvec3_dot(b, dxc);
    return cba * dba < 0.0 && adc * bdc < 0.0 && cba * bdc > 0.0;
}

typedef struct sat_edge {
    dvec3 p, q;        /* endpoints */
    dvec3 left, right; /* normals of the two faces that meet at the edge */
} sat_edge;

static sat_edge edge_of(const sat_polytope *p, int half_edge)
{
    const hull_half_edge *e = &p->hull->edges[half_edge];
    const hull_half_edge *twin = &p->hull->edges[e->twin];
    return (sat_edge){to_frame(p, p->vertices[e->origin]), to_frame(p, p->vertices[twin->origin]),
                      normal_to_frame(p, p->hull->faces[e->face].normal),
                      normal_to_frame(p, p->hull->faces[twin->face].normal)};
}

enum { EDGE_CACHE = 128 };

static void test_edge_pair(sat_edge ea, sat_edge eb, dvec3 centre_a, sat_axis *best)
{
    if (!arcs_cross(ea.left, ea.right, dvec3_neg(eb.left), dvec3_neg(eb.right)))
        return;
    dvec3 axis = dvec3_cross(dvec3_sub(ea.q, ea.p), dvec3_sub(eb.q, eb.p));
    double length = sqrt(dvec3_length_sq(axis));
    /* Parallel edges: their axis is one of the face normals already tested. */
    if (length < 1e-9 * sqrt(dvec3_length_sq(dvec3_sub(ea.q, ea.p))))
        return;
    axis = dvec3_scale(axis, 1.0 / length);
    if (dvec3_dot(axis, dvec3_sub(ea.p, centre_a)) < 0.0)
        axis = dvec3_neg(axis);
    double separation = dvec3_dot(axis, dvec3_sub(eb.p, ea.p));
    if (separation <= best->separation)
        return;
    best->separation = separation;
    best->kind = AXIS_EDGES;
    best->normal = axis;
    segment_closest(ea.p, ea.q, eb.p, eb.q, &best->point_a, &best->point_b);
}

/* Every unique edge of A against every unique edge of B; A's edges are transformed once into a
   small store (larger hulls transform them on the fly). */
static void query_edges(const sat_polytope *a, const sat_polytope *b, sat_axis *best)
{
    dvec3 centre_a = to_frame(a, a->hull->interior);
    sat_edge cached[EDGE_CACHE];
    int cached_count = 0;
    for (int i = 0; i < a->hull->edge_count && cached_count < EDGE_CACHE; ++i)
        if (i < a->hull->edges[i].twin)
            cached[cached_count++] = edge_of(a, i);
    bool all_cached = a->hull->edge_count <= 2 * EDGE_CACHE;
    for (int j = 0; j < b->hull->edge_count; ++j) {
        if (j > b->hull->edges[j].twin)
            continue;
        sat_edge eb = edge_of(b, j);
        if (all_cached) {
            for (int i = 0; i < cached_count; ++i)
                test_edge_pair(cached[i], eb, centre_a, best);
            continue;
        }
        for (int i = 0; i < a->hull->edge_count; ++i)
            if (i < a->hull->edges[i].twin)
                test_edge_pair(edge_of(a, i), eb, centre_a, best);
    }
}

/* Witness points for the axis SAT chose: move B out along it by the depth plus a little, let GJK
   find the closest features (on both surfaces by construction), and move B's point back.
   False when GJK cannot separate them (then the SAT features are kept). */
static bool separated_witnesses(const support_pair *pair, const sat_axis *axis, dvec3 *core_a,
                                dvec3 *core_b)
{
    double depth = -axis->separation;
    double lift = 1e-3 * support_pair_scale(pair);
    support_pair moved = *pair;
    dvec3 shift = dvec3_scale(axis->normal, depth + lift);
    moved.b_in_a.position = glms_vec3_add(moved.b_in_a.position, dvec3_to_float(shift));
    simplex s = {.count = 0};
    gjk_result gjk = gjk_distance(&moved, &s, axis->normal);
    if (gjk.status != GJK_SEPARATED)
        return false;
    *core_a = gjk.point_a;
    *core_b = dvec3_sub(gjk.point_b, shift);
    return true;
}

bool cairn_collide_sat(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                       cairn_transform xb, cairn_query_result *out)
{
    if (out == NULL)
        return error_set("cairn_collide_sat: out is NULL");
    if (!query_check_pair("cairn_collide_sat", a, xa, b, xb))
        return false;
    xa.rotation = glms_quat_normalize(xa.rotation);
    xb.rotation = glms_quat_normalize(xb.rotation);
    support_pair pair = support_pair_make(a, xa, b, xb);
    sat_polytope pa, pb;
    if (!sat_polytope_make(a, cairn_transform_identity(), &pa) ||
        !sat_polytope_make(b, pair.b_in_a, &pb))
        return error_set("cairn_collide_sat: only boxes and hulls have separating axes");
    sat_axis best = {.separation = -INFINITY};
    bool epa_capped; /* separated cores: GJK alone answers, EPA never runs */
    query_faces(&pa, &pb, AXIS_FACE_A, &best);
    query_faces(&pb, &pa, AXIS_FACE_B, &best);
    if (best.separation > 0.0)
        return query_gjk_epa(a, xa, b, xb, NULL, out,
                             &epa_capped); /* exact distance of separated cores */
    query_edges(&pa, &pb, &best);
    if (best.separation > 0.0)
        return query_gjk_epa(a, xa, b, xb, NULL, out, &epa_capped);
    dvec3 core_a = best.point_a, core_b = best.point_b;
    separated_witnesses(&pair, &best, &core_a, &core_b);
    query_finish(xa, a, b, core_a, core_b, best.normal, best.separation, out);
    out->gjk_iterations = 0;
    out->epa_iterations = 0;
    return true;
}
