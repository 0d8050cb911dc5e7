/* The body-pair cache: a re-measured manifold must agree with a freshly built one for motions
   under the limits, and must be refused beyond them. The fresh manifold (GJK/EPA + clipping) is
   the independent answer. */
#include "dynamics/contact.h"
#include "geometry/shape.h"

#include "dynamics/scene_helpers.h"
#include "geometry/shape_oracle.h"

static const float margin = 0.02f;

static cairn_transform pose(float x, float y, float z, float angle_about_z)
{
    cairn_transform xf = {v3(x, y, z), glms_quatv(angle_about_z, v3(0, 0, 1))};
    return xf;
}

/* A manifold built from scratch for the pair at these poses; gap: the surfaces' distance. */
static manifold fresh_manifold_gap(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                                   cairn_transform xb, float *gap)
{
    cairn_query_result query;
    cr_assert(cairn_collide(a, xa, b, xb, NULL, &query), "%s", cairn_last_error());
    manifold m;
    manifold_build(a, xa, b, xb, &query, margin, &m);
    *gap = query.distance;
    return m;
}

static manifold fresh_manifold(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                               cairn_transform xb)
{
    float gap;
    return fresh_manifold_gap(a, xa, b, xb, &gap);
}

/* As the narrow phase leaves a contact: the manifold, and the pose and gap it was found at. */
static contact cached_contact(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                              cairn_transform xb)
{
    contact c = {0};
    float gap;
    c.manifold = fresh_manifold_gap(a, xa, b, xb, &gap);
    pair_cache_store(&c, a, xa, b, xb, margin, c.manifold.point_count == 0 ? gap : 0.0f,
                     shape_reach(b));
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

/* A pair found apart keeps its empty manifold, without a query, while B has not moved (relative
   to A) by more than the gap left above the margin; once it may have, the narrow phase runs. */
Test(pair_cache, a_pair_apart_is_skipped_until_its_gap_could_have_closed)
{
    cairn_shape *box = cairn_shape_box(v3(0.5f, 0.5f, 0.5f), 0.05f);
    cairn_shape *stick = cairn_shape_capsule(1.0f, 0.1f);
    cairn_transform xa = pose(0, 0, 0, 0), xb = pose(0, 2.0f, 0, 0); /* the stick lies along y */
    contact c = cached_contact(box, xa, stick, xb);
    cr_assert_eq(c.manifold.point_count, 0);
    cr_assert_gt(c.reuse.gap, 0.3f);
    /* 20 cm closer and beyond the pose limits: still far apart, skipped */
    cr_assert(pair_cache_reuse(&c, xa, pose(0.05f, 1.8f, 0, 0), margin,
                               pair_cache_limits_make(0.001f, 0.035f)));
    cr_assert_eq(c.manifold.point_count, 0);
    /* 38 cm closer: the gap (0.40 m) less the motion is under the margin: a query */
    cr_assert_not(pair_cache_reuse(&c, xa, pose(0, 1.62f, 0, 0), margin,
                                   pair_cache_limits_make(0.001f, 0.035f)));
    /* turned, not moved: the stick's far end swings through 1.1 m x 2 sin(t / 2) */
    cr_assert_not(pair_cache_reuse(&c, xa, pose(0, 2.0f, 0, 0.5f), margin,
                                   pair_cache_limits_make(0.001f, 0.035f)));
    cr_assert(pair_cache_reuse(&c, xa, pose(0, 2.0f, 0, 0.2f), margin,
                               pair_cache_limits_make(0.001f, 0.035f)));
    /* a margin grown past the gap (a fast pair) needs a query */
    cr_assert_not(
        pair_cache_reuse(&c, xa, xb, c.reuse.gap, pair_cache_limits_make(0.001f, 0.035f)));
    cr_assert_not(pair_cache_reuse(&c, xa, xb, margin, pair_cache_limits_make(0.0f, 0.035f)),
                  "0 disables the cache");
    cairn_shape_release(box);
    cairn_shape_release(stick);
}

/* Against the fresh narrow phase: over random poses near a pair found apart, every skip is a pair
   whose fresh manifold is empty, and most pairs that stay well apart are skipped. */
Test(pair_cache, a_skipped_pair_is_always_apart)
{
    cairn_shape *shapes[3] = {cairn_shape_box(v3(0.4f, 0.2f, 0.6f), 0.05f),
                              cairn_shape_capsule(0.5f, 0.1f), cairn_shape_sphere(0.3f)};
    test_rng rng = {12345u};
    int skipped = 0, apart = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const cairn_shape *a = shapes[trial % 3], *b = shapes[(trial / 3) % 3];
        cairn_transform xa = {
            v3((float)rng_uniform(&rng, -1, 1), (float)rng_uniform(&rng, -1, 1), 0),
            glms_quat_normalize(
                (versors){{(float)rng_uniform(&rng, -1, 1), (float)rng_uniform(&rng, -1, 1),
                           (float)rng_uniform(&rng, -1, 1), 1.0f}})};
        cairn_transform xb = {v3((float)rng_uniform(&rng, -2, 2), (float)rng_uniform(&rng, -2, 2),
                                 (float)rng_uniform(&rng, 0.5f, 2.5f)),
                              glms_quat_normalize((versors){
                                  {(float)rng_uniform(&rng, -1, 1), (float)rng_uniform(&rng, -1, 1),
                                   (float)rng_uniform(&rng, -1, 1), 1.0f}})};
        contact c = cached_contact(a, xa, b, xb);
        if (c.manifold.point_count > 0)
            continue;
        /* B moves up to 40 cm and turns up to 0.6 rad about a random axis, or (every other
           trial) only turns, up to 1.5 rad: the rotation's share of the bound alone */
        bool turn_only = trial % 2 == 1;
        float reach_of_move = turn_only ? 0.0f : 0.4f, angle = turn_only ? 1.5f : 0.6f;
        vec3s axis = rng_unit_vector(&rng);
        vec3s shift = v3((float)rng_uniform(&rng, -1, 1), (float)rng_uniform(&rng, -1, 1),
                         (float)rng_uniform(&rng, -1, 1));
        cairn_transform moved = {
            glms_vec3_add(xb.position, glms_vec3_scale(shift, reach_of_move)),
            glms_quat_normalize(glms_quat_mul(
                glms_quatv((float)rng_uniform(&rng, -angle, angle), axis), xb.rotation))};
        float gap;
        manifold fresh = fresh_manifold_gap(a, xa, b, moved, &gap);
        bool skip = pair_cache_reuse(&c, xa, moved, margin, pair_cache_limits_make(0.001f, 0.035f));
        if (skip)
            cr_assert_eq(fresh.point_count, 0, "trial %d: skipped a pair %.4f m apart", trial,
                         (double)gap);
        apart += gap > 0.6f;
        skipped += skip && gap > 0.6f;
    }
    cr_assert_gt(apart, 300, "the trials should include pairs well apart");
    cr_assert_gt(skipped, apart / 4, "%d of %d pairs well apart skipped", skipped, apart);
    for (int i = 0; i < 3; ++i)
        cairn_shape_release(shapes[i]);
}

