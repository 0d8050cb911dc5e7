/* Contact manifolds: from the query's normal, the supporting feature (face polygon, segment or
   point) of each shape; the incident feature clipped against the side planes of the reference
   feature (the better aligned one); at most four points, deepest first, then largest area. */
#include "collision/manifold_clip.h"
#include "dynamics/contact.h"

#include "core/error.h"
#include "core/xform.h"
#include "geometry/shape.h"

#include <float.h>
#include <math.h>

enum { FEATURE_MAX = 64, CYLINDER_CAP_POINTS = 12 };

/* A flat feature of a shape's surface in world space: 1 point, a segment, or a polygon. */
typedef struct feature {
    int count;
    vec3s points[FEATURE_MAX];
    vec3s normal; /* outward unit normal of the face (or the direction asked for) */
} feature;

/* A segment or cap counts as facing d when within about 15 degrees of perpendicular/parallel. */
static const float facing_cosine = 0.97f;

static void feature_point(feature *f, vec3s p)
{
    if (f->count < FEATURE_MAX)
        f->points[f->count++] = p;
}

/* The core polytope face most aligned with d (shape frame), pushed out by the radius. */
static void polytope_feature(const convex_hull *hull, const vec3s *core_vertices, float radius,
                             vec3s d, feature *f)
{
    int best = 0;
    float best_dot = -FLT_MAX;
    for (int i = 0; i < hull->face_count; ++i) {
        float dot = glms_vec3_dot(hull->faces[i].normal, d);
        if (dot > best_dot) {
            best_dot = dot;
            best = i;
        }
    }
    const hull_face *face = &hull->faces[best];
    f->normal = face->normal;
    int edge = face->first_edge;
    for (int n = 0; n < face->edge_count; ++n, edge = hull->edges[edge].next)
        feature_point(f, glms_vec3_add(core_vertices[hull->edges[edge].origin],
                                       glms_vec3_scale(face->normal, radius)));
}

static void box_feature(const cairn_shape *shape, vec3s d, feature *f)
{
    vec3s core[8];
    box_core_corners(shape, core);
    polytope_feature(&shape->box.outer, core, shape->convex_radius, d, f);
}

static void capsule_feature(const cairn_shape *shape, vec3s d, feature *f)
{
    float h = shape->capsule.half_height, r = shape->convex_radius;
    float axial = d.y;
    f->normal = d;
    if (fabsf(axial) < 1.0f - facing_cosine && h > 0.0f) {
        /* The side: the core segment pushed out along d without its axial part. */
        vec3s out = glms_vec3_normalize((vec3s){{d.x, 0.0f, d.z}});
        feature_point(f, (vec3s){{out.x * r, h, out.z * r}});
        feature_point(f, (vec3s){{out.x * r, -h, out.z * r}});
        f->normal = out;
        return;
    }
    feature_point(f, cairn_shape_support(shape, d));
}

static void cylinder_feature(const cairn_shape *shape, vec3s d, feature *f)
{
    float h = shape->cylinder.core_half_height, rc = shape->cylinder.core_radius;
    float r = shape->convex_radius;
    f->normal = d;
    if (fabsf(d.y) >= facing_cosine) {
        /* A cap: the core disk as a polygon, at the outer height. */
        float side = d.y > 0.0f ? 1.0f : -1.0f;
        f->normal = (vec3s){{0.0f, side, 0.0f}};
        for (int i = 0; i < CYLINDER_CAP_POINTS; ++i) {
            float angle = 2.0f * GLM_PIf * (float)i / CYLINDER_CAP_POINTS * side;
            feature_point(f, (vec3s){{rc * cosf(angle), side * (h + r), rc * sinf(angle)}});
        }
        return;
    }
    if (fabsf(d.y) < 1.0f - facing_cosine) {
        vec3s out = glms_vec3_normalize((vec3s){{d.x, 0.0f, d.z}});
        float reach = rc + r;
        feature_point(f, (vec3s){{out.x * reach, h, out.z * reach}});
        feature_point(f, (vec3s){{out.x * reach, -h, out.z * reach}});
        f->normal = out;
        return;
    }
    feature_point(f, cairn_shape_support(shape, d));
}

