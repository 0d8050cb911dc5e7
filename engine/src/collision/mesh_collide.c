/* Meshes and heightfields against convex shapes and compounds: the triangles under each convex
   part's bounds, each a flat hull (triangle_shape.h) through the usual GJK/EPA and clipping, a
   sphere or capsule in closed form (capsule_triangle.h); part-triangle manifolds merged as compound
   pairs are (cluster.h). */
#include "collision/mesh_collide.h"

#include <cairn/query.h>

#include "collision/capsule_triangle.h"
#include "collision/cluster.h"
#include "collision/manifold_clip.h"
#include "collision/query.h"
#include "collision/triangle_cache.h"
#include "collision/triangle_shape.h"
#include "core/error.h"
#include "core/validate.h"
#include "core/xform.h"
#include "geometry/triangles.h"

#include <math.h>
#include <string.h>

bool mesh_shape_raycast(const cairn_shape *shape, cairn_transform xf, vec3s origin,
                        vec3s translation, float max_fraction, float *fraction, vec3s *normal,
                        int *triangle)
{
    vec3s o = xform_inverse_point(xf, origin), d = xform_inverse_vector(xf, translation);
    triangle_hit hit;
    if (!triangles_raycast(shape, o, d, max_fraction, &hit))
        return false;
    *fraction = hit.fraction;
    *normal = glms_vec3_normalize(xform_vector(xf, hit.normal));
    if (triangle)
        *triangle = hit.triangle;
    return true;
}

bool cairn_shape_raycast_triangle(const cairn_shape *shape, cairn_transform xf, vec3s origin,
                                  vec3s translation, cairn_triangle_hit *hit)
{
    const char *function = "cairn_shape_raycast_triangle";
    if (shape == NULL || hit == NULL)
        return error_set("%s: %s is NULL", function, shape == NULL ? "shape" : "hit");
    if (!shape_is_triangles(shape))
        return error_set("%s: the shape is not a mesh or heightfield", function);
    if (!query_check_transform(function, "xf", xf))
        return false;
    if (!is_finite_vec3(origin) || !is_finite_vec3(translation))
        return error_set("%s: origin or translation is not finite", function);
    xf.rotation = glms_quat_normalize(xf.rotation);
    float fraction;
    vec3s normal;
    int triangle;
    if (!mesh_shape_raycast(shape, xf, origin, translation, 1.0f, &fraction, &normal, &triangle))
        return false;
    *hit = (cairn_triangle_hit){glms_vec3_add(origin, glms_vec3_scale(translation, fraction)),
                                normal, fraction, triangle};
    return true;
}

/* The part's bounds in the mesh's frame, grown by margin. */
static cairn_aabb part_bounds_in(cairn_transform mesh_xf, shape_part part, float margin)
{
    cairn_aabb box = cairn_shape_bounds(part.shape, xform_relative(mesh_xf, part.xf));
    return (cairn_aabb){glms_vec3_subs(box.min, margin), glms_vec3_adds(box.max, margin)};
}

/* The pair being collided: which side the mesh is on, the convex part, where results go. */
typedef struct mesh_pair {
    const cairn_shape *mesh;
    cairn_transform mesh_xf, xa, xb; /* xa, xb: the body transforms */
    bool mesh_is_a;
    shape_part part;
    int part_index, part_count;
    float margin;
    cluster_set *clusters;
    compound_stats *stats;
    triangle_cache *cache; /* NULL: every query starts cold */
    mesh_history *history; /* NULL: no last step, and this step's pairs not kept */
    bool overlap;          /* mesh_overlap's answer */
    /* What every triangle of the part reuses, made at its first triangle (pair_begin_part;
       most parts meet none): the mesh transform normalised (xform_unit), for GJK/EPA the
       relative pose of the query's pair and A's transform (normalised as query_collide has
       them), for the closed forms the part's core in the mesh frame. */
    bool part_ready, part_usable;
    cairn_transform mesh_unit, query_xf;
    support_pair pose;
    vec3s centre_in_mesh, axis_in_mesh; /* a sphere's or capsule's origin and its Y axis */
    triangle_shape triangle;            /* the triangle collided, moved from one to the next */
    bool triangle_made;                 /* triangle made once (triangle_shape_make), then moved */
    /* The part's deepest overlap that gave no points (deep_overlap_fallback), and whether any
       triangle of the part gave points. */
    bool part_points, has_fallback;
    int fallback_triangle;
    vec3s fallback_corners[3];
    cairn_query_result fallback;
} mesh_pair;

