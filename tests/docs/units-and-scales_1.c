#include <cairn/cairn.h>
#include <stdio.h>

/* A light 1 m box on the floor and a box `ratio` times heavier on top; returns how far the top
   box has sunk below its exact resting height after 5 s. */
static float sink(float ratio)
{
    cairn_world_def world_def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&world_def);
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_STATIC;
    def.shape = cairn_shape_box((vec3s){{10, 1, 10}}, 0.0f);
    def.transform.position = (vec3s){{0, -1, 0}};
    cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);
    def.type = CAIRN_DYNAMIC;
    def.shape = cairn_shape_box((vec3s){{0.5f, 0.5f, 0.5f}}, 0.05f);
    def.transform.position = (vec3s){{0, 0.5f, 0}};
    cairn_body_create(world, &def);
    def.transform.position = (vec3s){{0, 1.5f, 0}};
    def.density = 1000.0f * ratio;
    cairn_body_id top = cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);
    for (int step = 0; step < 300; ++step)
        cairn_world_step(world, 1.0f / 60.0f);
    float sunk = 1.5f - cairn_body_transform(world, top).position.y;
    cairn_world_destroy(world);
    return sunk;
}

int main(void)
{
    printf("sink at 1:1 %.1f mm, 10:1 %.1f mm, 100:1 %.0f mm\n", 1000 * sink(1), 1000 * sink(10),
           1000 * sink(100));
    cairn_shape *grain = cairn_shape_sphere(0.00005f); /* 0.05 mm: below CAIRN_MIN_SIZE */
    printf("grain: %s, %s\n", grain ? "made" : "NULL", cairn_last_error());
}
