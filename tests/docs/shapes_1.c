#include <cairn/cairn.h>
#include <stdio.h>

int main(void)
{
    /* a 1 m box with edges rounded by 5 cm: still 1 m wide, slightly lighter than 1000 kg */
    cairn_shape *box = cairn_shape_box((vec3s){{0.5f, 0.5f, 0.5f}}, 0.05f);
    cairn_aabb bounds = cairn_shape_bounds(box, cairn_transform_identity());
    cairn_mass_properties mass;
    cairn_shape_mass_properties(box, 1000.0f, &mass);
    printf("width: %.2f m, mass: %.1f kg\n", bounds.max.x - bounds.min.x, mass.mass);

    /* four points in a plane do not make a hull */
    vec3s quad[4] = {{{0, 0, 0}}, {{1, 0, 0}}, {{0, 0, 1}}, {{1, 0, 1}}};
    cairn_shape *flat = cairn_shape_hull(quad, 4, 0.0f);
    printf("flat hull: %s (%s)\n", flat ? "made" : "NULL", cairn_last_error());

    /* a tetrahedron; the fifth point is inside and dropped; the radius is clamped */
    vec3s points[5] = {{{0, 0, 0}}, {{1, 0, 0}}, {{0, 1, 0}}, {{0, 0, 1}}, {{0.1f, 0.1f, 0.1f}}};
    cairn_shape *tetra = cairn_shape_hull(points, 5, 0.5f);
    printf("tetrahedron: %d vertices, %d faces, convex radius %.3f\n",
           cairn_hull_vertex_count(tetra), cairn_hull_face_count(tetra),
           cairn_shape_get_params(tetra).convex_radius);

    cairn_shape_release(tetra);
    cairn_shape_release(box);
}
