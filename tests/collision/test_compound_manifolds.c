/* A compound pair touching along several directions gets a manifold per direction: a box in the
   crook of an L-shaped compound presses on both arms, and each arm's face gives its own normal
   and points (before, one manifold kept the deepest direction and dropped the other). */
#include <criterion/criterion.h>

#include "collision/compound.h"

static cairn_transform at(float x, float y, float z)
{
    return (cairn_transform){{{x, y, z}}, glms_quat_identity()};
}

/* Arms: a floor 0.9 x 0.2 (top at y = 0.1) and a wall 0.2 x 0.6 (right face at x = -0.25). */
static cairn_shape *l_block(void)
{
    cairn_shape *floor_arm = cairn_shape_box((vec3s){{0.45f, 0.1f, 0.15f}}, 0.0f);
    cairn_shape *wall_arm = cairn_shape_box((vec3s){{0.1f, 0.3f, 0.15f}}, 0.0f);
    const cairn_shape *children[2] = {floor_arm, wall_arm};
    cairn_transform xfs[2] = {at(0, 0, 0), at(-0.35f, 0.4f, 0)};
    cairn_shape *l = cairn_shape_compound(children, xfs, 2);
    cr_assert_not_null(l, "%s", cairn_last_error());
    cairn_shape_release(floor_arm);
    cairn_shape_release(wall_arm);
    return l;
}

static const manifold *facing(const manifold *m, int count, vec3s normal)
{
    for (int i = 0; i < count; ++i)
        if (glms_vec3_dot(m[i].normal, normal) > 0.999f)
            return &m[i];
    return NULL;
}

Test(compound_manifolds, a_box_in_the_crook_of_an_l_touches_both_arms)
{
    cairn_shape *l = l_block();
    cairn_shape *box = cairn_shape_box((vec3s){{0.1f, 0.1f, 0.1f}}, 0.0f);
    /* 4 mm into the floor arm and 2 mm into the wall arm */
    cairn_transform xb = at(-0.25f + 0.1f - 0.002f, 0.1f + 0.1f - 0.004f, 0);
    manifold m[CONTACT_MAX_MANIFOLDS];
    compound_stats stats = {0};
    int count = compound_manifolds(l, at(0, 0, 0), box, xb, 0.01f, NULL, 0, m, &stats);
    cr_assert_eq(count, 2, "%d manifolds", count);
    const manifold *up = facing(m, count, (vec3s){{0, 1, 0}});
    const manifold *side = facing(m, count, (vec3s){{1, 0, 0}});
    cr_assert(up && side, "normals (%g %g %g) and (%g %g %g)", (double)m[0].normal.x,
              (double)m[0].normal.y, (double)m[0].normal.z, (double)m[1].normal.x,
              (double)m[1].normal.y, (double)m[1].normal.z);
    cr_expect_eq(up, &m[0], "the deepest direction comes first");
    cr_expect_eq(up->point_count, 4);
    cr_expect_eq(side->point_count, 4);
    for (int i = 0; i < up->point_count; ++i)
        cr_expect_float_eq(up->points[i].separation, -0.004f, 1e-5f);
    for (int i = 0; i < side->point_count; ++i)
        cr_expect_float_eq(side->points[i].separation, -0.002f, 1e-5f);
    cairn_shape_release(box);
    cairn_shape_release(l);
}

Test(compound_manifolds, a_box_on_the_floor_arm_alone_gets_one)
{
    cairn_shape *l = l_block();
    cairn_shape *box = cairn_shape_box((vec3s){{0.1f, 0.1f, 0.1f}}, 0.0f);
    manifold m[CONTACT_MAX_MANIFOLDS];
    compound_stats stats = {0};
    int count =
        compound_manifolds(l, at(0, 0, 0), box, at(0.2f, 0.199f, 0), 0.01f, NULL, 0, m, &stats);
    cr_assert_eq(count, 1);
    cr_expect_float_eq(m[0].normal.y, 1.0f, 1e-6f);
    cairn_shape_release(box);
    cairn_shape_release(l);
}
