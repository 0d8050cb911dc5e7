#include <cairn/cairn.h>
#include <stdio.h>

int main(void)
{
    cairn_world_def world_def = cairn_world_default_def(); /* gravity -9.81 m/s^2 along Y */
    cairn_world *world = cairn_world_create(&world_def);
    cairn_body_def def = cairn_body_default_def(); /* dynamic, density 1000 kg/m^3 */
    def.type = CAIRN_STATIC;                       /* the floor: top face at y = 0 */
    def.shape = cairn_shape_box((vec3s){{50, 1, 50}}, 0.0f);
    def.transform.position = (vec3s){{0, -1, 0}};
    cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape); /* the body keeps its own reference */
    def.type = CAIRN_DYNAMIC;                      /* a 1 m box dropped from 4 m */
    def.shape = cairn_shape_box((vec3s){{0.5f, 0.5f, 0.5f}}, 0.05f);
    def.transform.position = (vec3s){{0, 4, 0}};
    cairn_body_id box = cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);
    for (int step = 0; step < 120; ++step) /* 2 s at 60 Hz */
        cairn_world_step(world, 1.0f / 60.0f);
    printf("box height: %.3f m\n", cairn_body_transform(world, box).position.y);
    cairn_world_destroy(world);
}
