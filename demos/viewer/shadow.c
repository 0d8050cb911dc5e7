/* Shadow map resources and the light projection: an orthographic box around the casters'
   bounding sphere, looking along the light. */
#include "shadow.h"

#include <math.h>
#include <stdio.h>

bool shadow_map_create(shadow_map *s, int size)
{
    s->size = size;
    glGenTextures(1, &s->depth_texture);
    glBindTexture(GL_TEXTURE_2D, s->depth_texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, size, size, 0, GL_DEPTH_COMPONENT,
                 GL_UNSIGNED_INT, NULL);
    /* Linear filtering with depth comparison gives a 2x2 PCF per lookup on top of the taps. */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
    /* Outside the map nothing casts: a border depth of 1 reads as lit. */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_BORDER);
    const float border[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    glTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, border);
    glBindTexture(GL_TEXTURE_2D, 0);

    glGenFramebuffers(1, &s->framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, s->framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, s->depth_texture, 0);
    glDrawBuffer(GL_NONE);
    glReadBuffer(GL_NONE);
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "cairn-demo: shadow framebuffer incomplete (status 0x%x)\n", status);
        return false;
    }
    return true;
}

void shadow_map_destroy(shadow_map *s)
{
    glDeleteFramebuffers(1, &s->framebuffer);
    glDeleteTextures(1, &s->depth_texture);
    s->framebuffer = s->depth_texture = 0;
}

shadow_view shadow_view_fit(const shadow_map *s, vec3s to_light, cairn_aabb focus)
{
    vec3s centre = glms_vec3_scale(glms_vec3_add(focus.min, focus.max), 0.5f);
    float radius = 0.5f * glms_vec3_distance(focus.min, focus.max) + 0.5f;
    /* A shadow reaches down the light direction at most this far below the casters. */
    float height = focus.max.y - focus.min.y + radius;
    float reach = height / fmaxf(to_light.y, 0.1f);
    vec3s eye = glms_vec3_add(centre, glms_vec3_scale(to_light, radius + 1.0f));
    vec3s up =
        fabsf(to_light.y) > 0.99f ? (vec3s){{0.0f, 0.0f, 1.0f}} : (vec3s){{0.0f, 1.0f, 0.0f}};
    mat4s view = glms_lookat(eye, centre, up);
    mat4s projection =
        glms_ortho(-radius, radius, -radius, radius, 0.0f, 2.0f * radius + 1.0f + reach);
    return (shadow_view){
        .light_matrix = glms_mat4_mul(projection, view),
        .texel_metres = 2.0f * radius / (float)s->size,
    };
}

void shadow_map_begin(const shadow_map *s)
{
    glBindFramebuffer(GL_FRAMEBUFFER, s->framebuffer);
    glViewport(0, 0, s->size, s->size);
    glClear(GL_DEPTH_BUFFER_BIT);
}
