/* Sequential impulses over contact manifolds (Catto), warm-started, with substeps. Position
   error is corrected by soft contacts (soft step, the default), by a Baumgarte velocity bias,
   or by split impulses on pseudo-velocities that never reach the real velocities. */
#include "dynamics/graph_color.h"
#include "dynamics/integrate.h"
#include "dynamics/joint_solver.h"
#include "dynamics/softness.h"
#include "dynamics/solver_vec.h"

#include "core/team.h"
#include "core/timer.h"
#include "core/xform.h"

#include <math.h>
#include <string.h>

/* One row of the constraint: direction d at anchors r_a, r_b. The angular parts and their
   images under the inverse inertia are computed once per step (inertia is held fixed over the
   step, as is usual for sequential impulses). Lane 3 of every vector is 0. */
typedef struct solver_row {
    v4 ra_x, rb_x;       /* r_a x d, r_b x d */
    v4 ia_ra_x, ib_rb_x; /* inverse inertia times the above */
} solver_row;

typedef struct solver_point {
    solver_row normal;
    float mass;            /* effective mass of the normal row */
    float base_separation; /* separation at the step start */
    float relative_velocity;
    float pseudo_impulse;
    float normal_impulse;   /* accumulated this step, written back at the end */
    float max_normal;       /* largest normal increment this step: did the point push at all */
    manifold_point *stored; /* where the impulse is kept between steps (warm starting) */
} solver_point;

/* Central friction (as in Rubikon, after Gregorius): two tangent rows and a twist row about the
   normal at the centre of the manifold's points, limited by friction times the sum of the
   normal impulses (the twist by that times an effective radius of the patch). Three rows per
   manifold instead of two per point, and no box-shaped friction limit: the tangent impulse is
   clamped to a circle. */
typedef struct solver_friction {
    solver_row tangent[2];
    solver_row twist; /* ra_x = rb_x = the normal, direction 0: angular only */
    float mass[3];    /* tangent 0, tangent 1, twist */
    float impulse[3];
    float twist_radius; /* m: 2/3 of the mean distance of the points from the centre */
    float surface[2];   /* m/s: the sliding velocity friction drives towards (conveyors) */
} solver_friction;

typedef struct solver_contact {
    v4 normal, tangent[2];
    body_velocity *va, *vb; /* what the passes read and write */
    body *a, *b;            /* for setup: centres, inertia */
    manifold *stored;       /* where friction is kept between steps */
    int index_a, index_b;   /* body indices, for the per-body motion arrays */
    float friction, restitution;
    int point_count;
    solver_friction tangential;
    solver_point points[MANIFOLD_MAX_POINTS];
} solver_contact;

/* A body's motion since the step start (position, rotation vector), for re-measuring
   separations inside the step. */
typedef struct body_motion {
    v4 linear, angular;
} body_motion;

/* What a pass over the contacts does with the position error. BIAS_RELAX is soft step's
   relax pass: no bias, and normal rows only. Friction was solved by the biased passes of the
   substep; leaving it out of the relax pass keeps the tallest stacks as steady (tests/dynamics/
   test_stacks.c, test_wall.c) and makes the step about 15% faster. */
typedef enum bias_mode { BIAS_SOFT, BIAS_NONE, BIAS_BAUMGARTE, BIAS_RELAX } bias_mode;

/* The fewest contacts a worker takes at once: a colour of the 1,240-box pyramid (about 100
   contacts) is then solved by one worker, which on two cores is as fast as sharing it (measured
   with bench_threads: 1.02x against 0.89x with blocks of 8). */
enum { CONTACT_BLOCK = 64 };

/* A manifold the step solves, in the order of the solve. */
typedef struct manifold_ref {
    contact *contact;
    manifold *manifold;
} manifold_ref;

typedef struct solver {
    cairn_world *world;
    team *team;
    joint_solver joints; /* solved first in every pass, on the coordinator */
    solver_contact *contacts;
    int contact_count;
    /* The contacts go colour by colour (graph_color.h), the overflow last: the first contact
       of each bucket. */
    int color_first[GRAPH_BUCKETS + 1];
    const manifold_ref *plan; /* while the contacts are prepared */
    float warm;               /* the warm-start factor */
    /* What the stage now running does: set by the coordinator before it starts the stage. */
    int stage_first; /* the stage's first contact */
    bias_mode mode;
    unsigned stage_pass;
    const motion_offset *offsets;
    body_velocity *velocities; /* by body index */
    motion_offset *pseudo;     /* split impulse pseudo-velocities by body index */
    body_motion *moved;        /* motion since the step start by body index */
    float h, inverse_h;
    softness soft;
    unsigned pass; /* counts solve passes, to alternate the point order */
} solver;

