/* The wide contact passes (contact_wide.h) for one width: included by contact_wide_1.c, _4.c and
   _8.c, each of which defines CAIRN_LANES and CONTACT_WIDE_OPS (the name of its table) first.
   Every lane computes what the one-contact form of sequential impulses computes (Catto), in the
   same order of operations, so the result does not depend on the width. */
#include "core/inline.h"
#include "dynamics/contact_wide.h"
#include "dynamics/lanes.h"
#include "dynamics/lanes_transpose.h"

#include <stddef.h>
#include <string.h>

/* A row along d at anchors r_a, r_b, lane by lane: r_a x d, r_b x d and their images under the
   inverse inertia (computed once per step). Lane 3 of nothing: three components each. */
typedef struct wide_row {
    wide_vec ra_x, rb_x, ia_ra_x, ib_rb_x;
} wide_row;

typedef struct wide_point {
    wide_row normal;
    lane mass, base_separation, relative_velocity;
    lane normal_impulse, max_normal, pseudo_impulse;
} wide_point;

/* Up to CAIRN_LANES contacts of one colour with point_count points each, lane by lane (central
   friction as in Rubikon, after Gregorius: two tangent rows and a twist row at the patch centre);
   lanes from count on are empty: zero rows on a body at rest. */
typedef struct wide_batch {
    wide_vec normal, tangent[2];
    wide_row tangent_row[2];
    wide_vec twist_ia, twist_ib; /* the twist row is angular only: the normal's images */
    lane friction, restitution, twist_radius;
    lane friction_mass[3], friction_impulse[3], surface[2];
    wide_point points[MANIFOLD_MAX_POINTS];
    int32_t body_a[CAIRN_LANES], body_b[CAIRN_LANES];
    int count, point_count;
    bool locked; /* a lane's body has a locked translation axis: its passes zero those velocities */
    /* The batch's rolling rows where a lane's contact has rolling resistance, else NULL. */
    struct wide_rolling *rolling;
} wide_batch;

/* Rolling resistance: two angular rows about a batch's tangents, J = (0, -t, 0, t), their
   impulse held to a disc of radius limit times the normal impulse (the resistance times the
   rolling radius), and a spin row about the normal held to the same limit. The spin row shares the
   batch's twist axis (twist_ia, twist_ib, friction_mass[2]) but not its clamp: the twist friction
   of a single-point contact has no lever, and a ball spinning in place on it would never stop.
   Kept apart from the batches (contact_setup.rolling_rows, one per batch), so
   that batches without it stay as small as before: inside them they cost the 1,240-box pyramid
   about 5% of its step. */
typedef struct wide_rolling {
    lane limit, mass[2], impulse[2], spin_impulse;
    wide_vec ia[2], ib[2]; /* the tangents' images under the inverse inertias */
} wide_rolling;

/* A body's velocity, or its pseudo-velocity, lane by lane. */
typedef struct wide_body {
    wide_vec v, w;
    lane inverse_mass;
    lane locked_translation; /* body_velocity's code of the locked axes, carried back as it was */
    lane_mask locked[3];     /* set in a locked batch (lock_masks): the axes each lane's body keeps
                                at rest */
} wide_body;

typedef struct wide_motion {
    wide_vec linear, angular;
} wide_motion;

static inline wide_batch *batch_at(void *batches, int b)
{
    return (wide_batch *)batches + b;
}

/* The axes of each lane's code of locked translation axes (body_velocity.locked_translation: the
   bits X 1, Y 2, Z 4 as a whole float), read off by comparisons. */
static inline void lock_axes(lane code, lane_mask locked[3])
{
    lane zero = lane_splat(0.0f);
    for (int k = 2; k >= 0; --k) {
        lane bit = lane_splat((float)(1 << k));
        locked[k] = code >= bit;
        code -= lane_select(locked[k], bit, zero);
    }
}

/* ---- the prepare ---- */

#include "dynamics/contact_wide_prepare.h"

/* ---- the impulses back ---- */

