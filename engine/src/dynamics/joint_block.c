/* One joint's equality rows as one block (joint_block.h), in double like the tree solve: K of a
   far anchor has entries r^2/I times its smallest ones. */
#include "dynamics/joint_block.h"
#include "dynamics/small_ldl.h"

/* One side's velocity change for an impulse (linear, angular) on it: (m p, A t). */
static void side_response(const joint_body_state *side, const double *push, double *out)
{
    vec3s m = joint_side_inverse_mass(side);
    for (int k = 0; k < 3; ++k)
        out[k] = (double)m.raw[k] * push[k];
    for (int k = 0; k < 3; ++k) {
        double sum = 0.0;
        for (int c = 0; c < 3; ++c)
            sum += (double)side->inverse_inertia.raw[c][k] * push[3 + c];
        out[3 + k] = sum;
    }
}

/* The rates of the block's rows now (J v + bias). */
static void block_rates(const tree_joint *rows, float bias_rate, double *out)
{
    float v[12];
    joint_pair_velocities(rows->pair, v);
    for (int r = 0; r < rows->count; ++r) {
        const joint_row *row = &rows->rows[r];
        out[r] = joint_row_rate(row, v) + (double)bias_rate * (double)row->error;
    }
}

/* A side with locked translation axes answers each row along its free axes with at least
   BODY_RAIL_MIN_SHARE of the row's linear part (body.h): the missing part of that share is added
   to the row's diagonal, which keeps a row close to the rail from a near-zero pivot. */
static void add_rail_floor(const joint_body_state *side, const tree_joint *rows, int s, int n,
                           double *k)
{
    if (side->locked_translation == 0)
        return;
    for (int i = 0; i < n; ++i) {
        const float *row = &rows->rows[i].jacobian[s * 6];
        double length2 = 0.0, free = 0.0;
        for (int c = 0; c < 3; ++c) {
            double part = (double)row[c] * (double)row[c];
            length2 += part;
            free += side->locked_translation & (1u << c) ? 0.0 : part;
        }
        double floor = (double)BODY_RAIL_MIN_SHARE * length2;
        if (free < floor)
            k[i * n + i] += (double)side->inverse_mass * (floor - free);
    }
}

/* The kernels below are written for any n and stamped out for the two sizes that occur (a
   hinge's or slider's 5 rows, a weld's 6): with n known the compiler unrolls them. */
ALWAYS_INLINE void factor_n(joint_block *block, const tree_joint *rows, int n)
{
    const joint_body_state *sides[2] = {&rows->pair->a, &rows->pair->b};
    double *k = block->factors;
    for (int i = 0; i < n * n; ++i)
        k[i] = 0.0;
    for (int s = 0; s < 2; ++s) {
        if (!(sides[s]->inverse_mass > 0.0f)) /* a side that does not move adds nothing */
            continue;
        for (int j = 0; j < n; ++j) {
            double unit[6], response[6];
            for (int c = 0; c < 6; ++c)
                unit[c] = (double)rows->rows[j].jacobian[s * 6 + c];
            side_response(sides[s], unit, response);
            for (int i = j; i < n; ++i) { /* the lower triangle is all L D L^T reads */
                const float *row = &rows->rows[i].jacobian[s * 6];
                for (int c = 0; c < 6; ++c)
                    k[i * n + j] += (double)row[c] * response[c];
            }
        }
        add_rail_floor(sides[s], rows, s, n, k);
    }
    ldl_factor_n(k, n);
}

void joint_block_factor(joint_block *block, const tree_joint *rows)
{
    if (rows->count == 5)
        factor_n(block, rows, 5);
    else if (rows->count == 6)
        factor_n(block, rows, 6);
    else
        factor_n(block, rows, rows->count);
}

/* M^-1 J^T impulse on one side: a side the step does not move is never written (joints of the
   same colour on other workers may read it). */
