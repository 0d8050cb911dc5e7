/* Compound bodies in the world: dropped on the floor they come to rest at the height their
   children's geometry gives, flat, without sinking, and fall asleep; a compound stacked on a
   compound rests on it; a ray cast hits a compound's child. */
#include "scene_helpers.h"

/* Two boxes of half extents (0.5, 0.25, 0.5) side by side along x: a 2 x 0.5 x 1 m slab whose
   origin sits 0.25 m above its bottom face. */
static cairn_shape *slab(void)
{
    cairn_shape *box = cairn_shape_box(v3(0.5f, 0.25f, 0.5f), SCENE_RADIUS);
    const cairn_shape *children[2] = {box, box};
    cairn_transform xfs[2] = {scene_at(v3(-0.5f, 0, 0)), scene_at(v3(0.5f, 0, 0))};
    cairn_shape *compound = cairn_shape_compound(children, xfs, 2);
    cr_assert_not_null(compound, "%s", cairn_last_error());
    cairn_shape_release(box);
    return compound;
}

/* Two balls of radius 0.3 on a bar (a capsule along x): rests on the balls, origin 0.3 m up. */
static cairn_shape *dumbbell(void)
{
    cairn_shape *ball = cairn_shape_sphere(0.3f);
    cairn_shape *bar = cairn_shape_capsule(0.6f, 0.1f);
    const cairn_shape *children[3] = {ball, ball, bar};
    cairn_transform along_x = {v3(0, 0, 0), glms_quatv(GLM_PI_2f, v3(0, 0, 1))};
    cairn_transform xfs[3] = {scene_at(v3(-0.8f, 0, 0)), scene_at(v3(0.8f, 0, 0)), along_x};
    cairn_shape *compound = cairn_shape_compound(children, xfs, 3);
    cr_assert_not_null(compound, "%s", cairn_last_error());
    cairn_shape_release(ball);
    cairn_shape_release(bar);
    return compound;
}

/* Steps for `seconds`, tracking the lowest the body's bounds ever reach after `settle` seconds. */
static double lowest_after(cairn_world *world, cairn_body_id id, double seconds, double settle)
{
    double lowest = INFINITY;
    int steps = (int)(seconds / SCENE_DT);
    for (int i = 0; i < steps; ++i) {
        cairn_world_step(world, SCENE_DT);
        if ((double)i * SCENE_DT < settle)
            continue;
        cairn_aabb b =
            cairn_shape_bounds(cairn_body_shape(world, id), cairn_body_transform(world, id));
        lowest = fmin(lowest, (double)b.min.y);
    }
    return lowest;
}

static double tilt(const cairn_world *world, cairn_body_id id)
{
    vec3s up = glms_quat_rotatev(cairn_body_transform(world, id).rotation, v3(0, 1, 0));
    return acos(fmin(1.0, (double)up.y));
}

Test(compound_rest, slab_lands_flat_at_its_height)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id id =
        scene_body(world, slab(), CAIRN_DYNAMIC, scene_at(v3(0, 1.5f, 0)), 1000.0f, 0.6f, 0.0f);
    double lowest = lowest_after(world, id, 4.0, 1.0);
    vec3s p = scene_position(world, id);
    cr_expect(fabs(p.y - 0.25) < 0.01, "rest height %g, expected 0.25", (double)p.y);
    cr_expect(fabs(p.x) < 0.01 && fabs(p.z) < 0.01, "drifted to (%g, %g)", (double)p.x,
              (double)p.z);
    cr_expect(tilt(world, id) < 0.01, "tilted by %g rad", tilt(world, id));
    cr_expect(lowest > -0.02, "sank to %g", lowest);
    cr_expect(!cairn_body_is_awake(world, id), "a resting slab should fall asleep");
    cairn_world_destroy(world);
}

Test(compound_rest, dumbbell_rests_on_its_balls)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id id =
        scene_body(world, dumbbell(), CAIRN_DYNAMIC, scene_at(v3(0, 1.0f, 0)), 1000.0f, 0.6f, 0.0f);
    double lowest = lowest_after(world, id, 4.0, 1.0);
    vec3s p = scene_position(world, id);
    cr_expect(fabs(p.y - 0.3) < 0.01, "rest height %g, expected 0.3", (double)p.y);
    cr_expect(lowest > -0.02, "sank to %g", lowest);
    /* Both balls touch the floor: the bar stays level. */
    cairn_transform xf = cairn_body_transform(world, id);
    vec3s bar = glms_quat_rotatev(xf.rotation, v3(1, 0, 0));
    cr_expect(fabs(bar.y) < 0.01, "bar tilted: axis y %g", (double)bar.y);
    cairn_world_destroy(world);
}

Test(compound_rest, slab_stacks_on_a_slab)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id bottom =
        scene_body(world, slab(), CAIRN_DYNAMIC, scene_at(v3(0, 0.3f, 0)), 1000.0f, 0.6f, 0.0f);
    cairn_transform turned = {v3(0, 0.85f, 0), glms_quatv(GLM_PI_2f, v3(0, 1, 0))};
    cairn_body_id top = scene_body(world, slab(), CAIRN_DYNAMIC, turned, 1000.0f, 0.6f, 0.0f);
    double lowest = lowest_after(world, bottom, 4.0, 1.0);
    cr_expect(fabs(scene_position(world, bottom).y - 0.25) < 0.01, "bottom at %g",
              (double)scene_position(world, bottom).y);
    cr_expect(fabs(scene_position(world, top).y - 0.75) < 0.015, "top at %g",
              (double)scene_position(world, top).y);
    cr_expect(tilt(world, top) < 0.02, "top tilted by %g rad", tilt(world, top));
    cr_expect(lowest > -0.02, "bottom sank to %g", lowest);
    cairn_world_destroy(world);
}

Test(compound_rest, ray_hits_a_compound_child)
{
    cairn_world_def def = cairn_world_default_def();
    def.gravity = v3(0, 0, 0);
    cairn_world *world = scene_world(&def);
    cairn_body_id id =
        scene_body(world, dumbbell(), CAIRN_DYNAMIC, scene_at(v3(0, 2, 0)), 1000.0f, 0.6f, 0.0f);
    cairn_ray_hit hit;
    /* Down onto the right ball (centre (0.8, 2, 0), radius 0.3): top at y = 2.3. */
    cr_assert(cairn_world_raycast(world, v3(0.8f, 5, 0), v3(0, -5, 0), &hit));
    cr_expect_eq(hit.body.index, id.index);
    cr_expect(fabs(hit.point.y - 2.3) < 1e-4, "point y %g", (double)hit.point.y);
    /* Down through the middle: the bar, radius 0.1. */
    cr_assert(cairn_world_raycast(world, v3(0, 5, 0), v3(0, -5, 0), &hit));
    cr_expect(fabs(hit.point.y - 2.1) < 1e-4, "point y %g", (double)hit.point.y);
    /* Between a ball and the bar's end cap, off the axis: nothing. */
    cr_expect(!cairn_world_raycast(world, v3(0.4f, 5, 0.25f), v3(0, -5, 0), &hit));
    cairn_world_destroy(world);
}
