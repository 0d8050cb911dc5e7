/* GJK distance between the cores of two shapes, and ISA-GJK overlap, in A's frame. */
#include "collision/gjk.h"

#include "core/xform.h"
#include "geometry/shape.h"

#include <math.h>

/* Convergence: the upper and lower bounds on |v| agree to this relative gap. */
static const double gjk_relative_gap = 1e-6;
/* Cores closer than this (relative to their size) are treated as touching: the GJK normal is no
   longer reliable there, EPA takes over. */
static const double gjk_touch_relative = 1e-6;

/* Sum of the diagonals of both shapes' local bounds. */
static double pair_scale(const cairn_shape *a, const cairn_shape *b)
{
    const cairn_aabb *ba = &a->local_bounds, *bb = &b->local_bounds;
    return glms_vec3_norm(glms_vec3_sub(ba->max, ba->min)) +
           glms_vec3_norm(glms_vec3_sub(bb->max, bb->min));
}

support_pair support_pair_make(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                               cairn_transform xb)
{
    support_pair pair;
    pair.a = a;
    pair.b = b;
    versors inverse_a = glms_quat_conjugate(xa.rotation);
    pair.b_in_a.rotation = glms_quat_normalize(glms_quat_mul(inverse_a, xb.rotation));
    pair.b_in_a.position = glms_quat_rotatev(inverse_a, glms_vec3_sub(xb.position, xa.position));
    pair.rotation = glms_quat_mat3(pair.b_in_a.rotation);
    pair.scale = pair_scale(a, b);
    return pair;
}

support_pair support_pair_posed(const support_pair *pose, const cairn_shape *a,
                                const cairn_shape *b)
{
    support_pair pair = *pose;
    pair.a = a;
    pair.b = b;
    pair.scale = pair_scale(a, b);
    return pair;
}

simplex_vertex support_pair_reevaluate(const support_pair *pair, vec3s a_local, vec3s b_local)
{
    simplex_vertex v;
    support_pair_reevaluate_into(pair, a_local, b_local, &v);
    return v;
}

/* A core's support point along d (its own frame), as cairn_shape_core_support gives it. Hull
   cores below the climbing size go straight to the scan: most narrow-phase pairs are hulls, and
   the general dispatch cost a third of such a support. */
static vec3s core_support(const cairn_shape *shape, vec3s d)
{
    const convex_hull *core = &shape->hull.core;
    if (shape->type == CAIRN_SHAPE_HULL && core->vertex_count < HULL_CLIMB_MIN_VERTICES)
        return core->vertices[hull_support_scan(core, d)];
    return cairn_shape_core_support(shape, d);
}

void support_pair_vertex_into(const support_pair *pair, dvec3 direction, simplex_vertex *out)
{
    vec3s d = dvec3_to_float(direction);
    vec3s a_local = core_support(pair->a, d);
    /* R^T (-d): the columns of R are B's axes in A's frame. */
    const mat3s *r = &pair->rotation;
    vec3s d_in_b = {{-(r->m00 * d.x + r->m01 * d.y + r->m02 * d.z),
                     -(r->m10 * d.x + r->m11 * d.y + r->m12 * d.z),
                     -(r->m20 * d.x + r->m21 * d.y + r->m22 * d.z)}};
    vec3s b_local = core_support(pair->b, d_in_b);
    support_pair_reevaluate_into(pair, a_local, b_local, out);
}

simplex_vertex support_pair_vertex(const support_pair *pair, dvec3 direction)
{
    simplex_vertex v;
    support_pair_vertex_into(pair, direction, &v);
    return v;
}

static bool simplex_contains(const simplex *s, const simplex_vertex *v)
{
    for (int i = 0; i < s->count; ++i)
        if (glms_vec3_eqv(s->vertices[i].a_local, v->a_local) &&
            glms_vec3_eqv(s->vertices[i].b_local, v->b_local))
            return true;
    return false;
}

double support_pair_scale(const support_pair *pair)
{
    return pair->scale;
}

static void closest_points(const simplex *s, gjk_result *result)
{
    dvec3 pa = {0, 0, 0}, pb = {0, 0, 0};
    for (int i = 0; i < s->count; ++i) {
        pa = dvec3_add(pa, dvec3_scale(s->vertices[i].a, s->lambda[i]));
        pb = dvec3_add(pb, dvec3_scale(s->vertices[i].b, s->lambda[i]));
    }
    result->point_a = pa;
    result->point_b = pb;
    result->closest = dvec3_sub(pa, pb);
    result->distance = sqrt(dvec3_length_sq(result->closest));
}