/* Plain comparisons: fmaxf/fminf are library calls under strict C17 (NaN rules). */
static inline float max_float(float a, float b)
{
    return a > b ? a : b;
}

static inline float min_float(float a, float b)
{
    return a < b ? a : b;
}

/* The two bodies' velocities while one contact is solved: copied in once, updated in registers
   by all of the contact's rows, written back once. Rows of one contact all touch the same two
   bodies, so going through memory for each row would chain every row on a store and a load.
   Lane 3 of the linear parts is the inverse mass (the body_velocity layout). */
typedef struct pair_state {
    v4 linear_a, angular_a, linear_b, angular_b;
} pair_state;

static inline pair_state pair_load(const solver_contact *sc)
{
    return (pair_state){v4_load(&sc->va->linear.x), v4_load(&sc->va->angular.x),
                        v4_load(&sc->vb->linear.x), v4_load(&sc->vb->angular.x)};
}

/* Only the bodies the step moves are written back. Static, kinematic and sleeping bodies
   (inverse mass 0, no angular response) keep their velocities, and constraints of one colour
   that share one (the ground under a pile) read it at the same time. */
static inline void pair_store(solver_contact *sc, const pair_state *v)
{
    if (v->linear_a[3] > 0.0f) {
        v4_store(&sc->va->linear.x, v->linear_a);
        v4_store(&sc->va->angular.x, v->angular_a);
    }
    if (v->linear_b[3] > 0.0f) {
        v4_store(&sc->vb->linear.x, v->linear_b);
        v4_store(&sc->vb->angular.x, v->angular_b);
    }
}

/* d . (lin_b - lin_a) + (r_b x d) . ang_b - (r_a x d) . ang_a: the relative velocity of B
   against A along the row, or, given motions, how far the row's points closed in. */
static inline float row_dot(const solver_row *row, v4 d, v4 lin_a, v4 ang_a, v4 lin_b, v4 ang_b)
{
    return v4_sum3(d * (lin_b - lin_a) + row->rb_x * ang_b - row->ra_x * ang_a);
}

static inline float row_velocity(const pair_state *v, const solver_row *row, v4 d)
{
    return row_dot(row, d, v->linear_a, v->angular_a, v->linear_b, v->angular_b);
}

static inline void apply_row(pair_state *v, const solver_row *row, v4 d, float impulse)
{
    v->linear_a -= d * v4_splat(impulse * v->linear_a[3]);
    v->angular_a -= row->ia_ra_x * v4_splat(impulse);
    v->linear_b += d * v4_splat(impulse * v->linear_b[3]);
    v->angular_b += row->ib_rb_x * v4_splat(impulse);
}

/* Bodies that do not move this step (static, kinematic, asleep: inverse mass 0 in their
   velocity state) get no angular response either. */
static vec3s angular_response(const body *b, const body_velocity *v, vec3s axis)
{
    return v->inverse_mass > 0.0f ? glms_mat3_mulv(b->inverse_inertia, axis) : glms_vec3_zero();
}

/* The row along d and its effective mass. */
static solver_row make_row(const solver_contact *sc, vec3s r_a, vec3s r_b, vec3s d, float *mass)
{
    vec3s ra_x = glms_vec3_cross(r_a, d), rb_x = glms_vec3_cross(r_b, d);
    vec3s ia_ra_x = angular_response(sc->a, sc->va, ra_x);
    vec3s ib_rb_x = angular_response(sc->b, sc->vb, rb_x);
    float k = sc->va->inverse_mass + sc->vb->inverse_mass + glms_vec3_dot(ra_x, ia_ra_x) +
              glms_vec3_dot(rb_x, ib_rb_x);
    *mass = k > 0.0f ? 1.0f / k : 0.0f;
    return (solver_row){v4_from(ra_x), v4_from(rb_x), v4_from(ia_ra_x), v4_from(ib_rb_x)};
}

