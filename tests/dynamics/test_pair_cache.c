/* The body-pair cache: a re-measured manifold must agree with a freshly built one for motions
   under the limits, and must be refused beyond them. The fresh manifold (GJK/EPA + clipping) is
   the independent answer. */
#include "dynamics/contact.h"

#include "dynamics/scene_helpers.h"

static const float margin = 0.02f;

static cairn_transform pose(float x, float y, float z, float angle_about_z)
{
    cairn_transform xf = {v3(x, y, z), glms_quatv(angle_about_z, v3(0, 0, 1))};
    return xf;
}

/* A manifold built from scratch for the pair at these poses. */
static manifold fresh_manifold(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                               cairn_transform xb)
{
    cairn_query_result query;
    cr_assert(cairn_collide(a, xa, b, xb, NULL, &query), "%s", cairn_last_error());
    manifold m;
    manifold_build(a, xa, b, xb, &query, margin, &m);
    return m;
}

static contact cached_contact(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                              cairn_transform xb)
{
    contact c = {0};
    c.manifold = fresh_manifold(a, xa, b, xb);
    pair_cache_store(&c, xa, xb, margin);
    return c;
}

/* Sum of the point separations, independent of point order. */
static float separation_sum(const manifold *m)
{
    float sum = 0.0f;
    for (int i = 0; i < m->point_count; ++i)
        sum += m->points[i].separation;
    return sum;
}

Test(pair_cache, small_motion_re_measures_like_a_fresh_build)
{
    cairn_shape *floor = cairn_shape_box(v3(5, 1, 5), 0.05f);
    cairn_shape *box = cairn_shape_box(v3(0.5f, 0.5f, 0.5f), 0.05f);
    cairn_transform xa = pose(0, -1, 0, 0), xb = pose(0.3f, 0.499f, -0.2f, 0);
    contact c = cached_contact(floor, xa, box, xb);
    cr_assert_eq(c.manifold.point_count, 4);
    /* Sink 0.6 mm and tilt 0.5 degrees: both under the defaults (1 mm, 2 degrees). */
    cairn_transform moved = pose(0.3f, 0.4984f, -0.2f, 0.5f * (float)SCENE_PI / 180.0f);
    cr_assert(pair_cache_reuse(&c, xa, moved, margin, pair_cache_limits_make(0.001f, 0.035f)));
    manifold fresh = fresh_manifold(floor, xa, box, moved);
    cr_assert_eq(c.manifold.point_count, fresh.point_count);
    cr_assert_float_eq(separation_sum(&c.manifold), separation_sum(&fresh), 2e-4f);
    cr_assert_float_eq(glms_vec3_dot(c.manifold.normal, fresh.normal), 1.0f, 1e-5f);
    cairn_shape_release(floor);
    cairn_shape_release(box);
}

Test(pair_cache, follows_the_pair_when_both_bodies_move_together)
{
    cairn_shape *box = cairn_shape_box(v3(0.5f, 0.5f, 0.5f), 0.05f);
    cairn_transform xa = pose(0, 0, 0, 0), xb = pose(0.1f, 0.999f, 0, 0);
    contact c = cached_contact(box, xa, box, xb);
    /* Carry both 3 m sideways and turn both 40 degrees: the relative pose is unchanged. */
    versors turn = glms_quatv(0.7f, v3(0, 1, 0));
    cairn_transform xa2 = {v3(3, 0, 0), turn};
    cairn_transform xb2 = {glms_vec3_add(v3(3, 0, 0), glms_quat_rotatev(turn, xb.position)), turn};
    cr_assert(pair_cache_reuse(&c, xa2, xb2, margin, pair_cache_limits_make(0.001f, 0.035f)));
    manifold fresh = fresh_manifold(box, xa2, box, xb2);
    cr_assert_float_eq(separation_sum(&c.manifold), separation_sum(&fresh), 1e-4f);
    cr_assert_float_eq(glms_vec3_dot(c.manifold.normal, fresh.normal), 1.0f, 1e-5f);
    cr_assert_float_eq(c.manifold.points[0].anchor_a.x, c.manifold.points[0].anchor_b.x, 1e-6f);
    cr_assert_gt(c.manifold.points[0].anchor_a.x, 2.0f, "anchors moved with the bodies");
    cairn_shape_release(box);
}

