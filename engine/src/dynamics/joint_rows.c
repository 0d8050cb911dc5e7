/* The joint rows: point block, angle block, scalar axis row (see joint_rows.h). */
#include "dynamics/joint_rows.h"
#include "dynamics/small_ldl.h"
#include "dynamics/solver_vec.h"

#include <math.h>

static mat3s mat3_add(mat3s a, mat3s b)
{
    for (int i = 0; i < 3; ++i)
        a.col[i] = glms_vec3_add(a.col[i], b.col[i]);
    return a;
}

/* v with lanes 0-2 set to +0 along the locked axes (bits X 1, Y 2, Z 4); v itself when none. */
static v4 lock_lanes(v4 v, uint32_t locked)
{
    if (locked == 0)
        return v;
    v4i keep = {(locked & 1u) ? 0 : -1, (locked & 2u) ? 0 : -1, (locked & 4u) ? 0 : -1, -1};
    return (v4)((v4i)v & keep);
}

vec3s joint_side_inverse_mass(const joint_body_state *side)
{
    return v4_to_vec3(lock_lanes(v4_splat(side->inverse_mass), side->locked_translation));
}

float joint_rail_share(const joint_body_state *side, vec3s d, float length2)
{
    if (side->locked_translation == 0 || !(length2 > 0.0f))
        return 1.0f;
    float free = 0.0f;
    for (int c = 0; c < 3; ++c)
        if (!(side->locked_translation & (1u << c)))
            free += d.raw[c] * d.raw[c];
    return body_rail_share(free / length2);
}

/* The shares (body_rail_share) of the point block's rows, the world axes: 1 along a free axis,
   BODY_RAIL_MIN_SHARE along a locked one. */
static vec3s point_rail_shares(uint32_t locked)
{
    vec3s shares;
    for (int c = 0; c < 3; ++c)
        shares.raw[c] = body_rail_share((locked & (1u << c)) ? 0.0f : 1.0f);
    return shares;
}

/* The velocity change at a point r of a body per unit impulse there: m I - S A S with
   A = I^-1 and S v = r x v, as three columns. This runs for every Gauss-Seidel joint at every
   substep: the products are formed with the zeros of S left out, each entry from the same
   products, added in an order that gives the same sums as the full 3x3 products would; the
   lanes of a column are its rows, each the same scalar operations (solver_vec.h). */