/* Tangent basis perpendicular to n (deterministic). */
static void tangents(vec3s n, vec3s *t1, vec3s *t2)
{
    vec3s axis = fabsf(n.x) < 0.57f ? (vec3s){{1, 0, 0}} : (vec3s){{0, 1, 0}};
    *t1 = glms_vec3_normalize(glms_vec3_cross(n, axis));
    *t2 = glms_vec3_cross(n, *t1);
}

static void prepare_point(solver_contact *sc, const pair_state *v, vec3s n, manifold_point *mp,
                          float warm)
{
    solver_point *sp = &sc->points[sc->point_count++];
    vec3s r_a = glms_vec3_sub(mp->anchor_a, sc->a->center);
    vec3s r_b = glms_vec3_sub(mp->anchor_b, sc->b->center);
    sp->stored = mp;
    sp->base_separation = mp->separation;
    sp->normal = make_row(sc, r_a, r_b, n, &sp->mass);
    sp->relative_velocity = row_velocity(v, &sp->normal, sc->normal);
    sp->pseudo_impulse = 0.0f;
    sp->normal_impulse = mp->normal_impulse * warm;
    sp->max_normal = 0.0f;
}

/* The twist row: angular velocity about the normal, J = (0, -n, 0, n). */
static solver_row make_twist_row(const solver_contact *sc, vec3s n, float *mass)
{
    vec3s ia_n = angular_response(sc->a, sc->va, n), ib_n = angular_response(sc->b, sc->vb, n);
    float k = glms_vec3_dot(n, ia_n) + glms_vec3_dot(n, ib_n);
    *mass = k > 0.0f ? 1.0f / k : 0.0f;
    return (solver_row){v4_from(n), v4_from(n), v4_from(ia_n), v4_from(ib_n)};
}

/* Friction rows at the centre of the points; last step's friction impulse is re-projected onto
   this step's tangents (the normal may have turned). */
static void prepare_friction(solver_contact *sc, const manifold *m, vec3s n, const vec3s t[2],
                             float warm)
{
    solver_friction *f = &sc->tangential;
    vec3s centre = glms_vec3_zero();
    for (int p = 0; p < m->point_count; ++p)
        centre = glms_vec3_add(centre, m->points[p].anchor_a);
    centre = glms_vec3_scale(centre, 1.0f / (float)m->point_count);
    float spread = 0.0f;
    for (int p = 0; p < m->point_count; ++p)
        spread += glms_vec3_distance(m->points[p].anchor_a, centre);
    f->twist_radius = (2.0f / 3.0f) * spread / (float)m->point_count;
    vec3s r_a = glms_vec3_sub(centre, sc->a->center), r_b = glms_vec3_sub(centre, sc->b->center);
    for (int k = 0; k < 2; ++k) {
        f->tangent[k] = make_row(sc, r_a, r_b, t[k], &f->mass[k]);
        f->impulse[k] = glms_vec3_dot(m->friction_impulse, t[k]) * warm;
    }
    f->twist = make_twist_row(sc, n, &f->mass[2]);
    f->impulse[2] = m->twist_impulse * warm;
}

/* A body the step does not move (static, asleep) but a contact touches: at rest, no motion. */
static void rest_body(solver *s, uint32_t index)
{
    velocities_rest(s->velocities, index);
    s->moved[index] = (body_motion){v4_splat(0.0f), v4_splat(0.0f)};
    s->pseudo[index] = (motion_offset){glms_vec3_zero(), glms_vec3_zero()};
}

static void prepare_contact(solver *s, solver_contact *sc, contact *c, manifold *m, float warm)
{
    cairn_world *w = s->world;
    sc->a = &w->bodies.data[c->body_a];
    sc->b = &w->bodies.data[c->body_b];
    sc->index_a = (int)c->body_a;
    sc->index_b = (int)c->body_b;
    sc->va = &s->velocities[c->body_a];
    sc->vb = &s->velocities[c->body_b];
    vec3s n = m->normal, t[2];
    tangents(n, &t[0], &t[1]);
    sc->normal = v4_from(n);
    sc->tangent[0] = v4_from(t[0]);
    sc->tangent[1] = v4_from(t[1]);
    contact_manifold_material(w, c, m, &sc->friction, &sc->restitution);
    for (int k = 0; k < 2; ++k)
        sc->tangential.surface[k] = glms_vec3_dot(c->surface_velocity, t[k]);
    sc->stored = m;
    sc->point_count = 0;
    pair_state v = pair_load(sc); /* the velocities at the step start, for restitution */
    for (int p = 0; p < m->point_count; ++p)
        prepare_point(sc, &v, n, &m->points[p], warm);
    prepare_friction(sc, m, n, t, warm);
}