/* Fills the part's share of *p for p->part, once per part: what query_collide and the closed
   forms would compute for every triangle. False (error set, as query_collide sets it) when a
   transform is not usable: no triangle of the part could give a contact. */
static bool pair_begin_part(mesh_pair *p)
{
    if (p->part_ready)
        return p->part_usable;
    p->part_ready = true;
    p->part_usable =
        query_check_pair("cairn_collide", p->mesh, p->mesh_xf, p->part.shape, p->part.xf);
    if (!p->part_usable)
        return false;
    cairn_transform mesh_xf = p->mesh_xf, part_xf = p->part.xf;
    mesh_xf.rotation = glms_quat_normalize(mesh_xf.rotation);
    p->mesh_unit = mesh_xf;
    cairn_shape_type type = cairn_shape_get_type(p->part.shape);
    if (type == CAIRN_SHAPE_SPHERE || type == CAIRN_SHAPE_CAPSULE) {
        p->centre_in_mesh = xform_inverse_point(p->mesh_xf, p->part.xf.position);
        p->axis_in_mesh = xform_inverse_vector(
            p->mesh_xf, glms_quat_rotatev(p->part.xf.rotation, (vec3s){{0.0f, 1.0f, 0.0f}}));
        return true;
    }
    part_xf.rotation = glms_quat_normalize(part_xf.rotation);
    p->pose = p->mesh_is_a ? support_pair_make(p->mesh, mesh_xf, p->part.shape, part_xf)
                           : support_pair_make(p->part.shape, part_xf, p->mesh, mesh_xf);
    p->query_xf = p->mesh_is_a ? mesh_xf : part_xf;
    return true;
}

/* The key of a part-triangle pair, in the cache and in the feature ids. */
static uint32_t pair_key(const mesh_pair *p, int triangle)
{
    return (uint32_t)triangle * (uint32_t)p->part_count + (uint32_t)p->part_index;
}

/* Whether triangle `other` meets the triangle of `corners` across a flat seam: they share an
   edge (the very same corners: shared vertices, or the same heightfield samples) that is
   inactive (triangle_edges.c), or share only a corner at which both of this triangle's edges are
   inactive (a fan of flat cells around a heightfield sample). */
static bool across_flat_seam(const cairn_shape *mesh, int triangle, const vec3s corners[3],
                             int other)
{
    vec3s theirs[3];
    triangles_corners(mesh, other, theirs);
    bool shared[3] = {false, false, false};
    int count = 0;
    for (int v = 0; v < 3; ++v) {
        for (int w = 0; w < 3; ++w)
            shared[v] = shared[v] || glms_vec3_eqv(corners[v], theirs[w]);
        count += shared[v];
    }
    for (int e = 0; e < 3; ++e) {
        bool flat = !triangles_edge_active(mesh, triangle, e);
        if (count == 2 && shared[e] && shared[(e + 1) % 3])
            return flat; /* edge e runs from corner e to corner e + 1 */
        if (count == 1 && shared[e])
            return flat && !triangles_edge_active(mesh, triangle, (e + 2) % 3);
    }
    return false;
}

/* Whether the part touched the triangle last step (its pair gave contact points), or touched a
   neighbour across a flat seam (across_flat_seam): the part came from the
   front (or was held out), so an overlap through the back now means it was pressed in, not
   that it came from behind. The seam counts because the triangle that holds a body pressed
   into a flat seam changes from step to step with the side its deepest point is on. */
static bool touched_last_step(const mesh_pair *p, int triangle, const vec3s corners[3])
{
    if (!p->history)
        return false;
    for (int i = 0; i < p->history->touched_count; ++i) {
        uint32_t key = p->history->touched[i];
        if (key % (uint32_t)p->part_count != (uint32_t)p->part_index)
            continue;
        uint32_t other = key / (uint32_t)p->part_count;
        if (other == (uint32_t)triangle)
            return true;
        /* a key restored from a snapshot may name no triangle of this mesh: ignored */
        if (other < (uint32_t)cairn_shape_triangle_count(p->mesh) &&
            across_flat_seam(p->mesh, triangle, corners, (int)other))
            return true;
    }
    return false;
}

