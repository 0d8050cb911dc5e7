#include <cairn/cairn.h>
#include <math.h>
#include <stdio.h>

int main(void)
{
    cairn_world_def world_def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&world_def);

    /* a kinematic platform 4 m wide, its top at y = 0, and a 1 m box resting on it */
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_KINEMATIC;
    def.shape = cairn_shape_box((vec3s){{2, 0.25f, 2}}, 0.0f);
    def.transform.position = (vec3s){{0, -0.25f, 0}};
    cairn_body_id platform = cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);
    def.type = CAIRN_DYNAMIC;
    def.shape = cairn_shape_box((vec3s){{0.5f, 0.5f, 0.5f}}, 0.05f);
    def.transform.position = (vec3s){{0, 0.5f, 0}};
    cairn_body_id box = cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);

    /* the platform follows x = 0.5 sin(t) (m): a target every step, reached in one step */
    float dt = 1.0f / 60.0f;
    for (int step = 1; step <= 120; ++step) {
        cairn_transform target = cairn_body_transform(world, platform);
        target.position.x = 0.5f * sinf(step * dt);
        cairn_body_set_kinematic_target(world, platform, target, dt);
        cairn_world_step(world, dt);
    }
    printf("platform x %.3f m, %.3f m/s; box x %.3f m, %.3f m/s\n",
           cairn_body_transform(world, platform).position.x,
           cairn_body_linear_velocity(world, platform).x,
           cairn_body_transform(world, box).position.x, cairn_body_linear_velocity(world, box).x);

    /* a force lasts one step: 1000 N up on the box for one step changes its speed by F dt / m */
    float mass = cairn_body_mass(world, box);
    float before = cairn_body_linear_velocity(world, box).y;
    cairn_body_set_gravity_scale(world, box, 0.0f);
    cairn_body_apply_force(world, box, (vec3s){{0, 1000, 0}},
                           cairn_body_center_of_mass(world, box));
    cairn_world_step(world, dt);
    float after = cairn_body_linear_velocity(world, box).y;
    cairn_world_step(world, dt);
    printf("mass %.1f kg: +%.4f m/s (F dt / m = %.4f), then %+.4f m/s\n", mass, after - before,
           1000.0f * dt / mass, cairn_body_linear_velocity(world, box).y - after);

    /* a bad value fails and changes nothing */
    printf("scale 200: %s, error: %s\n",
           cairn_body_set_gravity_scale(world, box, 200.0f) ? "set" : "refused",
           cairn_last_error());
    cairn_world_destroy(world);
}
