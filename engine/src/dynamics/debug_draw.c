/* Debug drawing of the world's private state (contacts, broadphase, sleep, centres, velocities)
   and of one pair's GJK query, through the caller's line/point callbacks. Reads only. */
#include <cairn/debug_draw.h>

#include "collision/epa.h"
#include "collision/gjk.h"
#include "core/error.h"
#include "core/validate.h"
#include "core/xform.h"
#include "dynamics/debug_draw_internal.h"
#include "dynamics/world_state.h"

#include <math.h>

#define POINT_SIZE        6.0f  /* pixels, contact and centre points */
#define NORMAL_LENGTH     0.3f  /* metres drawn along a contact normal */
#define FRAME_AXIS_LENGTH 0.25f /* metres of each body-frame axis */
#define VELOCITY_SECONDS  0.1f  /* a linear velocity is drawn as this much motion */
#define ANGULAR_SCALE     0.1f  /* metres per rad/s */
#define INTERVAL_GAP      0.5f  /* metres between the world's bounds and the SAP intervals */
#define INTERVAL_STEP     0.02f /* metres between two stacked intervals */
#define HULL_LONGITUDES   16    /* support-direction samples of the Minkowski difference */
#define HULL_LATITUDES    9

static vec4s rgba(float r, float g, float b, float a)
{
    return (vec4s){{r, g, b, a}};
}

/* ---- primitives with line fallbacks ---- */

void debug_draw_point(const cairn_debug_draw *d, vec3s at, vec4s colour)
{
    if (d->point) {
        d->point(d->context, at, POINT_SIZE, colour);
        return;
    }
    const float h = 0.03f;
    for (int axis = 0; axis < 3; ++axis) {
        vec3s lo = at, hi = at;
        lo.raw[axis] -= h;
        hi.raw[axis] += h;
        d->line(d->context, lo, hi, colour);
    }
}

static void draw_box(const cairn_debug_draw *d, cairn_aabb box, vec4s colour)
{
    if (d->box) {
        d->box(d->context, box, colour);
        return;
    }
    /* The 12 edges: along each axis, the 4 combinations of the other two coordinates. */
    for (int axis = 0; axis < 3; ++axis) {
        int u = (axis + 1) % 3, v = (axis + 2) % 3;
        for (int k = 0; k < 4; ++k) {
            vec3s from = box.min;
            from.raw[u] = (k & 1) ? box.max.raw[u] : box.min.raw[u];
            from.raw[v] = (k & 2) ? box.max.raw[v] : box.min.raw[v];
            vec3s to = from;
            to.raw[axis] = box.max.raw[axis];
            d->line(d->context, from, to, colour);
        }
    }
}

static void draw_frame(const cairn_debug_draw *d, cairn_transform xf, float length)
{
    if (d->transform) {
        d->transform(d->context, xf, length);
        return;
    }
    for (int axis = 0; axis < 3; ++axis) {
        vec3s local = glms_vec3_zero();
        local.raw[axis] = length;
        vec4s colour = rgba(axis == 0, axis == 1, axis == 2, 1.0f);
        d->line(d->context, xf.position, xform_point(xf, local), colour);
    }
}

/* ---- world layers ---- */

/* A manifold's points and normals (solver anchors are stored as world points). */
static void draw_manifold(const manifold *m, const cairn_debug_draw *d, uint32_t flags)
{
    for (int i = 0; i < m->point_count; ++i) {
        vec3s p = m->points[i].anchor_a;
        bool touching = m->points[i].separation <= 0.0f;
        if (flags & CAIRN_DEBUG_DRAW_CONTACT_POINTS)
            debug_draw_point(d, p, touching ? rgba(1, 0.1f, 0.1f, 1) : rgba(1, 0.6f, 0.1f, 1));
        if (flags & CAIRN_DEBUG_DRAW_CONTACT_NORMALS) {
            vec3s tip = glms_vec3_add(p, glms_vec3_scale(m->normal, NORMAL_LENGTH));
            d->line(d->context, p, tip, rgba(0.2f, 1, 0.3f, 1));
        }
    }
}

static void draw_contacts(const cairn_world *w, const cairn_debug_draw *d, uint32_t flags)
{
    for (int c = 0; c < w->contacts.count; ++c)
        for (int k = 0; k < contact_manifold_count(&w->contacts.data[c]); ++k)
            draw_manifold(contact_manifold_const(&w->contacts.data[c], k), d, flags);
}