/* Solver constraints the contacts can need at most: one per manifold. */
static size_t manifold_total(const cairn_world *world)
{
    size_t total = (size_t)world->contacts.count;
    for (int i = 0; i < world->contacts.count; ++i)
        total += (size_t)(contact_manifold_count(&world->contacts.data[i]) - 1);
    return total;
}

/* A touching contact with something awake to move: its manifolds are solved. */
static bool is_solved(const cairn_world *w, const contact *c)
{
    const body *a = &w->bodies.data[c->body_a], *b = &w->bodies.data[c->body_b];
    if (!c->touching || (!a->awake && !b->awake) || c->disabled)
        return false;
    return a->inverse_mass != 0.0f || b->inverse_mass != 0.0f;
}

static bool moves(const solver *s, uint32_t index)
{
    return s->velocities[index].inverse_mass > 0.0f;
}

/* The manifolds to solve, in contact order with their colours (colors), and the number per
   bucket; the bodies the step does not move but a contact touches are put at rest. */
static int list_manifolds(solver *s, manifold_ref *listed, uint8_t *colors, graph_mask *used,
                          int *counts)
{
    cairn_world *w = s->world;
    int count = 0;
    for (int i = 0; i < w->contacts.count; ++i) {
        contact *c = &w->contacts.data[i];
        if (!is_solved(w, c))
            continue;
        if (!w->bodies.data[c->body_a].awake)
            rest_body(s, c->body_a);
        if (!w->bodies.data[c->body_b].awake)
            rest_body(s, c->body_b);
        for (int m = 0; m < contact_manifold_count(c); ++m) {
            if (contact_manifold(c, m)->point_count == 0)
                continue;
            int color = graph_color_pick(used, c->body_a, moves(s, c->body_a), c->body_b,
                                         moves(s, c->body_b));
            counts[color]++;
            colors[count] = (uint8_t)color;
            listed[count++] = (manifold_ref){c, contact_manifold(c, m)};
        }
    }
    return count;
}

/* The solve order: colour by colour, each in contact order (a counting sort of the list). */
static void plan_order(solver *s, const manifold_ref *listed, const uint8_t *colors, int count,
                       manifold_ref *plan)
{
    int next[GRAPH_BUCKETS + 1];
    for (int c = 0; c <= GRAPH_BUCKETS; ++c)
        next[c] = s->color_first[c];
    for (int k = 0; k < count; ++k)
        plan[next[colors[k]]++] = listed[k];
}

static void stage_prepare(void *context, int start, int end, int worker)
{
    (void)worker;
    solver *s = context;
    for (int k = start; k < end; ++k)
        prepare_contact(s, &s->contacts[k], s->plan[k].contact, s->plan[k].manifold, s->warm);
}

/* Each manifold of a touching contact with something awake to move becomes a solver
   constraint, in colour order. False when scratch memory ran out (no contact is solved). */
static bool prepare_contacts(solver *s)
{
    cairn_world *w = s->world;
    const cairn_solver_settings *settings = &w->def.solver;
    s->warm = settings->warm_starting ? settings->warm_start_factor : 0.0f;
    size_t total = manifold_total(w) + 1, bodies = (size_t)w->bodies.count + 1;
    manifold_ref *plan = arena_push(&w->scratch, sizeof *plan * total, "solve order");
    manifold_ref *listed = arena_push(&w->scratch, sizeof *listed * total, "manifolds listed");
    uint8_t *colors = arena_push(&w->scratch, total, "manifold colours");
    graph_mask *used = arena_push(&w->scratch, sizeof *used * bodies, "body colours");
    bool ok = plan && listed && colors && used;
    if (ok) {
        memset(used, 0, sizeof *used * bodies);
        int counts[GRAPH_BUCKETS] = {0};
        s->contact_count = list_manifolds(s, listed, colors, used, counts);
        graph_color_offsets(counts, s->color_first);
        plan_order(s, listed, colors, s->contact_count, plan);
        for (int c = 0; c < GRAPH_COLOR_COUNT; ++c)
            w->stats.colors += counts[c] > 0;
        w->stats.overflow_contacts = counts[GRAPH_OVERFLOW];
    }
    void *pushed[] = {used, colors, listed};
    for (int i = 0; i < 3; ++i)
        if (pushed[i])
            arena_pop(&w->scratch, pushed[i]);
    if (ok) {
        s->plan = plan;
        team_stage_run(s->team, stage_prepare, s, s->contact_count, CONTACT_BLOCK);
        s->plan = NULL;
    }
    if (plan)
        arena_pop(&w->scratch, plan);
    return ok;
}