static bool face_contact(const mesh_pair *p, const vec3s corners[3], vec3s face, bool pressed,
                         cairn_query_result *q);

/* Fills *q from a closed form's answer in the mesh's frame: witnesses on the triangle and on the
   part's core, the unit normal from the triangle towards the part, the signed core distance. */
static void closed_form_finish(const mesh_pair *p, dvec3 tri_point, dvec3 core_point, dvec3 n,
                               double core_distance, cairn_query_result *q)
{
    /* query_finish works in A's frame; the mesh frame serves when the mesh is A. When the
       part is A its frame differs only by a translation and rotation of both points. */
    if (p->mesh_is_a) {
        query_finish(p->mesh_xf, p->mesh, p->part.shape, tri_point, core_point, n, core_distance,
                     q);
    } else {
        cairn_transform sx = p->part.xf;
        vec3s a = xform_inverse_point(sx, xform_point(p->mesh_xf, dvec3_to_float(core_point)));
        vec3s b = xform_inverse_point(sx, xform_point(p->mesh_xf, dvec3_to_float(tri_point)));
        vec3s nn = xform_inverse_vector(sx, xform_vector(p->mesh_xf, dvec3_to_float(n)));
        query_finish(sx, p->part.shape, p->mesh, dvec3_from(a), dvec3_from(b),
                     dvec3_neg(dvec3_from(nn)), core_distance, q);
    }
    q->gjk_iterations = 0;
    q->epa_iterations = 0;
}

/* A sphere against a triangle: the centre's closest point in double. False when the centre is
   farther than radius + margin; a centre behind the plane gives a normal facing the back, which
   part_triangle judges. */
static bool sphere_triangle(const mesh_pair *p, const vec3s corners[3], vec3s face,
                            cairn_query_result *q)
{
    double c[3][3], centre[3], nearest[3];
    vec3s centre_local = p->centre_in_mesh;
    for (int k = 0; k < 3; ++k) {
        centre[k] = centre_local.raw[k];
        for (int v = 0; v < 3; ++v)
            c[v][k] = corners[v].raw[k];
    }
    triangle_closest_point(c, centre, nearest);
    dvec3 gap = dvec3_make(centre[0] - nearest[0], centre[1] - nearest[1], centre[2] - nearest[2]);
    double distance = sqrt(dvec3_length_sq(gap));
    double radius = cairn_shape_convex_radius(p->part.shape);
    if (distance - radius > p->margin)
        return false;
    /* On the plane inside the triangle the gap has no direction: the face's is the answer, turned
       to the side the centre is on (as the capsule's closed form turns it). */
    double side = dvec3_dot(dvec3_from(face), dvec3_make(centre[0] - c[0][0], centre[1] - c[0][1],
                                                         centre[2] - c[0][2]));
    dvec3 n = distance > 1e-9 ? dvec3_scale(gap, 1.0 / distance)
                              : dvec3_scale(dvec3_from(face), side < 0.0 ? -1.0 : 1.0);
    closed_form_finish(p, dvec3_make(nearest[0], nearest[1], nearest[2]),
                       dvec3_make(centre[0], centre[1], centre[2]), n, distance, q);
    return true;
}

/* A capsule against a triangle in closed form (capsule_triangle.h), its core segment taken into
   the mesh's frame as sphere_triangle takes the centre. False when the capsule is farther than
   the margin. */
static bool capsule_triangle_part(const mesh_pair *p, const vec3s corners[3], vec3s face,
                                  cairn_query_result *q)
{
    dvec3 centre = dvec3_from(p->centre_in_mesh);
    dvec3 half = dvec3_scale(dvec3_from(p->axis_in_mesh), p->part.shape->capsule.half_height);
    const dvec3 c[3] = {dvec3_from(corners[0]), dvec3_from(corners[1]), dvec3_from(corners[2])};
    capsule_triangle_result r;
    capsule_triangle(dvec3_add(centre, half), dvec3_sub(centre, half),
                     cairn_shape_convex_radius(p->part.shape), c, dvec3_from(face), &r);
    if (r.distance > p->margin)
        return false;
    closed_form_finish(p, r.on_triangle, r.on_core, r.normal, r.core_distance, q);
    return true;
}

