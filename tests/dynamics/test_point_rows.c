/* The point rows (ball, hinge, fixed and swing-twist joints' anchors), and the impulses of the
   axis rows and angle blocks, work in four-lane vectors (joint_rows.c, solver_vec.h). Here they are
   held to the scalar form written with cglm's own functions, as joint_rows.c had it before: random
   arms, inertias, masses, velocities, errors, impulses and softness, one side the world or a body
   at rest in some of them. The same bits are required, not a tolerance: the joints' results may not
   depend on how they are computed. */
#include "dynamics/joint_rows.h"
#include "dynamics/random_values.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

enum { CASES = 20000 };

/* ---- the scalar reference ---- */

static mat3s reference_response(const joint_body_state *side, vec3s r)
{
    const mat3s *a = &side->inverse_inertia;
    float sa[3][3];
    for (int j = 0; j < 3; ++j) {
        sa[0][j] = r.y * a->raw[j][2] - r.z * a->raw[j][1];
        sa[1][j] = r.z * a->raw[j][0] - r.x * a->raw[j][2];
        sa[2][j] = r.x * a->raw[j][1] - r.y * a->raw[j][0];
    }
    mat3s k;
    for (int i = 0; i < 3; ++i) {
        k.raw[0][i] = -(sa[i][1] * r.z - sa[i][2] * r.y);
        k.raw[1][i] = -(sa[i][2] * r.x - sa[i][0] * r.z);
        k.raw[2][i] = -(sa[i][0] * r.y - sa[i][1] * r.x);
    }
    for (int i = 0; i < 3; ++i)
        k.raw[i][i] += side->inverse_mass;
    return k;
}

static mat3s reference_mass(const joint_pair *pair, vec3s r_a, vec3s r_b)
{
    mat3s k_a = reference_response(&pair->a, r_a), k_b = reference_response(&pair->b, r_b), k;
    for (int c = 0; c < 3; ++c)
        k.col[c] = glms_vec3_add(k_a.col[c], k_b.col[c]);
    float det = glms_mat3_det(k);
    float scale = fabsf(k.raw[0][0]) + fabsf(k.raw[1][1]) + fabsf(k.raw[2][2]);
    if (!(fabsf(det) > 1e-12f * scale * scale * scale) || scale == 0.0f)
        return glms_mat3_zero();
    return glms_mat3_inv(k);
}

static void reference_apply(joint_pair *pair, vec3s r_a, vec3s r_b, vec3s impulse)
{
    body_velocity *va = pair->a.velocity, *vb = pair->b.velocity;
    if (pair->a.inverse_mass > 0.0f) {
        va->linear = glms_vec3_sub(va->linear, glms_vec3_scale(impulse, pair->a.inverse_mass));
        va->angular = glms_vec3_sub(
            va->angular, glms_mat3_mulv(pair->a.inverse_inertia, glms_vec3_cross(r_a, impulse)));
    }
    if (pair->b.inverse_mass > 0.0f) {
        vb->linear = glms_vec3_add(vb->linear, glms_vec3_scale(impulse, pair->b.inverse_mass));
        vb->angular = glms_vec3_add(
            vb->angular, glms_mat3_mulv(pair->b.inverse_inertia, glms_vec3_cross(r_b, impulse)));
    }
}

static void reference_solve(point_part *p, joint_pair *pair, softness soft)
{
    const body_velocity *va = pair->a.velocity, *vb = pair->b.velocity;
    vec3s point_va = glms_vec3_add(va->linear, glms_vec3_cross(va->angular, p->r_a));
    vec3s point_vb = glms_vec3_add(vb->linear, glms_vec3_cross(vb->angular, p->r_b));
    vec3s cdot = glms_vec3_sub(point_vb, point_va);
    vec3s target = glms_vec3_add(cdot, glms_vec3_scale(p->error, soft.bias_rate));
    vec3s impulse =
        glms_vec3_sub(glms_vec3_scale(glms_mat3_mulv(p->mass, target), -soft.mass_scale),
                      glms_vec3_scale(p->impulse, soft.impulse_scale));
    p->impulse = glms_vec3_add(p->impulse, impulse);
    reference_apply(pair, p->r_a, p->r_b, impulse);
}

