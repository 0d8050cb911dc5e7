/* Mass properties against textbook closed forms, and against Monte-Carlo integration of the
   shape's geometric definition (rounded shapes, hulls). */
#include <criterion/criterion.h>

#include "shape_oracle.h"

static const float density = 1000.0f;

static void expect_close(double actual, double expected, double relative, const char *what)
{
    cr_expect(fabs(actual - expected) <= relative * fabs(expected) + 1e-9,
              "%s: %.9g expected %.9g (relative tolerance %g)", what, actual, expected, relative);
}

static void expect_diagonal(const cairn_mass_properties *m, double xx, double yy, double zz,
                            double relative)
{
    expect_close(m->inertia.m00, xx, relative, "Ixx");
    expect_close(m->inertia.m11, yy, relative, "Iyy");
    expect_close(m->inertia.m22, zz, relative, "Izz");
    double scale = fmax(xx, fmax(yy, zz));
    cr_expect(fabs(m->inertia.m01) + fabs(m->inertia.m02) + fabs(m->inertia.m12) < 1e-5 * scale,
              "off-diagonal inertia should vanish");
    cr_expect(glms_vec3_norm(m->center) < 1e-5f, "centre should be the origin");
}

Test(shape_mass, box_matches_textbook_formula)
{
    cairn_shape *box = cairn_shape_box((vec3s){{0.5f, 1.5f, 2.0f}}, 0.0f);
    cairn_mass_properties m;
    cr_assert(cairn_shape_mass_properties(box, density, &m));
    double mass = density * 1.0 * 3.0 * 4.0;
    expect_close(m.mass, mass, 1e-6, "mass");
    expect_diagonal(&m, mass * (9.0 + 16.0) / 12.0, mass * (1.0 + 16.0) / 12.0,
                    mass * (1.0 + 9.0) / 12.0, 1e-5);
    cairn_shape_release(box);
}

Test(shape_mass, sphere_matches_textbook_formula)
{
    cairn_shape *sphere = cairn_shape_sphere(0.7f);
    cairn_mass_properties m;
    cr_assert(cairn_shape_mass_properties(sphere, density, &m));
    double r = 0.7f, mass = density * 4.0 / 3.0 * TEST_PI * r * r * r;
    expect_close(m.mass, mass, 1e-6, "mass");
    expect_diagonal(&m, 0.4 * mass * r * r, 0.4 * mass * r * r, 0.4 * mass * r * r, 1e-5);
    cairn_shape_release(sphere);
}

Test(shape_mass, cylinder_matches_textbook_formula)
{
    cairn_shape *cylinder = cairn_shape_cylinder(1.2f, 0.4f, 0.0f);
    cairn_mass_properties m;
    cr_assert(cairn_shape_mass_properties(cylinder, density, &m));
    double r = 0.4f, height = 2.4f, mass = density * TEST_PI * r * r * height;
    expect_close(m.mass, mass, 1e-6, "mass");
    double side = mass * (3.0 * r * r + height * height) / 12.0;
    expect_diagonal(&m, side, 0.5 * mass * r * r, side, 1e-5);
    cairn_shape_release(cylinder);
}

/* The classic capsule formula: cylinder plus two hemispheres whose centroids sit 3r/8 past the
   cylinder's ends, moved by the parallel axis theorem. */
Test(shape_mass, capsule_matches_textbook_formula)
{
    double r = 0.3f, h = 0.8f, height = 2.0 * h;
    cairn_shape *capsule = cairn_shape_capsule((float)h, (float)r);
    cairn_mass_properties m;
    cr_assert(cairn_shape_mass_properties(capsule, density, &m));
    double cylinder = density * TEST_PI * r * r * height;
    double hemisphere = density * 2.0 / 3.0 * TEST_PI * r * r * r;
    expect_close(m.mass, cylinder + 2.0 * hemisphere, 1e-6, "mass");
    double axial = 0.5 * cylinder * r * r + 2.0 * hemisphere * 0.4 * r * r;
    double side = cylinder * (height * height / 12.0 + r * r / 4.0) +
                  2.0 * hemisphere * (0.4 * r * r + height * height / 4.0 + 3.0 * height * r / 8.0);
    expect_diagonal(&m, side, axial, side, 1e-5);
    cairn_shape_release(capsule);
}

/* Stratified Monte-Carlo integration over the local bounds with the oracle's membership test:
   one random point in each cell of a cells^3 grid (variance far below plain sampling). */
