#include <cairn/cairn.h>
#include <math.h>
#include <stdio.h>

/* The chassis's heading about y (0 along +x, positive to the left). */
static float heading(const cairn_world *world, cairn_body_id chassis)
{
    vec3s forward = glms_quat_rotatev(cairn_body_transform(world, chassis).rotation,
                                      (vec3s){{1.0f, 0.0f, 0.0f}});
    return atan2f(-forward.z, forward.x);
}

int main(void)
{
    cairn_world_def world_def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&world_def);
    cairn_body_def body_def = cairn_body_default_def();
    body_def.type = CAIRN_STATIC;
    body_def.shape = cairn_shape_box((vec3s){{50.0f, 1.0f, 50.0f}}, 0.0f);
    body_def.transform.position = (vec3s){{0.0f, -1.0f, 0.0f}};
    body_def.friction = 1.0f;
    cairn_body_create(world, &body_def);
    cairn_shape_release((cairn_shape *)body_def.shape);

    body_def.type = CAIRN_DYNAMIC;
    body_def.shape = cairn_shape_box((vec3s){{1.0f, 0.2f, 0.5f}}, 0.02f);
    body_def.transform.position = (vec3s){{0.0f, 0.7f, 0.0f}};
    cairn_body_id chassis = cairn_body_create(world, &body_def); /* 1,600 kg */
    cairn_shape_release((cairn_shape *)body_def.shape);

    cairn_shape *ball = cairn_shape_sphere(0.3f);
    cairn_joint_id wheels[4];
    for (int i = 0; i < 4; ++i) {
        vec3s at = {{i < 2 ? 0.8f : -0.8f, 0.32f, i % 2 ? 0.7f : -0.7f}};
        body_def.shape = ball;
        body_def.transform.position = at;
        cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_WHEEL);
        def.body_a = chassis;
        def.body_b = cairn_body_create(world, &body_def);
        def.anchor_a = def.anchor_b = at;
        def.axis = (vec3s){{0.0f, 1.0f, 0.0f}};  /* the suspension: up */
        def.axle = (vec3s){{0.0f, 0.0f, -1.0f}}; /* positive motor speeds roll towards +x */
        def.enable_spring = true;
        def.spring_hertz = 4.0f;
        def.spring_damping_ratio = 0.7f;
        def.enable_limit = true;
        def.lower = -0.15f;
        def.upper = 0.15f;
        def.enable_motor = i >= 2; /* rear-wheel drive */
        def.motor_speed = 10.0f;   /* rad/s */
        def.max_motor_force = 2000.0f;
        wheels[i] = cairn_joint_create(world, &def);
    }
    cairn_shape_release(ball);

    for (int step = 0; step < 120; ++step)
        cairn_world_step(world, 1.0f / 60.0f);
    printf("after 2 s: %.2f m/s, rear suspension %.3f m\n",
           cairn_body_linear_velocity(world, chassis).x, cairn_joint_position(world, wheels[2]));
    for (int i = 0; i < 2; ++i)
        cairn_joint_set_steering(world, wheels[i], 0.3f); /* front wheels, left */
    float before = heading(world, chassis);
    for (int step = 0; step < 60; ++step)
        cairn_world_step(world, 1.0f / 60.0f);
    printf("steered for 1 s: turned %.2f rad left\n", heading(world, chassis) - before);
    cairn_world_destroy(world);
    return 0;
}