/* ---- one random case ---- */

typedef struct point_case {
    body_velocity velocity[2];
    joint_pair pair;
    vec3s r_a, r_b, error, impulse;
    softness soft;
} point_case;

/* Side a is the world (or a body at rest) in one case in four. */
static void make_case(point_case *c, uint32_t *state)
{
    memset(c, 0, sizeof *c);
    bool still = uniform(state, 0.0f, 1.0f) < 0.25f;
    for (int s = 0; s < 2; ++s) {
        body_velocity *v = &c->velocity[s];
        bool rests = s == 0 && still;
        v->linear = random_vec(state, 10.0f);
        v->angular = random_vec(state, 30.0f);
        v->inverse_mass = rests ? 0.0f : uniform(state, 0.01f, 10.0f);
        joint_body_state *side = s == 0 ? &c->pair.a : &c->pair.b;
        side->velocity = v;
        side->inverse_mass = v->inverse_mass;
        side->inverse_inertia = rests ? glms_mat3_zero() : random_inertia(state, 0.1f);
    }
    c->r_a = random_vec(state, 1.0f);
    c->r_b = random_vec(state, 1.0f);
    c->error = random_vec(state, 0.1f);
    c->impulse = random_vec(state, 5.0f);
    c->soft = (softness){uniform(state, 0.0f, 100.0f), uniform(state, 0.0f, 1.0f),
                         uniform(state, 0.0f, 1.0f)};
}

/* A copy of the case whose pair points at its own velocities. */
static void copy_case(point_case *out, const point_case *c)
{
    *out = *c;
    out->pair.a.velocity = &out->velocity[0];
    out->pair.b.velocity = &out->velocity[1];
}

/* A random case, and two copies of it: one for the rows under test, one for the scalar form. */
static void make_twins(point_case *c, point_case *got, point_case *want, uint32_t *state)
{
    make_case(c, state);
    copy_case(got, c);
    copy_case(want, c);
}

static void expect_same_bits(const void *got, const void *want, size_t size, const char *what,
                             int k)
{
    cr_assert(memcmp(got, want, size) == 0, "case %d: %s differs from the scalar form", k, what);
}

static void expect_same_velocities(const point_case *got, const point_case *want, int k)
{
    for (int s = 0; s < 2; ++s) {
        expect_same_bits(&got->velocity[s].linear, &want->velocity[s].linear, sizeof(vec3s),
                         "a linear velocity", k);
        expect_same_bits(&got->velocity[s].angular, &want->velocity[s].angular, sizeof(vec3s),
                         "an angular velocity", k);
        /* lane 3 of the linear part: kept */
        cr_assert(got->velocity[s].inverse_mass == want->velocity[s].inverse_mass,
                  "case %d: the inverse mass beside the velocity changed", k);
        cr_assert(got->velocity[s].locked_translation == 0.0f,
                  "case %d: the locked axes beside the velocity were written", k);
    }
}

Test(point_rows, prepare_gives_the_scalar_effective_mass)
{
    uint32_t state = 12345u;
    for (int k = 0; k < CASES; ++k) {
        point_case c;
        make_case(&c, &state);
        point_part p = {0};
        point_prepare(&p, &c.pair, c.r_a, c.r_b, c.error, true);
        mat3s want = reference_mass(&c.pair, c.r_a, c.r_b);
        expect_same_bits(&p.mass, &want, sizeof want, "the effective mass", k);
        cr_assert(p.r_a.x == c.r_a.x && p.error.z == c.error.z, "case %d: arms and error kept", k);
    }
}