/* GJK/EPA between the part and one triangle, warm-started from the pair's cached simplex. */
static bool cached_query(mesh_pair *p, int triangle, triangle_shape *t, cairn_query_result *q,
                         bool *epa_capped)
{
    cairn_gjk_cache warm, *gjk = NULL;
    int slot = -1;
    uint32_t key = pair_key(p, triangle);
    if (p->cache) {
        slot = triangle_cache_load(p->cache, key, p->mesh_is_a, t->vertices, &warm);
        gjk = &warm;
        if (p->stats)
            p->stats->cache_hits += slot >= 0;
    }
    /* query_collide's path for a convex part against a triangle (a hull: no closed form),
       from the part's pose (pair_begin_part checked the transforms). */
    support_pair pair = p->mesh_is_a ? support_pair_posed(&p->pose, &t->shape, p->part.shape)
                                     : support_pair_posed(&p->pose, p->part.shape, &t->shape);
    bool ok = query_gjk_epa_pair(&pair, p->query_xf, gjk, q, epa_capped);
    if (ok && p->cache)
        triangle_cache_store(p->cache, slot, key, p->mesh_is_a, t->vertices, &warm);
    return ok;
}

/* The middle of the part's bounds (its centre, as the pressed-in rule judges it), in the mesh's
   frame. */
static vec3s part_centre(const mesh_pair *p)
{
    cairn_aabb local = cairn_shape_local_bounds(p->part.shape);
    vec3s middle = glms_vec3_scale(glms_vec3_add(local.min, local.max), 0.5f);
    return xform_inverse_point(p->mesh_xf, xform_point(p->part.xf, middle));
}

/* Whether the centre of the part's bounds lies in front of the triangle's plane (asked only of a
   back-facing overlap, so not kept per part). */
static bool centre_in_front(const mesh_pair *p, const vec3s corners[3], vec3s face)
{
    vec3s centre = part_centre(p);
    return glms_vec3_dot(face, glms_vec3_sub(centre, corners[0])) > 0.0f;
}

static float outside_distance(const vec3s corners[3], vec3s face, vec3s x);
static float feature_tolerance(const vec3s corners[3]);

/* Whether the centre of the part's bounds, seen along the face normal, lies over the triangle. */
static bool centre_over(const mesh_pair *p, const vec3s corners[3], vec3s face)
{
    vec3s centre = part_centre(p);
    vec3s foot = glms_vec3_sub(
        centre, glms_vec3_scale(face, glms_vec3_dot(face, glms_vec3_sub(centre, corners[0]))));
    return outside_distance(corners, face, foot) <= feature_tolerance(corners);
}

/* Whether an overlap through the triangle's back came from the front: the part's centre is still
   in front (it went in deep in one step: a tilted cylinder landing at 10 m/s turned its rim 20 cm
   into a seam's two triangles, each side rejected, and it fell through the mesh), or the part
   touched the triangle last step (touched_last_step: a 0.08 m sphere pressed past its centre by
   a heavy crate fell through the terrain). Either way it is pushed back out along the face
   normal, as a ghost contact is. A part that comes from behind touches neither way and passes. */
static bool pressed_in(const mesh_pair *p, int triangle, const vec3s corners[3], vec3s face)
{
    return centre_in_front(p, corners, face) || touched_last_step(p, triangle, corners);
}

/* The query between the part and one triangle, in body order (A first): GJK/EPA, or a closed
   form for spheres and capsules (no simplex cache and, as ever for the sphere, not counted among
   the GJK queries of the step statistics). */
static bool part_query(mesh_pair *p, int triangle, triangle_shape *t, vec3s face,
                       cairn_query_result *q)
{
    cairn_shape_type type = cairn_shape_get_type(p->part.shape);
    if (type == CAIRN_SHAPE_SPHERE)
        return sphere_triangle(p, t->vertices, face, q);
    if (type == CAIRN_SHAPE_CAPSULE)
        return capsule_triangle_part(p, t->vertices, face, q);
    bool epa_capped;
    if (!cached_query(p, triangle, t, q, &epa_capped))
        return false;
    if (p->stats) {
        p->stats->queries++;
        p->stats->gjk_iterations += q->gjk_iterations;
        p->stats->epa_calls += q->epa_iterations > 0;
        p->stats->epa_cap_stops += epa_capped;
    }
    return true;
}

