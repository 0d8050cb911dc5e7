/* Pixel to world ray through the inverse view-projection, then the world's raycast. */
#include "aim.h"

#define AIM_RANGE 200.0f /* m, how far the aiming ray looks */

/* The world point at normalised device coordinates (nx, ny, nz). */
static vec3s unproject(mat4s inverse, float nx, float ny, float nz)
{
    vec4s p = glms_mat4_mulv(inverse, (vec4s){{nx, ny, nz, 1.0f}});
    return glms_vec3_scale((vec3s){{p.x, p.y, p.z}}, 1.0f / p.w);
}

vec3s aim_point(const cairn_world *world, const camera *cam, float x, float y, int width,
                int height)
{
    float aspect = (float)width / (float)(height > 0 ? height : 1);
    mat4s inverse = glms_mat4_inv(glms_mat4_mul(camera_projection(cam, aspect), camera_view(cam)));
    float nx = 2.0f * x / (float)width - 1.0f, ny = 1.0f - 2.0f * y / (float)height;
    vec3s eye = camera_eye(cam);
    vec3s dir = glms_vec3_normalize(
        glms_vec3_sub(unproject(inverse, nx, ny, 1.0f), unproject(inverse, nx, ny, -1.0f)));
    cairn_ray_hit hit;
    if (cairn_world_raycast(world, eye, glms_vec3_scale(dir, AIM_RANGE), &hit)) {
        return hit.point;
    }
    return glms_vec3_add(eye, glms_vec3_scale(dir, cam->distance));
}