/* Lane l's impulse of components c[0], c[1] along the batch's tangents, in world axes. */
static inline vec3s along_tangents(const wide_batch *b, const lane c[2], int l)
{
    const wide_vec *t = b->tangent;
    return (vec3s){{t[0].x[l] * c[0][l] + t[1].x[l] * c[1][l],
                    t[0].y[l] * c[0][l] + t[1].y[l] * c[1][l],
                    t[0].z[l] * c[0][l] + t[1].z[l] * c[1][l]}};
}

/* Lane l's rolling impulse in world axes: the rolling rows' along the tangents, the spin row's
   along the normal. */
static inline vec3s rolling_impulse(const wide_batch *b, int l)
{
    if (!b->rolling)
        return (vec3s){{0}};
    vec3s rolling = along_tangents(b, b->rolling->impulse, l);
    lane spin = b->rolling->spin_impulse;
    return (vec3s){{rolling.x + b->normal.x[l] * spin[l], rolling.y + b->normal.y[l] * spin[l],
                    rolling.z + b->normal.z[l] * spin[l]}};
}

static void unpack(const void *batches, int i, contact_impulses *lanes)
{
    const wide_batch *b = (const wide_batch *)batches + i;
    for (int l = 0; l < b->count; ++l) {
        for (int p = 0; p < b->point_count; ++p) {
            lanes[l].normal[p] = b->points[p].normal_impulse[l];
            lanes[l].max_normal[p] = b->points[p].max_normal[l];
        }
        /* the friction and rolling impulses along the tangents they were solved on */
        lanes[l].friction = along_tangents(b, b->friction_impulse, l);
        lanes[l].twist = b->friction_impulse[2][l];
        lanes[l].rolling = rolling_impulse(b, l);
    }
}

/* ---- the bodies of a batch: gathered once, updated in registers by every row, scattered once */

_Static_assert(sizeof(body_velocity) == 8 * sizeof(float), "body_velocity: one row of 8 floats");
_Static_assert(sizeof(body_motion) == 8 * sizeof(float), "body_motion: one row of 8 floats");

static inline wide_body gather_velocities(const body_velocity *velocities, const int32_t *index)
{
    const float *rows[CAIRN_LANES];
    for (int l = 0; l < CAIRN_LANES; ++l)
        rows[l] = &velocities[index[l]].linear.x;
    lane c[8]; /* the body_velocity layout: linear, inverse mass, angular, locked axes */
    lanes_gather8(rows, c);
    return (wide_body){{c[0], c[1], c[2]}, {c[4], c[5], c[6]}, c[3], c[7], {{0}}};
}

/* Only the bodies the step moves are written: static, kinematic and sleeping ones (inverse mass
   0, as is the rest body of empty lanes) are read by several lanes and keep their velocities. */
static inline void scatter_velocities(body_velocity *velocities, const int32_t *index,
                                      const wide_body *b)
{
    float *rows[CAIRN_LANES];
    int moves[CAIRN_LANES];
    for (int l = 0; l < CAIRN_LANES; ++l) {
        rows[l] = &velocities[index[l]].linear.x;
        moves[l] = b->inverse_mass[l] > 0.0f;
    }
    const lane c[8] = {b->v.x, b->v.y, b->v.z, b->inverse_mass,
                       b->w.x, b->w.y, b->w.z, b->locked_translation};
    lanes_scatter8(rows, c, moves);
}

static inline wide_motion gather_motion(const body_motion *moved, const int32_t *index)
{
    const float *rows[CAIRN_LANES];
    for (int l = 0; l < CAIRN_LANES; ++l)
        rows[l] = (const float *)&moved[index[l]];
    lane c[8]; /* linear and angular, lane 3 of each unused */
    lanes_gather8(rows, c);
    return (wide_motion){{c[0], c[1], c[2]}, {c[4], c[5], c[6]}};
}

