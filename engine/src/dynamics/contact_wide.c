/* Which width of the wide contact passes a world uses. */
#include "dynamics/contact_wide.h"

#ifndef CAIRN_SOLVER_LANES
#define CAIRN_SOLVER_LANES 4
#endif

/* 8 lanes are built for AVX2 on x86; elsewhere the compiler splits them into narrower registers,
   which any processor runs. */
static bool can_run_eight(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return __builtin_cpu_supports("avx2");
#else
    return true;
#endif
}

const contact_wide_ops *contact_wide_select(int lanes)
{
    if (lanes == 0)
        lanes = CAIRN_SOLVER_LANES == 8 && !can_run_eight() ? 4 : CAIRN_SOLVER_LANES;
    switch (lanes) {
    case 1:
        return &contact_wide_ops_1;
    case 4:
        return &contact_wide_ops_4;
    case 8:
        return can_run_eight() ? &contact_wide_ops_8 : NULL;
    default:
        return NULL;
    }
}