/* The supporting feature along world direction d, in world space; unit: the shape's transform
   through xform_unit (a feature has up to 64 points, each turned by it). */
static feature supporting_feature(const cairn_shape *shape, cairn_transform unit, vec3s d)
{
    /* Not zeroed: a feature is 800 bytes, and only its first count points are ever read. */
    feature f;
    vec3s local = glms_vec3_normalize(xform_unit_inverse_vector(unit, d));
    f.count = 0;
    f.normal = local;
    switch (shape->type) {
    case CAIRN_SHAPE_SPHERE:
        f.normal = local;
        feature_point(&f, cairn_shape_support(shape, local));
        break;
    case CAIRN_SHAPE_BOX:
        box_feature(shape, local, &f);
        break;
    case CAIRN_SHAPE_CAPSULE:
        capsule_feature(shape, local, &f);
        break;
    case CAIRN_SHAPE_CYLINDER:
        cylinder_feature(shape, local, &f);
        break;
    case CAIRN_SHAPE_HULL:
        polytope_feature(&shape->hull.core, shape->hull.core.vertices, shape->convex_radius, local,
                         &f);
        break;
    case CAIRN_SHAPE_COMPOUND: /* never: a compound's pairs are built per child (compound.c) */
    case CAIRN_SHAPE_MESH:     /* never: meshes per triangle (mesh_collide.c) */
    case CAIRN_SHAPE_HEIGHTFIELD:
        CAIRN_ASSERT(!shape_is_compound(shape) && !shape_is_triangles(shape));
        break;
    }
    for (int i = 0; i < f.count; ++i)
        f.points[i] = xform_unit_point(unit, f.points[i]);
    f.normal = xform_unit_vector(unit, f.normal);
    return f;
}

/* Keeps the part of polygon `in` on the inner side of the plane dot(n, x) <= offset. */
static void clip_plane(const feature *in, vec3s n, float offset, feature *out)
{
    out->count = 0;
    out->normal = in->normal;
    if (in->count == 1) {
        if (glms_vec3_dot(n, in->points[0]) <= offset)
            feature_point(out, in->points[0]);
        return;
    }
    int edges = in->count == 2 ? 1 : in->count;
    for (int i = 0; i < edges; ++i) {
        vec3s p = in->points[i], q = in->points[(i + 1) % in->count];
        float dp = glms_vec3_dot(n, p) - offset, dq = glms_vec3_dot(n, q) - offset;
        if (dp <= 0.0f)
            feature_point(out, p);
        if ((dp < 0.0f && dq > 0.0f) || (dp > 0.0f && dq < 0.0f))
            feature_point(out, glms_vec3_lerp(p, q, dp / (dp - dq)));
        if (in->count == 2 && dq <= 0.0f)
            feature_point(out, q);
    }
}

/* *out = *in for the points in use (a whole feature is 800 bytes). */
static void feature_copy(const feature *in, feature *out)
{
    out->count = in->count;
    out->normal = in->normal;
    for (int i = 0; i < in->count; ++i)
        out->points[i] = in->points[i];
}

/* Clips the incident feature to the prism over the reference feature (a polygon's edges, or a
   segment's two end planes) into *out. Each plane clips from one buffer into the other: no
   feature is copied between planes. */
static void clip_to_reference(const feature *reference, const feature *incident, feature *out)
{
    if (reference->count == 2) {
        feature next;
        vec3s e = glms_vec3_sub(reference->points[1], reference->points[0]);
        clip_plane(incident, e, glms_vec3_dot(e, reference->points[1]), &next);
        vec3s back = glms_vec3_negate(e);
        clip_plane(&next, back, glms_vec3_dot(back, reference->points[0]), out);
        return;
    }
    feature buffers[2];
    const feature *current = incident;
    int next = 0;
    for (int i = 0; i < reference->count && current->count > 0; ++i) {
        vec3s p = reference->points[i], q = reference->points[(i + 1) % reference->count];
        vec3s side = glms_vec3_cross(glms_vec3_sub(q, p), reference->normal);
        if (glms_vec3_norm2(side) == 0.0f)
            continue;
        clip_plane(current, side, glms_vec3_dot(side, p), &buffers[next]);
        current = &buffers[next];
        next ^= 1;
    }
    feature_copy(current, out);
}