/* Pseudo-velocities with the inverse masses of the velocity state. */
static inline wide_body gather_pseudo(const contact_pass *p, const int32_t *index)
{
    wide_body b = {0};
    for (int l = 0; l < CAIRN_LANES; ++l) {
        const motion_offset *s = &p->pseudo[index[l]];
        b.v.x[l] = s->linear.x;
        b.v.y[l] = s->linear.y;
        b.v.z[l] = s->linear.z;
        b.w.x[l] = s->angular.x;
        b.w.y[l] = s->angular.y;
        b.w.z[l] = s->angular.z;
        b.inverse_mass[l] = p->velocities[index[l]].inverse_mass;
        b.locked_translation[l] = p->velocities[index[l]].locked_translation;
    }
    return b;
}

static inline void scatter_pseudo(motion_offset *pseudo, const int32_t *index, const wide_body *b)
{
    for (int l = 0; l < CAIRN_LANES; ++l)
        if (b->inverse_mass[l] > 0.0f)
            pseudo[index[l]] = (motion_offset){{{b->v.x[l], b->v.y[l], b->v.z[l]}},
                                               {{b->w.x[l], b->w.y[l], b->w.z[l]}}};
}

/* ---- locked translation axes ---- */

static inline void lock_masks(wide_body *b)
{
    lock_axes(b->locked_translation, b->locked);
}

/* The velocity along the locked axes set to +0. It was +0 before the row's update, so this is
   the update of an impulse without its locked components: the body answers along its free axes
   only, as a rail would hold it. */
static inline void lock_linear(wide_body *b)
{
    lane zero = lane_splat(0.0f);
    b->v.x = lane_select(b->locked[0], zero, b->v.x);
    b->v.y = lane_select(b->locked[1], zero, b->v.y);
    b->v.z = lane_select(b->locked[2], zero, b->v.z);
}

/* ---- rows ---- */

/* d . (lin_b - lin_a) + (r_b x d) . ang_b - (r_a x d) . ang_a, component by component and then
   x + y + z: the relative velocity of B against A along the row, or, given motions, how far the
   row's points closed in. */
static inline lane row_dot(const wide_row *r, const wide_vec *d, const wide_vec *lin_a,
                           const wide_vec *ang_a, const wide_vec *lin_b, const wide_vec *ang_b)
{
    lane x = d->x * (lin_b->x - lin_a->x) + r->rb_x.x * ang_b->x - r->ra_x.x * ang_a->x;
    lane y = d->y * (lin_b->y - lin_a->y) + r->rb_x.y * ang_b->y - r->ra_x.y * ang_a->y;
    lane z = d->z * (lin_b->z - lin_a->z) + r->rb_x.z * ang_b->z - r->ra_x.z * ang_a->z;
    return x + y + z;
}

static inline lane row_velocity(const wide_body *a, const wide_body *b, const wide_row *r,
                                const wide_vec *d)
{
    return row_dot(r, d, &a->v, &a->w, &b->v, &b->w);
}

/* locked: a locked batch (the unlocked code is compiled without the test). */
ALWAYS_INLINE void apply_row(wide_body *a, wide_body *b, const wide_row *r, const wide_vec *d,
                             lane impulse, bool locked)
{
    lane ja = impulse * a->inverse_mass, jb = impulse * b->inverse_mass;
    a->v.x -= d->x * ja;
    a->v.y -= d->y * ja;
    a->v.z -= d->z * ja;
    a->w.x -= r->ia_ra_x.x * impulse;
    a->w.y -= r->ia_ra_x.y * impulse;
    a->w.z -= r->ia_ra_x.z * impulse;
    b->v.x += d->x * jb;
    b->v.y += d->y * jb;
    b->v.z += d->z * jb;
    b->w.x += r->ib_rb_x.x * impulse;
    b->w.y += r->ib_rb_x.y * impulse;
    b->w.z += r->ib_rb_x.z * impulse;
    if (locked) {
        lock_linear(a);
        lock_linear(b);
    }
}

/* An angular row (the twist about the normal, rolling about a tangent): the angular velocity of
   B against A about axis d, J = (0, -d, 0, d). */
