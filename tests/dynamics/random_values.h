/* Reproducible random inputs for the tests that hold a vectorised form to its scalar one: a
   linear congruential generator (the same sequence on every machine), vectors in a box, and
   symmetric positive definite matrices for inverse inertias. */
#ifndef CAIRN_TESTS_RANDOM_VALUES_H
#define CAIRN_TESTS_RANDOM_VALUES_H

#include <cglm/struct.h>
#include <stdint.h>

static inline float uniform(uint32_t *state, float lo, float hi)
{
    *state = *state * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(*state >> 8) / 16777216.0f;
}

/* x, then y, then z: the draws in a fixed order (a function's arguments have none). */
static inline vec3s random_vec(uint32_t *state, float size)
{
    float x = uniform(state, -size, size);
    float y = uniform(state, -size, size);
    float z = uniform(state, -size, size);
    return (vec3s){{x, y, z}};
}

/* A symmetric positive definite matrix: A A^T plus `diagonal` on the diagonal. */
static inline mat3s random_inertia(uint32_t *state, float diagonal)
{
    mat3s a, m;
    for (int c = 0; c < 3; ++c)
        a.col[c] = random_vec(state, 1.0f);
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) {
            float sum = c == r ? diagonal : 0.0f;
            for (int k = 0; k < 3; ++k)
                sum += a.raw[k][r] * a.raw[k][c];
            m.raw[c][r] = sum;
        }
    return m;
}

#endif
