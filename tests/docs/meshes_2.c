#include <cairn/cairn.h>
#include <stdio.h>

int main(void)
{
    cairn_world_def world_def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&world_def);

    /* 5 x 5 samples of 1 m cells, 1 m high, with a hole at sample (2, 2): the four cells
       around it, x and z from 1 to 3 m, are open. */
    float heights[25];
    for (int i = 0; i < 25; ++i)
        heights[i] = 1.0f;
    heights[2 * 5 + 2] = CAIRN_HEIGHTFIELD_HOLE;
    cairn_shape *ground = cairn_shape_heightfield(heights, 5, 5, (vec3s){{1, 1, 1}});

    int remaining = 0;
    for (int t = 0; t < cairn_shape_triangle_count(ground); ++t) {
        vec3s corners[3];
        remaining += cairn_shape_triangle(ground, t, corners);
    }
    printf("triangles: %d, of which %d remain\n", cairn_shape_triangle_count(ground), remaining);

    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_STATIC;
    def.shape = ground;
    cairn_body_create(world, &def);

    cairn_ray_hit hit;
    bool through = cairn_world_raycast(world, (vec3s){{2.2f, 5, 1.7f}}, (vec3s){{0, -10, 0}}, &hit);
    printf("ray through the hole: %s\n", through ? "hit" : "missed");
    if (cairn_world_raycast(world, (vec3s){{0.5f, 5, 3.5f}}, (vec3s){{0, -10, 0}}, &hit))
        printf("ray beside it: hit at height %.3f m\n", hit.point.y);

    cairn_shape *ball = cairn_shape_sphere(0.3f);
    def = cairn_body_default_def();
    def.shape = ball;
    def.transform.position = (vec3s){{2, 3, 2}};
    cairn_body_id over = cairn_body_create(world, &def);
    def.transform.position = (vec3s){{0.5f, 3, 3.5f}};
    cairn_body_id beside = cairn_body_create(world, &def);
    for (int i = 0; i < 120; ++i)
        cairn_world_step(world, 1.0f / 60.0f);
    printf("ball over the hole: %s\n",
           cairn_body_transform(world, over).position.y < 0.0f ? "fell through" : "stopped");
    printf("ball beside it: rests at y = %.2f m\n", cairn_body_transform(world, beside).position.y);

    /* A grid with no cell left is refused. */
    heights[0] = heights[4] = heights[20] = heights[24] = CAIRN_HEIGHTFIELD_HOLE;
    heights[2] = heights[10] = heights[14] = heights[22] = CAIRN_HEIGHTFIELD_HOLE;
    cairn_shape *none = cairn_shape_heightfield(heights, 5, 5, (vec3s){{1, 1, 1}});
    printf("all cells open: %s (%s)\n", none ? "made" : "refused", cairn_last_error());

    cairn_shape_release(ball);
    cairn_shape_release(ground);
    cairn_world_destroy(world);
    return 0;
}
