/* The joint rows: point block, angle block, scalar axis row (see joint_rows.h). */
#include "dynamics/joint_rows.h"

#include <math.h>

static mat3s mat3_add(mat3s a, mat3s b)
{
    for (int i = 0; i < 3; ++i)
        a.col[i] = glms_vec3_add(a.col[i], b.col[i]);
    return a;
}

/* The velocity change at a point r of a body per unit impulse there: m I - S A S with
   A = I^-1 and S v = r x v. This runs for every Gauss-Seidel joint at every substep: the
   products are formed with the zeros of S left out, each entry from the same products, added
   in an order that gives the same sums as the full 3x3 products would. */
static mat3s point_response(const joint_body_state *side, vec3s r)
{
    const mat3s *a = &side->inverse_inertia; /* raw[c][i] is row i, column c */
    float sa[3][3];                          /* sa[i][j] = (S A)_ij */
    for (int j = 0; j < 3; ++j) {
        sa[0][j] = r.y * a->raw[j][2] - r.z * a->raw[j][1];
        sa[1][j] = r.z * a->raw[j][0] - r.x * a->raw[j][2];
        sa[2][j] = r.x * a->raw[j][1] - r.y * a->raw[j][0];
    }
    /* (S A S)_ij = (S A)_i. x column j of S, that is ((S A)_i. x r)_j */
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

/* The inverse of a symmetric positive semi-definite matrix, or zero when it is singular
   (neither body can respond). */
static mat3s inverse_or_zero(mat3s k)
{
    float det = glms_mat3_det(k);
    float scale = fabsf(k.raw[0][0]) + fabsf(k.raw[1][1]) + fabsf(k.raw[2][2]);
    if (!(fabsf(det) > 1e-12f * scale * scale * scale) || scale == 0.0f)
        return glms_mat3_zero();
    return glms_mat3_inv(k);
}

/* Only a side the step moves is written: a body that does not move (the world, a static,
   kinematic or sleeping body: inverse mass and inertia 0) may be read by joints of the same
   colour on other workers at the same time. */
static void apply_linear(joint_pair *pair, vec3s r_a, vec3s r_b, vec3s impulse)
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

static void apply_angular(joint_pair *pair, vec3s impulse)
{
    body_velocity *va = pair->a.velocity, *vb = pair->b.velocity;
    if (pair->a.inverse_mass > 0.0f)
        va->angular = glms_vec3_sub(va->angular, glms_mat3_mulv(pair->a.inverse_inertia, impulse));
    if (pair->b.inverse_mass > 0.0f)
        vb->angular = glms_vec3_add(vb->angular, glms_mat3_mulv(pair->b.inverse_inertia, impulse));
}

void point_prepare(point_part *p, const joint_pair *pair, vec3s r_a, vec3s r_b, vec3s error,
                   bool need_mass)
{
    p->r_a = r_a;
    p->r_b = r_b;
    p->error = error;
    if (!need_mass)
        return;
    p->mass =
        inverse_or_zero(mat3_add(point_response(&pair->a, r_a), point_response(&pair->b, r_b)));
}

void point_warm_start(const point_part *p, joint_pair *pair)
{
    apply_linear(pair, p->r_a, p->r_b, p->impulse);
}

void point_solve(point_part *p, joint_pair *pair, softness soft)
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
    apply_linear(pair, p->r_a, p->r_b, impulse);
}

/* Inverts the leading n x n block of k (n = 2 or 3) into out; zero when singular. */
static void invert_block(const float k[3][3], int n, float out[3][3])
{
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            out[i][j] = 0.0f;
    if (n == 2) {
        float det = k[0][0] * k[1][1] - k[0][1] * k[1][0];
        if (!(fabsf(det) > 1e-12f * (k[0][0] + k[1][1]) * (k[0][0] + k[1][1])))
            return;
        out[0][0] = k[1][1] / det;
        out[1][1] = k[0][0] / det;
        out[0][1] = -k[0][1] / det;
        out[1][0] = -k[1][0] / det;
        return;
    }
    mat3s m;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            m.raw[j][i] = k[i][j];
    mat3s inverse = inverse_or_zero(m);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            out[i][j] = inverse.raw[j][i];
}

vec3s angle_impulse(const angle_part *p)
{
    vec3s sum = glms_vec3_zero();
    for (int i = 0; i < p->count; ++i)
        sum = glms_vec3_add(sum, glms_vec3_scale(p->axes[i], p->impulse[i]));
    return sum;
}

void angle_prepare(angle_part *p, const joint_pair *pair, const vec3s *axes, int count,
                   const float *error, bool need_mass)
{
    vec3s kept = angle_impulse(p); /* zero on first use: the part starts zeroed */
    mat3s inertia = mat3_add(pair->a.inverse_inertia, pair->b.inverse_inertia);
    float k[3][3] = {{0}};
    p->count = count;
    for (int i = 0; i < count; ++i) {
        p->axes[i] = axes[i];
        p->error[i] = error ? error[i] : 0.0f;
        p->impulse[i] = glms_vec3_dot(kept, axes[i]);
        if (!need_mass)
            continue;
        vec3s response = glms_mat3_mulv(inertia, axes[i]);
        for (int j = 0; j < count; ++j)
            k[j][i] = glms_vec3_dot(axes[j], response);
    }
    if (need_mass)
        invert_block((const float(*)[3])k, count, p->mass);
}

void angle_warm_start(const angle_part *p, joint_pair *pair)
{
    apply_angular(pair, angle_impulse(p));
}

/* The relative angular velocity along each axis. */
static void angle_cdot(const angle_part *p, const joint_pair *pair, float *cdot)
{
    vec3s w = glms_vec3_sub(pair->b.velocity->angular, pair->a.velocity->angular);
    for (int i = 0; i < p->count; ++i)
        cdot[i] = glms_vec3_dot(w, p->axes[i]);
}