static void point_response(const joint_body_state *side, v4 r, v4 k[3])
{
    const mat3s *a = &side->inverse_inertia;
    /* column j of S A is r x column j of A */
    v4 sa[3];
    for (int j = 0; j < 3; ++j)
        sa[j] = v4_cross(r, v4_load3(&a->col[j]));
    /* (S A S)_ij = (S A)_i. x column j of S, that is ((S A)_i. x r)_j */
    v4 x = v4_splat(r[0]), y = v4_splat(r[1]), z = v4_splat(r[2]);
    k[0] = -(sa[1] * z - sa[2] * y);
    k[1] = -(sa[2] * x - sa[0] * z);
    k[2] = -(sa[0] * y - sa[1] * x);
    /* the inverse mass on the diagonal only: the other entries keep their bits (and signs) */
    v4 m = v4_splat(side->inverse_mass);
    if (side->locked_translation != 0) /* the floor of a row along a locked world axis */
        m = m * v4_from(point_rail_shares(side->locked_translation));
    k[0] = __builtin_shufflevector(k[0], k[0] + m, 4, 1, 2, 3);
    k[1] = __builtin_shufflevector(k[1], k[1] + m, 0, 5, 2, 3);
    k[2] = __builtin_shufflevector(k[2], k[2] + m, 0, 1, 6, 3);
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
   colour on other workers at the same time. In four lanes, each the scalar code's operations in
   its order (solver_vec.h): the same bits, a third of the instructions. */
static void apply_linear(joint_pair *pair, v4 r_a, v4 r_b, v4 impulse)
{
    /* lane 3 of a velocity's linear part is its inverse mass (integrate.h): kept, as impulse's
       lane 3 is 0 */
    body_velocity *va = pair->a.velocity, *vb = pair->b.velocity;
    if (pair->a.inverse_mass > 0.0f) {
        v4_store(va->linear.raw,
                 lock_lanes(v4_load(va->linear.raw) - impulse * v4_splat(pair->a.inverse_mass),
                            pair->a.locked_translation));
        v4_store(va->angular.raw, v4_load(va->angular.raw) - v4_mat3_mulv(&pair->a.inverse_inertia,
                                                                          v4_cross(r_a, impulse)));
    }
    if (pair->b.inverse_mass > 0.0f) {
        v4_store(vb->linear.raw,
                 lock_lanes(v4_load(vb->linear.raw) + impulse * v4_splat(pair->b.inverse_mass),
                            pair->b.locked_translation));
        v4_store(vb->angular.raw, v4_load(vb->angular.raw) + v4_mat3_mulv(&pair->b.inverse_inertia,
                                                                          v4_cross(r_b, impulse)));
    }
}

static void apply_angular(joint_pair *pair, vec3s impulse)
{
    body_velocity *va = pair->a.velocity, *vb = pair->b.velocity;
    v4 turn = v4_from(impulse);
    if (pair->a.inverse_mass > 0.0f)
        v4_store(va->angular.raw,
                 v4_load(va->angular.raw) - v4_mat3_mulv(&pair->a.inverse_inertia, turn));
    if (pair->b.inverse_mass > 0.0f)
        v4_store(vb->angular.raw,
                 v4_load(vb->angular.raw) + v4_mat3_mulv(&pair->b.inverse_inertia, turn));
}

void point_prepare(point_part *p, const joint_pair *pair, vec3s r_a, vec3s r_b, vec3s error,
                   bool need_mass)
{
    p->r_a = r_a;
    p->r_b = r_b;
    p->error = error;
    if (!need_mass)
        return;
    v4 k_a[3], k_b[3];
    point_response(&pair->a, v4_load3(&p->r_a), k_a);
    point_response(&pair->b, v4_load3(&p->r_b), k_b);
    mat3s k;
    for (int c = 0; c < 3; ++c)
        k.col[c] = v4_to_vec3(k_a[c] + k_b[c]);
    p->mass = inverse_or_zero(k);
}

void point_warm_start(const point_part *p, joint_pair *pair)
{
    apply_linear(pair, v4_load3(&p->r_a), v4_load3(&p->r_b), v4_load3(&p->impulse));
}

void point_solve(point_part *p, joint_pair *pair, softness soft)
{
    const body_velocity *va = pair->a.velocity, *vb = pair->b.velocity;
    v4 r_a = v4_load3(&p->r_a), r_b = v4_load3(&p->r_b);
    v4 point_va = v4_load3(&va->linear) + v4_cross(v4_load3(&va->angular), r_a);
    v4 point_vb = v4_load3(&vb->linear) + v4_cross(v4_load3(&vb->angular), r_b);
    v4 target = (point_vb - point_va) + v4_load3(&p->error) * v4_splat(soft.bias_rate);
    v4 kept = v4_load3(&p->impulse);
    v4 impulse = v4_mat3_mulv(&p->mass, target) * v4_splat(-soft.mass_scale) -
                 kept * v4_splat(soft.impulse_scale);
    p->impulse = v4_to_vec3(kept + impulse);
    apply_linear(pair, r_a, r_b, impulse);
}

/* The inverse of the rows and columns of the leading n x n block of k that are not dead, each
   dead one (and each past n) made the identity's for the inversion and zero in out. */
static void invert_live(const float k[3][3], int n, const bool *dead, float out[3][3])
{
    mat3s m;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            bool off = i >= n || j >= n || dead[i] || dead[j];
            m.raw[j][i] = off ? (i == j ? 1.0f : 0.0f) : k[i][j];
        }
    mat3s inverse = inverse_or_zero(m);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            out[i][j] = dead[i] || dead[j] ? 0.0f : inverse.raw[j][i];
}

