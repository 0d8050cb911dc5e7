/* The step gives the same state, bit for bit, for every worker count: the state hash (bodies and
   joints) and the contact events of every step agree for 1, 2, 3 and 4 workers of the thread
   pool, for a second run on 2, and for a task system that runs every task inline. Scenes
   (thread_scenes.h): the 1,240-box pyramid, about 2,000 mixed shapes raining into a bin (also with
   locked rotations), a wall
   smashed by a fast ball, ragdolls on joints, a pile on a heightfield, boxes on a rope bridge,
   compound bodies and sleeping stacks woken by a ball. */
#include "threads/thread_scenes.h"

#include <criterion/criterion.h>
#include <inttypes.h>

static void same_for_every_worker_count(const char *name)
{
    const thread_scene *scene = thread_scene_named(name);
    cr_assert_not_null(scene, "no thread scene named %s", name);
    uint64_t one = 0, other = 0;
    cr_assert(thread_scene_hash(scene, scene->steps, 1, &one));
    const int counts[] = {2, 3, 4, 2, 0};
    for (int i = 0; i < 5; ++i) {
        cr_assert(thread_scene_hash(scene, scene->steps, counts[i], &other));
        cr_expect_eq(one, other,
                     "%s: %d steps on %d workers%s give %016" PRIx64 ", on one %016" PRIx64,
                     scene->name, scene->steps, counts[i] ? counts[i] : 3,
                     counts[i] ? "" : " (inline tasks)", other, one);
    }
}

Test(thread_determinism, the_pyramid)
{
    same_for_every_worker_count("pyramid");
}

Test(thread_determinism, two_thousand_mixed_shapes)
{
    same_for_every_worker_count("rain");
}

Test(thread_determinism, mixed_shapes_with_locked_rotations)
{
    same_for_every_worker_count("locked rain");
}

Test(thread_determinism, a_wall_smashed_by_a_fast_ball)
{
    same_for_every_worker_count("smash");
}

Test(thread_determinism, ragdolls_on_joints)
{
    same_for_every_worker_count("ragdolls");
}

Test(thread_determinism, a_pile_on_a_heightfield)
{
    same_for_every_worker_count("heightfield");
}

Test(thread_determinism, sleeping_islands_woken)
{
    same_for_every_worker_count("sleepy stacks");
}

/* compound bodies: several manifolds per contact, allocated by the workers */
Test(thread_determinism, compound_bodies)
{
    same_for_every_worker_count("compounds");
}

/* a rope bridge held to the world at both ends (joints of one colour share the world) */
Test(thread_determinism, boxes_dropped_on_a_rope_bridge)
{
    same_for_every_worker_count("bridge");
}

/* Island groups taken whole by the workers (test_island_groups.c): 64 stacks in about a dozen
   groups, and forty ragdolls in a group each. */
Test(thread_determinism, stacks_in_island_groups)
{
    same_for_every_worker_count("stacks in groups");
}

Test(thread_determinism, ragdolls_in_island_groups)
{
    same_for_every_worker_count("ragdolls in groups");
}

/* split impulse mode: the joints' position passes move bodies colour by colour */
Test(thread_determinism, ragdolls_in_split_impulse_mode)
{
    same_for_every_worker_count("ragdolls split impulse");
}
