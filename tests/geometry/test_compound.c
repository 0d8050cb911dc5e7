/* Compound shapes: mass properties against one box of double length and against the textbook
   parallel axis theorem applied to the children's own mass properties; bounds as the union of
   the children's; overlap as "any child overlaps"; references; bad input. */
#include <cairn/cairn.h>
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

static const float density = 700.0f;

static vec3s v3(float x, float y, float z)
{
    return (vec3s){{x, y, z}};
}

static cairn_transform at(vec3s p, versors q)
{
    return (cairn_transform){p, q};
}

static void expect_close(double actual, double expected, double relative, const char *what)
{
    cr_expect(fabs(actual - expected) <= relative * fabs(expected) + 1e-9,
              "%s: %.9g expected %.9g (relative tolerance %g)", what, actual, expected, relative);
}

static void expect_inertia(mat3s got, const double want[3][3], double relative)
{
    double scale = fmax(want[0][0], fmax(want[1][1], want[2][2]));
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            cr_expect(fabs(got.raw[j][i] - want[i][j]) <= relative * scale,
                      "inertia[%d][%d] = %.9g expected %.9g", i, j, (double)got.raw[j][i],
                      want[i][j]);
}

static cairn_shape *compound2(cairn_shape *a, cairn_transform xa, cairn_shape *b,
                              cairn_transform xb)
{
    const cairn_shape *children[2] = {a, b};
    cairn_transform xfs[2] = {xa, xb};
    cairn_shape *compound = cairn_shape_compound(children, xfs, 2);
    cr_assert_not_null(compound, "%s", cairn_last_error());
    cairn_shape_release(a);
    cairn_shape_release(b);
    return compound;
}

/* Two boxes side by side (one of them built rotated by 90 degrees) = one box of double length. */
Test(compound, two_boxes_side_by_side_are_one_long_box)
{
    versors quarter = glms_quatv(GLM_PI_2f, v3(0, 0, 1));
    cairn_shape *compound = compound2(
        cairn_shape_box(v3(0.5f, 0.3f, 0.2f), 0.0f), at(v3(0.5f, 2, 3), glms_quat_identity()),
        cairn_shape_box(v3(0.3f, 0.5f, 0.2f), 0.0f), at(v3(1.5f, 2, 3), quarter));
    cr_expect_eq(cairn_shape_get_type(compound), CAIRN_SHAPE_COMPOUND);
    cairn_mass_properties m;
    cr_assert(cairn_shape_mass_properties(compound, density, &m), "%s", cairn_last_error());
    double a = 2.0, b = 0.6, c = 0.4, mass = density * a * b * c;
    expect_close(m.mass, mass, 1e-5, "mass");
    expect_close(m.center.x, 1.0, 1e-5, "centre x");
    expect_close(m.center.y, 2.0, 1e-5, "centre y");
    expect_close(m.center.z, 3.0, 1e-5, "centre z");
    double want[3][3] = {{mass * (b * b + c * c) / 12.0, 0, 0},
                         {0, mass * (a * a + c * c) / 12.0, 0},
                         {0, 0, mass * (a * a + b * b) / 12.0}};
    expect_inertia(m.inertia, want, 1e-5);
    expect_close(cairn_shape_volume(compound), a * b * c, 1e-5, "volume");
    cairn_shape_release(compound);
}

/* R I R^T, in doubles. */
static void rotate_inertia(versors q, mat3s inertia, double out[3][3])
{
    mat3s r = glms_quat_mat3(q);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double sum = 0.0;
            for (int k = 0; k < 3; ++k)
                for (int l = 0; l < 3; ++l)
                    sum += (double)r.raw[k][i] * inertia.raw[l][k] * (double)r.raw[l][j];
            out[i][j] = sum;
        }
}

/* A hull whose centre is off its origin, a capsule and a rounded cylinder, each placed by a
   rotation and offset: the textbook sum over the children's own mass properties. */