typedef struct candidate {
    vec3s on_a, on_b;
    float separation;
} candidate;

static float triangle_area2(vec3s a, vec3s b, vec3s c, vec3s normal)
{
    return glms_vec3_dot(glms_vec3_cross(glms_vec3_sub(b, a), glms_vec3_sub(c, a)), normal);
}

/* Points along a line (a capsule's side on the triangles of a mesh, merged): the deepest (a),
   the farthest from it (b) and the farthest from b, so the two ends of the line stay. Picking
   the third and fourth by area kept copies of a point where triangles meet and dropped an end:
   the body rested on half its length and rolled away. */
static int reduce_collinear(const candidate *c, int count, int a, int b, int *keep)
{
    int far = -1;
    float best = -1.0f;
    for (int i = 0; i < count; ++i) {
        float dist = glms_vec3_distance2(c[i].on_b, c[b].on_b);
        if (i != a && i != b && dist > best) {
            best = dist;
            far = i;
        }
    }
    keep[0] = a;
    keep[1] = b;
    keep[2] = far;
    return 3;
}

/* The best candidate by some measure: of all, and of those that bear load with the deepest
   point (within `band` of its depth; band < 0: every point bears). The bearing one is taken when
   it measures at least a quarter of the best of all (half as far for squared distances): a
   point in the air beside a body perched on a ridge spans more area than the ridge's far end,
   but the body stands on the ridge's ends. */
typedef struct choice {
    float band, deepest;
    int any, bearing;
    float any_best, bearing_best;
} choice;

static choice choice_start(const candidate *c, int a, float band, float floor)
{
    return (choice){band, c[a].separation, -1, -1, floor, floor};
}

static void choice_offer(choice *ch, const candidate *c, int i, float value)
{
    if (value > ch->any_best)
        ch->any_best = value, ch->any = i;
    bool bears = ch->band < 0.0f || c[i].separation <= ch->deepest + ch->band;
    if (bears && value > ch->bearing_best)
        ch->bearing_best = value, ch->bearing = i;
}

static int choice_pick(const choice *ch)
{
    bool bearing =
        ch->bearing >= 0 && ch->bearing_best > 0.0f && ch->bearing_best >= 0.25f * ch->any_best;
    return bearing ? ch->bearing : ch->any;
}

/* Deepest point, the point farthest from it, the largest triangle, then the point adding the
   most area outside that triangle; each of those that bear load with the deepest (within `band`
   of its depth) when one measures up (choice_pick). */
static int reduce(const candidate *c, int count, vec3s normal, float band, int *keep)
{
    if (count <= MANIFOLD_MAX_POINTS) {
        for (int i = 0; i < count; ++i)
            keep[i] = i;
        return count;
    }
    int a = 0;
    for (int i = 1; i < count; ++i)
        if (c[i].separation < c[a].separation)
            a = i;
    choice far = choice_start(c, a, band, -1.0f);
    for (int i = 0; i < count; ++i)
        if (i != a)
            choice_offer(&far, c, i, glms_vec3_distance2(c[i].on_b, c[a].on_b));
    int b = choice_pick(&far);
    choice wide = choice_start(c, a, band, -1.0f);
    for (int i = 0; i < count; ++i)
        if (i != a && i != b)
            choice_offer(&wide, c, i,
                         fabsf(triangle_area2(c[a].on_b, c[b].on_b, c[i].on_b, normal)));
    /* every point within a thousandth of a-b's length of its line: a line contact */
    if (wide.any_best <= 1e-3f * glms_vec3_distance2(c[a].on_b, c[b].on_b))
        return reduce_collinear(c, count, a, b, keep);
    int t = choice_pick(&wide);
    float sign = triangle_area2(c[a].on_b, c[b].on_b, c[t].on_b, normal) >= 0.0f ? 1.0f : -1.0f;
    choice outside = choice_start(c, a, band, -FLT_MAX);
    int corners[3] = {a, b, t};
    for (int i = 0; i < count; ++i) {
        if (i == a || i == b || i == t)
            continue;
        for (int k = 0; k < 3; ++k)
            /* Area outside edge k of the triangle (negative orientation). */
            choice_offer(&outside, c, i,
                         -sign * triangle_area2(c[corners[k]].on_b, c[corners[(k + 1) % 3]].on_b,
                                                c[i].on_b, normal));
    }
    int d = choice_pick(&outside);
    keep[0] = a;
    keep[1] = b;
    keep[2] = t;
    keep[3] = d;
    return d >= 0 ? 4 : 3;
}

