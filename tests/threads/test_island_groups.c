/* Island groups of the contact solver (contact_solver.c): the islands are solved a group at a
   time, each group through all its passes before the next, and with several workers whole
   groups go to different workers. Islands share no moving body, so every grouping must give the
   state of one group bit for bit, on any worker count. Scenes from thread_scenes.h. */
#include "threads/thread_scenes.h"

#include "dynamics/island_groups.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdint.h>

typedef struct grouped_run {
    uint64_t hash;
    int most_groups;  /* the most island groups of any step */
    int shared_steps; /* steps whose workers took whole groups */
} grouped_run;

/* The scene with its groups of at most `manifolds` on `workers` (1: the calling thread). */
static grouped_run run_grouped(const char *name, int manifolds, int workers)
{
    const thread_scene *scene = thread_scene_named(name);
    cr_assert_not_null(scene, "no thread scene named %s", name);
    cairn_world *world = scene->build();
    cr_assert_not_null(world, "%s: %s", name, cairn_last_error());
    world->solver_group_manifolds = manifolds;
    cairn_thread_pool *pool;
    cr_assert(thread_bind_pool(world, workers, &pool));
    grouped_run run = {.hash = 1469598103934665603ull};
    for (int n = 0; n < scene->steps; ++n) {
        if (scene->action)
            scene->action(world, n);
        cairn_world_step(world, 1.0f / 60.0f);
        uint64_t state = cairn_world_state_hash(world);
        run.hash = thread_mix(run.hash, &state, sizeof state);
        cairn_step_stats stats = cairn_world_step_stats(world);
        run.most_groups =
            stats.island_groups > run.most_groups ? stats.island_groups : run.most_groups;
        run.shared_steps += stats.island_groups_shared;
    }
    cairn_world_destroy(world);
    cairn_thread_pool_destroy(pool);
    return run;
}

static void same_for_every_grouping(const char *name)
{
    grouped_run whole = run_grouped(name, INT32_MAX, 1);
    cr_expect_eq(whole.most_groups, 1, "%s: one group asked, %d made", name, whole.most_groups);
    const int sizes[] = {1, 64, 0};
    for (int k = 0; k < 3; ++k) {
        grouped_run grouped = run_grouped(name, sizes[k], 1);
        cr_expect_eq(grouped.hash, whole.hash,
                     "%s in groups of %d: %016" PRIx64 ", one group %016" PRIx64, name, sizes[k],
                     grouped.hash, whole.hash);
    }
}

/* Rain falls into many islands: groups of one island each must be many, or the test tests
   nothing. */
Test(island_groups, every_grouping_of_the_rain_gives_one_groups_state)
{
    grouped_run single = run_grouped("rain", 1, 1);
    cr_expect_gt(single.most_groups, 50, "rain: only %d groups of one island", single.most_groups);
    same_for_every_grouping("rain");
}

Test(island_groups, every_grouping_of_the_smashed_wall_and_the_woken_stacks)
{
    same_for_every_grouping("smash");
    same_for_every_grouping("sleepy stacks");
}

/* Whole groups on 2, 3 and 4 workers: the workers must really take them, at every step (or the
   test tests the colour sharing), and the state is one group's on the calling thread. */
Test(island_groups, whole_groups_on_several_workers)
{
    const char *name = "stacks in groups";
    grouped_run whole = run_grouped(name, INT32_MAX, 1);
    for (int workers = 2; workers <= 4; ++workers) {
        grouped_run shared = run_grouped(name, 16, workers);
        int steps = thread_scene_named(name)->steps;
        cr_expect_eq(shared.shared_steps, steps, "%s on %d workers: %d of %d steps shared groups",
                     name, workers, shared.shared_steps, steps);
        cr_expect_eq(shared.hash, whole.hash,
                     "%s on %d workers: %016" PRIx64 ", one group %016" PRIx64, name, workers,
                     shared.hash, whole.hash);
    }
}