/* A ball rolled 0.2 mm along x (turned by 0.2 mm / r about z) re-measures with its point under
   its centre, where a fresh build puts it; re-measured as a box would be, the point stays on the
   ball's material and the floor's, 0.1 mm behind. A ball and a box in either order. */
Test(pair_cache, a_rolled_ball_keeps_its_point_under_its_centre)
{
    cairn_shape *floor = cairn_shape_box(v3(10, 1, 10), 0.0f);
    cairn_shape *ball = cairn_shape_sphere(0.5f);
    const float r = 0.5f, rolled = 0.0002f;
    cairn_transform ground = pose(0, -1, 0, 0), then = pose(0, 0.499f, 0, 0);
    cairn_transform now = pose(rolled, 0.499f, 0, -rolled / r);
    pair_cache_limits limits = pair_cache_limits_make(0.001f, 0.035f);
    for (int ball_first = 0; ball_first < 2; ++ball_first) {
        const cairn_shape *a = ball_first ? ball : floor, *b = ball_first ? floor : ball;
        cairn_transform xa0 = ball_first ? then : ground, xb0 = ball_first ? ground : then;
        cairn_transform xa = ball_first ? now : ground, xb = ball_first ? ground : now;
        contact c = cached_contact(a, xa0, b, xb0);
        contact stale = c; /* re-measured as a box would be */
        stale.reuse.symmetry_a = stale.reuse.symmetry_b = SYMMETRY_NONE;
        cr_assert_gt(c.manifold.point_count, 0);
        cr_assert(pair_cache_reuse(&c, xa, xb, margin, limits));
        cr_assert(pair_cache_reuse(&stale, xa, xb, margin, limits));
        manifold fresh = fresh_manifold(a, xa, b, xb);
        double at = (double)c.manifold.points[0].anchor_a.x;
        double fresh_at = (double)fresh.points[0].anchor_a.x;
        double stale_at = (double)stale.manifold.points[0].anchor_a.x;
        cr_expect(fabs(at - fresh_at) < 1e-5, "ball %s: point at x %.6f, fresh %.6f",
                  ball_first ? "first" : "second", at, fresh_at);
        cr_expect(fabs(stale_at - fresh_at) > 0.3 * rolled, "as a box: %.6f against %.6f", stale_at,
                  fresh_at);
        cr_expect(fabs((double)c.manifold.points[0].separation -
                       (double)fresh.points[0].separation) < 1e-5);
    }
    /* a ball rolled over a resting ball keeps its point on the material of both (pair_cache.c):
       re-measured as before, and within 0.2 mm of a fresh build */
    cairn_transform top0 = pose(0, 0.498f + 2 * r, 0, 0);
    cairn_transform top = pose(rolled, 0.498f + 2 * r, 0, -2.0f * rolled / r);
    contact pair = cached_contact(ball, then, ball, top0);
    cr_assert(pair_cache_reuse(&pair, then, top, margin, limits));
    manifold fresh = fresh_manifold(ball, then, ball, top);
    cr_expect(fabs((double)pair.manifold.points[0].anchor_a.x -
                   (double)fresh.points[0].anchor_a.x) < 2e-4,
              "two balls: point at x %.6f, fresh %.6f", (double)pair.manifold.points[0].anchor_a.x,
              (double)fresh.points[0].anchor_a.x);
    cairn_shape_release(floor);
    cairn_shape_release(ball);
}

