/* integrate_lanes against the one-body position update written with cglm's own functions (the
   form integrate.c uses for kinematic bodies and used for all): random rotations, spins up to
   60 rad/s, full (not diagonal) inertia, centres off the origin, groups of 1 to 4, with and
   without split-impulse offsets. The same bits are required, not a tolerance: the step's results
   may not depend on how many bodies are moved at once. */
#include "dynamics/integrate_lanes.h"
#include "dynamics/random_values.h"
#include "dynamics/scene_helpers.h"
#include "dynamics/world_state.h"

#include "core/xform.h"

#include <string.h>

/* The one-body update, from cglm's functions (integrate.c's rotate and keep_angular_momentum). */
static void reference_move(body *b, body_velocity *state, vec3s v, vec3s w, float h)
{
    b->center = glms_vec3_add(b->center, glms_vec3_scale(v, h));
    versors q = b->transform.rotation;
    versors dq = glms_quat_mul((versors){{w.x, w.y, w.z, 0.0f}}, q);
    versors next = {{q.x + 0.5f * h * dq.x, q.y + 0.5f * h * dq.y, q.z + 0.5f * h * dq.z,
                     q.w + 0.5f * h * dq.w}};
    versors turned = glms_quat_normalize(next);
    b->transform.rotation = turned;
    /* glms_quat_rotatev normalises the rotation it is given, as the engine's turns do */
    vec3s momentum = glms_quat_rotatev(
        q, glms_mat3_mulv(b->inertia_local,
                          glms_quat_rotatev(glms_quat_conjugate(q), state->angular)));
    state->angular = glms_quat_rotatev(
        turned, glms_mat3_mulv(b->inverse_inertia_local,
                               glms_quat_rotatev(glms_quat_conjugate(turned), momentum)));
    vec3s offset = glms_quat_rotatev(turned, b->local_center);
    b->transform.position = glms_vec3_sub(b->center, offset);
    b->center = glms_vec3_add(offset, b->transform.position);
}

static void randomise(body *b, body_velocity *state, uint32_t *seed)
{
    versors q = {
        {uniform(seed, -1, 1), uniform(seed, -1, 1), uniform(seed, -1, 1), uniform(seed, -1, 1)}};
    b->transform.rotation = glms_quat_normalize(q);
    b->center = random_vec(seed, 100.0f);
    b->local_center = random_vec(seed, 0.5f);
    b->inertia_local = random_inertia(seed, 0.5f);
    b->inverse_inertia_local = glms_mat3_inv(b->inertia_local);
    state->linear = random_vec(seed, 20.0f);
    state->angular = random_vec(seed, 60.0f);
}

static bool same_bits(const void *a, const void *b, size_t n)
{
    return memcmp(a, b, n) == 0;
}

static void check_groups(bool with_offsets)
{
    enum { BODIES = 4 };
    cairn_world *world = scene_default_world();
    uint32_t group[BODIES];
    for (int k = 0; k < BODIES; ++k)
        group[k] = scene_box(world, v3((float)k * 3, 0, 0), v3(0.5f, 0.5f, 0.5f), 100, 0.5f).index;
    body_velocity velocities[BODIES + 1];
    motion_offset offsets[BODIES + 1];
    memset(offsets, 0, sizeof offsets);
    uint32_t seed = with_offsets ? 7u : 3u;
    for (int trial = 0; trial < 2000; ++trial) {
        int count = 1 + trial % BODIES;
        body expected[BODIES];
        body_velocity expected_state[BODIES];
        float h = uniform(&seed, 1e-4f, 0.05f);
        for (int l = 0; l < count; ++l) {
            body *b = &world->bodies.data[group[l]];
            randomise(b, &velocities[group[l]], &seed);
            if (with_offsets)
                offsets[group[l]] = (motion_offset){random_vec(&seed, 1), random_vec(&seed, 1)};
            expected[l] = *b;
            expected_state[l] = velocities[group[l]];
            motion_offset o = offsets[group[l]];
            reference_move(&expected[l], &expected_state[l],
                           glms_vec3_add(velocities[group[l]].linear, o.linear),
                           glms_vec3_add(velocities[group[l]].angular, o.angular), h);
        }
        integrate_lanes(world, h, velocities, with_offsets ? offsets : NULL, group, count);
        for (int l = 0; l < count; ++l) {
            const body *b = &world->bodies.data[group[l]];
            cr_assert(same_bits(&b->transform, &expected[l].transform, sizeof b->transform),
                      "trial %d, lane %d of %d: the pose differs", trial, l, count);
            cr_assert(same_bits(&b->center, &expected[l].center, sizeof b->center),
                      "trial %d, lane %d: the centre differs", trial, l);
            cr_assert(
                same_bits(&velocities[group[l]].angular, &expected_state[l].angular, sizeof(vec3s)),
                "trial %d, lane %d: the angular velocity differs", trial, l);
        }
    }
    cairn_world_destroy(world);
}

