/* Rows of 8 floats, one per lane, to 8 lanes of one column each, and back: how the wide solver
   gathers the state of its lanes' bodies (body_velocity and body_motion are 8 floats each). With
   AVX the 8 x 8 transpose is 24 shuffles, with SSE two 4 x 4 transposes per four lanes, instead
   of 64 scalar inserts. Only data moves, so every form gives the same bits. */
#ifndef CAIRN_DYNAMICS_LANES_TRANSPOSE_H
#define CAIRN_DYNAMICS_LANES_TRANSPOSE_H

#include "dynamics/lanes.h"

#include <string.h>

#if CAIRN_LANES == 8 && defined(__AVX__)
#include <immintrin.h>

/* The 8 x 8 transpose of r (in place): rows to columns, or columns to rows. */
static inline void transpose8(__m256 r[8])
{
    __m256 t[8], s[8];
    for (int k = 0; k < 4; ++k) {
        t[2 * k] = _mm256_unpacklo_ps(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm256_unpackhi_ps(r[2 * k], r[2 * k + 1]);
    }
    for (int k = 0; k < 2; ++k) {
        s[4 * k] = _mm256_shuffle_ps(t[4 * k], t[4 * k + 2], _MM_SHUFFLE(1, 0, 1, 0));
        s[4 * k + 1] = _mm256_shuffle_ps(t[4 * k], t[4 * k + 2], _MM_SHUFFLE(3, 2, 3, 2));
        s[4 * k + 2] = _mm256_shuffle_ps(t[4 * k + 1], t[4 * k + 3], _MM_SHUFFLE(1, 0, 1, 0));
        s[4 * k + 3] = _mm256_shuffle_ps(t[4 * k + 1], t[4 * k + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (int k = 0; k < 4; ++k) {
        r[k] = _mm256_permute2f128_ps(s[k], s[k + 4], 0x20);
        r[k + 4] = _mm256_permute2f128_ps(s[k], s[k + 4], 0x31);
    }
}

static inline void lanes_gather8(const float *const rows[CAIRN_LANES], lane columns[8])
{
    __m256 r[8];
    for (int l = 0; l < 8; ++l)
        r[l] = _mm256_loadu_ps(rows[l]);
    transpose8(r);
    for (int k = 0; k < 8; ++k)
        columns[k] = (lane)r[k];
}

/* Row l is written only where write[l]. */
static inline void lanes_scatter8(float *const rows[CAIRN_LANES], const lane columns[8],
                                  const int write[CAIRN_LANES])
{
    __m256 r[8];
    for (int k = 0; k < 8; ++k)
        r[k] = (__m256)columns[k];
    transpose8(r);
    for (int l = 0; l < 8; ++l)
        if (write[l])
            _mm256_storeu_ps(rows[l], r[l]);
}

#elif CAIRN_LANES == 4 && defined(__SSE__)
#include <xmmintrin.h>

/* Columns first..first + 3 of four rows. */
static inline void gather_quarter(const float *const rows[4], int first, lane *columns)
{
    __m128 r0 = _mm_loadu_ps(rows[0] + first), r1 = _mm_loadu_ps(rows[1] + first);
    __m128 r2 = _mm_loadu_ps(rows[2] + first), r3 = _mm_loadu_ps(rows[3] + first);
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    columns[0] = (lane)r0;
    columns[1] = (lane)r1;
    columns[2] = (lane)r2;
    columns[3] = (lane)r3;
}

static inline void lanes_gather8(const float *const rows[CAIRN_LANES], lane columns[8])
{
    gather_quarter(rows, 0, columns);
    gather_quarter(rows, 4, columns + 4);
}

static inline void lanes_scatter8(float *const rows[CAIRN_LANES], const lane columns[8],
                                  const int write[CAIRN_LANES])
{
    __m128 c[8];
    for (int k = 0; k < 8; ++k)
        c[k] = (__m128)columns[k];
    _MM_TRANSPOSE4_PS(c[0], c[1], c[2], c[3]);
    _MM_TRANSPOSE4_PS(c[4], c[5], c[6], c[7]);
    for (int l = 0; l < 4; ++l)
        if (write[l]) {
            _mm_storeu_ps(rows[l], c[l]);
            _mm_storeu_ps(rows[l] + 4, c[l + 4]);
        }
}

#else

static inline void lanes_gather8(const float *const rows[CAIRN_LANES], lane columns[8])
{
    for (int k = 0; k < 8; ++k)
        for (int l = 0; l < CAIRN_LANES; ++l)
            columns[k][l] = rows[l][k];
}

static inline void lanes_scatter8(float *const rows[CAIRN_LANES], const lane columns[8],
                                  const int write[CAIRN_LANES])
{
    for (int l = 0; l < CAIRN_LANES; ++l)
        if (write[l])
            for (int k = 0; k < 8; ++k)
                rows[l][k] = columns[k][l];
}

#endif

#endif
