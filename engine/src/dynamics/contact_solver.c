/* Sequential impulses over contact manifolds (Catto), warm-started, with substeps. Position
   error is corrected by soft contacts (soft step, the default), by a Baumgarte velocity bias,
   or by split impulses on pseudo-velocities that never reach the real velocities. */
#include "dynamics/integrate.h"

#include "core/xform.h"

#include <math.h>

/* One row of the constraint: direction d at anchors r_a, r_b. The angular parts and their
   images under the inverse inertia are computed once per step (inertia is held fixed over the
   step, as is usual for sequential impulses). */
typedef struct solver_row {
    vec3s ra_x, rb_x;       /* r_a x d, r_b x d */
    vec3s ia_ra_x, ib_rb_x; /* inverse inertia times the above */
    float mass;             /* effective mass along the row */
} solver_row;

typedef struct impulses {
    float normal, tangent[2];
    float max_normal; /* largest normal increment this step: did the point push at all */
} impulses;

typedef struct solver_point {
    vec3s r_a, r_b;        /* anchors from the centres at the step start, world axes */
    float base_separation; /* separation at the step start */
    solver_row normal, tangent[2];
    float relative_velocity;
    float pseudo_impulse;
    manifold_point *stored; /* where the impulses are kept between steps (warm starting) */
    impulses acc;           /* this step's accumulated impulses, written back at the end */
} solver_point;

typedef struct solver_contact {
    body *a, *b;            /* for setup: centres, inertia */
    body_velocity *va, *vb; /* what the passes read and write */
    int index_a, index_b;   /* body indices, for the per-body motion arrays */
    vec3s normal, tangent[2];
    float friction, restitution;
    int point_count;
    solver_point points[MANIFOLD_MAX_POINTS];
} solver_contact;

typedef struct softness {
    float bias_rate, mass_scale, impulse_scale;
} softness;

typedef enum bias_mode { BIAS_SOFT, BIAS_NONE, BIAS_BAUMGARTE } bias_mode;