Test(integrate_lanes, match_the_one_body_update_to_the_bit)
{
    cr_assert_geq(INTEGRATE_LANES, 1);
    check_groups(false);
}

Test(integrate_lanes, match_it_with_split_impulse_offsets)
{
    check_groups(true);
}

/* The world inverse inertia R I^-1 R^T, written with cglm's own full products (the diagonal's
   zeros included), against integrate_lanes_inertia: diagonal lanes four at a time, a full inertia
   alone, rotations a little off unit length (as the substeps leave them), lanes not synced left
   as they were. The same bits. */
Test(integrate_lanes, sync_the_world_inverse_inertia_to_the_bit)
{
    enum { BODIES = 4 };
    cairn_world *world = scene_default_world();
    uint32_t group[BODIES];
    for (int k = 0; k < BODIES; ++k)
        group[k] = scene_box(world, v3((float)k * 3, 0, 0), v3(0.5f, 0.5f, 0.5f), 100, 0.5f).index;
    uint32_t seed = 11u;
    for (int trial = 0; trial < 4000; ++trial) {
        int count = 1 + trial % BODIES;
        bool sync[BODIES];
        mat3s expected[BODIES];
        for (int l = 0; l < count; ++l) {
            body *b = &world->bodies.data[group[l]];
            versors q = {{uniform(&seed, -1, 1), uniform(&seed, -1, 1), uniform(&seed, -1, 1),
                          uniform(&seed, -1, 1)}};
            versors unit = glms_quat_normalize(q);
            float scale = uniform(&seed, 0.999f, 1.001f);
            b->transform.rotation =
                (versors){{unit.x * scale, unit.y * scale, unit.z * scale, unit.w * scale}};
            bool full = trial % 7 == l;
            mat3s diagonal = glms_mat3_zero();
            for (int k = 0; k < 3; ++k)
                diagonal.raw[k][k] = uniform(&seed, 0.01f, 5.0f);
            b->inverse_inertia_local = full ? glms_mat3_inv(random_inertia(&seed, 0.5f)) : diagonal;
            b->inverse_inertia = glms_mat3_identity();
            sync[l] = trial % 5 != l;
            mat3s r = glms_quat_mat3(b->transform.rotation);
            expected[l] = sync[l] ? glms_mat3_mul(glms_mat3_mul(r, b->inverse_inertia_local),
                                                  glms_mat3_transpose(r))
                                  : glms_mat3_identity();
        }
        integrate_lanes_inertia(world, group, count, sync);
        for (int l = 0; l < count; ++l)
            cr_assert(same_bits(&world->bodies.data[group[l]].inverse_inertia, &expected[l],
                                sizeof(mat3s)),
                      "trial %d, lane %d of %d (synced %d): the world inverse inertia differs",
                      trial, l, count, (int)sync[l]);
    }
    cairn_world_destroy(world);
}