Test(point_rows, solve_and_warm_start_give_the_scalar_velocities)
{
    uint32_t state = 777u;
    for (int k = 0; k < CASES; ++k) {
        point_case c, want, got;
        make_twins(&c, &got, &want, &state);
        point_part p = {0}, q;
        point_prepare(&p, &got.pair, c.r_a, c.r_b, c.error, true);
        p.impulse = c.impulse;
        q = p;

        point_warm_start(&p, &got.pair);
        reference_apply(&want.pair, q.r_a, q.r_b, q.impulse);
        expect_same_velocities(&got, &want, k);

        point_solve(&p, &got.pair, c.soft);
        reference_solve(&q, &want.pair, c.soft);
        expect_same_velocities(&got, &want, k);
        expect_same_bits(&p.impulse, &q.impulse, sizeof(vec3s), "the accumulated impulse", k);
    }
}

/* An axis row's impulse on the bodies (limits, motors, springs, slider and distance rows) and an
   angle block's (hinge, weld, swing-twist friction), as the scalar form applies them. */
static void reference_axis_apply(const axis_row *row, joint_pair *pair, float impulse)
{
    body_velocity *va = pair->a.velocity, *vb = pair->b.velocity;
    if (pair->a.inverse_mass > 0.0f) {
        va->linear =
            glms_vec3_sub(va->linear, glms_vec3_scale(row->linear, impulse * pair->a.inverse_mass));
        va->angular = glms_vec3_sub(va->angular, glms_vec3_scale(row->response_a, impulse));
    }
    if (pair->b.inverse_mass > 0.0f) {
        vb->linear =
            glms_vec3_add(vb->linear, glms_vec3_scale(row->linear, impulse * pair->b.inverse_mass));
        vb->angular = glms_vec3_add(vb->angular, glms_vec3_scale(row->response_b, impulse));
    }
}

static void reference_angle_apply(joint_pair *pair, vec3s impulse)
{
    body_velocity *va = pair->a.velocity, *vb = pair->b.velocity;
    if (pair->a.inverse_mass > 0.0f)
        va->angular = glms_vec3_sub(va->angular, glms_mat3_mulv(pair->a.inverse_inertia, impulse));
    if (pair->b.inverse_mass > 0.0f)
        vb->angular = glms_vec3_add(vb->angular, glms_mat3_mulv(pair->b.inverse_inertia, impulse));
}

Test(point_rows, axis_rows_and_angle_blocks_apply_the_scalar_impulses)
{
    uint32_t state = 4242u;
    for (int k = 0; k < CASES; ++k) {
        point_case c, want, got;
        make_twins(&c, &got, &want, &state);
        vec3s d = glms_vec3_normalize(random_vec(&state, 1.0f));
        axis_row row = axis_row_linear(&got.pair, d, c.r_a, c.r_b);
        float impulse = uniform(&state, -5.0f, 5.0f);
        axis_row_apply(&row, &got.pair, impulse);
        reference_axis_apply(&row, &want.pair, impulse);
        expect_same_velocities(&got, &want, k);

        vec3s axes[3] = {{{1, 0, 0}}, {{0, 1, 0}}, {{0, 0, 1}}};
        angle_part block = {0};
        angle_prepare(&block, &got.pair, axes, 3, NULL, true);
        for (int i = 0; i < 3; ++i)
            block.impulse[i] = uniform(&state, -2.0f, 2.0f);
        angle_warm_start(&block, &got.pair);
        reference_angle_apply(&want.pair, angle_impulse(&block));
        expect_same_velocities(&got, &want, k);
    }
}

/* A mutation check of the comparison itself: an arm 0.1 mm longer is seen. */
Test(point_rows, a_changed_arm_is_seen)
{
    uint32_t state = 99u;
    point_case c, got, want;
    make_twins(&c, &got, &want, &state);
    point_part p = {0}, q;
    point_prepare(&p, &got.pair, c.r_a, c.r_b, c.error, true);
    q = p;
    q.r_b.x += 1e-4f;
    point_solve(&p, &got.pair, c.soft);
    reference_solve(&q, &want.pair, c.soft);
    cr_assert(memcmp(&got.velocity[1].angular, &want.velocity[1].angular, sizeof(vec3s)) != 0,
              "a different arm changes body b's angular velocity");
}