typedef struct solver {
    cairn_world *world;
    solver_contact *contacts;
    int contact_count;
    body_velocity *velocities; /* by body index */
    motion_offset *pseudo;     /* split impulse pseudo-velocities by body index */
    motion_offset *moved;      /* motion since the step start by body index: position, rotation */
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

static softness make_soft(float hertz, float zeta, float h)
{
    if (hertz == 0.0f)
        return (softness){0.0f, 1.0f, 0.0f};
    float omega = 2.0f * GLM_PIf * hertz;
    float a1 = 2.0f * zeta + h * omega;
    float a2 = h * omega * a1;
    float a3 = 1.0f / (1.0f + a2);
    return (softness){omega / a1, a2 * a3, a3};
}

/* Bodies that do not move this step (static, kinematic, asleep: inverse mass 0 in their
   velocity state) get no angular response either. */
static vec3s angular_response(const body *b, const body_velocity *v, vec3s axis)
{
    return v->inverse_mass > 0.0f ? glms_mat3_mulv(b->inverse_inertia, axis) : glms_vec3_zero();
}

static solver_row make_row(const solver_contact *sc, vec3s r_a, vec3s r_b, vec3s d)
{
    solver_row row;
    row.ra_x = glms_vec3_cross(r_a, d);
    row.rb_x = glms_vec3_cross(r_b, d);
    row.ia_ra_x = angular_response(sc->a, sc->va, row.ra_x);
    row.ib_rb_x = angular_response(sc->b, sc->vb, row.rb_x);
    float k = sc->va->inverse_mass + sc->vb->inverse_mass + glms_vec3_dot(row.ra_x, row.ia_ra_x) +
              glms_vec3_dot(row.rb_x, row.ib_rb_x);
    row.mass = k > 0.0f ? 1.0f / k : 0.0f;
    return row;
}

/* Relative velocity of B against A along the row. */
static float row_velocity(const solver_contact *sc, const solver_row *row, vec3s d)
{
    return glms_vec3_dot(d, glms_vec3_sub(sc->vb->linear, sc->va->linear)) +
           glms_vec3_dot(row->rb_x, sc->vb->angular) - glms_vec3_dot(row->ra_x, sc->va->angular);
}

static void apply_row(solver_contact *sc, const solver_row *row, vec3s d, float impulse)
{
    body_velocity *a = sc->va, *b = sc->vb;
    a->linear = glms_vec3_sub(a->linear, glms_vec3_scale(d, impulse * a->inverse_mass));
    a->angular = glms_vec3_sub(a->angular, glms_vec3_scale(row->ia_ra_x, impulse));
    b->linear = glms_vec3_add(b->linear, glms_vec3_scale(d, impulse * b->inverse_mass));
    b->angular = glms_vec3_add(b->angular, glms_vec3_scale(row->ib_rb_x, impulse));
}

/* Tangent basis perpendicular to n (deterministic). */
static void tangents(vec3s n, vec3s *t1, vec3s *t2)
{
    vec3s axis = fabsf(n.x) < 0.57f ? (vec3s){{1, 0, 0}} : (vec3s){{0, 1, 0}};
    *t1 = glms_vec3_normalize(glms_vec3_cross(n, axis));
    *t2 = glms_vec3_cross(n, *t1);
}

static void prepare_point(solver_contact *sc, manifold_point *mp, float warm)
{
    solver_point *sp = &sc->points[sc->point_count++];
    body *a = sc->a, *b = sc->b;
    sp->stored = mp;
    sp->r_a = glms_vec3_sub(mp->anchor_a, a->center);
    sp->r_b = glms_vec3_sub(mp->anchor_b, b->center);
    sp->base_separation = mp->separation;
    sp->normal = make_row(sc, sp->r_a, sp->r_b, sc->normal);
    sp->tangent[0] = make_row(sc, sp->r_a, sp->r_b, sc->tangent[0]);
    sp->tangent[1] = make_row(sc, sp->r_a, sp->r_b, sc->tangent[1]);
    sp->relative_velocity = row_velocity(sc, &sp->normal, sc->normal);
    sp->acc = (impulses){mp->normal_impulse * warm,
                         {mp->tangent_impulse[0] * warm, mp->tangent_impulse[1] * warm},
                         0.0f};
}

/* Touching contacts with something awake to move become solver constraints. */
static int prepare_contacts(solver *s)
{
    cairn_world *w = s->world;
    const cairn_solver_settings *settings = &w->def.solver;
    float warm = settings->warm_starting ? settings->warm_start_factor : 0.0f;
    int count = 0;
    for (int i = 0; i < w->contacts.count; ++i) {
        contact *c = &w->contacts.data[i];
        body *a = &w->bodies.data[c->body_a], *b = &w->bodies.data[c->body_b];
        if (!c->touching || (!a->awake && !b->awake))
            continue;
        if (a->inverse_mass == 0.0f && b->inverse_mass == 0.0f)
            continue;
        solver_contact *sc = &s->contacts[count++];
        sc->a = a;
        sc->b = b;
        sc->index_a = (int)c->body_a;
        sc->index_b = (int)c->body_b;
        sc->va = &s->velocities[c->body_a];
        sc->vb = &s->velocities[c->body_b];
        sc->normal = c->manifold.normal;
        tangents(sc->normal, &sc->tangent[0], &sc->tangent[1]);
        sc->friction = c->friction;
        sc->restitution = c->restitution;
        sc->point_count = 0;
        for (int p = 0; p < c->manifold.point_count; ++p)
            prepare_point(sc, &c->manifold.points[p], warm);
    }
    return count;
}

static void warm_start(solver *s)
{
    for (int i = 0; i < s->contact_count; ++i) {
        solver_contact *sc = &s->contacts[i];
        for (int p = 0; p < sc->point_count; ++p) {
            const solver_point *sp = &sc->points[p];
            apply_row(sc, &sp->normal, sc->normal, sp->acc.normal);
            apply_row(sc, &sp->tangent[0], sc->tangent[0], sp->acc.tangent[0]);
            apply_row(sc, &sp->tangent[1], sc->tangent[1], sp->acc.tangent[1]);
        }
    }
}

/* Separation now, from each body's motion since the step start, linearised in the rotation:
   the anchors move by dp + dtheta x r. */
static float current_separation(const solver *s, const solver_contact *sc, const solver_point *sp)
{
    const motion_offset *ma = &s->moved[sc->index_a], *mb = &s->moved[sc->index_b];
    return sp->base_separation + glms_vec3_dot(sc->normal, glms_vec3_sub(mb->linear, ma->linear)) +
           glms_vec3_dot(sp->normal.rb_x, mb->angular) -
           glms_vec3_dot(sp->normal.ra_x, ma->angular);
}

static void solve_normal(solver *s, solver_contact *sc, solver_point *sp, bias_mode mode)
{
    const cairn_solver_settings *settings = &s->world->def.solver;
    impulses *acc = &sp->acc;
    float separation = current_separation(s, sc, sp);
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
    float vn = row_velocity(sc, &sp->normal, sc->normal);
    float impulse = -sp->normal.mass * mass_scale * (vn + bias) - impulse_scale * acc->normal;
    float total = max_float(acc->normal + impulse, 0.0f);
    impulse = total - acc->normal;
    acc->normal = total;
    acc->max_normal = max_float(acc->max_normal, impulse);
    apply_row(sc, &sp->normal, sc->normal, impulse);
}

static void solve_friction(solver_contact *sc, solver_point *sp, bool reverse)
{
    impulses *acc = &sp->acc;
    float limit = sc->friction * acc->normal;
    for (int axis = 0; axis < 2; ++axis) {
        int k = reverse ? 1 - axis : axis;
        float vt = row_velocity(sc, &sp->tangent[k], sc->tangent[k]);
        float impulse = -sp->tangent[k].mass * vt;
        float total = min_float(max_float(acc->tangent[k] + impulse, -limit), limit);
        impulse = total - acc->tangent[k];
        acc->tangent[k] = total;
        apply_row(sc, &sp->tangent[k], sc->tangent[k], impulse);
    }
}

/* Gauss-Seidel favours whichever point it visits first; alternating the order between passes
   cancels that bias (otherwise a tall stack leans and walks). */
static void solve_contacts(solver *s, bias_mode mode)
{
    bool reverse = (s->pass++ & 1) != 0;
    for (int i = 0; i < s->contact_count; ++i) {
        solver_contact *sc = &s->contacts[i];
        for (int k = 0; k < sc->point_count; ++k)
            solve_normal(s, sc, &sc->points[reverse ? sc->point_count - 1 - k : k], mode);
        for (int k = 0; k < sc->point_count; ++k)
            solve_friction(sc, &sc->points[reverse ? sc->point_count - 1 - k : k], reverse);
    }
}

/* Split impulse: push penetrating points apart through pseudo-velocities only. */
static void solve_pseudo(solver *s)
{
    const cairn_solver_settings *settings = &s->world->def.solver;
    for (int i = 0; i < s->contact_count; ++i) {
        solver_contact *sc = &s->contacts[i];
        motion_offset *pa = &s->pseudo[sc->a - s->world->bodies.data];
        motion_offset *pb = &s->pseudo[sc->b - s->world->bodies.data];
        for (int p = 0; p < sc->point_count; ++p) {
            solver_point *sp = &sc->points[p];
            float error = min_float(current_separation(s, sc, sp) + settings->linear_slop, 0.0f);
            float target = min_float(-settings->baumgarte * error * s->inverse_h,
                                     settings->max_linear_correction * s->inverse_h);
            float vn = glms_vec3_dot(sc->normal, glms_vec3_sub(pb->linear, pa->linear)) +
                       glms_vec3_dot(sp->normal.rb_x, pb->angular) -
                       glms_vec3_dot(sp->normal.ra_x, pa->angular);
            float impulse = sp->normal.mass * (target - vn);
            float total = max_float(sp->pseudo_impulse + impulse, 0.0f);
            float j = total - sp->pseudo_impulse;
            sp->pseudo_impulse = total;
            pa->linear =
                glms_vec3_sub(pa->linear, glms_vec3_scale(sc->normal, j * sc->va->inverse_mass));
            pa->angular = glms_vec3_sub(pa->angular, glms_vec3_scale(sp->normal.ia_ra_x, j));
            pb->linear =
                glms_vec3_add(pb->linear, glms_vec3_scale(sc->normal, j * sc->vb->inverse_mass));
            pb->angular = glms_vec3_add(pb->angular, glms_vec3_scale(sp->normal.ib_rb_x, j));
        }
    }
}

static void restitution(solver *s)
{
    float threshold = s->world->def.solver.restitution_threshold;
    for (int i = 0; i < s->contact_count; ++i) {
        solver_contact *sc = &s->contacts[i];
        if (sc->restitution == 0.0f)
            continue;
        for (int p = 0; p < sc->point_count; ++p) {
            solver_point *sp = &sc->points[p];
            impulses *acc = &sp->acc;
            if (sp->relative_velocity > -threshold || acc->max_normal == 0.0f)
                continue;
            float vn = row_velocity(sc, &sp->normal, sc->normal);
            float impulse = -sp->normal.mass * (vn + sc->restitution * sp->relative_velocity);
            float total = max_float(acc->normal + impulse, 0.0f);
            impulse = total - acc->normal;
            acc->normal = total;
            apply_row(sc, &sp->normal, sc->normal, impulse);
        }
    }
}

/* Integrates positions and accumulates each body's motion since the step start. */
static void move_bodies(solver *s, const motion_offset *offsets)
{
    integrate_positions(s->world, s->h, s->velocities, offsets);
    for (int i = 0; i < s->world->bodies.count; ++i) {
        const body *b = &s->world->bodies.data[i];
        if (!b->alive || !b->awake || b->type == CAIRN_STATIC)
            continue;
        vec3s v = s->velocities[i].linear, w = s->velocities[i].angular;
        if (offsets) {
            v = glms_vec3_add(v, offsets[i].linear);
            w = glms_vec3_add(w, offsets[i].angular);
        }
        s->moved[i].linear = glms_vec3_add(s->moved[i].linear, glms_vec3_scale(v, s->h));
        s->moved[i].angular = glms_vec3_add(s->moved[i].angular, glms_vec3_scale(w, s->h));
    }
}

/* The step's impulses go back to the manifold points, to warm-start the next step. */
static void store_impulses(solver *s)
{
    for (int i = 0; i < s->contact_count; ++i)
        for (int p = 0; p < s->contacts[i].point_count; ++p) {
            const solver_point *sp = &s->contacts[i].points[p];
            manifold_point *mp = sp->stored;
            mp->normal_impulse = sp->acc.normal;
            mp->tangent_impulse[0] = sp->acc.tangent[0];
            mp->tangent_impulse[1] = sp->acc.tangent[1];
            mp->max_normal_impulse = sp->acc.max_normal;
        }
}

/* Iteration counts are per step, spread over the substeps (at least one pass each). */
static int passes(int total, int substeps)
{
    return (total + substeps - 1) / substeps;
}

static void substep(solver *s, int mode)
{
    const cairn_solver_settings *settings = &s->world->def.solver;
    integrate_velocities(s->world, s->h, s->velocities);
    warm_start(s);
    if (mode == CAIRN_SOFT_STEP) {
        for (int k = 0; k < passes(settings->velocity_iterations, settings->substeps); ++k)
            solve_contacts(s, BIAS_SOFT);
        move_bodies(s, NULL);
        int relax = passes(settings->position_iterations, settings->substeps);
        for (int k = 0; k < (relax > 0 ? relax : 1); ++k)
            solve_contacts(s, BIAS_NONE);
        return;
    }
    if (mode == CAIRN_BAUMGARTE) {
        for (int k = 0; k < passes(settings->velocity_iterations, settings->substeps); ++k)
            solve_contacts(s, BIAS_BAUMGARTE);
        move_bodies(s, NULL);
        return;
    }
    for (int k = 0; k < passes(settings->velocity_iterations, settings->substeps); ++k)
        solve_contacts(s, BIAS_NONE);
    for (int i = 0; i < s->world->bodies.count; ++i)
        s->pseudo[i] = (motion_offset){glms_vec3_zero(), glms_vec3_zero()};
    for (int i = 0; i < s->contact_count; ++i)
        for (int p = 0; p < s->contacts[i].point_count; ++p)
            s->contacts[i].points[p].pseudo_impulse = 0.0f;
    for (int k = 0; k < passes(settings->position_iterations, settings->substeps); ++k)
        solve_pseudo(s);
    move_bodies(s, s->pseudo);
}

void solver_step(cairn_world *world, float dt)
{
    const cairn_solver_settings *settings = &world->def.solver;
    solver s = {.world = world};
    s.h = dt / (float)settings->substeps;
    s.inverse_h = 1.0f / s.h;
    /* Stiffer than a quarter of the substep rate is not stable. */
    s.soft = make_soft(fminf(settings->contact_hertz, 0.25f * s.inverse_h),
                       settings->contact_damping_ratio, s.h);
    size_t contact_bytes = sizeof(solver_contact) * (size_t)(world->contacts.count + 1);
    size_t pseudo_bytes = sizeof(motion_offset) * (size_t)(world->bodies.count + 1);
    s.contacts = arena_push(&world->scratch, contact_bytes, "solver contacts");
    s.velocities =
        arena_push(&world->scratch, sizeof(body_velocity) * (size_t)(world->bodies.count + 1),
                   "body velocities");
    velocities_load(world, s.velocities);
    s.pseudo = arena_push(&world->scratch, pseudo_bytes, "pseudo velocities");
    s.moved = arena_push(&world->scratch, pseudo_bytes, "motion this step");
    for (int i = 0; i < world->bodies.count; ++i)
        s.moved[i] = (motion_offset){glms_vec3_zero(), glms_vec3_zero()};
    s.contact_count = prepare_contacts(&s);
    for (int i = 0; i < settings->substeps; ++i)
        substep(&s, settings->position_correction);
    restitution(&s);
    store_impulses(&s);
    velocities_store(world, s.velocities);
    arena_pop(&world->scratch, s.moved);
    arena_pop(&world->scratch, s.pseudo);
    arena_pop(&world->scratch, s.velocities);
    arena_pop(&world->scratch, s.contacts);
}