/* The axes of an angle block that no impulse can act on alone: an axis neither body can turn
   about (a locked rotation against the world or a static body: its diagonal is zero, or 1e-17 of
   the others when the axis is a rounding error off the locked one), or one the
   earlier axes already cover (a slider's three axes on a body whose rotation is locked about a
   world axis none of them is: the block has rank 2 with no zero on its diagonal). The block is
   formed again in double for this, where a dependent axis's pivot is rounding error (about 1e-16
   of its diagonal, small_ldl.h); in float it would be about 1e-7 and indistinguishable from a
   thin rod's true pivot. */
static bool find_dead_axes(const mat3s *inertia, const vec3s *axes, int n, bool *dead)
{
    double k[9], response[3][3];
    for (int i = 0; i < n; ++i)
        for (int r = 0; r < 3; ++r) {
            response[i][r] = 0.0;
            for (int c = 0; c < 3; ++c)
                response[i][r] += 0.5 * ((double)inertia->raw[c][r] + (double)inertia->raw[r][c]) *
                                  (double)axes[i].raw[c];
        }
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            k[i * n + j] = 0.0;
            for (int r = 0; r < 3; ++r)
                k[i * n + j] += (double)axes[i].raw[r] * response[j][r];
        }
    double largest = 0.0;
    for (int i = 0; i < n; ++i)
        largest = fmax(largest, k[i * n + i]);
    for (int i = 0; i < n; ++i) /* a row next to dead (1e-8 off a locked axis): dead */
        if (k[i * n + i] <= LDL_DEPENDENT * largest)
            for (int j = 0; j < n; ++j)
                k[i * n + j] = k[j * n + i] = 0.0;
    ldl_factor_n(k, n);
    bool any_dead = false;
    for (int i = 0; i < n; ++i)
        any_dead |= dead[i] = k[i * n + i] == 0.0;
    return any_dead;
}

/* Inverts the leading n x n block of k (n = 2 or 3) into out; zero when singular. A dead axis
   (find_dead_axes) takes no impulse, and the other rows are inverted without it, rather than the
   whole block counting as singular (or, worse, its rounding error inverted into impulses of
   1e10). */
