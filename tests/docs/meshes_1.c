#include <cairn/cairn.h>
#include <stdio.h>

int main(void)
{
    cairn_world_def world_def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&world_def);

    /* A 20 m square floor of two triangles, counter-clockwise seen from above. */
    vec3s vertices[4] = {{{-10, 0, -10}}, {{10, 0, -10}}, {{10, 0, 10}}, {{-10, 0, 10}}};
    int indices[6] = {0, 2, 1, 0, 3, 2};
    cairn_shape *floor = cairn_shape_mesh(vertices, 4, indices, 2);

    /* A 5 x 5 heightfield of 1 m cells, a hill in the middle, placed beside the floor. */
    float heights[25] = {0,    0, 0, 0,    0,    0,    0.5f, 0.5f, 0.5f, 0, 0, 0.5f, 1,
                         0.5f, 0, 0, 0.5f, 0.5f, 0.5f, 0,    0,    0,    0, 0, 0};
    cairn_shape *hill = cairn_shape_heightfield(heights, 5, 5, (vec3s){{1, 1, 1}});

    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_STATIC;
    def.shape = floor;
    cairn_body_id floor_id = cairn_body_create(world, &def);
    def.shape = hill;
    def.transform.position = (vec3s){{20, 0, 0}};
    cairn_body_create(world, &def);

    /* Triangles are for static and kinematic bodies. */
    def.type = CAIRN_DYNAMIC;
    cairn_body_id rejected = cairn_body_create(world, &def);
    printf("dynamic heightfield: %s (%s)\n",
           cairn_body_is_valid(world, rejected) ? "ok" : "refused", cairn_last_error());

    cairn_shape *box = cairn_shape_box((vec3s){{0.5f, 0.5f, 0.5f}}, 0.05f);
    def.shape = box;
    def.transform.position = (vec3s){{1, 3, 2}};
    cairn_body_id crate = cairn_body_create(world, &def);
    for (int i = 0; i < 180; ++i)
        cairn_world_step(world, 1.0f / 60.0f);
    printf("crate rests at y = %.2f m\n", cairn_body_transform(world, crate).position.y);

    cairn_ray_hit hit;
    if (cairn_world_raycast(world, (vec3s){{-5, 5, -3}}, (vec3s){{0, -10, 0}}, &hit))
        printf("ray: floor %s, fraction %.2f, normal (%.0f, %.0f, %.0f)\n",
               hit.body.index == floor_id.index ? "hit" : "missed", hit.fraction, hit.normal.x,
               hit.normal.y, hit.normal.z);
    cairn_triangle_hit top;
    cairn_transform hill_xf = {{{20, 0, 0}}, {{0, 0, 0, 1}}};
    if (cairn_shape_raycast_triangle(hill, hill_xf, (vec3s){{22.25f, 5, 2.75f}},
                                     (vec3s){{0, -10, 0}}, &top))
        printf("hill: triangle %d at height %.3f m\n", top.triangle, top.point.y);

    cairn_shape_release(box);
    cairn_shape_release(hill);
    cairn_shape_release(floor);
    cairn_world_destroy(world);
    return 0;
}
