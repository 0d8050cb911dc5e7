/* Four floats side by side (GCC/Clang vector extension: one SSE2 or NEON register, or plain
   scalar code elsewhere), and vectors and quaternions of them: four bodies, or a manifold's four
   points, worked on at once. Every lane does what the one-value code does, in the same order of
   operations, so the same bits (ISO C17 contracts no a * b + c). */
#ifndef CAIRN_CORE_QUAD_H
#define CAIRN_CORE_QUAD_H

#include <cairn/base.h>

typedef float quad __attribute__((vector_size(16)));

typedef struct quad_vec {
    quad x, y, z;
} quad_vec;

typedef struct quad_quat {
    quad x, y, z, w;
} quad_quat;

static inline quad quad_splat(float s)
{
    return (quad){0} + s;
}

static inline void quad_put_vec(quad_vec *q, int lane, vec3s v)
{
    q->x[lane] = v.x;
    q->y[lane] = v.y;
    q->z[lane] = v.z;
}

static inline vec3s quad_get_vec(const quad_vec *q, int lane)
{
    return (vec3s){{q->x[lane], q->y[lane], q->z[lane]}};
}

/* The same rotation in every lane. */
static inline quad_quat quad_quat_splat(versors q)
{
    return (quad_quat){quad_splat(q.x), quad_splat(q.y), quad_splat(q.z), quad_splat(q.w)};
}

/* xform_rotate_normalized (core/xform.h), lane by lane: v turned by the unit quaternion p. */
static inline quad_vec quad_turn(const quad_quat *p, const quad_vec *v)
{
    quad uv = p->x * v->x + p->y * v->y + p->z * v->z;
    quad uu = p->x * p->x + p->y * p->y + p->z * p->z;
    quad along_u = 2.0f * uv, along_v = p->w * p->w - uu, across = 2.0f * p->w;
    quad tx = p->x * along_u + v->x * along_v, ty = p->y * along_u + v->y * along_v,
         tz = p->z * along_u + v->z * along_v;
    quad cx = p->y * v->z - p->z * v->y, cy = p->z * v->x - p->x * v->z,
         cz = p->x * v->y - p->y * v->x;
    return (quad_vec){tx + cx * across, ty + cy * across, tz + cz * across};
}

#endif