static bool live_proxy(const body *b)
{
    return b->alive && b->proxy >= 0;
}

static void draw_aabbs(const cairn_world *w, const cairn_debug_draw *d)
{
    for (int i = 0; i < w->bodies.count; ++i) {
        const body *b = &w->bodies.data[i];
        if (live_proxy(b)) {
            vec4s colour =
                b->type == CAIRN_STATIC ? rgba(0.6f, 0.6f, 0.6f, 1) : rgba(1.0f, 0.85f, 0.2f, 1);
            draw_box(d, broadphase_fat_aabb(&w->broadphase, b->proxy), colour);
        }
    }
}

/* Bounds of every fat AABB, where the intervals are drawn beside. */
static bool proxy_bounds(const cairn_world *w, cairn_aabb *out)
{
    bool any = false;
    for (int i = 0; i < w->bodies.count; ++i) {
        const body *b = &w->bodies.data[i];
        if (!live_proxy(b)) {
            continue;
        }
        cairn_aabb box = broadphase_fat_aabb(&w->broadphase, b->proxy);
        *out =
            any ? (cairn_aabb){glms_vec3_minv(out->min, box.min), glms_vec3_maxv(out->max, box.max)}
                : box;
        any = true;
    }
    return any;
}

/* Each sorted axis gets a row of intervals, one per body (in body order), laid parallel to the
   axis just outside the world's bounds and stacked away from them. */
static void draw_sap_intervals(const cairn_world *w, const cairn_debug_draw *d)
{
    cairn_aabb all;
    if (!proxy_bounds(w, &all)) {
        return;
    }
    const broadphase *bp = &w->broadphase;
    for (int slot = 0; slot < 3; ++slot) {
        int axis = bp->axis_of_slot[slot], stack = (axis + 2) % 3, side = (axis + 1) % 3;
        vec4s colour =
            rgba(axis == 0 ? 1.0f : 0.3f, axis == 1 ? 1.0f : 0.3f, axis == 2 ? 1.0f : 0.3f, 1);
        int row = 0;
        for (int i = 0; i < w->bodies.count; ++i) {
            const body *b = &w->bodies.data[i];
            if (!live_proxy(b)) {
                continue;
            }
            cairn_aabb box = broadphase_fat_aabb(bp, b->proxy);
            vec3s from = all.min;
            from.raw[side] = all.min.raw[side] - INTERVAL_GAP;
            from.raw[stack] = all.min.raw[stack] - INTERVAL_GAP - INTERVAL_STEP * (float)row++;
            vec3s to = from;
            from.raw[axis] = box.min.raw[axis];
            to.raw[axis] = box.max.raw[axis];
            d->line(d->context, from, to, colour);
        }
    }
}

static void draw_sleep(const cairn_world *w, const cairn_debug_draw *d)
{
    for (int i = 0; i < w->bodies.count; ++i) {
        const body *b = &w->bodies.data[i];
        if (b->alive && b->type != CAIRN_STATIC) {
            vec4s colour = b->awake ? rgba(0.2f, 1, 0.3f, 1) : rgba(0.3f, 0.5f, 1, 1);
            draw_box(d, cairn_shape_bounds(b->shape, b->transform), colour);
        }
    }
    /* The contact graph that islands are built from: static bodies do not join islands. */
    for (int c = 0; c < w->contacts.count; ++c) {
        const contact *k = &w->contacts.data[c];
        const body *a = &w->bodies.data[k->body_a], *b = &w->bodies.data[k->body_b];
        if (k->touching && a->type != CAIRN_STATIC && b->type != CAIRN_STATIC) {
            d->line(d->context, a->center, b->center, rgba(1, 1, 1, 0.8f));
        }
    }
}

static void draw_centers(const cairn_world *w, const cairn_debug_draw *d)
{
    for (int i = 0; i < w->bodies.count; ++i) {
        const body *b = &w->bodies.data[i];
        if (b->alive && b->type == CAIRN_DYNAMIC) {
            debug_draw_point(d, b->center, rgba(1, 1, 1, 1));
            draw_frame(d, (cairn_transform){b->center, b->transform.rotation}, FRAME_AXIS_LENGTH);
        }
    }
}