Test(compound, mass_is_the_parallel_axis_sum_of_the_children)
{
    vec3s points[8];
    for (int i = 0; i < 8; ++i)
        points[i] = v3(i & 1 ? 1.5f : 0.5f, i & 2 ? 1.2f : 0.4f, i & 4 ? 0.9f : 0.2f);
    points[7] = v3(1.7f, 1.4f, 1.1f);
    cairn_shape *children[3] = {cairn_shape_hull(points, 8, 0.0f), cairn_shape_capsule(0.4f, 0.3f),
                                cairn_shape_cylinder(0.5f, 0.35f, 0.05f)};
    cairn_transform xfs[3] = {
        at(v3(0.3f, -0.2f, 0.1f), glms_quatv(0.7f, glms_vec3_normalize(v3(1, 2, 3)))),
        at(v3(-1.0f, 0.5f, 0.2f), glms_quatv(1.1f, glms_vec3_normalize(v3(-1, 0, 2)))),
        at(v3(0.2f, 1.5f, -0.8f), glms_quatv(-0.4f, glms_vec3_normalize(v3(0, 1, 1))))};
    cairn_shape *compound = cairn_shape_compound((const cairn_shape *const *)children, xfs, 3);
    cr_assert_not_null(compound, "%s", cairn_last_error());
    double mass = 0.0, centre[3] = {0, 0, 0};
    cairn_mass_properties child[3];
    vec3s child_centre[3];
    for (int i = 0; i < 3; ++i) {
        cr_assert(cairn_shape_mass_properties(children[i], density, &child[i]));
        child_centre[i] =
            glms_vec3_add(glms_quat_rotatev(xfs[i].rotation, child[i].center), xfs[i].position);
        mass += child[i].mass;
        for (int k = 0; k < 3; ++k)
            centre[k] += child[i].mass * child_centre[i].raw[k];
    }
    for (int k = 0; k < 3; ++k)
        centre[k] /= mass;
    double want[3][3] = {{0}};
    for (int i = 0; i < 3; ++i) {
        double rotated[3][3], d[3];
        rotate_inertia(xfs[i].rotation, child[i].inertia, rotated);
        for (int k = 0; k < 3; ++k)
            d[k] = child_centre[i].raw[k] - centre[k];
        double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c)
                want[r][c] += rotated[r][c] + child[i].mass * ((r == c ? d2 : 0.0) - d[r] * d[c]);
    }
    cairn_mass_properties m;
    cr_assert(cairn_shape_mass_properties(compound, density, &m));
    expect_close(m.mass, mass, 1e-5, "mass");
    for (int k = 0; k < 3; ++k)
        cr_expect(fabs(m.center.raw[k] - centre[k]) <= 1e-5, "centre[%d] %g expected %g", k,
                  (double)m.center.raw[k], centre[k]);
    expect_inertia(m.inertia, want, 1e-5);
    for (int i = 0; i < 3; ++i)
        cairn_shape_release(children[i]);
    cairn_shape_release(compound);
}

static uint64_t rng_state = 12345;
static float uniform(float lo, float hi)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (float)((rng_state >> 40) & 0xffffff) / (float)0x1000000;
}

static versors random_rotation(void)
{
    return glms_quat_normalize(
        (versors){{uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)}});
}

static cairn_shape *l_shape(void)
{
    return compound2(cairn_shape_box(v3(1.0f, 0.2f, 0.3f), 0.02f),
                     at(v3(0, 0, 0), glms_quat_identity()), cairn_shape_capsule(0.5f, 0.2f),
                     at(v3(1.0f, 0.6f, 0), random_rotation()));
}

/* Bounds are the union of the children's bounds under the composed transforms. */
Test(compound, bounds_are_the_union_of_the_children)
{
    cairn_shape *compound = l_shape();
    for (int trial = 0; trial < 50; ++trial) {
        cairn_transform xf =
            at(v3(uniform(-5, 5), uniform(-5, 5), uniform(-5, 5)), random_rotation());
        cairn_aabb got = cairn_shape_bounds(compound, xf);
        cairn_aabb want = {v3(INFINITY, INFINITY, INFINITY), v3(-INFINITY, -INFINITY, -INFINITY)};
        for (int i = 0; i < cairn_compound_child_count(compound); ++i) {
            cairn_transform local;
            const cairn_shape *child = cairn_compound_child(compound, i, &local);
            cairn_transform world = {
                glms_vec3_add(glms_quat_rotatev(xf.rotation, local.position), xf.position),
                glms_quat_mul(xf.rotation, local.rotation)};
            cairn_aabb b = cairn_shape_bounds(child, world);
            want.min = glms_vec3_minv(want.min, b.min);
            want.max = glms_vec3_maxv(want.max, b.max);
        }
        for (int k = 0; k < 3; ++k)
            cr_expect(fabsf(got.min.raw[k] - want.min.raw[k]) < 1e-5f &&
                          fabsf(got.max.raw[k] - want.max.raw[k]) < 1e-5f,
                      "trial %d axis %d: [%g, %g] expected [%g, %g]", trial, k,
                      (double)got.min.raw[k], (double)got.max.raw[k], (double)want.min.raw[k],
                      (double)want.max.raw[k]);
    }
    cr_expect_null(cairn_compound_child(compound, 2, NULL));
    cr_expect_null(cairn_compound_child(compound, -1, NULL));
    cairn_shape_release(compound);
}