/* Clipping needs a reference face that faces the contact normal: past about 60 degrees (an
   edge meeting an edge), the face's plane says little about the depth, and the query's witness
   pair is the contact. */
static const float reference_cosine = 0.5f;

/* Whether A's feature is the reference: the better aligned one, except that a segment never
   clips a polygon. A segment bounds what it clips only at its two end planes: a polygon clipped
   by it keeps its whole width. A capsule or a cylinder lying on a face ties with the face's
   alignment, and where rounding picked the segment, the points were the corners of the face
   across the whole strip under it (a capsule rolling on a 200 m box had points 100 m out, whose
   friction stopped it turning within a step). *usable: false for a segment over a polygon that
   does not face the normal (the query's witness pair is the contact then). */
static bool a_is_reference_of(const feature *fa, const feature *fb, float align_a, float align_b,
                              bool *usable)
{
    bool a_over_segment = fa->count >= 3 && fb->count == 2;
    bool b_over_segment = fb->count >= 3 && fa->count == 2;
    bool a_reference = a_over_segment || (!b_over_segment && align_a >= align_b);
    *usable = (a_reference ? align_a : align_b) >= reference_cosine;
    return a_reference;
}

/* Points from clipping, none deeper than depth_floor; false when there is nothing to clip (a
   point feature), no face faces the normal, or nothing is left. */
static int clipped_candidates(const feature *fa, const feature *fb, vec3s normal, float speculative,
                              float depth_floor, candidate *out)
{
    float align_a = fabsf(glms_vec3_dot(fa->normal, normal));
    float align_b = fabsf(glms_vec3_dot(fb->normal, normal));
    bool usable;
    bool a_is_reference = a_is_reference_of(fa, fb, align_a, align_b, &usable);
    if (!usable)
        return 0;
    float alignment = a_is_reference ? align_a : align_b;
    const feature *reference = a_is_reference ? fa : fb;
    const feature *incident = a_is_reference ? fb : fa;
    feature clipped;
    clip_to_reference(reference, incident, &clipped);
    /* Separation: how far along the contact normal a clipped point lies from the reference
       face's plane (not from a plane across the normal through one of its corners, which is
       only the same when the face is square to the normal). */
    float plane = glms_vec3_dot(reference->normal, reference->points[0]);
    int count = 0;
    for (int i = 0; i < clipped.count; ++i) {
        vec3s p = clipped.points[i];
        float separation = (glms_vec3_dot(reference->normal, p) - plane) / alignment;
        if (separation > speculative)
            continue;
        /* No point is closer than the pair's distance along the normal: moving B that far
           separates (or touches) them. A point past a tilted face's plane left A through
           another face. */
        separation = fmaxf(separation, depth_floor);
        /* the point on the reference face, along the normal from p */
        float along = a_is_reference ? separation : -separation;
        vec3s projected = glms_vec3_sub(p, glms_vec3_scale(normal, along));
        out[count].separation = separation;
        out[count].on_a = a_is_reference ? projected : p;
        out[count].on_b = a_is_reference ? p : projected;
        ++count;
    }
    return count;
}