/* The contact of the part and one triangle, in body order (A first), or false for none.
   *witness: whether the query's closest pair may join the clipped points (triangle_manifold):
   false for a pressed-in pair whose deepest point does not lie over the triangle (a ghost is the
   caller's to judge). */
static bool part_triangle(mesh_pair *p, int triangle, triangle_shape *t, vec3s face,
                          cairn_query_result *q, bool *witness)
{
    const vec3s *corners = t->vertices;
    if (!part_query(p, triangle, t, face, q))
        return false;
    /* One-sided: the normal from the triangle towards the part must face the front. */
    vec3s out = p->mesh_is_a ? q->normal : glms_vec3_negate(q->normal);
    if (glms_vec3_dot(out, xform_unit_vector(p->mesh_unit, face)) >= MESH_BACK_FACE_COSINE) {
        *witness = true;
        return true;
    }
    /* Unless the part overlaps the triangle through its back and was pressed in from the front,
       over the triangle: its deepest point along the face normal or its centre lies over it. A
       part that only reaches over the triangle's edge from beside it (past a ridge, below the
       plane of the slope beyond) is not pushed up that plane. */
    if (!q->overlap || !pressed_in(p, triangle, corners, face))
        return false;
    *witness = face_contact(p, corners, face, true, q);
    return *witness || centre_over(p, corners, face);
}

bool mesh_triangle_query(const cairn_shape *mesh, cairn_transform mesh_xf, int triangle,
                         const cairn_shape *convex, cairn_transform xf, triangle_cache *cache,
                         cairn_query_result *out)
{
    mesh_pair p = {.mesh = mesh,
                   .mesh_xf = mesh_xf,
                   .xa = mesh_xf,
                   .xb = xf,
                   .mesh_is_a = true,
                   .part = {convex, xf},
                   .part_count = 1,
                   .margin = INFINITY,
                   .cache = cache};
    if (!pair_begin_part(&p))
        return false;
    vec3s corners[3];
    triangles_corners(mesh, triangle, corners);
    triangle_shape t;
    triangle_shape_make(&t, corners);
    bool witness;
    return part_triangle(&p, triangle, &t, t.faces[0].normal, out, &witness);
}

/* Distance from p to the segment a-b (segment_closest with p as a segment of length 0). */
static float segment_distance(vec3s p, vec3s a, vec3s b)
{
    dvec3 on_edge, on_point;
    segment_closest(dvec3_from(a), dvec3_from(b), dvec3_from(p), dvec3_from(p), &on_edge,
                    &on_point);
    return (float)sqrt(dvec3_length_sq(dvec3_sub(on_edge, on_point)));
}

/* How close to an edge or corner a point counts as on it: rounding, relative to the triangle. */
static float feature_tolerance(const vec3s corners[3])
{
    float longest = fmaxf(glms_vec3_distance(corners[0], corners[1]),
                          fmaxf(glms_vec3_distance(corners[1], corners[2]),
                                glms_vec3_distance(corners[2], corners[0])));
    return 1e-4f * longest + 1e-5f;
}

/* A contact whose normal leaves the face normal at an inactive edge or vertex of the triangle
   (one shared with a concave neighbour, or one folding by less than about 5 degrees): a ghost
   bump, whose normal must not stand (face_contact). */
static bool is_ghost_contact(const mesh_pair *p, int triangle, const vec3s corners[3], vec3s face,
                             const cairn_query_result *q)
{
    vec3s out = p->mesh_is_a ? q->normal : glms_vec3_negate(q->normal);
    if (glms_vec3_dot(out, xform_unit_vector(p->mesh_unit, face)) >= MESH_FACE_COSINE)
        return false;
    vec3s w = xform_inverse_point(p->mesh_xf, p->mesh_is_a ? q->point_a : q->point_b);
    float tolerance = feature_tolerance(corners);
    for (int v = 0; v < 3; ++v)
        if (glms_vec3_distance(w, corners[v]) <= tolerance)
            return !triangles_edge_active(p->mesh, triangle, v) &&
                   !triangles_edge_active(p->mesh, triangle, (v + 2) % 3);
    for (int e = 0; e < 3; ++e)
        if (segment_distance(w, corners[e], corners[(e + 1) % 3]) <= tolerance)
            return !triangles_edge_active(p->mesh, triangle, e);
    return false; /* inside the face: a deep contact, its normal stands */
}