static void monte_carlo(const cairn_shape *shape, int cells, uint64_t seed, double *volume,
                        double center[3], double inertia[3][3])
{
    cairn_aabb bounds = cairn_shape_local_bounds(shape);
    test_rng rng = {seed};
    double cell[3], box_volume = 1.0, sum1[3] = {0}, sum2[3][3] = {{0}};
    for (int k = 0; k < 3; ++k) {
        cell[k] = (bounds.max.raw[k] - bounds.min.raw[k]) / cells;
        box_volume *= bounds.max.raw[k] - bounds.min.raw[k];
    }
    long inside = 0, samples = (long)cells * cells * cells;
    for (int i = 0; i < cells; ++i)
        for (int j = 0; j < cells; ++j)
            for (int k = 0; k < cells; ++k) {
                int index[3] = {i, j, k};
                double p[3];
                for (int c = 0; c < 3; ++c)
                    p[c] = bounds.min.raw[c] + (index[c] + rng_uniform(&rng, 0, 1)) * cell[c];
                if (!oracle_inside(shape, p))
                    continue;
                ++inside;
                for (int a = 0; a < 3; ++a) {
                    sum1[a] += p[a];
                    for (int b = 0; b < 3; ++b)
                        sum2[a][b] += p[a] * p[b];
                }
            }
    *volume = box_volume * (double)inside / (double)samples;
    double cov[3][3];
    for (int i = 0; i < 3; ++i)
        center[i] = sum1[i] / inside;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            cov[i][j] = *volume * (sum2[i][j] / inside - center[i] * center[j]);
    double trace = cov[0][0] + cov[1][1] + cov[2][2];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            inertia[i][j] = density * ((i == j ? trace : 0.0) - cov[i][j]);
}

static void expect_matches_monte_carlo(const cairn_shape *shape, double tolerance)
{
    cairn_mass_properties m;
    cr_assert(cairn_shape_mass_properties(shape, density, &m));
    double volume, center[3], inertia[3][3];
    monte_carlo(shape, 150, 0x9e3779b97f4a7c15ull, &volume, center, inertia);
    expect_close(m.mass, density * volume, tolerance, "mass vs Monte-Carlo");
    expect_close(cairn_shape_volume(shape), volume, tolerance, "volume vs Monte-Carlo");
    cairn_aabb bounds = cairn_shape_local_bounds(shape);
    double size = glms_vec3_norm(glms_vec3_sub(bounds.max, bounds.min));
    double largest = fmax(inertia[0][0], fmax(inertia[1][1], inertia[2][2]));
    for (int i = 0; i < 3; ++i) {
        cr_expect(fabs(m.center.raw[i] - center[i]) < tolerance * size,
                  "centre[%d] %g vs Monte-Carlo %g", i, m.center.raw[i], center[i]);
        for (int j = 0; j < 3; ++j)
            cr_expect(fabs(m.inertia.raw[j][i] - inertia[i][j]) < tolerance * largest,
                      "inertia[%d][%d] %g vs Monte-Carlo %g", i, j, m.inertia.raw[j][i],
                      inertia[i][j]);
    }
}

Test(shape_mass, rounded_box_matches_monte_carlo)
{
    cairn_shape *box = cairn_shape_box((vec3s){{0.5f, 1.0f, 0.6f}}, 0.45f);
    expect_matches_monte_carlo(box, 1e-3);
    cairn_shape_release(box);
}

Test(shape_mass, rounded_cylinder_matches_monte_carlo)
{
    cairn_shape *cylinder = cairn_shape_cylinder(0.6f, 0.9f, 0.55f);
    expect_matches_monte_carlo(cylinder, 1e-3);
    cairn_shape_release(cylinder);
}

Test(shape_mass, capsule_matches_monte_carlo)
{
    cairn_shape *capsule = cairn_shape_capsule(0.5f, 0.45f);
    expect_matches_monte_carlo(capsule, 1e-3);
    cairn_shape_release(capsule);
}

static void expect_same_mass(const cairn_shape *a, const cairn_shape *b, double relative)
{
    cairn_mass_properties ma, mb;
    cr_assert(cairn_shape_mass_properties(a, density, &ma));
    cr_assert(cairn_shape_mass_properties(b, density, &mb));
    expect_close(ma.mass, mb.mass, relative, "mass");
    for (int i = 0; i < 3; ++i)
        expect_close(ma.inertia.raw[i][i], mb.inertia.raw[i][i], relative, "inertia diagonal");
}

/* Limits where a rounded shape is exactly another shape: every piece of the decomposition
   must vanish or fit together. */
Test(shape_mass, rounded_limits_are_exact)
{
    cairn_shape *sphere = cairn_shape_sphere(0.8f);
    cairn_shape *ball_box = cairn_shape_box((vec3s){{0.8f, 0.8f, 0.8f}}, 0.8f);
    cairn_shape *ball_cylinder = cairn_shape_cylinder(0.8f, 0.8f, 0.8f);
    expect_same_mass(ball_box, sphere, 1e-5);
    expect_same_mass(ball_cylinder, sphere, 1e-5);
    /* A cylinder whose rim radius equals its radius is a capsule (core: a segment). */
    cairn_shape *capsule = cairn_shape_capsule(0.5f, 0.3f);
    cairn_shape *capsule_cylinder = cairn_shape_cylinder(0.8f, 0.3f, 0.3f);
    expect_same_mass(capsule_cylinder, capsule, 1e-5);
    /* A box whose core is a segment along Y is the same capsule. */
    cairn_shape *capsule_box = cairn_shape_box((vec3s){{0.3f, 0.8f, 0.3f}}, 0.3f);
    expect_same_mass(capsule_box, capsule, 1e-5);
    cairn_shape_release(sphere);
    cairn_shape_release(ball_box);
    cairn_shape_release(ball_cylinder);
    cairn_shape_release(capsule);
    cairn_shape_release(capsule_cylinder);
    cairn_shape_release(capsule_box);
}