static inline lane angular_velocity(const wide_body *a, const wide_body *b, const wide_vec *d)
{
    lane x = d->x * b->w.x - d->x * a->w.x;
    lane y = d->y * b->w.y - d->y * a->w.y;
    lane z = d->z * b->w.z - d->z * a->w.z;
    return x + y + z;
}

/* An angular row's impulse: ia, ib are its axis' images under the inverse inertias. */
static inline void apply_angular(wide_body *a, wide_body *b, const wide_vec *ia, const wide_vec *ib,
                                 lane impulse)
{
    a->w.x -= ia->x * impulse;
    a->w.y -= ia->y * impulse;
    a->w.z -= ia->z * impulse;
    b->w.x += ib->x * impulse;
    b->w.y += ib->y * impulse;
    b->w.z += ib->z * impulse;
}

/* ---- warm start ---- */

/* A batch's bodies gathered for its passes; in a locked batch with their locked axes. */
ALWAYS_INLINE void gather_pair(const body_velocity *velocities, const wide_batch *b, bool locked,
                               wide_body *va, wide_body *vb)
{
    *va = gather_velocities(velocities, b->body_a);
    *vb = gather_velocities(velocities, b->body_b);
    if (locked) {
        lock_masks(va);
        lock_masks(vb);
    }
}

/* Each pass runs a batch through a function stamped out twice: with and without locked axes. */
#define FOR_EACH_BATCH(batches, start, end, batch_fn, p)                                           \
    for (int i = (start); i < (end); ++i) {                                                        \
        wide_batch *b = batch_at((batches), i);                                                    \
        if (b->locked)                                                                             \
            batch_fn(b, (p), true);                                                                \
        else                                                                                       \
            batch_fn(b, (p), false);                                                               \
    }

ALWAYS_INLINE void warm_start_batch(wide_batch *b, const contact_pass *p, bool locked)
{
    wide_body va, vb;
    gather_pair(p->velocities, b, locked, &va, &vb);
    for (int k = 0; k < b->point_count; ++k)
        apply_row(&va, &vb, &b->points[k].normal, &b->normal, b->points[k].normal_impulse, locked);
    for (int k = 0; k < 2; ++k)
        apply_row(&va, &vb, &b->tangent_row[k], &b->tangent[k], b->friction_impulse[k], locked);
    apply_angular(&va, &vb, &b->twist_ia, &b->twist_ib, b->friction_impulse[2]);
    scatter_velocities(p->velocities, b->body_a, &va);
    scatter_velocities(p->velocities, b->body_b, &vb);
}

/* ---- rolling resistance ---- */

/* The normal impulse of each lane's contact: its points' sum. */
static inline lane batch_normal_impulse(const wide_batch *b)
{
    lane sum = lane_splat(0.0f);
    for (int k = 0; k < b->point_count; ++k)
        sum += b->points[k].normal_impulse;
    return sum;
}

/* The pair of impulses (next[0], next[1]) scaled back onto the disc of radius limit where it
   lies outside. */
ALWAYS_INLINE void clamp_to_disc(lane next[2], lane limit)
{
    lane length2 = next[0] * next[0] + next[1] * next[1];
    lane_mask outside = length2 > limit * limit;
    if (lane_any(outside)) {
        lane scale = lane_select(outside, limit / lane_sqrt(length2), lane_splat(1.0f));
        for (int k = 0; k < 2; ++k)
            next[k] = lane_select(outside, next[k] * scale, next[k]);
    }
}

/* Both rolling rows from the same angular velocity, the pair clamped to its disc (no direction
   rolls more easily), as friction's rows are; the disc grows with the batch's normal impulse. */
static void solve_rolling(const wide_batch *b, wide_body *va, wide_body *vb)
{
    wide_rolling *r = b->rolling;
    lane normal_sum = batch_normal_impulse(b);
    lane old[2], next[2];
    for (int k = 0; k < 2; ++k) {
        old[k] = r->impulse[k];
        next[k] = old[k] - r->mass[k] * angular_velocity(va, vb, &b->tangent[k]);
    }
    lane limit = r->limit * normal_sum;
    clamp_to_disc(next, limit);
    for (int k = 0; k < 2; ++k) {
        r->impulse[k] = next[k];
        apply_angular(va, vb, &r->ia[k], &r->ib[k], next[k] - old[k]);
    }
    lane spin = angular_velocity(va, vb, &b->normal);
    lane held = lane_min(lane_max(r->spin_impulse - b->friction_mass[2] * spin, -limit), limit);
    apply_angular(va, vb, &b->twist_ia, &b->twist_ib, held - r->spin_impulse);
    r->spin_impulse = held;
}

