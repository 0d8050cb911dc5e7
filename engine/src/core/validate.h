/* Checks for values crossing the public API: finite numbers, sizes in range, unit rotations. */
#ifndef CAIRN_CORE_VALIDATE_H
#define CAIRN_CORE_VALIDATE_H

#include <cairn/base.h>
#include <math.h>

static inline bool is_finite_float(float value)
{
    return isfinite(value);
}

static inline bool is_finite_vec3(vec3s v)
{
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

/* A rotation is accepted when its length is within 1e-3 of 1 (it is then renormalised). */
static inline bool is_unit_quat(versors q)
{
    if (!(isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w)))
        return false;
    float length_sq = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    return fabsf(length_sq - 1.0f) <= 2e-3f;
}

#endif