static void draw_velocities(const cairn_world *w, const cairn_debug_draw *d)
{
    for (int i = 0; i < w->bodies.count; ++i) {
        const body *b = &w->bodies.data[i];
        if (!b->alive || b->type == CAIRN_STATIC) {
            continue;
        }
        if (glms_vec3_norm2(b->linear_velocity) > 0.0f) {
            vec3s tip =
                glms_vec3_add(b->center, glms_vec3_scale(b->linear_velocity, VELOCITY_SECONDS));
            d->line(d->context, b->center, tip, rgba(1, 1, 0.2f, 1));
        }
        if (glms_vec3_norm2(b->angular_velocity) > 0.0f) {
            vec3s tip =
                glms_vec3_add(b->center, glms_vec3_scale(b->angular_velocity, ANGULAR_SCALE));
            d->line(d->context, b->center, tip, rgba(1, 0.3f, 1, 1));
        }
    }
}

static void draw_pairs(const cairn_world *w, const cairn_debug_draw *d)
{
    int cursor = 0;
    broadphase_pair pair;
    while (broadphase_pair_next(&w->broadphase, &cursor, &pair)) {
        const body *a = &w->bodies.data[pair.a], *b = &w->bodies.data[pair.b];
        d->line(d->context, a->center, b->center, rgba(0.9f, 0.5f, 0.1f, 0.7f));
    }
}

static bool check_draw(const cairn_debug_draw *draw, const char *function)
{
    if (!draw) {
        return error_set("%s: draw is NULL", function);
    }
    if (!draw->line) {
        return error_set("%s: draw->line is NULL (the one required callback)", function);
    }
    return true;
}

bool cairn_world_debug_draw(const cairn_world *world, const cairn_debug_draw *draw, uint32_t flags)
{
    if (!world) {
        return error_set("cairn_world_debug_draw: world is NULL");
    }
    if (!check_draw(draw, "cairn_world_debug_draw")) {
        return false;
    }
    if (flags & ~(uint32_t)CAIRN_DEBUG_DRAW_ALL) {
        return error_set("cairn_world_debug_draw: unknown flag bits 0x%x",
                         flags & ~(uint32_t)CAIRN_DEBUG_DRAW_ALL);
    }
    if (flags & (CAIRN_DEBUG_DRAW_CONTACT_POINTS | CAIRN_DEBUG_DRAW_CONTACT_NORMALS)) {
        draw_contacts(world, draw, flags);
    }
    if (flags & CAIRN_DEBUG_DRAW_AABBS) {
        draw_aabbs(world, draw);
    }
    if (flags & CAIRN_DEBUG_DRAW_SAP_INTERVALS) {
        draw_sap_intervals(world, draw);
    }
    if (flags & CAIRN_DEBUG_DRAW_SLEEP) {
        draw_sleep(world, draw);
    }
    if (flags & CAIRN_DEBUG_DRAW_CENTERS) {
        draw_centers(world, draw);
    }
    if (flags & CAIRN_DEBUG_DRAW_VELOCITY) {
        draw_velocities(world, draw);
    }
    if (flags & CAIRN_DEBUG_DRAW_JOINTS)
        joints_debug_draw(world, draw);
    if (flags & CAIRN_DEBUG_DRAW_PAIRS) {
        draw_pairs(world, draw);
    }
    if (flags & (CAIRN_DEBUG_DRAW_MESH_BVH | CAIRN_DEBUG_DRAW_MESH_EDGES)) {
        meshes_debug_draw(world, draw, flags);
    }
    return true;
}

/* ---- one pair ---- */

static bool check_pose(cairn_transform xf, const char *name)
{
    if (!is_finite_vec3(xf.position)) {
        return error_set("cairn_pair_debug_draw: %s.position is not finite", name);
    }
    if (!is_unit_quat(xf.rotation)) {
        return error_set("cairn_pair_debug_draw: %s.rotation is not a unit quaternion", name);
    }
    return true;
}

/* A point of A - B given in A's frame, drawn in world orientation around cso_origin. */
static vec3s cso_world(cairn_transform xa, vec3s cso_origin, dvec3 w)
{
    return glms_vec3_add(cso_origin, xform_vector(xa, dvec3_to_float(w)));
}

static dvec3 sample_direction(int longitude, int latitude)
{
    double theta = 3.14159265358979 * (double)latitude / (double)(HULL_LATITUDES - 1);
    double phi = 2.0 * 3.14159265358979 * (double)longitude / (double)HULL_LONGITUDES;
    return dvec3_make(sin(theta) * cos(phi), cos(theta), sin(theta) * sin(phi));
}

/* Support points over a latitude/longitude grid of directions, each joined to the next one
   along its parallel and along its meridian: a wire sketch of the Minkowski difference. */