/* Jointed islands are grouped too: forty ragdolls (joint trees and Gauss-Seidel joints among
   contacts) in groups of one island each, on the calling thread and shared whole on 2 and 4
   workers, against one group. */
Test(island_groups, ragdolls_in_groups_on_several_workers)
{
    grouped_run whole = run_grouped("ragdolls", INT32_MAX, 1);
    grouped_run alone = run_grouped("ragdolls", 1, 1);
    cr_expect_geq(alone.most_groups, 40, "ragdolls: only %d groups", alone.most_groups);
    cr_expect_eq(alone.hash, whole.hash,
                 "ragdolls in groups: %016" PRIx64 ", one group %016" PRIx64, alone.hash,
                 whole.hash);
    for (int workers = 2; workers <= 4; workers += 2) {
        grouped_run shared = run_grouped("ragdolls", 1, workers);
        cr_expect_gt(shared.shared_steps, 0, "ragdolls on %d workers: no step shared groups",
                     workers);
        cr_expect_eq(shared.hash, whole.hash,
                     "ragdolls in groups on %d workers: %016" PRIx64 ", one group %016" PRIx64,
                     workers, shared.hash, whole.hash);
    }
}

/* Bodies alone (no contact, no joint) are shared out among the groups in equal runs of awake
   order; an island keeps its group. 101 free spheres, two of them joined (one island, in group
   0), 99 alone, over three groups: 33 alone bodies each, every body once. */
Test(island_groups, lone_bodies_go_to_every_group_in_equal_runs)
{
    cairn_world_def def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&def);
    cr_assert_not_null(world);
    cairn_shape *ball = cairn_shape_sphere(0.1f);
    cairn_body_def sphere_def = cairn_body_default_def();
    sphere_def.shape = ball;
    cairn_body_id ids[101];
    for (int i = 0; i < 101; ++i) {
        sphere_def.transform.position = (vec3s){{(float)i, 10.0f, 0.0f}};
        ids[i] = cairn_body_create(world, &sphere_def);
    }
    cairn_joint_def link = cairn_joint_default_def(CAIRN_JOINT_BALL);
    link.body_a = ids[0];
    link.body_b = ids[1];
    link.anchor_a = link.anchor_b = (vec3s){{0.5f, 10.0f, 0.0f}};
    cr_assert(cairn_joint_is_valid(world, cairn_joint_create(world, &link)), "%s",
              cairn_last_error());
    size_t bodies = (size_t)world->bodies.count + 1;
    uint32_t island[128];
    int group_of[128], island_size[128], group_sizes[3], group_weights[3];
    cr_assert(bodies <= 128);
    island_grouping g = {island, group_of, island_size};
    island_groups_join(&g, world, NULL, 0);
    cr_assert_eq(
        island_groups_assign(&g, world, NULL, 0, INT32_MAX, NULL, group_sizes, group_weights), 1,
        "one island");
    solve_group groups[3];
    uint32_t order[101];
    island_groups_bodies(&g, world, groups, 3, order);
    int expect[3] = {2 + 33, 33, 33};
    bool seen[128] = {false};
    int awake_at[128];
    for (int i = 0; i < world->awake.count; ++i)
        awake_at[world->awake.data[i]] = i;
    for (int k = 0; k < 3; ++k) {
        cr_expect_eq(groups[k].body_end - groups[k].body_first, expect[k], "group %d: %d bodies", k,
                     groups[k].body_end - groups[k].body_first);
        for (int b = groups[k].body_first; b < groups[k].body_end; ++b) {
            cr_expect(!seen[order[b]], "body %u twice", order[b]);
            seen[order[b]] = true;
            cr_expect(b == groups[k].body_first || awake_at[order[b]] > awake_at[order[b - 1]],
                      "group %d out of awake order", k);
        }
    }
    cr_expect_eq(groups[2].body_end, world->awake.count);
    cairn_world_destroy(world);
    cairn_shape_release(ball);
}
