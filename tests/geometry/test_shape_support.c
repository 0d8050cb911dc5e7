/* Support mappings and bounds against dense sampling of each shape's geometric definition. */
#include <criterion/criterion.h>

#include "shape_oracle.h"

/* Points of the full shape: the core's extreme points (box corners, disk rims, segment ends,
   hull vertices) each grown by the convex radius in many directions. Every sample must be
   dominated by the support point, and the best sample must come close to it. */
static int sample_core(const cairn_shape *shape, vec3s *out, int capacity)
{
    cairn_shape_params s = cairn_shape_get_params(shape);
    float r = s.convex_radius;
    int count = 0;
    switch (s.type) {
    case CAIRN_SHAPE_SPHERE:
        out[count++] = glms_vec3_zero();
        break;
    case CAIRN_SHAPE_BOX:
        for (int i = 0; i < 8; ++i)
            out[count++] = (vec3s){{(i & 1 ? 1 : -1) * (s.half_extents.x - r),
                                    (i & 2 ? 1 : -1) * (s.half_extents.y - r),
                                    (i & 4 ? 1 : -1) * (s.half_extents.z - r)}};
        break;
    case CAIRN_SHAPE_CAPSULE:
        out[count++] = (vec3s){{0, s.half_height, 0}};
        out[count++] = (vec3s){{0, -s.half_height, 0}};
        break;
    case CAIRN_SHAPE_CYLINDER:
        for (int i = 0; i < 720 && count + 2 <= capacity; ++i) {
            float angle = 2.0f * (float)TEST_PI * (float)i / 720.0f;
            float x = (s.radius - r) * cosf(angle), z = (s.radius - r) * sinf(angle);
            out[count++] = (vec3s){{x, s.half_height - r, z}};
            out[count++] = (vec3s){{x, -(s.half_height - r), z}};
        }
        break;
    case CAIRN_SHAPE_HULL:
        for (int i = 0; i < cairn_hull_vertex_count(shape) && count < capacity; ++i)
            out[count++] = cairn_hull_vertex(shape, i);
        break;
    case CAIRN_SHAPE_MESH:
    case CAIRN_SHAPE_HEIGHTFIELD:
    case CAIRN_SHAPE_COMPOUND: /* sampled per child by tests/geometry/test_compound.c */
        break;
    }
    return count;
}

/* Max over samples of dot(p, d) for p = core sample + r * u over many unit u. */
static double sampled_support_value(const cairn_shape *shape, vec3s d, const vec3s *core, int count,
                                    test_rng *rng)
{
    float r = cairn_shape_convex_radius(shape);
    double best = -INFINITY;
    vec3s unit = glms_vec3_normalize(d);
    for (int i = 0; i < count; ++i) {
        for (int k = 0; k < 64; ++k) {
            /* Half the samples near d (where the maximum is), half anywhere. */
            vec3s u = rng_unit_vector(rng);
            if (k & 1)
                u = glms_vec3_normalize(glms_vec3_add(unit, glms_vec3_scale(u, 0.05f)));
            vec3s p = glms_vec3_add(core[i], glms_vec3_scale(u, r));
            best = fmax(best, glms_vec3_dot(p, d));
        }
    }
    return best;
}

static cairn_shape *make_test_shape(int which)
{
    static const vec3s hull_points[] = {{{0, 0, 0}},    {{1, 0, 0}}, {{0, 1.5f, 0}},
                                        {{0, 0, 0.8f}}, {{1, 1, 1}}, {{-0.3f, 0.7f, 0.2f}}};
    switch (which) {
    case 0:
        return cairn_shape_sphere(0.6f);
    case 1:
        return cairn_shape_box((vec3s){{0.5f, 1.0f, 1.5f}}, 0.0f);
    case 2:
        return cairn_shape_box((vec3s){{0.5f, 1.0f, 1.5f}}, 0.2f);
    case 3:
        return cairn_shape_capsule(0.7f, 0.3f);
    case 4:
        return cairn_shape_cylinder(0.8f, 0.5f, 0.0f);
    case 5:
        return cairn_shape_cylinder(0.8f, 0.5f, 0.1f);
    case 6:
        return cairn_shape_hull(hull_points, 6, 0.0f);
    default:
        return NULL;
    }
}
enum { TEST_SHAPES = 7 };

