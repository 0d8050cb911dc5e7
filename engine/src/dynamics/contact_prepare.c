/* A manifold made into a solver constraint once per step (contact_rows.h): the rows' anchors,
   angular parts and effective masses, the friction rows at the patch centre, the warm-start
   impulses and the approach speeds that restitution answers. */
#include "dynamics/contact_rows.h"

#include "core/xform.h"

#include <math.h>

/* d . (v_b - v_a) + (r_b x d) . w_b - (r_a x d) . w_a at the step start. */
static float start_velocity(const solver_contact *sc, const solver_row *row, v4 d)
{
    v4 lin_a = v4_from(sc->va->linear), ang_a = v4_from(sc->va->angular);
    v4 lin_b = v4_from(sc->vb->linear), ang_b = v4_from(sc->vb->angular);
    return v4_sum3(d * (lin_b - lin_a) + row->rb_x * ang_b - row->ra_x * ang_a);
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

static void prepare_point(solver_contact *sc, vec3s n, manifold_point *mp, float warm)
{
    solver_point *sp = &sc->points[sc->point_count++];
    vec3s r_a = glms_vec3_sub(mp->anchor_a, sc->a->center);
    vec3s r_b = glms_vec3_sub(mp->anchor_b, sc->b->center);
    sp->base_separation = mp->separation;
    sp->normal = make_row(sc, r_a, r_b, n, &sp->mass);
    sp->relative_velocity = start_velocity(sc, &sp->normal, sc->normal);
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

void contact_prepare(cairn_world *w, body_velocity *velocities, solver_contact *sc, contact *c,
                     manifold *m, float warm)
{
    sc->a = &w->bodies.data[c->body_a];
    sc->b = &w->bodies.data[c->body_b];
    sc->index_a = (int)c->body_a;
    sc->index_b = (int)c->body_b;
    sc->va = &velocities[c->body_a];
    sc->vb = &velocities[c->body_b];
    vec3s n = m->normal, t[2];
    tangents(n, &t[0], &t[1]);
    sc->normal = v4_from(n);
    sc->tangent[0] = v4_from(t[0]);
    sc->tangent[1] = v4_from(t[1]);
    contact_manifold_material(w, c, m, &sc->friction, &sc->restitution);
    for (int k = 0; k < 2; ++k)
        sc->tangential.surface[k] = glms_vec3_dot(c->surface_velocity, t[k]);
    sc->point_count = 0;
    for (int p = 0; p < m->point_count; ++p)
        prepare_point(sc, n, &m->points[p], warm);
    prepare_friction(sc, m, n, t, warm);
}

void contact_store_impulses(manifold *m, const contact_impulses *impulses)
{
    for (int p = 0; p < m->point_count; ++p) {
        m->points[p].normal_impulse = impulses->normal[p];
        m->points[p].max_normal_impulse = impulses->max_normal[p];
    }
    m->friction_impulse = impulses->friction;
    m->twist_impulse = impulses->twist;
}