/* How far point x (mesh frame, in the triangle's plane) lies outside the triangle (0 inside). */
static float outside_distance(const vec3s corners[3], vec3s face, vec3s x)
{
    float outside = 0.0f;
    for (int e = 0; e < 3; ++e) {
        vec3s a = corners[e], b = corners[(e + 1) % 3];
        /* outward in the plane for a counter-clockwise triangle */
        vec3s out = glms_vec3_normalize(glms_vec3_cross(glms_vec3_sub(b, a), face));
        outside = fmaxf(outside, glms_vec3_dot(out, glms_vec3_sub(x, a)));
    }
    return outside;
}

/* A ghost contact moved onto the face: its normal becomes the face's. Dropping it instead left
   nothing where both triangles of a seam see the body at their shared edge (a corner on a
   convex fold under 5 degrees: its normal lies between the two face normals, so neither is the
   face's), and a body landing there fell through (issue 14).
   When the body's deepest point along the face normal lies over the triangle, or past its edge
   by less than (its height over the plane + the convex radius) * tan 5 degrees (a corner at
   that height, or a sphere of that radius, over the wedge of a convex fold under 5 degrees lies
   within it; the plane there runs at most reach * sin 5 degrees above the neighbour), that point
   against the face's plane is the contact: true. Else the pair stays, measured along the face
   normal, but is no contact point (false): only the body's face clipped over the triangle may
   give points. The pair would be beside the body (a box sliding past a triangle it does not
   cover), or beside the bottom of a rolling sphere, where its anchor turns into the floor: both
   made bodies hop at every seam. A `pressed` pair (one that came through the back: pressed_in)
   is measured by the deepest point against the plane either way: its query's points, found
   through the back, say nothing along the face normal. */
static bool face_contact(const mesh_pair *p, const vec3s corners[3], vec3s face, bool pressed,
                         cairn_query_result *q)
{
    vec3s n = xform_vector(p->mesh_xf, face);
    vec3s down = xform_inverse_vector(p->part.xf, glms_vec3_negate(n));
    vec3s deepest = xform_point(p->part.xf, cairn_shape_support(p->part.shape, down));
    vec3s local = xform_inverse_point(p->mesh_xf, deepest);
    float depth = glms_vec3_dot(face, glms_vec3_sub(local, corners[0]));
    vec3s foot = glms_vec3_sub(local, glms_vec3_scale(face, depth));
    float radius = cairn_shape_convex_radius(p->part.shape);
    float reach =
        feature_tolerance(corners) + (fmaxf(depth, 0.0f) + radius) * MESH_INACTIVE_FOLD_TANGENT;
    bool over = outside_distance(corners, face, foot) <= reach;
    bool measured = over || pressed;
    vec3s on_mesh = measured       ? xform_point(p->mesh_xf, foot)
                    : p->mesh_is_a ? q->point_a
                                   : q->point_b;
    vec3s on_body = measured ? deepest : p->mesh_is_a ? q->point_b : q->point_a;
    q->distance = glms_vec3_dot(glms_vec3_sub(on_body, on_mesh), n);
    q->overlap = q->distance <= 0.0f;
    q->normal = p->mesh_is_a ? n : glms_vec3_negate(n);
    q->point_a = p->mesh_is_a ? on_mesh : on_body;
    q->point_b = p->mesh_is_a ? on_body : on_mesh;
    return over;
}

/* Clipping keeps points of the supporting faces, which can all lie well above the closest pair
   (a corner just past the triangle's edge is clipped away; a deep, tilted contact). A contact
   that shallow would let the body sink: the closest pair joins the manifold (in place of its
   shallowest point when full) once it is deeper by more than this, metres. */
static const float witness_gap = 0.005f;

