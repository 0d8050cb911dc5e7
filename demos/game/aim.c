/* Pixel to world ray (the viewer's camera_ray), then the world's raycast. */
#include "aim.h"

#define AIM_RANGE 200.0f /* m, how far the aiming ray looks */

vec3s aim_point(const cairn_world *world, const camera *cam, float x, float y, int width,
                int height)
{
    vec3s eye = camera_eye(cam);
    vec3s dir = camera_ray(cam, x, y, width, height);
    cairn_ray_hit hit;
    if (cairn_world_raycast(world, eye, glms_vec3_scale(dir, AIM_RANGE), &hit)) {
        return hit.point;
    }
    return glms_vec3_add(eye, glms_vec3_scale(dir, cam->distance));
}
