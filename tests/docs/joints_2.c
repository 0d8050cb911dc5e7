#include <cairn/cairn.h>
#include <stdio.h>

int main(void)
{
    cairn_world_def world_def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&world_def);
    cairn_shape *link = cairn_shape_capsule(0.2f, 0.05f);
    cairn_body_def body_def = cairn_body_default_def();
    body_def.shape = link;
    cairn_body_id links[10];
    for (int i = 0; i < 10; ++i) {
        body_def.transform.position = (vec3s){{0.0f, 9.75f - 0.5f * (float)i, 0.0f}};
        links[i] = cairn_body_create(world, &body_def);
        cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_BALL);
        if (i > 0)
            def.body_a = links[i - 1];
        def.body_b = links[i];
        def.anchor_a = def.anchor_b = (vec3s){{0.0f, 10.0f - 0.5f * (float)i, 0.0f}};
        def.break_force = 1700.0f; /* N */
        cairn_joint_create(world, &def);
    }
    cairn_shape_release(link);
    /* a 150 kg weight hooked to the last link */
    cairn_shape *ball = cairn_shape_sphere(0.2f);
    body_def.shape = ball;
    body_def.density = 150.0f / (4.0f / 3.0f * 3.14159265f * 0.008f);
    body_def.transform.position = (vec3s){{0.0f, 4.8f, 0.0f}};
    cairn_body_id weight = cairn_body_create(world, &body_def);
    cairn_shape_release(ball);
    cairn_joint_def hook = cairn_joint_default_def(CAIRN_JOINT_BALL);
    hook.body_a = links[9];
    hook.body_b = weight;
    hook.anchor_a = hook.anchor_b = (vec3s){{0.0f, 5.0f, 0.0f}};
    cairn_joint_create(world, &hook);
    printf("links %.1f kg, joints %d\n", cairn_body_mass(world, links[0]),
           cairn_world_joint_count(world));

    for (int step = 0; step < 10; ++step) {
        cairn_world_step(world, 1.0f / 60.0f);
        cairn_joint_events events = cairn_world_joint_events(world);
        for (int i = 0; i < events.break_count; ++i)
            printf("step %d: a joint broke at y = %.2f m under %.0f N\n", step,
                   events.breaks[i].point.y, events.breaks[i].force.y);
    }
    printf("joints left: %d\n", cairn_world_joint_count(world));
    cairn_world_destroy(world);
    return 0;
}
