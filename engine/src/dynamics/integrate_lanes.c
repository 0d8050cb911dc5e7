/* integrate_lanes.h: four bodies side by side. */
#include "dynamics/integrate_lanes.h"

#include "core/quad.h"

#include <math.h>
#include <string.h>

#if INTEGRATE_LANES > 1

_Static_assert(INTEGRATE_LANES == 4, "a group of bodies is one quad (core/quad.h)");

/* A 3x3 matrix by columns, as cglm stores it (raw[column][row]). */
typedef struct quad_mat {
    quad_vec col[3];
} quad_mat;

/* What a lane reads of its body. Empty lanes hold a body at rest with the identity rotation. */
typedef struct lane_bodies {
    quad_vec v, w, w_state, center, local_center;
    quad_quat rotation;
    quad_mat inertia, inverse_inertia;
} lane_bodies;

static void put_mat(quad_mat *q, int l, const mat3s *m)
{
    for (int c = 0; c < 3; ++c)
        quad_put_vec(&q->col[c], l, m->col[c]);
}

static void gather(lane_bodies *in, const cairn_world *world, const body_velocity *velocities,
                   const motion_offset *offsets, const uint32_t *group, int count)
{
    if (count < INTEGRATE_LANES) { /* empty lanes: a body at rest, the identity rotation */
        memset(in, 0, sizeof *in);
        in->rotation.w = quad_splat(1.0f);
    }
    for (int l = 0; l < count; ++l) {
        uint32_t i = group[l];
        const body *b = &world->bodies.data[i];
        vec3s v = velocities[i].linear, w = velocities[i].angular;
        if (offsets) {
            v = glms_vec3_add(v, offsets[i].linear);
            w = glms_vec3_add(w, offsets[i].angular);
        }
        quad_put_vec(&in->v, l, v);
        quad_put_vec(&in->w, l, w);
        quad_put_vec(&in->w_state, l, velocities[i].angular);
        quad_put_vec(&in->center, l, b->center);
        quad_put_vec(&in->local_center, l, b->local_center);
        versors q = b->transform.rotation;
        in->rotation.x[l] = q.x, in->rotation.y[l] = q.y;
        in->rotation.z[l] = q.z, in->rotation.w[l] = q.w;
        put_mat(&in->inertia, l, &b->inertia_local);
        put_mat(&in->inverse_inertia, l, &b->inverse_inertia_local);
    }
}

/* glm_quat_mul_sse2(p, q): w_p q first, then the x, y and z terms of p added in that order. */
static quad_quat quat_mul(const quad_quat *p, const quad_quat *q)
{
    return (quad_quat){
        p->w * q->x + p->x * q->w + p->y * q->z - p->z * q->y,
        p->w * q->y - p->x * q->z + p->y * q->w + p->z * q->x,
        p->w * q->z + p->x * q->y - p->y * q->x + p->z * q->w,
        p->w * q->w - p->x * q->x - p->y * q->y - p->z * q->z,
    };
}

/* glm_quat_normalize_to with SSE2: q / sqrt((x^2 + z^2) + (y^2 + w^2)), the identity where that
   is not positive. */
static quad_quat quat_normalize(const quad_quat *q)
{
    quad dot = (q->x * q->x + q->z * q->z) + (q->y * q->y + q->w * q->w);
    quad root = dot;
    for (int l = 0; l < INTEGRATE_LANES; ++l)
        root[l] = sqrtf(dot[l]);
    quad_quat unit = {q->x / root, q->y / root, q->z / root, q->w / root};
    for (int l = 0; l < INTEGRATE_LANES; ++l)
        if (dot[l] <= 0.0f)
            unit.x[l] = unit.y[l] = unit.z[l] = 0.0f, unit.w[l] = 1.0f;
    return unit;
}

static quad_quat conjugate(const quad_quat *q)
{
    return (quad_quat){-q->x, -q->y, -q->z, q->w};
}

/* glm_mat3_mulv: m[0][r] v.x + m[1][r] v.y + m[2][r] v.z for each row r. */
static quad_vec mat_mulv(const quad_mat *m, const quad_vec *v)
{
    const quad_vec *c = m->col;
    return (quad_vec){c[0].x * v->x + c[1].x * v->y + c[2].x * v->z,
                      c[0].y * v->x + c[1].y * v->y + c[2].y * v->z,
                      c[0].z * v->x + c[1].z * v->y + c[2].z * v->z};
}

/* keep_angular_momentum in integrate.c. */
static quad_vec keep_momentum(const lane_bodies *in, const quad_quat *before,
                              const quad_quat *after)
{
    quad_quat before_inverse = conjugate(before), after_inverse = conjugate(after);
    quad_vec local = quad_turn(&before_inverse, &in->w_state);
    quad_vec local_momentum = mat_mulv(&in->inertia, &local);
    quad_vec momentum = quad_turn(before, &local_momentum);
    quad_vec turned = quad_turn(&after_inverse, &momentum);
    quad_vec local_w = mat_mulv(&in->inverse_inertia, &turned);
    return quad_turn(after, &local_w);
}

/* A 3x3 matrix a lane each, by entries: e[column][row], as cglm stores it. */
typedef struct lane_matrix {
    quad e[3][3];
} lane_matrix;

