/* A body part deep in a mesh whose every overlap is judged a ghost is pushed out by its deepest
   overlap, not let through (mesh_collide.c, deep_overlap_fallback). The case came from the
   API-sequence scripts (game seed 424): a thin cylinder spinning at 30 rad/s, pressed 10 cm into
   a heightfield's slope by a body on top. Its deepest point along the slope's normal lay past
   the slope's edge, over the neighbouring triangle (a ghost by the seam rule: no point), its
   face clipped over the slope gave none, the neighbour's overlap came through its back with the
   centre behind it (one-sided: none), and the cylinder fell through the terrain.
   The oracle: the contact's normal is the slope's face normal, computed from its corners, and
   its depth is the plane depth of the cylinder's support point along it. */
#include <criterion/criterion.h>

#include "collision/compound.h"
#include "collision/mesh_collide.h"
#include "mesh/mesh_helpers.h"

/* The script's heightfield: 9 x 9 samples, 2 m apart, at (15, 0, -8). */
static const float heights[81] = {
    0.0f,         0.198527277f,  0.240947723f,  0.186303616f,  0.189673543f,  0.5391258f,
    0.325239539f, 0.415888488f,  0.873466969f,  0.0f,          0.714666367f,  0.70849067f,
    0.334044516f, 0.910949051f,  0.576083124f,  0.908062339f,  0.369729519f,  0.677312613f,
    0.0f,         0.608549535f,  0.982817829f,  0.0449156761f, 0.640994072f,  0.262943745f,
    0.812309086f, 0.590752721f,  0.0392470956f, 0.0f,          0.0329350233f, 0.139397204f,
    0.23687005f,  0.12110275f,   0.777248383f,  0.920896173f,  0.742025137f,  0.564316332f,
    0.0f,         0.0938677192f, 0.592080534f,  0.0141798854f, 0.375193775f,  0.847407758f,
    0.773714721f, 0.229566336f,  0.308926165f,  0.0f,          0.170854509f,  0.791601837f,
    0.126686394f, 0.181824446f,  0.0474314094f, 0.8471995f,    0.595080018f,  0.29320097f,
    0.0f,         0.363062561f,  0.372323692f,  0.663442254f,  0.667525172f,  0.39991039f,
    0.651055872f, 0.994085789f,  0.629558921f,  0.0f,          0.589134693f,  0.526568055f,
    0.092566371f, 0.615712047f,  0.845332325f,  0.53153801f,   0.888632476f,  0.33116889f,
    0.0f,         0.118372262f,  0.106699646f,  0.807272136f,  0.232765436f,  0.530741692f,
    0.429655194f, 0.586174488f,  0.0112050772f,
};

/* The cylinder as the script had it one step before it fell through, 5 cm deeper. */
static const float half_height = 0.369711995f, radius = 0.126766458f, convex_radius = 0.02f;
static const cairn_transform pose = {{{20.7276421f, 0.381231993f - 0.05f, -2.53210306f}},
                                     {{-0.23885271f, -0.376685083f, -0.797204196f, 0.406845421f}}};
enum { SLOPE = 37 }; /* the triangle the cylinder is deepest in */

static vec3s face_normal(const vec3s c[3])
{
    return glms_vec3_normalize(
        glms_vec3_cross(glms_vec3_sub(c[1], c[0]), glms_vec3_sub(c[2], c[0])));
}

Test(ghost_only, a_part_whose_every_overlap_is_a_ghost_is_pushed_out_along_its_deepest)
{
    cairn_shape *field = cairn_shape_heightfield(heights, 9, 9, v3(2, 1, 2));
    cairn_shape *cylinder = cairn_shape_cylinder(half_height, radius, convex_radius);
    cr_assert(field && cylinder, "%s", cairn_last_error());
    cairn_transform at = scene_at(v3(15, 0, -8));
    vec3s corners[3];
    cr_assert(cairn_shape_triangle(field, SLOPE, corners));
    for (int k = 0; k < 3; ++k)
        corners[k] = glms_vec3_add(corners[k], at.position);
    vec3s n = face_normal(corners);
    /* the plane depth of the cylinder's deepest point along the slope's normal */
    vec3s down = glms_quat_rotatev(glms_quat_conjugate(pose.rotation), glms_vec3_negate(n));
    vec3s deepest = glms_vec3_add(
        pose.position, glms_quat_rotatev(pose.rotation, cairn_shape_support(cylinder, down)));
    float depth = glms_vec3_dot(n, glms_vec3_sub(deepest, corners[0]));
    cr_assert(depth < -0.05f, "the case is %.3f m deep, not deep", (double)depth);

    mesh_history history = {NULL, 0, NULL, 0, {0}, 0};
    manifold out[CONTACT_MAX_MANIFOLDS];
    compound_stats stats = {0};
    int count = mesh_manifolds(field, at, cylinder, pose, 0.1f, &history, NULL, out, &stats);
    cr_assert_gt(count, 0, "no contact: the cylinder falls through");
    const manifold *m = NULL;
    for (int i = 0; i < count; ++i)
        if (glms_vec3_dot(out[i].normal, n) > 0.999f)
            m = &out[i];
    cr_assert_not_null(m, "no manifold along the slope's normal (%.3f %.3f %.3f)", (double)n.x,
                       (double)n.y, (double)n.z);
    float deepest_separation = 0.0f;
    for (int i = 0; i < m->point_count; ++i)
        deepest_separation = fminf(deepest_separation, m->points[i].separation);
    cr_expect(fabsf(deepest_separation - depth) < 0.002f, "depth %.4f m, the plane says %.4f m",
              (double)deepest_separation, (double)depth);
    cr_expect_gt(history.touched_now_count, 0, "the triangle is not kept for the next step");
    cairn_shape_release(field);
    cairn_shape_release(cylinder);
}
