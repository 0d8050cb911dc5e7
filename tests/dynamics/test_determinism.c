/* Same binary, same inputs -> bit-identical results: the same scene built twice gives the same
   cairn_world_state_hash after every step; a slightly different scene gives a different hash. */
#include "scene_helpers.h"

#define STEPS 240

/* A busy scene: floor, a stack, a small wall, and a rain of spheres and rotated boxes from a
   fixed pseudo-random sequence. `nudge` moves one sphere by that much along x. */
static cairn_world *build(float nudge)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id ids[64];
    scene_stack(world, 4, 0, 6, true, ids);
    scene_wall(world, 5, 0.02f, true, ids);
    uint32_t seed = 12345u;
    for (int i = 0; i < 30; ++i) {
        float r[5];
        for (int k = 0; k < 5; ++k) {
            seed = seed * 1664525u + 1013904223u;
            r[k] = (float)(seed >> 8) / (float)(1u << 24);
        }
        vec3s p = v3(-3 + 6 * r[0], 6 + 0.8f * (float)i, -3 + 6 * r[1]);
        if (i == 7)
            p.x += nudge;
        if (i % 2) {
            scene_sphere(world, p, 0.2f + 0.3f * r[2], 1000.0f, 0.5f, 0.3f);
        } else {
            cairn_transform xf = scene_at(p);
            xf.rotation = glms_quatv(6.0f * r[3], glms_vec3_normalize(v3(r[2], r[4] + 0.1f, r[3])));
            scene_body(world,
                       cairn_shape_box(v3(0.2f + 0.3f * r[2], 0.3f, 0.2f + 0.2f * r[4]), 0.02f),
                       CAIRN_DYNAMIC, xf, 800.0f + 400.0f * r[4], 0.6f, 0.1f);
        }
    }
    return world;
}

Test(determinism, same_scene_same_hash_every_step)
{
    cairn_world *a = build(0.0f);
    cairn_world *b = build(0.0f);
    cr_expect_eq(cairn_world_state_hash(a), cairn_world_state_hash(b), "hashes differ at step 0");
    int first_diff = -1;
    for (int n = 1; n <= STEPS; ++n) { /* interleaved: two live worlds must not share state */
        cairn_world_step(a, SCENE_DT);
        cairn_world_step(b, SCENE_DT);
        if (first_diff < 0 && cairn_world_state_hash(a) != cairn_world_state_hash(b))
            first_diff = n;
    }
    cairn_step_stats st = cairn_world_step_stats(a);
    cr_log_info("determinism: %d bodies, %d contacts, %d awake after %d steps; hash %016llx / "
                "%016llx; first difference at step %d",
                st.bodies, st.contacts, st.awake_bodies, STEPS,
                (unsigned long long)cairn_world_state_hash(a),
                (unsigned long long)cairn_world_state_hash(b), first_diff);
    cr_expect_eq(first_diff, -1, "the same scene diverged at step %d", first_diff);
    cr_expect(st.contacts > 0, "the scene has no contacts: the test would prove little");
    cairn_world_destroy(a);
    cairn_world_destroy(b);
}

Test(determinism, same_scene_run_one_after_the_other)
{
    uint64_t hash[2];
    for (int run = 0; run < 2; ++run) {
        cairn_world *w = build(0.0f);
        scene_step(w, STEPS);
        hash[run] = cairn_world_state_hash(w);
        cairn_world_destroy(w);
    }
    cr_log_info("sequential runs: %016llx / %016llx", (unsigned long long)hash[0],
                (unsigned long long)hash[1]);
    cr_expect_eq(hash[0], hash[1], "two runs of the same scene end with different hashes");
}

Test(determinism, different_scene_different_hash)
{
    cairn_world *a = build(0.0f);
    cairn_world *b = build(0.001f); /* one sphere 1 mm to the side */
    cr_expect_neq(cairn_world_state_hash(a), cairn_world_state_hash(b),
                  "a 1 mm change of one body does not change the hash at step 0");
    scene_step(a, STEPS);
    scene_step(b, STEPS);
    cr_log_info("different scenes: %016llx / %016llx",
                (unsigned long long)cairn_world_state_hash(a),
                (unsigned long long)cairn_world_state_hash(b));
    cr_expect_neq(cairn_world_state_hash(a), cairn_world_state_hash(b),
                  "different scenes end with the same hash");
    cairn_world_destroy(a);
    cairn_world_destroy(b);

    /* a velocity alone changes the hash too */
    cairn_world_def def = cairn_world_default_def();
    cairn_world *c = scene_world(&def);
    cairn_world *d = scene_world(&def);
    cairn_shape *ball = cairn_shape_sphere(0.5f);
    cairn_body_def bd = cairn_body_default_def();
    bd.shape = ball;
    bd.transform.position = v3(0, 3, 0);
    cairn_body_create(c, &bd);
    bd.angular_velocity = v3(0, 0.01f, 0);
    cairn_body_create(d, &bd);
    cairn_shape_release(ball);
    cr_expect_neq(cairn_world_state_hash(c), cairn_world_state_hash(d),
                  "an angular velocity difference does not change the hash");
    cairn_world_destroy(c);
    cairn_world_destroy(d);
}