static void draw_cso_hull(const support_pair *pair, cairn_transform xa, vec3s origin,
                          const cairn_debug_draw *d)
{
    vec4s grey = rgba(0.7f, 0.7f, 0.7f, 0.8f);
    for (int lat = 0; lat < HULL_LATITUDES; ++lat) {
        for (int lon = 0; lon < HULL_LONGITUDES; ++lon) {
            vec3s p =
                cso_world(xa, origin, support_pair_vertex(pair, sample_direction(lon, lat)).w);
            dvec3 east = sample_direction((lon + 1) % HULL_LONGITUDES, lat);
            d->line(d->context, p, cso_world(xa, origin, support_pair_vertex(pair, east).w), grey);
            if (lat + 1 < HULL_LATITUDES) {
                dvec3 south = sample_direction(lon, lat + 1);
                d->line(d->context, p, cso_world(xa, origin, support_pair_vertex(pair, south).w),
                        grey);
            }
        }
    }
}

typedef struct epa_drawing {
    cairn_transform xa;
    vec3s origin;
    const cairn_debug_draw *draw;
} epa_drawing;

static void draw_epa_face(void *context, dvec3 a, dvec3 b, dvec3 c)
{
    const epa_drawing *e = context;
    vec4s orange = rgba(1.0f, 0.55f, 0.1f, 1.0f);
    vec3s pa = cso_world(e->xa, e->origin, a), pb = cso_world(e->xa, e->origin, b),
          pc = cso_world(e->xa, e->origin, c);
    e->draw->line(e->draw->context, pa, pb, orange);
    e->draw->line(e->draw->context, pb, pc, orange);
    e->draw->line(e->draw->context, pc, pa, orange);
}

/* GJK's final simplex (yellow) and, when it encloses the origin (the cores overlap), the final
   EPA polytope (orange). */
static void draw_simplex(const support_pair *pair, cairn_transform xa, vec3s origin,
                         const cairn_debug_draw *d)
{
    dvec3 direction = dvec3_from(pair->b_in_a.position);
    if (dvec3_length_sq(direction) == 0.0) {
        direction = dvec3_make(1, 0, 0);
    }
    simplex s = {.count = 0};
    (void)gjk_distance(pair, &s, direction);
    if (s.count == 4) {
        epa_drawing e = {xa, origin, d};
        (void)epa_penetration_faces(pair, &s, dvec3_make(0, 1, 0), draw_epa_face, &e);
    }
    for (int i = 0; i < s.count; ++i) {
        vec3s p = cso_world(xa, origin, s.vertices[i].w);
        debug_draw_point(d, p, rgba(1, 1, 0.2f, 1));
        for (int j = i + 1; j < s.count; ++j) {
            d->line(d->context, p, cso_world(xa, origin, s.vertices[j].w), rgba(1, 1, 0.2f, 1));
        }
    }
    debug_draw_point(d, origin, rgba(1, 1, 1, 1));
}

bool cairn_pair_debug_draw(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                           cairn_transform xb, vec3s cso_origin, const cairn_debug_draw *draw,
                           cairn_query_result *out)
{
    if (!a || !b) {
        return error_set("cairn_pair_debug_draw: shape %s is NULL", a ? "b" : "a");
    }
    if (!check_draw(draw, "cairn_pair_debug_draw") || !check_pose(xa, "xa") ||
        !check_pose(xb, "xb")) {
        return false;
    }
    if (!is_finite_vec3(cso_origin)) {
        return error_set("cairn_pair_debug_draw: cso_origin is not finite");
    }
    cairn_query_result q;
    if (!cairn_collide(a, xa, b, xb, NULL, &q)) {
        return false;
    }
    debug_draw_point(draw, q.point_a, rgba(1, 0.3f, 0.3f, 1));
    debug_draw_point(draw, q.point_b, rgba(0.3f, 0.3f, 1, 1));
    draw->line(draw->context, q.point_a, q.point_b, rgba(1, 1, 1, 1));
    vec3s tip = glms_vec3_add(q.point_a, glms_vec3_scale(q.normal, NORMAL_LENGTH));
    draw->line(draw->context, q.point_a, tip, rgba(0.2f, 1, 1, 1));
    support_pair pair = support_pair_make(a, xa, b, xb);
    draw_cso_hull(&pair, xa, cso_origin, draw);
    draw_simplex(&pair, xa, cso_origin, draw);
    if (out) {
        *out = q;
    }
    return true;
}
