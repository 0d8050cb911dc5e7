/* A body that lands fast on a mesh and goes deep into it within one step is pushed back out,
   not let through. The case came from an API-sequence script (seed 116 of the second set): a
   tilted cylinder landing at 10 m/s on a bumpy mesh turned its rim 20 cm into the two triangles
   of a seam; one side's query said "out through the back" (rejected, one-sided), the other's was
   a ghost at an inactive edge whose deepest point lay over the first, and the cylinder fell
   through. The oracle: the body's centre stays above the surface under it (a ray down), every
   step. */
#include "mesh_helpers.h"

/* The script's ground: a 9 x 9 grid over 16 x 16 m, heights in [0, 1] m. */
static const float heights[81] = {
    0.745328546f,  0.264885068f, 0.270579815f,  0.2696504f,     0.847119749f,   0.859126091f,
    0.0702100992f, 0.322845459f, 0.0f,          0.484293044f,   0.424450874f,   0.228761792f,
    0.961236298f,  0.418577313f, 0.867459774f,  0.888576567f,   0.648640096f,   0.0f,
    0.902152956f,  0.181574404f, 0.0720003843f, 0.535206437f,   0.351986587f,   0.847699165f,
    0.925426662f,  0.435935199f, 0.0f,          0.433313072f,   0.114718914f,   0.139788926f,
    0.172493696f,  0.298244119f, 0.486960471f,  0.403927088f,   0.818672836f,   0.0f,
    0.745941997f,  0.724031389f, 0.274916351f,  0.0271008611f,  0.433937848f,   0.514817834f,
    0.925340712f,  0.765275121f, 0.0f,          0.377004325f,   0.29417634f,    0.33221066f,
    0.218133569f,  0.666108549f, 0.503430784f,  0.220771134f,   0.00664937496f, 0.0f,
    0.476751864f,  0.946111858f, 0.472154677f,  0.704113007f,   0.366934657f,   0.0381412506f,
    0.202266514f,  0.268966675f, 0.0f,          0.256221414f,   0.588260293f,   0.307437718f,
    0.727053285f,  0.030687511f, 0.569780529f,  0.00293594599f, 0.0754198432f,  0.0f,
    0.442393661f,  0.220745504f, 0.440909803f,  0.651999533f,   0.00109046698f, 0.462582409f,
    0.7460621f,    0.466159999f, 0.0f};

/* Shared corners, two triangles per cell, counter-clockwise seen from above. */
static cairn_shape *bumpy_mesh(void)
{
    vec3s vertices[81];
    int indices[8 * 8 * 6], n = 0;
    for (int z = 0; z < 9; ++z)
        for (int x = 0; x < 9; ++x)
            vertices[z * 9 + x] = v3(2.0f * (float)x, heights[z * 9 + x], 2.0f * (float)z);
    for (int z = 0; z < 8; ++z)
        for (int x = 0; x < 8; ++x) {
            int v00 = z * 9 + x, v10 = v00 + 1, v01 = v00 + 9, v11 = v01 + 1;
            int cell[6] = {v00, v01, v11, v00, v11, v10};
            memcpy(&indices[n], cell, sizeof cell);
            n += 6;
        }
    cairn_shape *mesh = cairn_shape_mesh(vertices, 81, indices, n / 3);
    cr_assert_not_null(mesh, "%s", cairn_last_error());
    return mesh;
}

/* The script's world and the cylinder as it was 0.3 s before it touched down. */
static double lowest_clearance(int position_correction, int substeps)
{
    cairn_world_def def = cairn_world_default_def();
    def.solver.position_correction = position_correction;
    def.solver.substeps = substeps;
    def.solver.velocity_iterations = 8;
    cairn_world *world = scene_world(&def);
    scene_body(world, bumpy_mesh(), CAIRN_STATIC, scene_at(v3(-31, 0, -8)), 1000.0f, 0.6f, 0.0f);
    cairn_body_def body = cairn_body_default_def();
    body.shape = cairn_shape_cylinder(0.321242094f, 0.118729241f, 0.02f);
    body.transform.position = v3(-21.962944f, 1.60409176f, 3.08078384f);
    body.transform.rotation =
        glms_quat_normalize((versors){{0.310219377f, -0.473044038f, -0.656798959f, 0.498606473f}});
    body.linear_velocity = v3(-1.13588333f, -9.41760159f, -0.98837471f);
    body.angular_velocity = v3(0.284920692f, -0.703437686f, 1.20509982f);
    body.density = 6.43882132f / cairn_shape_volume(body.shape);
    body.friction = 0.0333314203f;
    body.layer = 2; /* out of the ray's way */
    cairn_body_id cylinder = cairn_body_create(world, &body);
    cairn_shape_release((cairn_shape *)body.shape);
    cr_assert(cairn_body_is_valid(world, cylinder), "%s", cairn_last_error());
    double lowest = INFINITY;
    for (int step = 0; step < 120; ++step) {
        cairn_world_step(world, SCENE_DT);
        vec3s centre = scene_position(world, cylinder);
        cairn_ray_hit hit;
        cr_assert(
            cairn_world_raycast_mask(world, v3(centre.x, 5, centre.z), v3(0, -10, 0), 1u, &hit),
            "no ground under the cylinder at step %d", step);
        lowest = fmin(lowest, (double)centre.y - (double)hit.point.y);
    }
    cairn_world_destroy(world);
    return lowest;
}

Test(deep_landing, a_cylinder_landing_deep_in_a_seam_is_pushed_back_out)
{
    const int modes[3] = {CAIRN_SPLIT_IMPULSE, CAIRN_SOFT_STEP, CAIRN_BAUMGARTE};
    const int substeps[2] = {1, 4};
    for (int m = 0; m < 3; ++m)
        for (int s = 0; s < 2; ++s) {
            double clearance = lowest_clearance(modes[m], substeps[s]);
            cr_expect(clearance > 0.0,
                      "mode %d, %d substeps: the centre went %g m under the surface below it",
                      modes[m], substeps[s], -clearance);
        }
}