static void add_witness(manifold *m, const cairn_query_result *q, cairn_transform xa,
                        cairn_transform xb)
{
    int shallowest = 0;
    for (int i = 0; i < m->point_count; ++i) {
        if (m->points[i].separation <= q->distance + witness_gap)
            return;
        if (m->points[i].separation > m->points[shallowest].separation)
            shallowest = i;
    }
    int slot = m->point_count < MANIFOLD_MAX_POINTS ? m->point_count++ : shallowest;
    vec3s mid = glms_vec3_scale(glms_vec3_add(q->point_a, q->point_b), 0.5f);
    m->points[slot] = (manifold_point){.anchor_a = mid,
                                       .anchor_b = mid,
                                       .local_a = xform_inverse_point(xa, q->point_a),
                                       .local_b = xform_inverse_point(xb, q->point_b),
                                       .separation = q->distance,
                                       .id = 15u}; /* clipped points use ids 0..3 */
}

/* The manifold of one part-triangle pair in body order. (A capsule's side over the triangle is
   clipped by the triangle's face, as every segment over a face is: manifold.c.) */
static int triangle_manifold(const mesh_pair *p, const triangle_shape *t,
                             const cairn_query_result *q, bool witness, manifold *m)
{
    shape_part tri = {&t->shape, p->mesh_xf};
    shape_part pa = p->mesh_is_a ? tri : p->part, pb = p->mesh_is_a ? p->part : tri;
    int count = witness ? manifold_build(pa.shape, pa.xf, pb.shape, pb.xf, q, p->margin, m)
                        : manifold_build_clipped(pa.shape, pa.xf, pb.shape, pb.xf, q, p->margin, m);
    if (count > 0 && witness)
        add_witness(m, q, pa.xf, pb.xf);
    return count;
}

/* The pair's triangle shape on the given corners. */
static triangle_shape *pair_triangle(mesh_pair *p, const vec3s corners[3])
{
    if (p->triangle_made) {
        triangle_shape_move(&p->triangle, corners);
    } else {
        triangle_shape_make(&p->triangle, corners);
        p->triangle_made = true;
    }
    return &p->triangle;
}

/* Notes that the part-triangle pair gave points this step (for next step's touched_last_step). */
static void keep_touched(mesh_pair *p, int triangle)
{
    mesh_history *h = p->history;
    if (h && h->touched_now_count < TRIANGLE_CACHE_CAPACITY)
        h->touched_now[h->touched_now_count++] = pair_key(p, triangle);
}

static void add_triangle_manifold(mesh_pair *p, int triangle, const triangle_shape *t,
                                  const manifold *m, float distance)
{
    shape_part tri = {&t->shape, p->mesh_xf};
    shape_part pa = p->mesh_is_a ? tri : p->part, pb = p->mesh_is_a ? p->part : tri;
    cluster_set_add(p->clusters, m, pa, p->xa, pb, p->xb, pair_key(p, triangle), distance);
    keep_touched(p, triangle);
    p->part_points = true;
}

/* Keeps the deepest overlap of the part that gave no points (its deepest point along the face
   normal past the triangle's edge, and the body's face clipped over the triangle empty: a ghost
   by is_ghost_contact's rule) for deep_overlap_fallback. */
static void keep_fallback(mesh_pair *p, int triangle, const vec3s corners[3],
                          const cairn_query_result *q)
{
    if (p->has_fallback && q->distance >= p->fallback.distance)
        return;
    p->has_fallback = true;
    p->fallback_triangle = triangle;
    memcpy(p->fallback_corners, corners, sizeof p->fallback_corners);
    p->fallback = *q;
}

static bool collide_triangle(void *context, int triangle, const vec3s corners[3])
{
    mesh_pair *p = context;
    if (!pair_begin_part(p))
        return false; /* no triangle of the part can give a contact */
    triangle_shape *t = pair_triangle(p, corners);
    vec3s face = t->faces[0].normal;
    cairn_query_result q;
    bool witness;
    if (!part_triangle(p, triangle, t, face, &q, &witness))
        return true;
    cairn_query_result found = q;
    if (witness && is_ghost_contact(p, triangle, corners, face, &q))
        witness = face_contact(p, corners, face, false, &q);
    manifold m;
    if (triangle_manifold(p, t, &q, witness, &m) > 0)
        add_triangle_manifold(p, triangle, t, &m, q.distance);
    else if (found.overlap && found.distance < -witness_gap)
        keep_fallback(p, triangle, corners, &found);
    return true;
}