ALWAYS_INLINE void apply_side_n(const joint_body_state *side, const tree_joint *rows, int s,
                                const float *impulse, int n)
{
    if (!(side->inverse_mass > 0.0f))
        return;
    double push[6] = {0};
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < 6; ++c)
            push[c] += (double)rows->rows[r].jacobian[s * 6 + c] * (double)impulse[r];
    double change[6];
    side_response(side, push, change);
    body_velocity *v = side->velocity;
    v->linear =
        glms_vec3_add(v->linear, (vec3s){{(float)change[0], (float)change[1], (float)change[2]}});
    v->angular =
        glms_vec3_add(v->angular, (vec3s){{(float)change[3], (float)change[4], (float)change[5]}});
}

ALWAYS_INLINE void solve_n(const joint_block *block, tree_joint *rows, softness soft, int n)
{
    double x[JOINT_MAX_ROWS];
    block_rates(rows, soft.bias_rate, x);
    ldl_solve_n(block->factors, n, x, 1);
    float impulse[JOINT_MAX_ROWS];
    for (int r = 0; r < n; ++r) {
        float *kept = rows->rows[r].impulse;
        impulse[r] = (float)(-(double)soft.mass_scale * x[r]) - soft.impulse_scale * *kept;
        *kept += impulse[r];
    }
    apply_side_n(&rows->pair->a, rows, 0, impulse, n);
    apply_side_n(&rows->pair->b, rows, 1, impulse, n);
}

void joint_block_solve(const joint_block *block, tree_joint *rows, softness soft)
{
    if (rows->count == 5)
        solve_n(block, rows, soft, 5);
    else if (rows->count == 6)
        solve_n(block, rows, soft, 6);
    else
        solve_n(block, rows, soft, rows->count);
}

void joint_block_couple(const joint_block *block, const tree_joint *rows, const axis_row *row,
                        block_coupling *out)
{
    int n = rows->count;
    const joint_body_state *sides[2] = {&rows->pair->a, &rows->pair->b};
    /* the row as J = (-linear, -angular_a, linear, angular_b), like the block's rows */
    double row_jacobian[12];
    for (int c = 0; c < 3; ++c) {
        row_jacobian[c] = -(double)row->linear.raw[c];
        row_jacobian[3 + c] = -(double)row->angular_a.raw[c];
        row_jacobian[6 + c] = (double)row->linear.raw[c];
        row_jacobian[9 + c] = (double)row->angular_b.raw[c];
    }
    double k_row = 0.0, held[JOINT_MAX_ROWS] = {0};
    for (int s = 0; s < 2; ++s) {
        if (!(sides[s]->inverse_mass > 0.0f))
            continue;
        double response[6];
        side_response(sides[s], &row_jacobian[s * 6], response);
        for (int c = 0; c < 6; ++c)
            k_row += row_jacobian[s * 6 + c] * response[c];
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < 6; ++c)
                held[r] += (double)rows->rows[r].jacobian[s * 6 + c] * response[c];
    }
    double schur = k_row;
    double k_block[JOINT_MAX_ROWS];
    for (int r = 0; r < n; ++r)
        k_block[r] = held[r];
    ldl_solve_n(block->factors, n, held, 1);
    for (int r = 0; r < n; ++r)
        schur -= k_block[r] * held[r];
    /* a row the block (nearly) fixes cannot move: as a row with no body to act on */
    out->mass = schur > 1e-9 * k_row ? (float)(1.0 / schur) : 0.0f;
    double held_error = 0.0;
    for (int k = 0; k < 12; ++k) {
        double projected = row_jacobian[k];
        for (int r = 0; r < n; ++r)
            projected -= held[r] * (double)rows->rows[r].jacobian[k];
        out->jacobian[k] = (float)projected;
    }
    for (int r = 0; r < n; ++r)
        held_error += held[r] * (double)rows->rows[r].error;
    out->held_error = (float)held_error;
}

float joint_block_rate(const block_coupling *coupling, const joint_pair *pair, float bias_rate)
{
    float v[12];
    joint_pair_velocities(pair, v);
    double rate = -(double)bias_rate * (double)coupling->held_error;
    for (int k = 0; k < 12; ++k)
        rate += (double)coupling->jacobian[k] * (double)v[k];
    return (float)rate;
}