Test(shape_support, maximises_dot_product_over_dense_sampling)
{
    static vec3s core[2048];
    test_rng rng = {777};
    for (int which = 0; which < TEST_SHAPES; ++which) {
        cairn_shape *shape = make_test_shape(which);
        cr_assert_not_null(shape, "%s", cairn_last_error());
        int count = sample_core(shape, core, 2048);
        for (int trial = 0; trial < 200; ++trial) {
            vec3s d = glms_vec3_scale(rng_unit_vector(&rng), (float)rng_uniform(&rng, 0.1, 10));
            vec3s s = cairn_shape_support(shape, d);
            double value = glms_vec3_dot(s, d), length = glms_vec3_norm(d);
            double sampled = sampled_support_value(shape, d, core, count, &rng);
            cr_expect(sampled <= value + 1e-4 * length, "shape %d: a sample beats the support",
                      which);
            cr_expect(sampled >= value - 2e-3 * length, "shape %d: support %g, best sample %g",
                      which, value, sampled);
            double p[3] = {s.x, s.y, s.z};
            cairn_shape_params params = cairn_shape_get_params(shape);
            if (params.type != CAIRN_SHAPE_HULL)
                cr_expect(oracle_core_distance(&params, p) <= params.convex_radius + 1e-4,
                          "shape %d: support point lies outside the shape", which);
        }
        cairn_shape_release(shape);
    }
}

Test(shape_support, core_support_is_support_minus_radius)
{
    test_rng rng = {31};
    for (int which = 0; which < TEST_SHAPES; ++which) {
        cairn_shape *shape = make_test_shape(which);
        float r = cairn_shape_convex_radius(shape);
        for (int trial = 0; trial < 100; ++trial) {
            vec3s d = rng_unit_vector(&rng);
            float full = glms_vec3_dot(cairn_shape_support(shape, d), d);
            float core = glms_vec3_dot(cairn_shape_core_support(shape, d), d);
            cr_expect(fabsf(full - core - r) < 1e-5f, "shape %d: %g - %g != %g", which, full, core,
                      r);
        }
        cairn_shape_release(shape);
    }
}

/* World bounds contain every transformed sample and are touched by some sample on each side. */
Test(shape_support, world_bounds_are_exact)
{
    static vec3s core[2048];
    test_rng rng = {4242};
    for (int which = 0; which < TEST_SHAPES; ++which) {
        cairn_shape *shape = make_test_shape(which);
        int count = sample_core(shape, core, 2048);
        float r = cairn_shape_convex_radius(shape);
        for (int trial = 0; trial < 20; ++trial) {
            cairn_transform xf = {
                {{(float)rng_uniform(&rng, -5, 5), (float)rng_uniform(&rng, -5, 5),
                  (float)rng_uniform(&rng, -5, 5)}},
                rng_rotation(&rng)};
            cairn_aabb box = cairn_shape_bounds(shape, xf);
            /* Extent along world axis k: the oracle maximises over core samples, plus r. */
            for (int k = 0; k < 3; ++k) {
                double high = -INFINITY, low = INFINITY;
                for (int i = 0; i < count; ++i) {
                    vec3s w = glms_vec3_add(glms_quat_rotatev(xf.rotation, core[i]), xf.position);
                    high = fmax(high, w.raw[k] + r);
                    low = fmin(low, w.raw[k] - r);
                }
                cr_expect(box.max.raw[k] >= high - 1e-4 && box.max.raw[k] <= high + 2e-3,
                          "shape %d axis %d: max %g, sampled %g", which, k, box.max.raw[k], high);
                cr_expect(box.min.raw[k] <= low + 1e-4 && box.min.raw[k] >= low - 2e-3,
                          "shape %d axis %d: min %g, sampled %g", which, k, box.min.raw[k], low);
            }
        }
        cairn_shape_release(shape);
    }
}

Test(shape_support, zero_direction_gives_a_point_of_the_shape)
{
    for (int which = 0; which < TEST_SHAPES; ++which) {
        cairn_shape *shape = make_test_shape(which);
        vec3s s = cairn_shape_support(shape, glms_vec3_zero());
        cr_expect(isfinite(s.x) && isfinite(s.y) && isfinite(s.z), "shape %d", which);
        cairn_shape_release(shape);
    }
}
