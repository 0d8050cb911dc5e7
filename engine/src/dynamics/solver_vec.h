/* Four-lane float vectors for the solver's rows: a 3D vector in lanes 0-2 and a fourth lane that
   row data keeps at 0. One SSE (or NEON) register per vector through the compiler's vector
   extension, so a row update is a handful of vector operations instead of a dozen scalar ones;
   where no vector unit exists the compiler falls back to scalar code. Lane 3 of a body's linear
   velocity holds its inverse mass (the body_velocity layout): row directions have 0 there, so
   products with it vanish and updates leave it unchanged. */
#ifndef CAIRN_DYNAMICS_SOLVER_VEC_H
#define CAIRN_DYNAMICS_SOLVER_VEC_H

#include <cglm/struct.h>
#include <string.h>

typedef float v4 __attribute__((vector_size(16)));

static inline v4 v4_from(vec3s v)
{
    return (v4){v.x, v.y, v.z, 0.0f};
}

static inline vec3s v4_to_vec3(v4 v)
{
    return (vec3s){{v[0], v[1], v[2]}};
}

/* 16 bytes from p (no alignment needed). */
static inline v4 v4_load(const float *p)
{
    v4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void v4_store(float *p, v4 v)
{
    memcpy(p, &v, sizeof v);
}

static inline v4 v4_splat(float s)
{
    return (v4){s, s, s, s};
}

/* Sum of lanes 0-2 (lane 3 is ignored). */
static inline float v4_sum3(v4 v)
{
    return v[0] + v[1] + v[2];
}

#endif
