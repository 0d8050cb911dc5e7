#include <cairn/cairn.h>
#include <stdio.h>

int main(void)
{
    cairn_world_def world_def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&world_def);

    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_STATIC;
    def.shape = cairn_shape_box((vec3s){{10, 1, 10}}, 0.0f);
    def.transform.position = (vec3s){{0, -1, 0}};
    cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);

    /* a 1 m box placed resting on the floor: it falls asleep after time_to_sleep */
    def.type = CAIRN_DYNAMIC;
    def.shape = cairn_shape_box((vec3s){{0.5f, 0.5f, 0.5f}}, 0.05f);
    def.transform.position = (vec3s){{0, 0.5f, 0}};
    cairn_body_id box = cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);
    int steps = 0;
    while (cairn_body_is_awake(world, box) && steps < 600) {
        cairn_world_step(world, 1.0f / 60.0f);
        ++steps;
    }
    printf("asleep after %.2f s\n", steps / 60.0);

    /* an upward impulse wakes it: velocity change = impulse / mass */
    cairn_mass_properties mass;
    cairn_shape_mass_properties(cairn_body_shape(world, box), def.density, &mass);
    vec3s centre = cairn_body_transform(world, box).position;
    cairn_body_apply_impulse(world, box, (vec3s){{0, 1000, 0}}, centre);
    printf("awake: %s, up %.3f m/s (1000 N s / %.1f kg)\n",
           cairn_body_is_awake(world, box) ? "yes" : "no", cairn_body_linear_velocity(world, box).y,
           mass.mass);

    /* a destroyed body's id stays invalid, and using it is an error */
    cairn_body_destroy(world, box);
    cairn_body_transform(world, box);
    printf("valid: %s, error: %s\n", cairn_body_is_valid(world, box) ? "yes" : "no",
           cairn_last_error());

    /* a bad definition gives the null id and changes nothing */
    def.density = -1.0f;
    def.shape = cairn_body_shape(world, box); /* NULL: the id is stale */
    cairn_body_id bad = cairn_body_create(world, &def);
    printf("null id: %s, bodies: %d, error: %s\n",
           bad.index == 0 && bad.generation == 0 ? "yes" : "no", cairn_world_body_count(world),
           cairn_last_error());
    cairn_world_destroy(world);
}