/* out = -mass (target) for the leading count entries. */
static void angle_mass_times(const angle_part *p, const float *target, float *out)
{
    for (int i = 0; i < p->count; ++i) {
        out[i] = 0.0f;
        for (int j = 0; j < p->count; ++j)
            out[i] -= p->mass[i][j] * target[j];
    }
}

void angle_solve(angle_part *p, joint_pair *pair, softness soft)
{
    /* zeroed: gcc -O2 cannot see that only the first count entries are read */
    float cdot[3] = {0}, target[3] = {0}, impulse[3] = {0};
    angle_cdot(p, pair, cdot);
    for (int i = 0; i < p->count; ++i)
        target[i] = cdot[i] + soft.bias_rate * p->error[i];
    angle_mass_times(p, target, impulse);
    vec3s applied = glms_vec3_zero();
    for (int i = 0; i < p->count; ++i) {
        impulse[i] = soft.mass_scale * impulse[i] - soft.impulse_scale * p->impulse[i];
        p->impulse[i] += impulse[i];
        applied = glms_vec3_add(applied, glms_vec3_scale(p->axes[i], impulse[i]));
    }
    apply_angular(pair, applied);
}

void angle_solve_friction(angle_part *p, joint_pair *pair, float max_impulse)
{
    float cdot[3], impulse[3], old[3], length2 = 0.0f;
    angle_cdot(p, pair, cdot);
    angle_mass_times(p, cdot, impulse);
    for (int i = 0; i < p->count; ++i) {
        old[i] = p->impulse[i];
        p->impulse[i] += impulse[i];
        length2 += p->impulse[i] * p->impulse[i];
    }
    if (length2 > max_impulse * max_impulse) {
        float scale = max_impulse / sqrtf(length2);
        for (int i = 0; i < p->count; ++i)
            p->impulse[i] *= scale;
    }
    vec3s applied = glms_vec3_zero();
    for (int i = 0; i < p->count; ++i)
        applied = glms_vec3_add(applied, glms_vec3_scale(p->axes[i], p->impulse[i] - old[i]));
    apply_angular(pair, applied);
}

static axis_row make_row(const joint_pair *pair, vec3s linear, vec3s angular_a, vec3s angular_b)
{
    axis_row row = {linear,
                    angular_a,
                    angular_b,
                    glms_mat3_mulv(pair->a.inverse_inertia, angular_a),
                    glms_mat3_mulv(pair->b.inverse_inertia, angular_b),
                    0.0f};
    float k = (pair->a.inverse_mass + pair->b.inverse_mass) * glms_vec3_dot(linear, linear) +
              glms_vec3_dot(angular_a, row.response_a) + glms_vec3_dot(angular_b, row.response_b);
    row.mass = k > 0.0f ? 1.0f / k : 0.0f;
    return row;
}

axis_row axis_row_angular(const joint_pair *pair, vec3s axis)
{
    return make_row(pair, glms_vec3_zero(), axis, axis);
}

axis_row axis_row_linear(const joint_pair *pair, vec3s d, vec3s arm_a, vec3s r_b)
{
    return make_row(pair, d, glms_vec3_cross(arm_a, d), glms_vec3_cross(r_b, d));
}

float axis_row_velocity(const axis_row *row, const joint_pair *pair)
{
    const body_velocity *va = pair->a.velocity, *vb = pair->b.velocity;
    return glms_vec3_dot(row->linear, glms_vec3_sub(vb->linear, va->linear)) +
           glms_vec3_dot(row->angular_b, vb->angular) - glms_vec3_dot(row->angular_a, va->angular);
}

void axis_row_apply(const axis_row *row, joint_pair *pair, float impulse)
{
    body_velocity *va = pair->a.velocity, *vb = pair->b.velocity;
    if (pair->a.inverse_mass > 0.0f) { /* as apply_linear */
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

void row_solve_equality(const axis_row *row, joint_pair *pair, float *impulse, float error,
                        softness soft)
{
    float cdot = axis_row_velocity(row, pair);
    float delta = -soft.mass_scale * row->mass * (cdot + soft.bias_rate * error) -
                  soft.impulse_scale * *impulse;
    *impulse += delta;
    axis_row_apply(row, pair, delta);
}

void row_solve_limit(const axis_row *row, joint_pair *pair, float *impulse, float c, float sign,
                     float inverse_h, softness soft)
{
    float bias = 0.0f, mass_scale = 1.0f, impulse_scale = 0.0f;
    if (c > 0.0f) {
        bias = c * inverse_h; /* speculative: reach the bound in this substep, no further */
    } else {
        bias = soft.bias_rate * c;
        mass_scale = soft.mass_scale;
        impulse_scale = soft.impulse_scale;
    }
    float cdot = sign * axis_row_velocity(row, pair);
    float delta = -mass_scale * row->mass * (cdot + bias) - impulse_scale * *impulse;
    float total = *impulse + delta > 0.0f ? *impulse + delta : 0.0f;
    delta = total - *impulse;
    *impulse = total;
    /* a limit far from its bound stays at 0: most passes of most limits apply nothing */
    if (delta != 0.0f)
        axis_row_apply(row, pair, sign * delta);
}

void row_solve_motor(const axis_row *row, joint_pair *pair, float *impulse, float speed,
                     float max_impulse)
{
    float cdot = axis_row_velocity(row, pair);
    float total = *impulse - row->mass * (cdot - speed);
    total = total > max_impulse ? max_impulse : (total < -max_impulse ? -max_impulse : total);
    float delta = total - *impulse;
    *impulse = total;
    axis_row_apply(row, pair, delta);
}
