#include <cairn/cairn.h>
#include <stdio.h>

int main(void)
{
    cairn_world_def world_def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&world_def);
    cairn_body_def body_def = cairn_body_default_def();
    cairn_shape *panel = cairn_shape_box((vec3s){{0.5f, 1.0f, 0.05f}}, 0.0f);
    body_def.shape = panel;
    body_def.transform.position = (vec3s){{0.5f, 1.0f, 0.0f}};
    cairn_body_id door = cairn_body_create(world, &body_def);
    cairn_shape_release(panel);

    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_HINGE);
    def.body_b = door; /* body_a is the null id: the door hangs on the world */
    def.anchor_a = def.anchor_b = (vec3s){{0.0f, 1.0f, 0.0f}};
    def.axis = (vec3s){{0.0f, 1.0f, 0.0f}};
    def.enable_limit = true;
    def.lower = -1.5f;
    def.upper = 1.5f;
    def.enable_motor = true;
    def.motor_speed = 1.0f;      /* rad/s */
    def.max_motor_force = 500.0f; /* N m */
    cairn_joint_id hinge = cairn_joint_create(world, &def);

    for (int step = 1; step <= 180; ++step) {
        cairn_world_step(world, 1.0f / 60.0f);
        if (step % 60 == 0)
            printf("t = %d s: angle %.2f rad, speed %.2f rad/s\n", step / 60,
                   cairn_joint_position(world, hinge),
                   cairn_body_angular_velocity(world, door).y);
    }
    cairn_joint_set_motor(world, hinge, true, -1.0f, 500.0f); /* close it */
    for (int step = 0; step < 60; ++step)
        cairn_world_step(world, 1.0f / 60.0f);
    printf("reversed for 1 s: angle %.2f rad\n", cairn_joint_position(world, hinge));
    cairn_world_destroy(world);
    return 0;
}
