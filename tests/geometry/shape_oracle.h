/* Independent references for shape tests: a PRNG, and membership/distance tests written from
   the geometric definition of each shape (core grown by the convex radius), not from the
   engine's code. */
#ifndef CAIRN_TESTS_SHAPE_ORACLE_H
#define CAIRN_TESTS_SHAPE_ORACLE_H

#include <cairn/cairn.h>
#include <math.h>
#include <stdint.h>

#define TEST_PI 3.14159265358979323846

typedef struct test_rng {
    uint64_t state;
} test_rng;

static inline uint64_t rng_next(test_rng *rng)
{
    /* xorshift64*: small, deterministic, good enough for sampling. */
    rng->state ^= rng->state >> 12;
    rng->state ^= rng->state << 25;
    rng->state ^= rng->state >> 27;
    return rng->state * 2685821657736338717ull;
}

/* Uniform in [lo, hi). */
static inline double rng_uniform(test_rng *rng, double lo, double hi)
{
    return lo + (hi - lo) * (double)(rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}

static inline vec3s rng_unit_vector(test_rng *rng)
{
    for (;;) {
        vec3s v = {{(float)rng_uniform(rng, -1, 1), (float)rng_uniform(rng, -1, 1),
                    (float)rng_uniform(rng, -1, 1)}};
        float length = glms_vec3_norm(v);
        if (length > 0.1f && length <= 1.0f)
            return glms_vec3_scale(v, 1.0f / length);
    }
}

static inline versors rng_rotation(test_rng *rng)
{
    versors q = {{(float)rng_uniform(rng, -1, 1), (float)rng_uniform(rng, -1, 1),
                  (float)rng_uniform(rng, -1, 1), (float)rng_uniform(rng, -1, 1)}};
    return glms_quat_normalize(q);
}

/* Distance from p to the core of a shape with the given parameters (0 inside the core). */
static inline double oracle_core_distance(const cairn_shape_params *s, const double p[3])
{
    double r = s->convex_radius;
    switch (s->type) {
    case CAIRN_SHAPE_SPHERE:
        return sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    case CAIRN_SHAPE_BOX: {
        double sum = 0;
        for (int k = 0; k < 3; ++k) {
            double q = fabs(p[k]) - (s->half_extents.raw[k] - r);
            sum += q > 0 ? q * q : 0;
        }
        return sqrt(sum);
    }
    case CAIRN_SHAPE_CAPSULE: {
        double y = fabs(p[1]) - s->half_height;
        y = y > 0 ? y : 0;
        return sqrt(p[0] * p[0] + y * y + p[2] * p[2]);
    }
    case CAIRN_SHAPE_CYLINDER: {
        double radial = sqrt(p[0] * p[0] + p[2] * p[2]) - (s->radius - r);
        double axial = fabs(p[1]) - (s->half_height - r);
        radial = radial > 0 ? radial : 0;
        axial = axial > 0 ? axial : 0;
        return sqrt(radial * radial + axial * axial);
    }
    case CAIRN_SHAPE_HULL:
    case CAIRN_SHAPE_MESH:
    case CAIRN_SHAPE_HEIGHTFIELD:
    case CAIRN_SHAPE_COMPOUND:
        break;
    }
    return INFINITY;
}

/* Inside the full shape: within the convex radius of the core. Hulls: behind every face plane
   of the outer hull (the polyhedron of the points). */
static inline bool oracle_inside(const cairn_shape *shape, const double p[3])
{
    cairn_shape_params s = cairn_shape_get_params(shape);
    if (s.type != CAIRN_SHAPE_HULL)
        return oracle_core_distance(&s, p) <= s.convex_radius;
    for (int f = 0; f < cairn_hull_face_count(shape); ++f) {
        float offset;
        vec3s n = cairn_hull_face_normal(shape, f, &offset);
        if (n.x * p[0] + n.y * p[1] + n.z * p[2] > offset)
            return false;
    }
    return true;
}

#endif