static void for_each_color(solver *s, team_stage_fn *stage)
{
    graph_color_run(s->team, s->color_first, &s->stage_first, stage, s, CONTACT_BLOCK);
}

static void stage_warm_start(void *context, int start, int end, int worker)
{
    (void)worker;
    solver *s = context;
    for (int i = s->stage_first + start; i < s->stage_first + end; ++i) {
        solver_contact *sc = &s->contacts[i];
        const solver_friction *f = &sc->tangential;
        pair_state v = pair_load(sc);
        for (int p = 0; p < sc->point_count; ++p)
            apply_row(&v, &sc->points[p].normal, sc->normal, sc->points[p].normal_impulse);
        apply_row(&v, &f->tangent[0], sc->tangent[0], f->impulse[0]);
        apply_row(&v, &f->tangent[1], sc->tangent[1], f->impulse[1]);
        apply_row(&v, &f->twist, v4_splat(0.0f), f->impulse[2]);
        pair_store(sc, &v);
    }
}

/* Separation now, from each body's motion since the step start, linearised in the rotation:
   the anchors move by dp + dtheta x r. */
static inline float current_separation(const body_motion *ma, const body_motion *mb,
                                       const solver_contact *sc, const solver_point *sp)
{
    return sp->base_separation +
           row_dot(&sp->normal, sc->normal, ma->linear, ma->angular, mb->linear, mb->angular);
}

static inline void solve_normal(const solver *s, pair_state *v, const solver_contact *sc,
                                solver_point *sp, bias_mode mode)
{
    const cairn_solver_settings *settings = &s->world->def.solver;
    float separation = current_separation(&s->moved[sc->index_a], &s->moved[sc->index_b], sc, sp);
    float bias = 0.0f, mass_scale = 1.0f, impulse_scale = 0.0f;
    if (separation > 0.0f) {
        bias = separation * s->inverse_h; /* speculative: close the gap, no further */
    } else if (mode == BIAS_SOFT) {
        bias = max_float(s->soft.bias_rate * separation, -settings->max_push_velocity);
        mass_scale = s->soft.mass_scale;
        impulse_scale = s->soft.impulse_scale;
    } else if (mode == BIAS_BAUMGARTE) {
        float error = min_float(separation + settings->linear_slop, 0.0f);
        bias = max_float(settings->baumgarte * s->inverse_h * error,
                         -settings->max_linear_correction * s->inverse_h);
    }
    float vn = row_velocity(v, &sp->normal, sc->normal);
    float impulse = -sp->mass * mass_scale * (vn + bias) - impulse_scale * sp->normal_impulse;
    float total = max_float(sp->normal_impulse + impulse, 0.0f);
    impulse = total - sp->normal_impulse;
    sp->normal_impulse = total;
    sp->max_normal = max_float(sp->max_normal, impulse);
    apply_row(v, &sp->normal, sc->normal, impulse);
}

/* Both tangent rows from the same velocity, then the pair clamped to the friction circle
   (isotropic: no direction slides more easily); then the twist. */
static inline void solve_friction(pair_state *v, solver_contact *sc)
{
    solver_friction *f = &sc->tangential;
    float normal_sum = 0.0f;
    for (int p = 0; p < sc->point_count; ++p)
        normal_sum += sc->points[p].normal_impulse;
    float limit = sc->friction * normal_sum;
    float old[2] = {f->impulse[0], f->impulse[1]};
    float next[2];
    for (int k = 0; k < 2; ++k)
        next[k] =
            old[k] - f->mass[k] * (row_velocity(v, &f->tangent[k], sc->tangent[k]) - f->surface[k]);
    float length2 = next[0] * next[0] + next[1] * next[1];
    if (length2 > limit * limit) {
        float scale = limit / sqrtf(length2);
        next[0] *= scale;
        next[1] *= scale;
    }
    for (int k = 0; k < 2; ++k) {
        f->impulse[k] = next[k];
        apply_row(v, &f->tangent[k], sc->tangent[k], next[k] - old[k]);
    }
    float twist_limit = limit * f->twist_radius;
    float spin = row_velocity(v, &f->twist, v4_splat(0.0f));
    float twist =
        min_float(max_float(f->impulse[2] - f->mass[2] * spin, -twist_limit), twist_limit);
    apply_row(v, &f->twist, v4_splat(0.0f), twist - f->impulse[2]);
    f->impulse[2] = twist;
}