/* manifold_build, with or without the query's witness pair when clipping leaves nothing. */
static int build(const cairn_shape *a, cairn_transform xa, const cairn_shape *b, cairn_transform xb,
                 const cairn_query_result *query, float speculative_distance, bool witness,
                 manifold *out)
{
    out->point_count = 0;
    out->normal = query->normal;
    out->friction_impulse = glms_vec3_zero();
    out->twist_impulse = 0.0f;
    out->rolling_impulse = glms_vec3_zero();
    if (query->distance > speculative_distance)
        return 0;
    xa = xform_unit(xa);
    xb = xform_unit(xb);
    feature fa = supporting_feature(a, xa, query->normal);
    feature fb = supporting_feature(b, xb, glms_vec3_negate(query->normal));
    candidate c[FEATURE_MAX];
    int count = 0;
    if (fa.count >= 2 && fb.count >= 2)
        count =
            clipped_candidates(&fa, &fb, query->normal, speculative_distance, query->distance, c);
    if (count == 0 && witness) {
        /* A point feature, no face facing the normal, or clipping left nothing: the query's
           witness pair. (Adding it to clipped points whenever they came out shallower than the
           query, by the rounding of a convex radius, kept a pile of hulls from ever falling
           asleep: the witness point wanders from step to step.) */
        c[0] = (candidate){query->point_a, query->point_b, query->distance};
        count = 1;
    }
    int keep[MANIFOLD_MAX_POINTS];
    int kept = reduce(c, count, query->normal, -1.0f, keep);
    for (int i = 0; i < kept; ++i) {
        const candidate *k = &c[keep[i]];
        manifold_point *p = &out->points[i];
        vec3s mid = glms_vec3_scale(glms_vec3_add(k->on_a, k->on_b), 0.5f);
        p->local_a = xform_unit_inverse_point(xa, k->on_a);
        p->local_b = xform_unit_inverse_point(xb, k->on_b);
        p->anchor_a = mid; /* made relative to the centres by the caller */
        p->anchor_b = mid;
        p->separation = k->separation;
        p->normal_impulse = 0.0f;
        p->max_normal_impulse = 0.0f;
        p->relative_velocity = 0.0f;
        p->id = (uint32_t)keep[i];
    }
    out->point_count = kept;
    return kept;
}

int manifold_build(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                   cairn_transform xb, const cairn_query_result *query, float speculative_distance,
                   manifold *out)
{
    return build(a, xa, b, xb, query, speculative_distance, true, out);
}

int manifold_build_clipped(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                           cairn_transform xb, const cairn_query_result *query,
                           float speculative_distance, manifold *out)
{
    return build(a, xa, b, xb, query, speculative_distance, false, out);
}

int manifold_reduce(const manifold_point *points, int count, vec3s normal, float band,
                    manifold_point *out)
{
    candidate c[FEATURE_MAX];
    int n = count < FEATURE_MAX ? count : FEATURE_MAX;
    for (int i = 0; i < n; ++i)
        c[i] = (candidate){points[i].anchor_a, points[i].anchor_b, points[i].separation};
    int keep[MANIFOLD_MAX_POINTS];
    int kept = reduce(c, n, normal, band, keep);
    for (int i = 0; i < kept; ++i)
        out[i] = points[keep[i]];
    return kept;
}

void manifold_match(const manifold *old_manifold, manifold *new_manifold, float tolerance)
{
    float tolerance2 = tolerance * tolerance;
    bool matched = false;
    for (int i = 0; i < new_manifold->point_count; ++i) {
        manifold_point *p = &new_manifold->points[i];
        int best = -1;
        float best_distance = tolerance2;
        for (int j = 0; j < old_manifold->point_count; ++j) {
            float d = glms_vec3_distance2(p->local_a, old_manifold->points[j].local_a);
            if (d <= best_distance) {
                best_distance = d;
                best = j;
            }
        }
        if (best < 0)
            continue;
        p->normal_impulse = old_manifold->points[best].normal_impulse;
        matched = true;
    }
    /* The same patch of contact: its friction carries over (re-projected by the solver onto
       the new tangent plane). */
    if (matched) {
        new_manifold->friction_impulse = old_manifold->friction_impulse;
        new_manifold->twist_impulse = old_manifold->twist_impulse;
        new_manifold->rolling_impulse = old_manifold->rolling_impulse;
    }
}