/* True when the upper bound |v| and the lower bound proven by support point w along `direction`
   agree to the relative gap. */
static bool separation_gap(double vv, dvec3 direction, dvec3 w)
{
    double upper = sqrt(vv);
    double lower = -dvec3_dot(direction, w) / sqrt(dvec3_length_sq(direction));
    return upper - lower <= gjk_relative_gap * upper;
}

gjk_result gjk_distance(const support_pair *pair, simplex *s, dvec3 direction)
{
    gjk_result result = {.status = GJK_SEPARATED};
    double touch = gjk_touch_relative * support_pair_scale(pair);
    double vv = INFINITY;
    dvec3 v = {0, 0, 0};
    bool inside = false;
    if (s->count > 0) {
        direction = simplex_solve(s, &v, &inside);
        vv = dvec3_length_sq(v);
        /* A warm start may hand over a degenerate simplex: its exact perpendicular can vanish
           while the origin is far from it; then search towards the origin the classic way. */
        if (dvec3_length_sq(direction) == 0.0 && vv > touch * touch)
            direction = dvec3_neg(v);
    } else if (dvec3_length_sq(direction) == 0.0) {
        direction = dvec3_make(1, 0, 0);
    }
    while (!inside && vv > touch * touch && dvec3_length_sq(direction) > 0.0 &&
           result.iterations < GJK_MAX_ITERATIONS) {
        ++result.iterations;
        /* The support point goes straight to the slot after the simplex's last vertex (a
           local only when the simplex is full, which only a failed tetrahedron pick leaves). */
        simplex_vertex spare;
        simplex_vertex *w = s->count < 4 ? &s->vertices[s->count] : &spare;
        support_pair_vertex_into(pair, direction, w);
        /* Termination 1: the distance proven along the search direction (the support plane's)
           meets the upper bound |v|. Measured along the direction searched, not along v: the
           exact perpendicular of a needle-thin triangle can lean away from v, and v.w then
           "proved" a gap through a difference that holds the origin. */
        if (s->count > 0 && separation_gap(vv, direction, w->w))
            break;
        /* Termination 2: a repeated support point means no further progress is possible. */
        if (simplex_contains(s, w))
            break;
        if (w == &spare)
            s->vertices[s->count] = spare;
        s->count++;
        simplex_pick pick;
        dvec3 next_v;
        dvec3 next_direction = simplex_closest(s, &pick, &next_v, &inside);
        double next_vv = dvec3_length_sq(next_v);
        /* Termination 3: no progress (round-off); keep the better previous simplex, which is
           still there without w (the pick was not applied). */
        if (!inside && next_vv >= vv) {
            --s->count;
            break;
        }
        simplex_apply(s, &pick);
        v = next_v;
        vv = next_vv;
        direction = next_direction;
    }
    result.direction = direction;
    if (inside || vv <= touch * touch || s->count == 0 || dvec3_length_sq(direction) == 0.0) {
        result.status = GJK_CORES_TOUCH;
        if (s->count > 0 && !inside)
            closest_points(s, &result);
        return result;
    }
    closest_points(s, &result);
    return result;
}

bool gjk_overlap(const support_pair *pair, double radius_sum, dvec3 direction, int *iterations)
{
    simplex s = {.count = 0};
    double touch = gjk_touch_relative * support_pair_scale(pair);
    if (dvec3_length_sq(direction) == 0.0)
        direction = dvec3_make(1, 0, 0);
    double vv = INFINITY;
    dvec3 v = {0, 0, 0};
    *iterations = 0;
    while (*iterations < GJK_MAX_ITERATIONS) {
        ++*iterations;
        simplex_vertex w = support_pair_vertex(pair, direction);
        /* A separating axis: the whole difference lies beyond radius_sum along `direction`. */
        double length = sqrt(dvec3_length_sq(direction));
        if (-dvec3_dot(direction, w.w) > radius_sum * length)
            return false;
        if (s.count > 0 && (separation_gap(vv, direction, w.w) || simplex_contains(&s, &w)))
            break;
        s.vertices[s.count++] = w;
        bool inside;
        direction = simplex_solve(&s, &v, &inside);
        double next_vv = dvec3_length_sq(v);
        if (inside || next_vv <= touch * touch || dvec3_length_sq(direction) == 0.0)
            return true;
        if (next_vv >= vv)
            break;
        vv = next_vv;
    }
    /* Converged without a separating axis: the cores are |v| apart. */
    return sqrt(vv) <= radius_sum;
}