static void invert_block(const float k[3][3], int n, const bool *dead, bool any_dead,
                         float out[3][3])
{
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            out[i][j] = 0.0f;
    if (any_dead) {
        invert_live(k, n, dead, out);
        return;
    }
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
    if (need_mass) {
        bool dead[3] = {false, false, false};
        bool any_dead = find_dead_axes(&inertia, axes, count, dead);
        invert_block((const float(*)[3])k, count, dead, any_dead, p->mass);
    }
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

/* d . (M_a^-1 + M_b^-1) d: per axis where a side has locked translation axes. */
static float linear_response(const joint_pair *pair, vec3s d)
{
    float length2 = glms_vec3_dot(d, d);
    if (pair->a.locked_translation == 0 && pair->b.locked_translation == 0)
        return (pair->a.inverse_mass + pair->b.inverse_mass) * length2;
    return (pair->a.inverse_mass * joint_rail_share(&pair->a, d, length2) +
            pair->b.inverse_mass * joint_rail_share(&pair->b, d, length2)) *
           length2;
}

static axis_row make_row(const joint_pair *pair, vec3s linear, vec3s angular_a, vec3s angular_b)
{
    axis_row row = {linear,
                    angular_a,
                    angular_b,
                    glms_mat3_mulv(pair->a.inverse_inertia, angular_a),
                    glms_mat3_mulv(pair->b.inverse_inertia, angular_b),
                    0.0f};
    float k = linear_response(pair, linear) + glms_vec3_dot(angular_a, row.response_a) +
              glms_vec3_dot(angular_b, row.response_b);
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
    v4 linear = v4_load3(&row->linear), amount = v4_splat(impulse);
    if (pair->a.inverse_mass > 0.0f) { /* as apply_linear */
        v4_store(va->linear.raw, lock_lanes(v4_load(va->linear.raw) -
                                                linear * v4_splat(impulse * pair->a.inverse_mass),
                                            pair->a.locked_translation));
        v4_store(va->angular.raw, v4_load(va->angular.raw) - v4_load3(&row->response_a) * amount);
    }
    if (pair->b.inverse_mass > 0.0f) {
        v4_store(vb->linear.raw, lock_lanes(v4_load(vb->linear.raw) +
                                                linear * v4_splat(impulse * pair->b.inverse_mass),
                                            pair->b.locked_translation));
        v4_store(vb->angular.raw, v4_load(vb->angular.raw) + v4_load3(&row->response_b) * amount);
    }
}

void row_solve_equality(const axis_row *row, joint_pair *pair, float rate, float *impulse,
                        float error, softness soft)
{
    float delta = -soft.mass_scale * row->mass * (rate + soft.bias_rate * error) -
                  soft.impulse_scale * *impulse;
    *impulse += delta;
    axis_row_apply(row, pair, delta);
}

void row_solve_limit(const axis_row *row, joint_pair *pair, float rate, float *impulse, float c,
                     float sign, float inverse_h, softness soft)
{
    float bias = 0.0f, mass_scale = 1.0f, impulse_scale = 0.0f;
    if (c > 0.0f) {
        bias = c * inverse_h; /* speculative: reach the bound in this substep, no further */
    } else {
        bias = soft.bias_rate * c;
        mass_scale = soft.mass_scale;
        impulse_scale = soft.impulse_scale;
    }
    float delta = -mass_scale * row->mass * (sign * rate + bias) - impulse_scale * *impulse;
    float total = *impulse + delta > 0.0f ? *impulse + delta : 0.0f;
    delta = total - *impulse;
    *impulse = total;
    /* a limit far from its bound stays at 0: most passes of most limits apply nothing */
    if (delta != 0.0f)
        axis_row_apply(row, pair, sign * delta);
}

void row_solve_motor(const axis_row *row, joint_pair *pair, float rate, float *impulse, float speed,
                     float max_impulse)
{
    float total = *impulse - row->mass * (rate - speed);
    total = total > max_impulse ? max_impulse : (total < -max_impulse ? -max_impulse : total);
    float delta = total - *impulse;
    *impulse = total;
    axis_row_apply(row, pair, delta);
}

void line_prepare(line_part *p, const joint_pair *pair, const vec3s *across, vec3s r_a, vec3s r_b,
                  vec3s u)
{
    /* A's anchor point follows A; the rows measure B's anchor against the line through it, so
       A's arm reaches to B's anchor */
    vec3s arm_a = glms_vec3_add(r_a, u);
    for (int k = 0; k < 2; ++k) {
        p->rows[k] = axis_row_linear(pair, across[k], arm_a, r_b);
        p->error[k] = glms_vec3_dot(u, across[k]);
    }
}

void line_warm_start(const line_part *p, joint_pair *pair)
{
    for (int k = 0; k < 2; ++k)
        axis_row_apply(&p->rows[k], pair, p->impulse[k]);
}

void line_solve(line_part *p, joint_pair *pair, softness soft)
{
    for (int k = 0; k < 2; ++k)
        row_solve_equality(&p->rows[k], pair, axis_row_velocity(&p->rows[k], pair), &p->impulse[k],
                           p->error[k], soft);
}

vec3s line_add_impulse(const line_part *p, vec3s sum)
{
    for (int k = 0; k < 2; ++k)
        sum = glms_vec3_add(sum, glms_vec3_scale(p->rows[k].linear, p->impulse[k]));
    return sum;
}