/* Gauss-Seidel favours whichever point it visits first, and the direction it goes round.
   Manifold points go round their patch (the clipper's polygon order), so four orders take turns:
   forward, forward from half-way round, backward, backward from half-way round. Over four passes
   each point is visited first once and each direction is used twice, and the biases cancel. (Plain
   reversal does not: for a square patch both orders start on the same side and a tall stack leans
   towards it; half-way starts alone always go round the same way and split impulse stacks lean.) */
static inline int visit_order(unsigned pass, int k, int count)
{
    int start = (pass & 1) ? count / 2 : 0;
    int i = (pass & 2) ? count - 1 - k : k;
    return start + i < count ? start + i : start + i - count;
}

static void stage_solve(void *context, int start, int end, int worker)
{
    (void)worker;
    solver *s = context;
    unsigned pass = s->stage_pass;
    bias_mode mode = s->mode;
    for (int i = s->stage_first + start; i < s->stage_first + end; ++i) {
        solver_contact *sc = &s->contacts[i];
        pair_state v = pair_load(sc);
        for (int k = 0; k < sc->point_count; ++k)
            solve_normal(s, &v, sc, &sc->points[visit_order(pass, k, sc->point_count)], mode);
        if (mode != BIAS_RELAX)
            solve_friction(&v, sc);
        pair_store(sc, &v);
    }
}

static void solve_contacts(solver *s, bias_mode mode)
{
    s->stage_pass = s->pass++;
    s->mode = mode;
    for_each_color(s, stage_solve);
}

/* Split impulse: push penetrating points apart through pseudo-velocities only. */
static void solve_pseudo_point(const solver *s, solver_contact *sc, solver_point *sp,
                               pair_state *pseudo)
{
    const cairn_solver_settings *settings = &s->world->def.solver;
    float separation = current_separation(&s->moved[sc->index_a], &s->moved[sc->index_b], sc, sp);
    float error = min_float(separation + settings->linear_slop, 0.0f);
    float target = min_float(-settings->baumgarte * error * s->inverse_h,
                             settings->max_linear_correction * s->inverse_h);
    float vn = row_velocity(pseudo, &sp->normal, sc->normal);
    float total = max_float(sp->pseudo_impulse + sp->mass * (target - vn), 0.0f);
    float j = total - sp->pseudo_impulse;
    sp->pseudo_impulse = total;
    apply_row(pseudo, &sp->normal, sc->normal, j);
}

static void stage_pseudo(void *context, int start, int end, int worker)
{
    (void)worker;
    solver *s = context;
    unsigned pass = s->stage_pass;
    for (int i = s->stage_first + start; i < s->stage_first + end; ++i) {
        solver_contact *sc = &s->contacts[i];
        motion_offset *pa = &s->pseudo[sc->index_a], *pb = &s->pseudo[sc->index_b];
        pair_state pseudo = {v4_from(pa->linear), v4_from(pa->angular), v4_from(pb->linear),
                             v4_from(pb->angular)};
        pseudo.linear_a[3] = sc->va->inverse_mass;
        pseudo.linear_b[3] = sc->vb->inverse_mass;
        for (int k = 0; k < sc->point_count; ++k)
            solve_pseudo_point(s, sc, &sc->points[visit_order(pass, k, sc->point_count)], &pseudo);
        /* only the bodies the step moves, as in pair_store */
        if (sc->va->inverse_mass > 0.0f)
            *pa = (motion_offset){v4_to_vec3(pseudo.linear_a), v4_to_vec3(pseudo.angular_a)};
        if (sc->vb->inverse_mass > 0.0f)
            *pb = (motion_offset){v4_to_vec3(pseudo.linear_b), v4_to_vec3(pseudo.angular_b)};
    }
}