Test(pair_cache, refuses_motion_beyond_the_limits_and_a_grown_margin)
{
    cairn_shape *box = cairn_shape_box(v3(0.5f, 0.5f, 0.5f), 0.05f);
    cairn_transform xa = pose(0, 0, 0, 0), xb = pose(0, 0.999f, 0, 0);
    contact c = cached_contact(box, xa, box, xb);
    cr_assert_not(pair_cache_reuse(&c, xa, pose(0.0011f, 0.999f, 0, 0), margin,
                                   pair_cache_limits_make(0.001f, 0.035f)));
    cr_assert_not(pair_cache_reuse(&c, xa, pose(0, 0.999f, 0, 0.04f), margin,
                                   pair_cache_limits_make(0.001f, 0.035f)));
    cr_assert_not(
        pair_cache_reuse(&c, xa, xb, margin + 0.01f, pair_cache_limits_make(0.001f, 0.035f)));
    cr_assert_not(pair_cache_reuse(&c, xa, xb, margin, pair_cache_limits_make(0.0f, 0.035f)),
                  "0 disables the cache");
    cr_assert(pair_cache_reuse(&c, xa, pose(0.0009f, 0.999f, 0, 0.03f), margin,
                               pair_cache_limits_make(0.001f, 0.035f)));
    contact cold = {0};
    cr_assert_not(pair_cache_reuse(&cold, xa, xb, margin, pair_cache_limits_make(0.001f, 0.035f)),
                  "nothing cached");
    cairn_shape_release(box);
}

/* A resting stack reuses its manifolds, and runs the same with the cache off (to 1 mm). */
static float stack_top_height(bool cache_on, int *reused)
{
    cairn_world_def def = cairn_world_default_def();
    if (!cache_on)
        def.solver.pair_cache_distance = 0.0f;
    cairn_world *world = scene_world(&def);
    cairn_shape *floor = cairn_shape_box(v3(10, 1, 10), 0.05f);
    cairn_shape *box = cairn_shape_box(v3(0.5f, 0.5f, 0.5f), 0.05f);
    cairn_body_def body = cairn_body_default_def();
    body.type = CAIRN_STATIC;
    body.shape = floor;
    body.transform.position = v3(0, -1, 0);
    cairn_body_create(world, &body);
    body.type = CAIRN_DYNAMIC;
    body.shape = box;
    body.allow_sleep = false;
    cairn_body_id top = {0};
    for (int i = 0; i < 5; ++i) {
        body.transform.position = v3(0, 0.5f + (float)i, 0);
        top = cairn_body_create(world, &body);
    }
    for (int step = 0; step < 240; ++step)
        cairn_world_step(world, SCENE_DT);
    *reused = cairn_world_step_stats(world).manifolds_reused;
    float y = cairn_body_transform(world, top).position.y;
    cairn_world_destroy(world);
    cairn_shape_release(floor);
    cairn_shape_release(box);
    return y;
}

Test(pair_cache, resting_stack_reuses_manifolds_and_matches_the_uncached_run)
{
    int reused_on, reused_off;
    float on = stack_top_height(true, &reused_on);
    float off = stack_top_height(false, &reused_off);
    cr_assert_eq(reused_off, 0);
    cr_assert_eq(reused_on, 5, "all five touching pairs reused once at rest, got %d", reused_on);
    cr_assert_float_eq(on, off, 1e-3f);
    cr_assert_float_eq(on, 4.5f, 0.01f);
}
