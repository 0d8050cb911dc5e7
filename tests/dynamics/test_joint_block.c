/* A joint's equality rows solved as one block (joint_block.h), against the definition of its
   rows: one solve meets every row at once. */
#include "dynamics/joint_block.h"

#include "random_values.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

/* A body's response: inverse mass in [0.1, 10] and a random symmetric positive definite inverse
   inertia (R D R^T with D in [0.05, 20]), or nothing (a body the step does not move). */
static joint_body_state random_side(uint32_t *state, body_velocity *v, bool moves)
{
    for (int k = 0; k < 3; ++k) {
        v->linear.raw[k] = uniform(state, -3, 3);
        v->angular.raw[k] = uniform(state, -3, 3);
    }
    joint_body_state side = {.velocity = v};
    if (!moves) {
        side.inverse_inertia = glms_mat3_zero();
        return side;
    }
    side.inverse_mass = uniform(state, 0.1f, 10);
    versors q = glms_quat_normalize((versors){{uniform(state, -1, 1), uniform(state, -1, 1),
                                               uniform(state, -1, 1), uniform(state, -1, 1)}});
    mat3s r = glms_quat_mat3(q), d = glms_mat3_zero();
    for (int k = 0; k < 3; ++k)
        d.raw[k][k] = uniform(state, 0.05f, 20);
    side.inverse_inertia = glms_mat3_mul(glms_mat3_mul(r, d), glms_mat3_transpose(r));
    return side;
}

/* J v + bias_rate * error of row r, in double; *size: the sum of its terms' magnitudes, the
   scale of the float velocities' rounding in it. */
static double row_residual(const tree_joint *rows, int r, float bias_rate, double *size)
{
    const body_velocity *sides[2] = {rows->pair->a.velocity, rows->pair->b.velocity};
    double bias = (double)bias_rate * (double)rows->rows[r].error;
    double sum = bias;
    *size = fabs(bias);
    for (int s = 0; s < 2; ++s)
        for (int k = 0; k < 3; ++k) {
            double linear = (double)rows->rows[r].jacobian[s * 6 + k] * sides[s]->linear.raw[k];
            double angular =
                (double)rows->rows[r].jacobian[s * 6 + 3 + k] * sides[s]->angular.raw[k];
            sum += linear + angular;
            *size += fabs(linear) + fabs(angular);
        }
    return sum;
}

/* J_r M^-1 J_c^T: row r's rate of change per unit impulse on row c. */
static double coupling(const tree_joint *rows, int r, int c)
{
    const joint_body_state *sides[2] = {&rows->pair->a, &rows->pair->b};
    double sum = 0.0;
    for (int s = 0; s < 2; ++s) {
        const float *jr = &rows->rows[r].jacobian[s * 6], *jc = &rows->rows[c].jacobian[s * 6];
        for (int i = 0; i < 3; ++i) {
            sum += (double)sides[s]->inverse_mass * jr[i] * jc[i];
            for (int k = 0; k < 3; ++k)
                sum += (double)jr[3 + i] * sides[s]->inverse_inertia.raw[k][i] * jc[3 + k];
        }
    }
    return sum;
}

/* How far the impulses' rounding to float can move row r: sum over c of |K_rc impulse_c|. */
static double impulse_rounding_scale(const tree_joint *rows, int r)
{
    double sum = 0.0;
    for (int c = 0; c < rows->count; ++c)
        sum += fabs(coupling(rows, r, c) * (double)*rows->rows[c].impulse);
    return sum;
}

/* Rows of a weld, hinge or ball (6, 5, 3) between two random bodies, anchors up to 5 m from the
   centres: after one rigid solve with a Baumgarte bias, every row's J v + bias error is zero
   (to the rounding of the float velocities and impulses); a body that does not move is never
   written. */
Test(joint_block, one_solve_meets_every_row)
{
    uint32_t state = 12345u;
    for (int trial = 0; trial < 3000; ++trial) {
        body_velocity va, vb;
        bool a_moves = trial % 4 != 0; /* every fourth: held to something that does not move */
        joint_pair pair = {random_side(&state, &va, a_moves), random_side(&state, &vb, true)};
        body_velocity a_before = va;
        int kinds[3] = {6, 5, 3}, count = kinds[trial % 3];
        point_part point = {0};
        angle_part angle = {0};
        vec3s r_a = {{uniform(&state, -5, 5), uniform(&state, -5, 5), uniform(&state, -5, 5)}};
        vec3s r_b = {{uniform(&state, -5, 5), uniform(&state, -5, 5), uniform(&state, -5, 5)}};
        vec3s error = {{uniform(&state, -0.1f, 0.1f), uniform(&state, -0.1f, 0.1f), 0.01f}};
        point_prepare(&point, &pair, r_a, r_b, error, false);
        versors q = glms_quat_normalize(
            (versors){{uniform(&state, -1, 1), uniform(&state, -1, 1), uniform(&state, -1, 1), 1}});
        mat3s frame = glms_quat_mat3(q);
        float angle_error[3] = {0.05f, -0.02f, 0.01f};
        angle_prepare(&angle, &pair, frame.col, count - 3, angle_error, false);
        tree_joint rows = {.pair = &pair};
        rows.count = joint_rows_angle(&angle, rows.rows);
        rows.count += joint_rows_point(&point, rows.rows + rows.count);
        cr_assert_eq(rows.count, count);
        const softness baumgarte = {0.2f * 240.0f, 1.0f, 0.0f};
        double before = 0.0, size;
        for (int r = 0; r < count; ++r)
            before = fmax(before, fabs(row_residual(&rows, r, baumgarte.bias_rate, &size)));
        cr_assert(before > 0.1, "trial %d: the rows start away from their targets", trial);
        joint_block block;
        joint_block_factor(&block, &rows);
        joint_block_solve(&block, &rows, baumgarte);
        for (int r = 0; r < count; ++r) {
            double after = row_residual(&rows, r, baumgarte.bias_rate, &size);
            size += impulse_rounding_scale(&rows, r);
            cr_assert(fabs(after) <= 1e-5 * size,
                      "trial %d, %d rows: row %d left at %g (%g before, terms of %g)", trial, count,
                      r, after, before, size);
        }
        if (!a_moves)
            cr_assert(memcmp(&va, &a_before, sizeof va) == 0, "trial %d: wrote a still body",
                      trial);
    }
}
