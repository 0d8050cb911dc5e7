/* Lanes of CAIRN_LANES floats (1, 4 or 8) through the compiler's vector extension: one register
   of a scalar unit, SSE2/NEON or AVX2, depending on the width the including file is compiled
   for. Each lane does the same IEEE operations in the same order at every width, so results are
   the same bit for bit whatever the width (when the compiler does not contract a * b + c into a
   fused multiply-add, which ISO C mode, -std=c17, does not do unless told to). */
#ifndef CAIRN_DYNAMICS_LANES_H
#define CAIRN_DYNAMICS_LANES_H

#ifndef CAIRN_LANES
#error "define CAIRN_LANES (1, 4 or 8) before including lanes.h"
#endif

#include <math.h>
#include <stdint.h>

typedef float lane __attribute__((vector_size(4 * CAIRN_LANES)));
/* All bits set in a lane where a comparison holds, zero where it does not. */
typedef int32_t lane_mask __attribute__((vector_size(4 * CAIRN_LANES)));

static inline lane lane_splat(float s)
{
    return (lane){0} + s;
}

/* a where m is set, b elsewhere. */
static inline lane lane_select(lane_mask m, lane a, lane b)
{
    return (lane)((m & (lane_mask)a) | (~m & (lane_mask)b));
}

/* a > b ? a : b, lane by lane (as the scalar code writes it: NaN rules included). */
static inline lane lane_max(lane a, lane b)
{
    return lane_select(a > b, a, b);
}

static inline lane lane_min(lane a, lane b)
{
    return lane_select(a < b, a, b);
}

/* Correctly rounded, so every width gives sqrtf's answer. */
static inline lane lane_sqrt(lane a)
{
    lane r = a;
    for (int l = 0; l < CAIRN_LANES; ++l)
        r[l] = sqrtf(a[l]);
    return r;
}

static inline int lane_any(lane_mask m)
{
    int any = 0;
    for (int l = 0; l < CAIRN_LANES; ++l)
        any |= m[l];
    return any != 0;
}

/* Three lanes of vectors: component by component. */
typedef struct wide_vec {
    lane x, y, z;
} wide_vec;

/* x + y + z of the products, summed in that order (as v4_sum3 does for one vector). */
static inline lane wide_dot(const wide_vec *a, const wide_vec *b)
{
    return a->x * b->x + a->y * b->y + a->z * b->z;
}

#endif
