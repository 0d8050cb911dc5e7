#include <cairn/cairn.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    cairn_world_def def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&def);
    cairn_body_def body = cairn_body_default_def();
    body.type = CAIRN_STATIC;
    body.shape = cairn_shape_box((vec3s){{20.0f, 1.0f, 20.0f}}, 0.0f);
    body.transform.position = (vec3s){{0.0f, -1.0f, 0.0f}};
    cairn_body_create(world, &body);
    cairn_shape_release((cairn_shape *)body.shape);
    body.type = CAIRN_DYNAMIC;
    body.shape = cairn_shape_box((vec3s){{0.4f, 0.4f, 0.4f}}, 0.02f);
    for (int i = 0; i < 20; ++i) { /* a tumbling heap */
        body.transform.position = (vec3s){{0.3f * (float)(i % 3), 1.0f + 0.9f * (float)i, 0.0f}};
        cairn_body_create(world, &body);
    }
    cairn_shape_release((cairn_shape *)body.shape);

    for (int step = 0; step < 60; ++step)
        cairn_world_step(world, 1.0f / 60.0f);
    size_t size = cairn_world_snapshot_size(world);
    void *saved = malloc(size);
    cairn_world_snapshot(world, saved, size);
    for (int step = 0; step < 120; ++step)
        cairn_world_step(world, 1.0f / 60.0f);
    unsigned long long later = (unsigned long long)cairn_world_state_hash(world);

    cairn_world_restore(world, saved, size); /* back two seconds, and again */
    for (int step = 0; step < 120; ++step)
        cairn_world_step(world, 1.0f / 60.0f);
    unsigned long long again = (unsigned long long)cairn_world_state_hash(world);
    printf("same state after the replay: %s\n", later == again ? "yes" : "no");

    ((unsigned char *)saved)[size / 2] ^= 1; /* one bit off */
    printf("corrupt snapshot restored: %s (%s)\n",
           cairn_world_restore(world, saved, size) ? "yes" : "no", cairn_last_error());
    free(saved);
    cairn_world_destroy(world);
    return 0;
}
