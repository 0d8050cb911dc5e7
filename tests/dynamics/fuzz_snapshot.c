/* libFuzzer target for cairn_world_restore: a valid snapshot with the fuzzer's bytes XORed into
   it, its checksum fixed so that the parser gets past it, must be refused or restored and then
   step without crashing, leaking or hanging. Built with -DCAIRN_BUILD_FUZZ=ON and clang. */
#include <cairn/cairn.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static cairn_world *build(void)
{
    cairn_world_def def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&def);
    cairn_body_def body = cairn_body_default_def();
    body.type = CAIRN_STATIC;
    body.shape = cairn_shape_box((vec3s){{10, 1, 10}}, 0.0f);
    body.transform.position = (vec3s){{0, -1, 0}};
    cairn_body_create(world, &body);
    cairn_shape_release((cairn_shape *)body.shape);
    body.type = CAIRN_DYNAMIC;
    body.shape = cairn_shape_box((vec3s){{0.3f, 0.3f, 0.3f}}, 0.02f);
    cairn_body_id previous = {0, 0};
    for (int i = 0; i < 4; ++i) {
        body.transform.position = (vec3s){{0, 0.3f + 0.6f * (float)i, 0}};
        cairn_body_id id = cairn_body_create(world, &body);
        cairn_joint_def joint = cairn_joint_default_def(CAIRN_JOINT_BALL);
        joint.body_a = previous;
        joint.body_b = id;
        joint.anchor_a = joint.anchor_b = body.transform.position;
        cairn_joint_create(world, &joint);
        previous = id;
    }
    cairn_shape_release((cairn_shape *)body.shape);
    for (int n = 0; n < 20; ++n)
        cairn_world_step(world, 1.0f / 60.0f);
    return world;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cairn_world *world = build();
    /* the first byte's low bit picks the kind: full or awake-only */
    bool awake_only = size > 0 && (data[0] & 1);
    size_t length =
        awake_only ? cairn_world_snapshot_awake_size(world) : cairn_world_snapshot_size(world);
    unsigned char *snapshot = malloc(length);
    if (awake_only)
        cairn_world_snapshot_awake(world, snapshot, length);
    else
        cairn_world_snapshot(world, snapshot, length);
    size_t payload = length - sizeof(uint64_t);
    for (size_t i = 0; i < size && i < payload; ++i)
        snapshot[(i * 7919u) % payload] ^= data[i];
    uint64_t hash = 1469598103934665603ull;
    for (size_t k = 0; k < payload; ++k)
        hash = (hash ^ snapshot[k]) * 1099511628211ull;
    memcpy(snapshot + payload, &hash, sizeof hash);
    if (cairn_world_restore(world, snapshot, length))
        for (int n = 0; n < 5; ++n)
            cairn_world_step(world, 1.0f / 60.0f);
    free(snapshot);
    cairn_world_destroy(world);
    return 0;
}