static void solve_pseudo(solver *s)
{
    s->stage_pass = s->pass++;
    for_each_color(s, stage_pseudo);
}

static void stage_restitution(void *context, int start, int end, int worker)
{
    (void)worker;
    solver *s = context;
    float threshold = s->world->def.solver.restitution_threshold;
    for (int i = s->stage_first + start; i < s->stage_first + end; ++i) {
        solver_contact *sc = &s->contacts[i];
        if (sc->restitution == 0.0f)
            continue;
        pair_state v = pair_load(sc);
        for (int p = 0; p < sc->point_count; ++p) {
            solver_point *sp = &sc->points[p];
            if (sp->relative_velocity > -threshold || sp->max_normal == 0.0f)
                continue;
            float vn = row_velocity(&v, &sp->normal, sc->normal);
            float impulse = -sp->mass * (vn + sc->restitution * sp->relative_velocity);
            float total = max_float(sp->normal_impulse + impulse, 0.0f);
            impulse = total - sp->normal_impulse;
            sp->normal_impulse = total;
            apply_row(&v, &sp->normal, sc->normal, impulse);
        }
        pair_store(sc, &v);
    }
}

/* Integrates positions and accumulates each body's motion since the step start. */
static void stage_move_bodies(void *context, int start, int end, int worker)
{
    (void)worker;
    solver *s = context;
    const motion_offset *offsets = s->offsets;
    integrate_positions(s->world, s->h, s->velocities, offsets, start, end);
    v4 h = v4_splat(s->h);
    for (int k = start; k < end; ++k) {
        uint32_t i = s->world->awake.data[k];
        v4 v = v4_from(s->velocities[i].linear), w = v4_from(s->velocities[i].angular);
        if (offsets) {
            v += v4_from(offsets[i].linear);
            w += v4_from(offsets[i].angular);
        }
        s->moved[i].linear += v * h;
        s->moved[i].angular += w * h;
    }
}

/* Bodies per block of the integration stages. */
enum { BODY_BLOCK = 64 };

static void move_bodies(solver *s, const motion_offset *offsets)
{
    uint64_t start = timer_ticks();
    s->offsets = offsets;
    team_stage_run(s->team, stage_move_bodies, s, s->world->awake.count, BODY_BLOCK);
    s->world->stats.integrate_ms += (float)timer_ms_since(start);
}

static void stage_integrate_velocities(void *context, int start, int end, int worker)
{
    (void)worker;
    solver *s = context;
    integrate_velocities(s->world, s->h, s->velocities, start, end);
}

/* The step's impulses go back to the manifolds, to warm-start the next step. */
static void stage_store_impulses(void *context, int start, int end, int worker)
{
    (void)worker;
    solver *s = context;
    for (int i = start; i < end; ++i) {
        const solver_contact *sc = &s->contacts[i];
        for (int p = 0; p < sc->point_count; ++p) {
            const solver_point *sp = &sc->points[p];
            sp->stored->normal_impulse = sp->normal_impulse;
            sp->stored->max_normal_impulse = sp->max_normal;
        }
        const solver_friction *f = &sc->tangential;
        vec3s t0 = v4_to_vec3(sc->tangent[0]), t1 = v4_to_vec3(sc->tangent[1]);
        sc->stored->friction_impulse =
            glms_vec3_add(glms_vec3_scale(t0, f->impulse[0]), glms_vec3_scale(t1, f->impulse[1]));
        sc->stored->twist_impulse = f->impulse[2];
    }
}

/* Iteration counts are per step, spread over the substeps (at least one pass each). */
static int passes(int total, int substeps)
{
    return (total + substeps - 1) / substeps;
}

static void split_impulse_positions(solver *s)
{
    const cairn_solver_settings *settings = &s->world->def.solver;
    for (int k = 0; k < s->world->awake.count; ++k)
        s->pseudo[s->world->awake.data[k]] = (motion_offset){glms_vec3_zero(), glms_vec3_zero()};
    for (int i = 0; i < s->contact_count; ++i)
        for (int p = 0; p < s->contacts[i].point_count; ++p)
            s->contacts[i].points[p].pseudo_impulse = 0.0f;
    for (int k = 0; k < passes(settings->position_iterations, settings->substeps); ++k)
        solve_pseudo(s);
    move_bodies(s, s->pseudo);
}