Test(shape_mass, random_hulls_match_monte_carlo)
{
    test_rng rng = {12345};
    for (int trial = 0; trial < 4; ++trial) {
        vec3s points[40];
        for (int i = 0; i < 40; ++i)
            points[i] =
                (vec3s){{(float)rng_uniform(&rng, -1.0, 2.0), (float)rng_uniform(&rng, -0.5, 0.5),
                         (float)rng_uniform(&rng, 0.0, 1.5)}};
        cairn_shape *hull = cairn_shape_hull(points, 40, 0.0f);
        cr_assert_not_null(hull, "%s", cairn_last_error());
        expect_matches_monte_carlo(hull, 2e-3);
        cairn_shape_release(hull);
    }
}

/* A box given as 8 rotated, shifted points: mass, centre, and the full tensor R I R^T. */
Test(shape_mass, rotated_box_hull_matches_rotated_box_formula)
{
    vec3s half = {{0.4f, 0.9f, 1.3f}}, shift = {{2.0f, -1.0f, 0.5f}};
    versors q = glms_quat_normalize((versors){{0.3f, -0.5f, 0.2f, 0.8f}});
    vec3s corners[8];
    for (int i = 0; i < 8; ++i) {
        vec3s local = {
            {(i & 1 ? 1 : -1) * half.x, (i & 2 ? 1 : -1) * half.y, (i & 4 ? 1 : -1) * half.z}};
        corners[i] = glms_vec3_add(glms_quat_rotatev(q, local), shift);
    }
    cairn_shape *hull = cairn_shape_hull(corners, 8, 0.0f);
    cr_assert_not_null(hull, "%s", cairn_last_error());
    cr_expect_eq(cairn_hull_face_count(hull), 6);
    cairn_mass_properties m;
    cr_assert(cairn_shape_mass_properties(hull, density, &m));
    double mass = density * 8.0 * half.x * half.y * half.z;
    expect_close(m.mass, mass, 1e-4, "mass");
    cr_expect(glms_vec3_norm(glms_vec3_sub(m.center, shift)) < 1e-4f, "centre");
    double local[3] = {mass / 3.0 * (half.y * half.y + half.z * half.z),
                       mass / 3.0 * (half.x * half.x + half.z * half.z),
                       mass / 3.0 * (half.x * half.x + half.y * half.y)};
    mat3s rotation = glms_quat_mat3(q);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double expected = 0;
            for (int k = 0; k < 3; ++k)
                expected += rotation.raw[k][i] * local[k] * rotation.raw[k][j];
            cr_expect(fabs(m.inertia.raw[j][i] - expected) < 1e-4 * local[0] * 10,
                      "I[%d][%d] = %g expected %g", i, j, m.inertia.raw[j][i], expected);
        }
    cairn_shape_release(hull);
}

/* A cylinder given as two rings of n points converges to the analytic cylinder: the polygon's
   area is n/2 sin(2 pi / n) r^2, within 1e-4 of the circle's for n = 256. */
Test(shape_mass, cylinder_of_many_points_matches_cylinder)
{
    enum { ring = 256 };
    vec3s points[2 * ring];
    float r = 0.5f, h = 0.75f;
    for (int i = 0; i < ring; ++i) {
        float angle = 2.0f * (float)TEST_PI * (float)i / ring;
        points[2 * i] = (vec3s){{r * cosf(angle), -h, r * sinf(angle)}};
        points[2 * i + 1] = (vec3s){{r * cosf(angle), h, r * sinf(angle)}};
    }
    cairn_shape *hull = cairn_shape_hull(points, 2 * ring, 0.0f);
    cr_assert_not_null(hull, "%s", cairn_last_error());
    cairn_shape *cylinder = cairn_shape_cylinder(h, r, 0.0f);
    cairn_mass_properties a, b;
    cr_assert(cairn_shape_mass_properties(hull, density, &a));
    cr_assert(cairn_shape_mass_properties(cylinder, density, &b));
    expect_close(a.mass, b.mass, 1e-3, "mass");
    expect_close(a.inertia.m00, b.inertia.m00, 1e-3, "Ixx");
    expect_close(a.inertia.m11, b.inertia.m11, 1e-3, "Iyy");
    expect_close(a.inertia.m22, b.inertia.m22, 1e-3, "Izz");
    cairn_shape_release(hull);
    cairn_shape_release(cylinder);
}

Test(shape_mass, bad_density_is_an_error)
{
    cairn_shape *sphere = cairn_shape_sphere(1.0f);
    cairn_mass_properties m;
    float bad[] = {0.0f, -1.0f, NAN, INFINITY};
    for (int i = 0; i < 4; ++i) {
        cairn_clear_error();
        cr_expect_not(cairn_shape_mass_properties(sphere, bad[i], &m));
        cr_expect(strstr(cairn_last_error(), "density") != NULL, "message: %s", cairn_last_error());
    }
    cairn_shape_release(sphere);
}
