#include <cairn/cairn.h>
#include <cairn/io.h>
#include <stdio.h>

int main(void)
{
    cairn_world *world = NULL;
    cairn_io_error err;
    if (!cairn_scene_load("tests/io/data/scene_file_materials.yaml", &world, &err)) {
        printf("%s:%d:%d: %s\n", err.file, err.line, err.column, err.message);
        return 1;
    }
    cairn_body_id pads;
    cairn_world_bodies(world, &pads, 1);
    const cairn_shape *mesh = cairn_body_shape(world, pads);
    for (int t = 0; t < cairn_shape_triangle_count(mesh); ++t) {
        vec3s corners[3];
        cairn_surface_material m;
        cairn_shape_triangle(mesh, t, corners);
        cairn_shape_mesh_material(mesh, cairn_shape_triangle_material(mesh, t), &m);
        printf("triangle %d at x = %+.0f: friction %.2f, restitution %.2f\n", t,
               (corners[0].x + corners[1].x + corners[2].x) / 3.0f, m.friction, m.restitution);
    }
    cairn_world_destroy(world);
    return 0;
}