static void warm_start_rolling(const wide_batch *b, wide_body *va, wide_body *vb)
{
    const wide_rolling *r = b->rolling;
    for (int k = 0; k < 2; ++k)
        apply_angular(va, vb, &r->ia[k], &r->ib[k], r->impulse[k]);
    apply_angular(va, vb, &b->twist_ia, &b->twist_ib, r->spin_impulse);
}

/* The rolling rows of the batches in [start, end) that have some, after the range's batches
   were solved (or warm-started): a colour's batches touch different moving bodies, so this
   gives the same result as each batch's rows in turn, and the batches without rolling
   resistance run the code they ran before it existed (inside each batch, the test on it cost the
   1,240-box pyramid about 3% of its step). The angular rows never touch a locked translation. */
static void rolling_range(void *batches, int start, int end, const contact_pass *p, bool warm)
{
    for (int i = start; i < end; ++i) {
        wide_batch *b = batch_at(batches, i);
        if (b->rolling == NULL)
            continue;
        wide_body va, vb;
        gather_pair(p->velocities, b, false, &va, &vb);
        if (warm)
            warm_start_rolling(b, &va, &vb);
        else
            solve_rolling(b, &va, &vb);
        scatter_velocities(p->velocities, b->body_a, &va);
        scatter_velocities(p->velocities, b->body_b, &vb);
    }
}

static void warm_start(void *batches, int start, int end, const contact_pass *p)
{
    FOR_EACH_BATCH(batches, start, end, warm_start_batch, p);
    if (p->rolling)
        rolling_range(batches, start, end, p, true);
}

/* ---- velocity passes ---- */

/* Separation now, from each body's motion since the step start, linearised in the rotation:
   the anchors move by dp + dtheta x r. */
static inline lane current_separation(const wide_batch *b, const wide_point *pt,
                                      const wide_motion *ma, const wide_motion *mb)
{
    return pt->base_separation +
           row_dot(&pt->normal, &b->normal, &ma->linear, &ma->angular, &mb->linear, &mb->angular);
}

/* The velocity bias and the soft scales of the normal rows: speculative where the points are
   apart (close the gap, no further), else what the pass's mode does with the overlap. */
typedef struct normal_bias {
    lane bias, mass_scale, impulse_scale;
} normal_bias;

static inline normal_bias make_bias(const contact_pass *p, lane separation)
{
    normal_bias n = {lane_splat(0.0f), lane_splat(1.0f), lane_splat(0.0f)};
    if (p->mode == BIAS_SOFT) {
        n.bias = lane_max(p->soft.bias_rate * separation, lane_splat(-p->max_push_velocity));
        n.mass_scale = lane_splat(p->soft.mass_scale);
        n.impulse_scale = lane_splat(p->soft.impulse_scale);
    } else if (p->mode == BIAS_BAUMGARTE) {
        lane error = lane_min(separation + p->linear_slop, lane_splat(0.0f));
        n.bias = lane_max(p->baumgarte * p->inverse_h * error,
                          lane_splat(-p->max_linear_correction * p->inverse_h));
    }
    lane_mask apart = separation > 0.0f;
    n.bias = lane_select(apart, separation * p->inverse_h, n.bias);
    n.mass_scale = lane_select(apart, lane_splat(1.0f), n.mass_scale);
    n.impulse_scale = lane_select(apart, lane_splat(0.0f), n.impulse_scale);
    return n;
}

