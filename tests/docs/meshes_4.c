#include <cairn/cairn.h>
#include <stdio.h>

/* 9 x 9 samples of 2 m cells, flat: the 4 columns of cells left of x = 8 m ice, the rest
   rough. */
static cairn_shape *ice_and_rough(void)
{
    float heights[9 * 9] = {0};
    int cell_material[8 * 8];
    for (int z = 0; z < 8; ++z)
        for (int x = 0; x < 8; ++x)
            cell_material[z * 8 + x] = x < 4 ? 0 : 1;
    const cairn_surface_material materials[2] = {{0.05f, 0.0f, 0.0f}, {0.9f, 0.0f, 0.0f}};
    return cairn_shape_heightfield_with_materials(heights, 9, 9, (vec3s){{2, 1, 2}}, cell_material,
                                                  materials, 2);
}

int main(void)
{
    cairn_world_def world_def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&world_def);
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_STATIC;
    def.shape = ice_and_rough();
    cairn_body_create(world, &def);
    printf("triangles 0 and 1 (cell 0, 0): materials %d %d; triangles 14 and 15 (cell 7, 0): "
           "%d %d\n",
           cairn_shape_triangle_material(def.shape, 0), cairn_shape_triangle_material(def.shape, 1),
           cairn_shape_triangle_material(def.shape, 14),
           cairn_shape_triangle_material(def.shape, 15));
    cairn_shape_release((cairn_shape *)def.shape);

    cairn_body_id boxes[2];
    for (int k = 0; k < 2; ++k) { /* friction 1: the pair's friction is sqrt(f_cell) */
        def = cairn_body_default_def();
        def.shape = cairn_shape_box((vec3s){{0.4f, 0.25f, 0.4f}}, 0.05f);
        def.transform.position = (vec3s){{k == 0 ? 4.0f : 12.0f, 0.25f, 1.0f}};
        def.linear_velocity = (vec3s){{0, 0, 5}};
        def.friction = 1.0f;
        boxes[k] = cairn_body_create(world, &def);
        cairn_shape_release((cairn_shape *)def.shape);
    }
    for (int i = 0; i < 300; ++i)
        cairn_world_step(world, 1.0f / 60.0f);
    for (int k = 0; k < 2; ++k)
        printf("%s: slid %.1f m\n", k == 0 ? "ice" : "rough",
               cairn_body_transform(world, boxes[k]).position.z - 1.0f);

    cairn_ray_hit hit;
    if (cairn_world_raycast(world, (vec3s){{12, 1, 14}}, (vec3s){{0, -2, 0}}, &hit))
        printf("ray at x = 12 m hits material %d\n", hit.material);

    const float flat[4] = {0, 0, 0, 0};
    const int bad_index[1] = {3};
    const cairn_surface_material one[1] = {{0.5f, 0.0f, 0.0f}};
    if (!cairn_shape_heightfield_with_materials(flat, 2, 2, (vec3s){{1, 1, 1}}, bad_index, one, 1))
        printf("refused (%s)\n", cairn_last_error());
    cairn_world_destroy(world);
    return 0;
}
