/* Orbit camera of the viewer: a target point seen from a yaw/pitch/distance; pure math, no GL. */
#ifndef CAIRN_DEMO_CAMERA_H
#define CAIRN_DEMO_CAMERA_H

#include <cairn/cairn.h>

typedef struct camera {
    vec3s target;
    float yaw;      /* radians about +Y; 0 looks from +Z towards -Z */
    float pitch;    /* radians above the horizon */
    float distance; /* metres from the target */
    float fov_y;    /* radians */
} camera;

camera camera_default(void);
/* Mouse deltas in pixels. */
void camera_orbit(camera *cam, float dx, float dy);
void camera_pan(camera *cam, float dx, float dy, int viewport_height);
/* Wheel steps; positive moves closer. */
void camera_zoom(camera *cam, float steps);

/* Aims at the centre of the box from far enough to see all of it (keeps yaw and pitch). */
void camera_frame(camera *cam, cairn_aabb box);

vec3s camera_eye(const camera *cam);
/* Unit direction from the eye towards the target. */
vec3s camera_forward(const camera *cam);
mat4s camera_view(const camera *cam);
mat4s camera_projection(const camera *cam, float aspect);
/* Unit direction from the eye through pixel (x, y) of a width x height view (y down). */
vec3s camera_ray(const camera *cam, float x, float y, int width, int height);
/* Moves eye and target together, in metres along the view's forward, right and world up. */
void camera_fly(camera *cam, float forward, float right, float up);

#endif