ALWAYS_INLINE void solve_normal(const contact_pass *p, const wide_batch *b, wide_point *pt,
                                const wide_motion *ma, const wide_motion *mb, wide_body *va,
                                wide_body *vb, bool locked)
{
    normal_bias n = make_bias(p, current_separation(b, pt, ma, mb));
    lane vn = row_velocity(va, vb, &pt->normal, &b->normal);
    lane impulse = -pt->mass * n.mass_scale * (vn + n.bias) - n.impulse_scale * pt->normal_impulse;
    lane total = lane_max(pt->normal_impulse + impulse, lane_splat(0.0f));
    impulse = total - pt->normal_impulse;
    pt->normal_impulse = total;
    pt->max_normal = lane_max(pt->max_normal, impulse);
    apply_row(va, vb, &pt->normal, &b->normal, impulse, locked);
}

/* Both tangent rows from the same velocity, then the pair clamped to the friction circle
   (isotropic: no direction slides more easily); then the twist. */
ALWAYS_INLINE void solve_friction(wide_batch *b, wide_body *va, wide_body *vb, bool locked)
{
    lane limit = b->friction * batch_normal_impulse(b);
    lane old[2], next[2];
    for (int k = 0; k < 2; ++k) {
        old[k] = b->friction_impulse[k];
        lane slide = row_velocity(va, vb, &b->tangent_row[k], &b->tangent[k]) - b->surface[k];
        next[k] = old[k] - b->friction_mass[k] * slide;
    }
    clamp_to_disc(next, limit);
    for (int k = 0; k < 2; ++k) {
        b->friction_impulse[k] = next[k];
        apply_row(va, vb, &b->tangent_row[k], &b->tangent[k], next[k] - old[k], locked);
    }
    lane twist_limit = limit * b->twist_radius;
    lane spin = angular_velocity(va, vb, &b->normal);
    lane twist = lane_min(
        lane_max(b->friction_impulse[2] - b->friction_mass[2] * spin, -twist_limit), twist_limit);
    apply_angular(va, vb, &b->twist_ia, &b->twist_ib, twist - b->friction_impulse[2]);
    b->friction_impulse[2] = twist;
}

/* Gauss-Seidel favours whichever point it visits first, and the direction it goes round.
   Manifold points go round their patch (the clipper's polygon order), so four orders take turns:
   forward, forward from half-way round, backward, backward from half-way round. Over four passes
   each point is visited first once and each direction is used twice, and the biases cancel. (Plain
   reversal does not: for a square patch both orders start on the same side and a tall stack leans
   towards it; half-way starts alone always go round the same way and split impulse stacks lean.)
   A batch's contacts all have the same number of points, so its lanes share the order. */
static inline int visit_order(unsigned pass, int k, int count)
{
    int start = (pass & 1) ? count / 2 : 0;
    int i = (pass & 2) ? count - 1 - k : k;
    return start + i < count ? start + i : start + i - count;
}

ALWAYS_INLINE void solve_batch(wide_batch *b, const contact_pass *p, bool locked)
{
    wide_body va, vb;
    gather_pair(p->velocities, b, locked, &va, &vb);
    wide_motion ma = gather_motion(p->moved, b->body_a);
    wide_motion mb = gather_motion(p->moved, b->body_b);
    for (int k = 0; k < b->point_count; ++k) {
        wide_point *pt = &b->points[visit_order(p->pass, k, b->point_count)];
        solve_normal(p, b, pt, &ma, &mb, &va, &vb, locked);
    }
    if (p->mode != BIAS_RELAX)
        solve_friction(b, &va, &vb, locked);
    scatter_velocities(p->velocities, b->body_a, &va);
    scatter_velocities(p->velocities, b->body_b, &vb);
}

static void solve(void *batches, int start, int end, const contact_pass *p)
{
    FOR_EACH_BATCH(batches, start, end, solve_batch, p);
    if (p->rolling && p->mode != BIAS_RELAX)
        rolling_range(batches, start, end, p, false);
}

/* ---- split impulse: penetrating points pushed apart through pseudo-velocities only ---- */

