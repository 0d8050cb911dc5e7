/* Four-lane float vectors for the solver's rows: a 3D vector in lanes 0-2 and a fourth lane that
   row data keeps at 0. One SSE (or NEON) register per vector through the compiler's vector
   extension, so a row update is a handful of vector operations instead of a dozen scalar ones;
   where no vector unit exists the compiler falls back to scalar code. Lane 3 of a body's linear
   velocity holds its inverse mass (the body_velocity layout): row directions have 0 there, so
   products with it vanish and updates leave it unchanged. */
#ifndef CAIRN_DYNAMICS_SOLVER_VEC_H
#define CAIRN_DYNAMICS_SOLVER_VEC_H

#include <cglm/struct.h>
#include <stdint.h>
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

typedef int32_t v4i __attribute__((vector_size(16)));

/* v with lane 3 set to 0. */
static inline v4 v4_clear3(v4 v)
{
    return (v4)((v4i)v & (v4i){-1, -1, -1, 0});
}

/* The vector at p in lanes 0-2, lane 3 0. One 16-byte load: p must be followed by at least 4
   bytes of the same struct (a padding float where p is its last member). */
static inline v4 v4_load3(const vec3s *p)
{
    return v4_clear3(v4_load(p->raw));
}

/* a x b, each lane the scalar cross product's operations in its order: a.y b.z - a.z b.y, ...
   Lane 3 is a.w b.w - a.w b.w. */
static inline v4 v4_cross(v4 a, v4 b)
{
    v4 a_yzx = __builtin_shufflevector(a, a, 1, 2, 0, 3);
    v4 b_zxy = __builtin_shufflevector(b, b, 2, 0, 1, 3);
    v4 a_zxy = __builtin_shufflevector(a, a, 2, 0, 1, 3);
    v4 b_yzx = __builtin_shufflevector(b, b, 1, 2, 0, 3);
    return a_yzx * b_zxy - a_zxy * b_yzx;
}

/* m v (lanes 0-2 of v) as the column sum (m0 v.x + m1 v.y) + m2 v.z: in each lane the order
   glms_mat3_mulv adds a row's products in, so the same bits. Lane 3 is 0. The columns are
   16-byte loads: m must be followed by at least 4 bytes of the same struct. */
static inline v4 v4_mat3_mulv(const mat3s *m, v4 v)
{
    v4 product = v4_load(m->raw[0]) * v4_splat(v[0]) + v4_load(m->raw[1]) * v4_splat(v[1]) +
                 v4_load(m->raw[2]) * v4_splat(v[2]);
    return v4_clear3(product);
}

/* Sum of lanes 0-2 (lane 3 is ignored). */
static inline float v4_sum3(v4 v)
{
    return v[0] + v[1] + v[2];
}

#endif