/* A floor: a box, or a mesh of two triangles (its pairs go through the per-part narrow phase). */
static void rolling_floor(cairn_world *world, bool mesh)
{
    const vec3s corners[4] = {v3(-100, 0, -100), v3(100, 0, -100), v3(100, 0, 100),
                              v3(-100, 0, 100)};
    const int triangles[6] = {0, 2, 1, 0, 3, 2};
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_STATIC;
    def.shape =
        mesh ? cairn_shape_mesh(corners, 4, triangles, 2) : cairn_shape_box(v3(100, 1, 100), 0.05f);
    def.transform.position = v3(0, mesh ? 0.0f : -1.0f, 0);
    cr_assert(!id_is_null(cairn_body_create(world, &def)), "%s", cairn_last_error());
    cairn_shape_release((cairn_shape *)def.shape);
}

/* A ball (or a lying capsule) rolled at 8 cm/s on the flat, slowed by the world's angular
   damping c alone: its angular momentum about the contact point decays at c I / (I + m r^2),
   so v = v0 exp(-c I / (I + m r^2) t), through 0.06 m/s at 20 s and on down. The re-measured
   manifold of a slowly rolling body kept the contact point behind its centre, and the normal
   force there drove it: it rolled on at 0.060 m/s for ever, and never fell asleep. */
static void expect_rolling_decays(cairn_shape *shape, bool mesh_floor, const char *what)
{
    cairn_world_def def = cairn_world_default_def();
    cairn_world *world = scene_world(&def);
    rolling_floor(world, mesh_floor);
    cairn_body_def body = cairn_body_default_def();
    body.shape = shape;
    body.transform.position = v3(0, 0.25f, 0);
    if (cairn_shape_get_type(shape) != CAIRN_SHAPE_SPHERE)
        body.transform.rotation = glms_quatv(GLM_PI_2f, v3(1, 0, 0)); /* its axis along z */
    cairn_body_id id = cairn_body_create(world, &body);
    cairn_shape_release(shape);
    cr_assert(!id_is_null(id), "%s", cairn_last_error());
    for (int step = 0; step < 30; ++step)
        cairn_world_step(world, SCENE_DT);
    const float v0 = 0.08f, r = 0.25f;
    cairn_body_set_linear_velocity(world, id, v3(v0, 0, 0));
    cairn_body_set_angular_velocity(world, id, v3(0, 0, -v0 / r));
    double m = cairn_body_mass(world, id);
    double inertia = cairn_body_inertia(world, id).m11; /* about local y: the capsule's axis */
    double rate = (double)def.angular_damping * inertia / (inertia + m * (double)(r * r));
    for (int t = 15; t <= 45; t += 15) {
        for (int step = 0; step < 15 * 60; ++step)
            cairn_world_step(world, SCENE_DT);
        double v = cairn_body_linear_velocity(world, id).x;
        double expected = v0 * exp(-rate * (double)t);
        cr_expect(fabs(v - expected) < 0.01 * expected, "%s: v %.5f m/s after %d s, expected %.5f",
                  what, v, t, expected);
    }
    cairn_world_destroy(world);
}

Test(pair_cache, a_slowly_rolling_ball_slows_as_damping_says)
{
    expect_rolling_decays(cairn_shape_sphere(0.25f), false, "ball on a box");
    expect_rolling_decays(cairn_shape_sphere(0.25f), true, "ball on a mesh");
    expect_rolling_decays(cairn_shape_capsule(0.3f, 0.25f), false, "capsule on a box");
    expect_rolling_decays(cairn_shape_cylinder(0.3f, 0.25f, 0.05f), false, "cylinder on a box");
}