ALWAYS_INLINE void solve_pseudo_point(const contact_pass *p, const wide_batch *b, wide_point *pt,
                                      const wide_motion *ma, const wide_motion *mb, wide_body *pa,
                                      wide_body *pb, bool locked)
{
    lane separation = current_separation(b, pt, ma, mb);
    lane error = lane_min(separation + p->linear_slop, lane_splat(0.0f));
    lane target = lane_min(-p->baumgarte * error * p->inverse_h,
                           lane_splat(p->max_linear_correction * p->inverse_h));
    lane vn = row_velocity(pa, pb, &pt->normal, &b->normal);
    lane total = lane_max(pt->pseudo_impulse + pt->mass * (target - vn), lane_splat(0.0f));
    lane j = total - pt->pseudo_impulse;
    pt->pseudo_impulse = total;
    apply_row(pa, pb, &pt->normal, &b->normal, j, locked);
}

ALWAYS_INLINE void pseudo_batch(wide_batch *b, const contact_pass *p, bool locked)
{
    wide_body pa = gather_pseudo(p, b->body_a), pb = gather_pseudo(p, b->body_b);
    if (locked) {
        lock_masks(&pa);
        lock_masks(&pb);
    }
    wide_motion ma = gather_motion(p->moved, b->body_a);
    wide_motion mb = gather_motion(p->moved, b->body_b);
    for (int k = 0; k < b->point_count && p->restart_pseudo; ++k)
        b->points[k].pseudo_impulse = lane_splat(0.0f);
    for (int k = 0; k < b->point_count; ++k) {
        wide_point *pt = &b->points[visit_order(p->pass, k, b->point_count)];
        solve_pseudo_point(p, b, pt, &ma, &mb, &pa, &pb, locked);
    }
    scatter_pseudo(p->pseudo, b->body_a, &pa);
    scatter_pseudo(p->pseudo, b->body_b, &pb);
}

static void pseudo(void *batches, int start, int end, const contact_pass *p)
{
    FOR_EACH_BATCH(batches, start, end, pseudo_batch, p);
}

/* ---- restitution: after the substeps, bouncing points get restitution times their approach ----
 */

ALWAYS_INLINE void restitution_batch(wide_batch *b, const contact_pass *p, bool locked)
{
    if (!lane_any(b->restitution != 0.0f))
        return;
    wide_body va, vb;
    gather_pair(p->velocities, b, locked, &va, &vb);
    lane_mask bouncy = b->restitution != 0.0f;
    for (int k = 0; k < b->point_count; ++k) {
        wide_point *pt = &b->points[k];
        /* points that approached slowly, or never pushed, keep their impulse */
        lane_mask skip =
            (pt->relative_velocity > -p->restitution_threshold) | (pt->max_normal == 0.0f);
        lane_mask active = bouncy & ~skip;
        if (!lane_any(active))
            continue;
        lane vn = row_velocity(&va, &vb, &pt->normal, &b->normal);
        lane impulse = -pt->mass * (vn + b->restitution * pt->relative_velocity);
        lane total = lane_max(pt->normal_impulse + impulse, lane_splat(0.0f));
        impulse = lane_select(active, total - pt->normal_impulse, lane_splat(0.0f));
        pt->normal_impulse = lane_select(active, total, pt->normal_impulse);
        apply_row(&va, &vb, &pt->normal, &b->normal, impulse, locked);
    }
    scatter_velocities(p->velocities, b->body_a, &va);
    scatter_velocities(p->velocities, b->body_b, &vb);
}

static void restitution(void *batches, int start, int end, const contact_pass *p)
{
    FOR_EACH_BATCH(batches, start, end, restitution_batch, p);
}

const contact_wide_ops CONTACT_WIDE_OPS = {
    .lanes = CAIRN_LANES,
#ifdef __FMA__
    .fused = true,
#endif
    .batch_bytes = sizeof(wide_batch),
    .rolling_bytes = sizeof(wide_rolling),
    .prepare = prepare,
    .warm_start = warm_start,
    .solve = solve,
    .pseudo = pseudo,
    .restitution = restitution,
    .unpack = unpack,
};
