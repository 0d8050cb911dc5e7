/* Small dense symmetric matrices (row-major, double) as L D L^T without pivoting: the tree
   solve's blocks (joint_tree.c) and one joint's equality rows (joint_block.c). */
#ifndef CAIRN_DYNAMICS_SMALL_LDL_H
#define CAIRN_DYNAMICS_SMALL_LDL_H

#include "core/inline.h"

#include <stdbool.h>

/* The small dense kernels are written once for any n and stamped out for the sizes that
   occur most (a body's 6, a ball joint's 3): with n known the compiler unrolls the loops, and
   the tree's factor and solve spend most of their time here. The order of the operations is
   the same whatever the size, so are the results. */

/* Factors the symmetric definite (positive or negative) n x n matrix a in place as L D L^T,
   without pivoting: every block of the elimination is definite (bodies' articulated inertias
   positive, joints' Schur complements negative). A vanishing pivot (a row with no body to act
   on, or a row the earlier ones already span: a slider on a body whose rotation is locked about
   an axis its rows need) is stored as 0, and ldl_solve_n then gives 0 for it. Vanishing is
   relative to the row's own diagonal: a dependent row's pivot is rounding error, about 1e-15 of
   it, and dividing by that gave impulses of 1e10 and more. */
#define LDL_DEPENDENT 1e-10

ALWAYS_INLINE void ldl_factor_n(double *a, int n)
{
    for (int j = 0; j < n; ++j) {
        double diagonal = a[j * n + j], pivot = diagonal;
        for (int k = 0; k < j; ++k)
            pivot -= a[j * n + k] * a[j * n + k] * a[k * n + k];
        bool singular = !(__builtin_fabs(pivot) > LDL_DEPENDENT * __builtin_fabs(diagonal));
        a[j * n + j] = singular ? 0.0 : pivot;
        for (int i = j + 1; i < n; ++i) {
            double sum = a[i * n + j];
            for (int k = 0; k < j; ++k)
                sum -= a[i * n + k] * a[j * n + k] * a[k * n + k];
            a[i * n + j] = singular ? 0.0 : sum / pivot;
        }
    }
}

static inline void ldl_factor(double *a, int n)
{
    switch (n) {
    case 3:
        ldl_factor_n(a, 3);
        break;
    case 6:
        ldl_factor_n(a, 6);
        break;
    default:
        ldl_factor_n(a, n);
    }
}

/* Two doubles side by side (one SSE2 register): two columns of a solve at once. */
typedef double column_pair __attribute__((vector_size(16)));

/* x = D^-1 x with the factors of ldl_factor for column c of x (n rows of `columns`) and, when
   there is one, column c + 1, side by side: each lane sees the same operations in the same
   order as a column alone (an absent column's lane holds zeros). */
ALWAYS_INLINE void ldl_solve_pair_n(const double *f, int n, double *x, int columns, int c)
{
    bool two = c + 1 < columns;
    column_pair y[6]; /* n <= 6: a body's rows, or a joint's (JOINT_MAX_ROWS) */
    for (int i = 0; i < n; ++i)
        y[i] = (column_pair){x[i * columns + c], two ? x[i * columns + c + 1] : 0.0};
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < i; ++k)
            y[i] -= f[i * n + k] * y[k];
    for (int i = 0; i < n; ++i) {
        double pivot = f[i * n + i];
        y[i] = pivot != 0.0 ? y[i] / pivot : (column_pair){0.0, 0.0};
    }
    for (int i = n - 1; i >= 0; --i)
        for (int k = i + 1; k < n; ++k)
            y[i] -= f[k * n + i] * y[k];
    for (int i = 0; i < n; ++i) {
        x[i * columns + c] = y[i][0];
        if (two)
            x[i * columns + c + 1] = y[i][1];
    }
}

/* x = D^-1 x for every column of x (n x columns, row-major), two columns at a time. */
ALWAYS_INLINE void ldl_solve_n(const double *f, int n, double *x, int columns)
{
    for (int c = 0; c < columns; c += 2)
        ldl_solve_pair_n(f, n, x, columns, c);
}

/* The inverse of a small symmetric definite matrix (the bodies' inertia). */
static inline void ldl_invert(double *a, int n, double *out)
{
    ldl_factor(a, n);
    for (int c = 0; c < n; ++c)
        for (int i = 0; i < n; ++i)
            out[i * n + c] = i == c ? 1.0 : 0.0;
    ldl_solve_n(a, n, out, n);
}

#endif
