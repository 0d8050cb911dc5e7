/* Soft constraints (Catto, "Solver2D"; Box2D v3): a constraint that behaves as a spring of a
   given frequency and damping ratio, written as a bias on the target velocity and scales on the
   effective mass and the accumulated impulse. Shared by contacts, joints and joint springs. */
#ifndef CAIRN_DYNAMICS_SOFTNESS_H
#define CAIRN_DYNAMICS_SOFTNESS_H

#include <cglm/struct.h>

typedef struct softness {
    float bias_rate, mass_scale, impulse_scale;
} softness;

/* hertz 0 is rigid: no bias, the full effective mass. */
static inline softness make_soft(float hertz, float zeta, float h)
{
    if (hertz == 0.0f)
        return (softness){0.0f, 1.0f, 0.0f};
    float omega = 2.0f * GLM_PIf * hertz;
    float a1 = 2.0f * zeta + h * omega;
    float a2 = h * omega * a1;
    float a3 = 1.0f / (1.0f + a2);
    return (softness){omega / a1, a2 * a3, a3};
}

#endif