/* A part deep in the mesh whose every overlap was judged a ghost gave no points at all, and
   fell through: a spinning cylinder pressed 10 cm into a heightfield's slope by a body on top,
   its deepest point along the slope's normal past the slope's edge, over the neighbour whose
   plane its centre was already behind (found by the API scripts, game seed 424). Ghosts matter
   where the body has other contacts to stand on; with none, the deepest overlap pushes it out
   along its triangle's face normal, measured as a pressed-in pair is (face_contact). */
static void deep_overlap_fallback(mesh_pair *p)
{
    if (p->part_points || !p->has_fallback)
        return;
    triangle_shape *t = pair_triangle(p, p->fallback_corners);
    cairn_query_result q = p->fallback;
    face_contact(p, p->fallback_corners, t->faces[0].normal, true, &q);
    manifold m;
    if (triangle_manifold(p, t, &q, true, &m) == 0) {
        shape_part tri = {&t->shape, p->mesh_xf};
        shape_part pa = p->mesh_is_a ? tri : p->part, pb = p->mesh_is_a ? p->part : tri;
        m = (manifold){.normal = q.normal};
        add_witness(&m, &q, pa.xf, pb.xf);
    }
    add_triangle_manifold(p, p->fallback_triangle, t, &m, q.distance);
}

int mesh_manifolds(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                   cairn_transform xb, float margin, mesh_history *history, triangle_cache *cache,
                   manifold out[CONTACT_MAX_MANIFOLDS], compound_stats *stats)
{
    cluster_set set;
    cluster_set_init(&set, history ? history->normals : NULL, history ? history->normal_count : 0);
    if (history)
        history->touched_now_count = 0;
    bool mesh_is_a = shape_is_triangles(a);
    const cairn_shape *other = mesh_is_a ? b : a;
    if (shape_is_triangles(other))
        return 0; /* two surfaces: nothing to push apart */
    mesh_pair p = {.mesh = mesh_is_a ? a : b,
                   .mesh_xf = mesh_is_a ? xa : xb,
                   .xa = xa,
                   .xb = xb,
                   .mesh_is_a = mesh_is_a,
                   .part_count = shape_part_count(other),
                   .margin = margin,
                   .clusters = &set,
                   .stats = stats,
                   .cache = cache,
                   .history = history};
    if (cache)
        triangle_cache_begin(cache);
    for (int j = 0; j < p.part_count; ++j) {
        p.part = shape_part_at(other, mesh_is_a ? xb : xa, j);
        p.part_index = j;
        p.part_ready = false;
        p.part_points = p.has_fallback = false;
        triangles_query_box(p.mesh, part_bounds_in(p.mesh_xf, p.part, margin), collide_triangle,
                            &p);
        deep_overlap_fallback(&p);
    }
    if (cache)
        triangle_cache_end(cache);
    return cluster_set_write(&set, out);
}

static bool overlap_triangle(void *context, int triangle, const vec3s corners[3])
{
    (void)triangle;
    mesh_pair *p = context;
    triangle_shape t;
    triangle_shape_make(&t, corners);
    p->overlap = cairn_overlap(&t.shape, p->mesh_xf, p->part.shape, p->part.xf);
    return !p->overlap;
}

bool mesh_overlap(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                  cairn_transform xb)
{
    bool mesh_is_a = shape_is_triangles(a);
    const cairn_shape *other = mesh_is_a ? b : a;
    if (shape_is_triangles(other))
        return false;
    mesh_pair p = {.mesh = mesh_is_a ? a : b, .mesh_xf = mesh_is_a ? xa : xb};
    int count = shape_part_count(other);
    for (int j = 0; j < count && !p.overlap; ++j) {
        p.part = shape_part_at(other, mesh_is_a ? xb : xa, j);
        triangles_query_box(p.mesh, part_bounds_in(p.mesh_xf, p.part, 0.0f), overlap_triangle, &p);
    }
    return p.overlap;
}
