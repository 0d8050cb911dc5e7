/* Orbit camera: orbit, pan and zoom around a target, and the matrices the renderer needs. */
#include "camera.h"

#include <math.h>

#define ORBIT_RADIANS_PER_PIXEL 0.005f
#define ZOOM_FACTOR_PER_STEP    0.9f
#define MIN_DISTANCE            0.5f
#define MAX_DISTANCE            200.0f
#define MIN_FRAME_DISTANCE      8.0f
/* Just short of straight up/down, where lookat's up vector would be degenerate. */
#define MAX_PITCH 1.55f

camera camera_default(void)
{
    return (camera){
        .target = {{1.5f, 3.2f, 1.0f}},
        .yaw = 0.75f,
        .pitch = 0.45f,
        .distance = 20.0f,
        .fov_y = glm_rad(45.0f),
    };
}

void camera_orbit(camera *cam, float dx, float dy)
{
    cam->yaw -= dx * ORBIT_RADIANS_PER_PIXEL;
    cam->pitch = glm_clamp(cam->pitch + dy * ORBIT_RADIANS_PER_PIXEL, -MAX_PITCH, MAX_PITCH);
}

vec3s camera_forward(const camera *cam)
{
    vec3s eye = camera_eye(cam);
    return glms_vec3_normalize(glms_vec3_sub(cam->target, eye));
}

void camera_pan(camera *cam, float dx, float dy, int viewport_height)
{
    /* Metres per pixel at the target's depth, so the grabbed point follows the cursor. */
    float scale = 2.0f * cam->distance * tanf(cam->fov_y * 0.5f) / (float)viewport_height;
    vec3s forward = camera_forward(cam);
    vec3s right = glms_vec3_normalize(glms_vec3_cross(forward, (vec3s){{0.0f, 1.0f, 0.0f}}));
    vec3s up = glms_vec3_cross(right, forward);
    vec3s move =
        glms_vec3_add(glms_vec3_scale(right, -dx * scale), glms_vec3_scale(up, dy * scale));
    cam->target = glms_vec3_add(cam->target, move);
}

void camera_zoom(camera *cam, float steps)
{
    float d = cam->distance * powf(ZOOM_FACTOR_PER_STEP, steps);
    cam->distance = glm_clamp(d, MIN_DISTANCE, MAX_DISTANCE);
}

void camera_frame(camera *cam, cairn_aabb box)
{
    cam->target = glms_vec3_scale(glms_vec3_add(box.min, box.max), 0.5f);
    float radius = 0.5f * glms_vec3_distance(box.min, box.max);
    /* The bounding sphere just fits the vertical field of view. */
    float d = radius / sinf(0.5f * cam->fov_y);
    cam->distance = glm_clamp(d, MIN_FRAME_DISTANCE, MAX_DISTANCE);
}

vec3s camera_eye(const camera *cam)
{
    float c = cosf(cam->pitch);
    vec3s offset = {{c * sinf(cam->yaw), sinf(cam->pitch), c * cosf(cam->yaw)}};
    return glms_vec3_add(cam->target, glms_vec3_scale(offset, cam->distance));
}

mat4s camera_view(const camera *cam)
{
    return glms_lookat(camera_eye(cam), cam->target, (vec3s){{0.0f, 1.0f, 0.0f}});
}

mat4s camera_projection(const camera *cam, float aspect)
{
    return glms_perspective(cam->fov_y, aspect, 0.05f, 500.0f);
}

vec3s camera_ray(const camera *cam, float x, float y, int width, int height)
{
    float aspect = height > 0 ? (float)width / (float)height : 1.0f;
    mat4s inverse = glms_mat4_inv(glms_mat4_mul(camera_projection(cam, aspect), camera_view(cam)));
    float nx = 2.0f * x / (float)(width > 0 ? width : 1) - 1.0f;
    float ny = 1.0f - 2.0f * y / (float)(height > 0 ? height : 1);
    vec4s near = glms_mat4_mulv(inverse, (vec4s){{nx, ny, -1.0f, 1.0f}});
    vec4s far = glms_mat4_mulv(inverse, (vec4s){{nx, ny, 1.0f, 1.0f}});
    vec3s a = glms_vec3_divs(glms_vec3(near), near.w), b = glms_vec3_divs(glms_vec3(far), far.w);
    return glms_vec3_normalize(glms_vec3_sub(b, a));
}

void camera_fly(camera *cam, float forward, float right, float up)
{
    vec3s f = camera_forward(cam);
    vec3s r = glms_vec3_normalize(glms_vec3_cross(f, (vec3s){{0.0f, 1.0f, 0.0f}}));
    vec3s move = glms_vec3_add(glms_vec3_scale(f, forward), glms_vec3_scale(r, right));
    move.y += up;
    cam->target = glms_vec3_add(cam->target, move);
}
