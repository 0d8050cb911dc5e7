/* The directional light's shadow map: a depth texture and the light's view-projection fitted
   to the region whose shadows matter. */
#ifndef CAIRN_DEMO_SHADOW_H
#define CAIRN_DEMO_SHADOW_H

#include <cairn/cairn.h>
#include <epoxy/gl.h>

typedef struct shadow_map {
    GLuint framebuffer, depth_texture;
    int size; /* texels per side */
} shadow_map;

typedef struct shadow_view {
    mat4s light_matrix; /* world -> light clip space */
    float texel_metres; /* world size of one shadow texel, for the receivers' normal offset */
} shadow_view;

/* False (message on stderr) when the framebuffer is incomplete. */
bool shadow_map_create(shadow_map *s, int size);
void shadow_map_destroy(shadow_map *s);

/* to_light: unit direction towards the light. focus: the casters; everything they can shadow
   (down to y = focus.min.y minus the caster's height) stays inside the depth range. */
shadow_view shadow_view_fit(const shadow_map *s, vec3s to_light, cairn_aabb focus);

/* Binds the shadow framebuffer and clears it; the caller draws depth, then rebinds 0. */
void shadow_map_begin(const shadow_map *s);

#endif