static void substep(solver *s, int mode)
{
    const cairn_solver_settings *settings = &s->world->def.solver;
    uint64_t start = timer_ticks();
    team_stage_run(s->team, stage_integrate_velocities, s, s->world->awake.count, BODY_BLOCK);
    s->world->stats.integrate_ms += (float)timer_ms_since(start);
    joints_prepare(&s->joints);
    joints_warm_start(&s->joints);
    for_each_color(s, stage_warm_start);
    int velocity_passes = passes(settings->velocity_iterations, settings->substeps);
    if (mode == CAIRN_SOFT_STEP) {
        for (int k = 0; k < velocity_passes; ++k) {
            joints_solve(&s->joints, false);
            solve_contacts(s, BIAS_SOFT);
        }
        move_bodies(s, NULL);
        int relax = passes(settings->position_iterations, settings->substeps);
        for (int k = 0; k < (relax > 0 ? relax : 1); ++k) {
            joints_solve(&s->joints, true);
            solve_contacts(s, BIAS_RELAX);
        }
        return;
    }
    /* Rigid modes: joints carry a Baumgarte bias in both (split impulse is for contacts). */
    bias_mode contact_mode = mode == CAIRN_BAUMGARTE ? BIAS_BAUMGARTE : BIAS_NONE;
    for (int k = 0; k < velocity_passes; ++k) {
        joints_solve(&s->joints, false);
        solve_contacts(s, contact_mode);
    }
    if (mode == CAIRN_BAUMGARTE)
        move_bodies(s, NULL);
    else
        split_impulse_positions(s);
}

/* The step's solve, on the coordinator of the world's workers (core/team.h). */
static void solve_step(team *t, void *context)
{
    solver *s = context;
    cairn_world *world = s->world;
    const cairn_solver_settings *settings = &world->def.solver;
    s->team = t;
    size_t bodies = (size_t)world->bodies.count + 1;
    if (!prepare_contacts(s))
        s->contact_count = 0;
    bool *touching = arena_push(&world->scratch, bodies, "bodies touching");
    if (touching) {
        memset(touching, 0, bodies);
        for (int i = 0; i < s->contact_count; ++i)
            touching[s->contacts[i].index_a] = touching[s->contacts[i].index_b] = true;
    }
    joints_begin(&s->joints, world, t, s->velocities, s->h, touching);
    for (int i = 0; i < settings->substeps; ++i)
        substep(s, settings->position_correction);
    for_each_color(s, stage_restitution);
    team_stage_run(t, stage_store_impulses, s, s->contact_count, CONTACT_BLOCK);
    joints_end(&s->joints);
    if (touching)
        arena_pop(&world->scratch, touching);
}

void solver_step(cairn_world *world, float dt)
{
    const cairn_solver_settings *settings = &world->def.solver;
    solver s = {.world = world};
    s.h = dt / (float)settings->substeps;
    world->last_substep = s.h;
    s.inverse_h = 1.0f / s.h;
    /* Stiffer than a quarter of the substep rate is not stable. */
    s.soft = make_soft(fminf(settings->contact_hertz, 0.25f * s.inverse_h),
                       settings->contact_damping_ratio, s.h);
    size_t bodies = (size_t)world->bodies.count + 1;
    size_t contact_bytes = sizeof(solver_contact) * (manifold_total(world) + 1);
    s.contacts = arena_push(&world->scratch, contact_bytes, "solver contacts");
    s.velocities = arena_push(&world->scratch, sizeof(body_velocity) * bodies, "body velocities");
    velocities_load(world, s.velocities);
    s.pseudo = arena_push(&world->scratch, sizeof(motion_offset) * bodies, "pseudo velocities");
    s.moved = arena_push(&world->scratch, sizeof(body_motion) * bodies, "motion this step");
    for (int k = 0; k < world->awake.count; ++k)
        s.moved[world->awake.data[k]] = (body_motion){v4_splat(0.0f), v4_splat(0.0f)};
    team_run(&world->def, solve_step, &s);
    velocities_store(world, s.velocities);
    arena_pop(&world->scratch, s.moved);
    arena_pop(&world->scratch, s.pseudo);
    arena_pop(&world->scratch, s.velocities);
    arena_pop(&world->scratch, s.contacts);
}