/* cairn_overlap with a compound is "some child overlaps"; cairn_collide refuses compounds. */
Test(compound, overlap_is_any_child_overlapping)
{
    cairn_shape *compound = l_shape();
    cairn_shape *probe = cairn_shape_box(v3(0.3f, 0.25f, 0.2f), 0.02f);
    int overlapping = 0;
    for (int trial = 0; trial < 400; ++trial) {
        cairn_transform xc = at(v3(0, 0, 0), random_rotation());
        cairn_transform xp =
            at(v3(uniform(-1.2f, 1.2f), uniform(-1.2f, 1.2f), uniform(-1.2f, 1.2f)),
               random_rotation());
        bool any = false;
        for (int i = 0; i < 2; ++i) {
            cairn_transform local;
            const cairn_shape *child = cairn_compound_child(compound, i, &local);
            cairn_transform world = {glms_quat_rotatev(xc.rotation, local.position),
                                     glms_quat_mul(xc.rotation, local.rotation)};
            any = any || cairn_overlap(child, world, probe, xp);
        }
        cr_expect_eq(cairn_overlap(compound, xc, probe, xp), any, "trial %d", trial);
        cr_expect_eq(cairn_overlap(probe, xp, compound, xc), any, "trial %d swapped", trial);
        overlapping += any;
    }
    cr_expect(overlapping > 40 && overlapping < 360, "%d of 400 overlap", overlapping);
    cairn_query_result result;
    cr_expect(!cairn_collide(compound, cairn_transform_identity(), probe,
                             cairn_transform_identity(), NULL, &result));
    cr_expect(strstr(cairn_last_error(), "compound") != NULL, "%s", cairn_last_error());
    cairn_shape_release(probe);
    cairn_shape_release(compound);
}

Test(compound, children_are_retained)
{
    size_t before = cairn_allocated_bytes();
    cairn_shape *compound = l_shape(); /* releases its own references to the children */
    cairn_mass_properties m;
    cr_expect(cairn_shape_mass_properties(compound, density, &m));
    cr_expect(m.mass > 0.0f);
    cairn_shape_release(compound);
    cr_expect_eq(cairn_allocated_bytes(), before, "leak: %zu bytes before, %zu after", before,
                 cairn_allocated_bytes());
}

Test(compound, bad_input_fails_with_an_error)
{
    size_t before = cairn_allocated_bytes();
    cairn_shape *box = cairn_shape_box(v3(0.5f, 0.5f, 0.5f), 0.0f);
    cairn_shape *ball = cairn_shape_sphere(0.5f);
    const cairn_shape *children[2] = {box, ball};
    cairn_transform xfs[2] = {cairn_transform_identity(), at(v3(1, 0, 0), glms_quat_identity())};
    cr_expect_null(cairn_shape_compound(children, xfs, 0));
    cr_expect(strstr(cairn_last_error(), "cairn_shape_compound") != NULL);
    cr_expect_null(cairn_shape_compound(children, xfs, -3));
    cr_expect_null(cairn_shape_compound(children, xfs, CAIRN_MAX_COMPOUND_CHILDREN + 1));
    cr_expect_null(cairn_shape_compound(NULL, xfs, 2));
    cr_expect_null(cairn_shape_compound(children, NULL, 2));
    const cairn_shape *with_null[2] = {box, NULL};
    cr_expect_null(cairn_shape_compound(with_null, xfs, 2));
    cr_expect(strstr(cairn_last_error(), "child 1") != NULL, "%s", cairn_last_error());
    cairn_transform bad[2] = {xfs[0], xfs[1]};
    bad[1].position.y = NAN;
    cr_expect_null(cairn_shape_compound(children, bad, 2));
    bad[1] = xfs[1];
    bad[1].position.z = 2e4f;
    cr_expect_null(cairn_shape_compound(children, bad, 2));
    bad[1] = xfs[1];
    bad[1].rotation = (versors){{0, 0, 0, 0.5f}};
    cr_expect_null(cairn_shape_compound(children, bad, 2));
    bad[1].rotation = (versors){{0, NAN, 0, 1}};
    cr_expect_null(cairn_shape_compound(children, bad, 2));
    cairn_shape *compound = cairn_shape_compound(children, xfs, 2);
    cr_assert_not_null(compound);
    const cairn_shape *nested[2] = {box, compound};
    cr_expect_null(cairn_shape_compound(nested, xfs, 2));
    cr_expect(strstr(cairn_last_error(), "nest") != NULL, "%s", cairn_last_error());
    cairn_shape_release(compound);
    cairn_shape_release(box);
    cairn_shape_release(ball);
    cr_expect_eq(cairn_allocated_bytes(), before);
}
