#include <cairn/cairn.h>
#include <stdio.h>

/* Two 4 m x 16 m strips side by side along z: ice left of x = 0, rubber right of it. */
static cairn_shape *two_strips(void)
{
    const vec3s v[6] = {{{-4, 0, -8}}, {{0, 0, -8}}, {{4, 0, -8}},
                        {{-4, 0, 8}},  {{0, 0, 8}},  {{4, 0, 8}}};
    const int indices[12] = {0, 3, 4, 0, 4, 1, 1, 4, 5, 1, 5, 2};
    const int material_indices[4] = {0, 0, 1, 1};
    const cairn_surface_material materials[2] = {{0.05f, 0.0f, 0.0f}, {0.9f, 0.0f, 0.0f}};
    return cairn_shape_mesh_with_materials(v, 6, indices, 4, material_indices, materials, 2);
}

int main(void)
{
    cairn_world_def world_def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&world_def);
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_STATIC;
    def.shape = two_strips();
    cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);

    cairn_body_id boxes[2];
    for (int k = 0; k < 2; ++k) { /* friction 1: the pair's friction is sqrt(f_triangle) */
        def = cairn_body_default_def();
        def.shape = cairn_shape_box((vec3s){{0.4f, 0.25f, 0.4f}}, 0.05f);
        def.transform.position = (vec3s){{k == 0 ? -2.0f : 2.0f, 0.25f, -7.0f}};
        def.linear_velocity = (vec3s){{0, 0, 5}};
        def.friction = 1.0f;
        boxes[k] = cairn_body_create(world, &def);
        cairn_shape_release((cairn_shape *)def.shape);
    }
    for (int i = 0; i < 300; ++i)
        cairn_world_step(world, 1.0f / 60.0f);
    for (int k = 0; k < 2; ++k)
        printf("%s: slid %.1f m\n", k == 0 ? "ice" : "rubber",
               cairn_body_transform(world, boxes[k]).position.z + 7.0f);

    cairn_ray_hit hit;
    if (cairn_world_raycast(world, (vec3s){{2, 1, 0}}, (vec3s){{0, -2, 0}}, &hit))
        printf("ray at x = 2 hits material %d\n", hit.material);

    const vec3s v[3] = {{{0, 0, 0}}, {{0, 0, 1}}, {{1, 0, 0}}};
    const int triangle[3] = {0, 1, 2}, bad_index[1] = {2};
    const cairn_surface_material one[1] = {{0.5f, 0.0f, 0.0f}};
    if (!cairn_shape_mesh_with_materials(v, 3, triangle, 1, bad_index, one, 1))
        printf("refused (%s)\n", cairn_last_error());
    cairn_world_destroy(world);
    return 0;
}
