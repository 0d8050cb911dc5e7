/* Builders for the joint scenario tests: bodies, joints and measurements through the public
   API only. Static inline so each test file may use any subset. */
#ifndef CAIRN_TESTS_JOINT_HELPERS_H
#define CAIRN_TESTS_JOINT_HELPERS_H

#include "../dynamics/scene_helpers.h"

#include <stdlib.h>
#include <string.h>

/* The position correction the joint tests run in: the def's own (soft step by default), or
   split impulse when CAIRN_TEST_POSITION_CORRECTION says so (CMake runs every joints test a
   second time that way). */
static inline bool joint_test_split_impulse(void)
{
    const char *mode = getenv("CAIRN_TEST_POSITION_CORRECTION");
    return mode != NULL && strcmp(mode, "split_impulse") == 0;
}

static inline cairn_world *joint_world_with(cairn_world_def def)
{
    if (joint_test_split_impulse())
        def.solver.position_correction = CAIRN_SPLIT_IMPULSE;
    return scene_world(&def);
}

/* A world without damping (energy tests) and without sleep thresholds that matter. */
static inline cairn_world *joint_world(void)
{
    cairn_world_def def = cairn_world_default_def();
    def.angular_damping = 0.0f;
    def.linear_damping = 0.0f;
    return joint_world_with(def);
}

static inline bool joint_id_is_null(cairn_joint_id id)
{
    return id.index == 0 && id.generation == 0;
}

static inline cairn_joint_id joint_make(cairn_world *world, const cairn_joint_def *def)
{
    cairn_joint_id id = cairn_joint_create(world, def);
    cr_assert(!joint_id_is_null(id), "cairn_joint_create failed: %s", cairn_last_error());
    return id;
}

/* A dynamic body at a position, density 1000, no sleeping. */
static inline cairn_body_id joint_body(cairn_world *world, cairn_shape *shape, vec3s position)
{
    return scene_body_ex(world, shape, CAIRN_DYNAMIC, scene_at(position), 1000.0f, 0.5f, 0.0f,
                         false);
}

static inline cairn_body_id joint_static(cairn_world *world, cairn_shape *shape, vec3s position)
{
    return scene_body(world, shape, CAIRN_STATIC, scene_at(position), 1000.0f, 0.5f, 0.0f);
}

/* The world point a body carries that was at `point` when the body was at `at` (identity
   rotation then). */
static inline vec3s joint_carried(const cairn_world *world, cairn_body_id body, vec3s at,
                                  vec3s point)
{
    cairn_transform xf = cairn_body_transform(world, body);
    vec3s local = glms_vec3_sub(point, at);
    return glms_vec3_add(xf.position, glms_quat_rotatev(xf.rotation, local));
}

#endif
