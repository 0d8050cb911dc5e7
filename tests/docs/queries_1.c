#include <cairn/cairn.h>
#include <stdio.h>

int main(void)
{
    cairn_world_def world_def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&world_def);
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_STATIC;
    def.shape = cairn_shape_box((vec3s){{20, 1, 20}}, 0.0f);
    def.transform.position = (vec3s){{0, -1, 0}};
    cairn_body_id floor = cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);
    cairn_shape *ball = cairn_shape_sphere(0.5f);
    def.type = CAIRN_DYNAMIC;
    def.shape = ball;
    for (int i = 0; i < 3; ++i) {
        def.transform.position = (vec3s){{3.0f * i, 0.5f, 0}};
        cairn_body_create(world, &def);
    }

    /* a 20 m ray along +x at the balls' centre height, starting at x = -5 */
    vec3s origin = {{-5, 0.5f, 0}}, translation = {{20, 0, 0}};
    cairn_ray_hit hit;
    if (cairn_world_raycast(world, origin, translation, &hit))
        printf("closest: fraction %.3f at x = %.2f, normal x %.1f\n", hit.fraction, hit.point.x,
               hit.normal.x);
    cairn_ray_hit hits[8];
    int total = cairn_world_raycast_all(world, origin, translation, CAIRN_QUERY_ALL, hits, 8);
    printf("all: %d hits:", total);
    for (int i = 0; i < total && i < 8; ++i)
        printf(" %.3f", hits[i].fraction);
    printf("\n");
    printf("mask 0x2: %d hits\n",
           cairn_world_raycast_all(world, origin, translation, 0x2u, NULL, 0));

    /* drop a ball of radius 0.25 from y = 5 onto the first ball: it touches at y = 1.25 */
    cairn_shape *small = cairn_shape_sphere(0.25f);
    cairn_transform start = cairn_transform_identity();
    start.position = (vec3s){{0, 5, 0}};
    cairn_shape_cast_hit cast;
    if (cairn_world_shape_cast(world, small, start, (vec3s){{0, -10, 0}}, CAIRN_QUERY_ALL, &cast))
        printf("cast: fraction %.3f, lands at y = %.3f\n", cast.fraction,
               5.0f - 10.0f * cast.fraction);

    /* a ball of radius 1 around the middle ball touches it and the floor, not its neighbours */
    cairn_shape *probe = cairn_shape_sphere(1.0f);
    cairn_transform at = cairn_transform_identity();
    at.position = (vec3s){{3, 0.5f, 0}};
    cairn_body_id found[8];
    int count = cairn_world_overlap_shape(world, probe, at, CAIRN_QUERY_ALL, found, 8);
    printf("overlap: %d bodies, first is the floor: %s\n", count,
           count > 0 && found[0].index == floor.index ? "yes" : "no");

    /* bounds between x = 2 and 7, above the floor: the last two balls */
    cairn_aabb box = {{{2, 0.2f, -1}}, {{7, 1, 1}}};
    printf("aabb: %d bodies\n", cairn_world_overlap_aabb(world, box, CAIRN_QUERY_ALL, found, 8));

    /* two shapes without a world: the gap between the first ball and the cast ball at rest */
    cairn_transform xa = cairn_transform_identity(), xb = cairn_transform_identity();
    xa.position = (vec3s){{0, 0.5f, 0}};
    xb.position = (vec3s){{0, 2, 0}};
    cairn_query_result result;
    cairn_collide(ball, xa, small, xb, NULL, &result);
    printf("gap: %.3f m, normal y %.1f\n", result.distance, result.normal.y);

    cairn_shape_release(probe);
    cairn_shape_release(small);
    cairn_shape_release(ball);
    cairn_world_destroy(world);
}