/* glm_quat_mat3: s = 2 / |q| (|q| as glm_vec4_norm with SSE2: sqrt((x^2 + y^2) + (z^2 + w^2)),
   0 for a zero q), each product (s a) b, each diagonal entry (1 - p) - q. */
static lane_matrix quat_matrix(const quad_quat *q)
{
    quad n2 = (q->x * q->x + q->y * q->y) + (q->z * q->z + q->w * q->w), s = n2;
    for (int l = 0; l < INTEGRATE_LANES; ++l) {
        float norm = sqrtf(n2[l]);
        s[l] = norm > 0.0f ? 2.0f / norm : 0.0f;
    }
    quad xx = s * q->x * q->x, xy = s * q->x * q->y, wx = s * q->w * q->x;
    quad yy = s * q->y * q->y, yz = s * q->y * q->z, wy = s * q->w * q->y;
    quad zz = s * q->z * q->z, xz = s * q->x * q->z, wz = s * q->w * q->z;
    return (lane_matrix){{{1.0f - yy - zz, xy + wz, xz - wy},
                          {xy - wz, 1.0f - xx - zz, yz + wx},
                          {xz + wy, yz - wx, 1.0f - xx - yy}}};
}

/* Entry (c, r) of glm_mat3_mul_sse2(a, transpose(m)): the products of k = 0, 1, 2 added in that
   order; (2, 2) is cglm's dot product, whose fourth product is a zero. */
static quad mul_transposed(const lane_matrix *a, const lane_matrix *m, int c, int r)
{
    quad t0 = a->e[0][r] * m->e[0][c], t1 = a->e[1][r] * m->e[1][c], t2 = a->e[2][r] * m->e[2][c];
    return c == 2 && r == 2 ? (t0 + t1) + (t2 + 0.0f) : (t0 + t1) + t2;
}

void integrate_lanes_inertia(cairn_world *world, const uint32_t *group, int count, const bool *sync)
{
    quad_quat q = {{0}, {0}, {0}, {1, 1, 1, 1}}; /* empty lanes: the identity */
    quad d[3] = {{0}, {0}, {0}};                 /* the body-frame inverse inertia's diagonal */
    bool lane[INTEGRATE_LANES] = {false}, any = false;
    for (int l = 0; l < count; ++l) {
        body *b = &world->bodies.data[group[l]];
        if (!sync[l])
            continue;
        if (!body_inertia_is_diagonal(b) || body_rotation_locked(b)) {
            body_sync_inertia(b);
            continue;
        }
        versors r = b->transform.rotation;
        q.x[l] = r.x, q.y[l] = r.y, q.z[l] = r.z, q.w[l] = r.w;
        for (int k = 0; k < 3; ++k)
            d[k][l] = b->inverse_inertia_local.raw[k][k];
        lane[l] = any = true;
    }
    if (!any)
        return;
    /* body_sync_inertia: R's columns scaled by the diagonal, times R^T */
    lane_matrix rotation = quat_matrix(&q), scaled, world_inverse;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r)
            scaled.e[c][r] = rotation.e[c][r] * d[c];
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r)
            world_inverse.e[c][r] = mul_transposed(&scaled, &rotation, c, r);
    for (int l = 0; l < count; ++l)
        for (int c = 0; c < 3 && lane[l]; ++c)
            for (int r = 0; r < 3; ++r)
                world->bodies.data[group[l]].inverse_inertia.raw[c][r] = world_inverse.e[c][r][l];
}

void integrate_lanes(cairn_world *world, float h, body_velocity *velocities,
                     const motion_offset *offsets, const uint32_t *group, int count)
{
    lane_bodies in;
    gather(&in, world, velocities, offsets, group, count);
    quad_vec center = {in.center.x + in.v.x * h, in.center.y + in.v.y * h,
                       in.center.z + in.v.z * h};
    /* rotate in integrate.c: q + h/2 (w, 0) q, renormalised */
    quad_quat spin = {in.w.x, in.w.y, in.w.z, (quad){0}};
    quad_quat dq = quat_mul(&spin, &in.rotation);
    float half_h = 0.5f * h;
    quad_quat next = {in.rotation.x + half_h * dq.x, in.rotation.y + half_h * dq.y,
                      in.rotation.z + half_h * dq.z, in.rotation.w + half_h * dq.w};
    quad_quat stored = quat_normalize(&next);
    quad_quat after = quat_normalize(&stored), before = quat_normalize(&in.rotation);
    quad_vec w = keep_momentum(&in, &before, &after);
    quad_vec offset = quad_turn(&after, &in.local_center);
    quad_vec position = {center.x - offset.x, center.y - offset.y, center.z - offset.z};
    quad_vec synced = {offset.x + position.x, offset.y + position.y, offset.z + position.z};
    for (int l = 0; l < count; ++l) {
        body *b = &world->bodies.data[group[l]];
        b->transform.rotation = (versors){{stored.x[l], stored.y[l], stored.z[l], stored.w[l]}};
        b->transform.position = quad_get_vec(&position, l);
        b->center = quad_get_vec(&synced, l);
        velocities[group[l]].angular = quad_get_vec(&w, l);
    }
}

#endif
