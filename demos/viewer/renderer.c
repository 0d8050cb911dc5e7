/* Frame orchestration: gather the bodies into per-shape instance buffers, render the shadow
   map, then the lit scene. */
#include "renderer.h"

#include "body_batch.h"
#include "shader.h"
#include "shadow.h"

#include <stdio.h>
#include <stdlib.h>

#define SHADOW_MAP_SIZE 2048

typedef struct lit_uniforms {
    GLint view_projection, light_matrix, normal_offset, to_light, light_colour, eye, sky_colour,
        shadow_map;
} lit_uniforms;

struct renderer {
    GLuint lit_program, shadow_program;
    lit_uniforms lit;
    GLint shadow_light_matrix;
    shape_cache cache;
    body_batch batch;
    shadow_map shadow;
    vec3s to_light, light_colour, sky_colour;
    mat4s view_projection; /* of the last frame */
};

static void find_uniforms(renderer *r)
{
    GLuint p = r->lit_program;
    r->lit = (lit_uniforms){
        .view_projection = glGetUniformLocation(p, "u_view_projection"),
        .light_matrix = glGetUniformLocation(p, "u_light_matrix"),
        .normal_offset = glGetUniformLocation(p, "u_normal_offset"),
        .to_light = glGetUniformLocation(p, "u_to_light"),
        .light_colour = glGetUniformLocation(p, "u_light_colour"),
        .eye = glGetUniformLocation(p, "u_eye"),
        .sky_colour = glGetUniformLocation(p, "u_sky_colour"),
        .shadow_map = glGetUniformLocation(p, "u_shadow_map"),
    };
    r->shadow_light_matrix = glGetUniformLocation(r->shadow_program, "u_light_matrix");
}

renderer *renderer_create(const char *shader_dir)
{
    renderer *r = calloc(1, sizeof *r);
    if (!r) {
        return NULL;
    }
    r->to_light = glms_vec3_normalize((vec3s){{-0.35f, 1.0f, 0.85f}});
    r->light_colour = (vec3s){{0.95f, 0.92f, 0.86f}};
    r->sky_colour = (vec3s){{0.70f, 0.78f, 0.86f}};
    r->lit_program = shader_program_load(shader_dir, "lit");
    r->shadow_program = r->lit_program ? shader_program_load(shader_dir, "shadow") : 0;
    if (!r->shadow_program || !shadow_map_create(&r->shadow, SHADOW_MAP_SIZE)) {
        renderer_destroy(r);
        return NULL;
    }
    find_uniforms(r);
    return r;
}

static void upload_instances(renderer *r)
{
    for (int m = 0; m < r->cache.count; ++m) {
        shape_mesh *sm = &r->cache.meshes[m];
        if (sm->ok) {
            gpu_mesh_set_instances(&sm->gpu, r->batch.instances + sm->first_instance,
                                   sm->instance_count);
        }
    }
}

static void draw_meshes(const renderer *r)
{
    for (int m = 0; m < r->cache.count; ++m) {
        const shape_mesh *sm = &r->cache.meshes[m];
        if (sm->ok && sm->instance_count > 0) {
            gpu_mesh_draw(&sm->gpu);
        }
    }
}

static void shadow_pass(const renderer *r, const shadow_view *view)
{
    shadow_map_begin(&r->shadow);
    glUseProgram(r->shadow_program);
    glUniformMatrix4fv(r->shadow_light_matrix, 1, GL_FALSE, view->light_matrix.raw[0]);
    /* Pushing depths back a little keeps lit surfaces from shadowing themselves. */
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.5f, 2.0f);
    draw_meshes(r);
    glDisable(GL_POLYGON_OFFSET_FILL);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

static void lit_pass(const renderer *r, const camera *cam, const shadow_view *view)
{
    mat4s view_projection = r->view_projection;
    vec3s eye = camera_eye(cam);
    glUseProgram(r->lit_program);
    glUniformMatrix4fv(r->lit.view_projection, 1, GL_FALSE, view_projection.raw[0]);
    glUniformMatrix4fv(r->lit.light_matrix, 1, GL_FALSE, view->light_matrix.raw[0]);
    glUniform1f(r->lit.normal_offset, 1.5f * view->texel_metres);
    glUniform3fv(r->lit.to_light, 1, r->to_light.raw);
    glUniform3fv(r->lit.light_colour, 1, r->light_colour.raw);
    glUniform3fv(r->lit.eye, 1, eye.raw);
    glUniform3fv(r->lit.sky_colour, 1, r->sky_colour.raw);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, r->shadow.depth_texture);
    glUniform1i(r->lit.shadow_map, 0);
    draw_meshes(r);
    glBindTexture(GL_TEXTURE_2D, 0);
}

void renderer_draw(renderer *r, const cairn_world *world, const camera *cam, int width, int height)
{
    /* Out of memory: draw last frame's instances rather than garbage. */
    if (body_batch_gather(&r->batch, world, &r->cache)) {
        upload_instances(r);
    }
    float aspect = height > 0 ? (float)width / (float)height : 1.0f;
    r->view_projection = glms_mat4_mul(camera_projection(cam, aspect), camera_view(cam));
    shadow_view view = shadow_view_fit(&r->shadow, r->to_light, r->batch.focus);
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_CULL_FACE);
    shadow_pass(r, &view);

    glViewport(0, 0, width, height);
    glClearColor(r->sky_colour.x, r->sky_colour.y, r->sky_colour.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    lit_pass(r, cam, &view);
}

void renderer_destroy(renderer *r)
{
    if (!r) {
        return;
    }
    shape_cache_destroy(&r->cache);
    body_batch_free(&r->batch);
    shadow_map_destroy(&r->shadow);
    glDeleteProgram(r->lit_program);
    glDeleteProgram(r->shadow_program);
    free(r);
}

void renderer_forget_shapes(renderer *r)
{
    shape_cache_clear(&r->cache);
    r->batch.body_count = 0;
    r->batch.awake_count = 0;
}

void renderer_body_counts(const renderer *r, int *bodies, int *awake)
{
    *bodies = r->batch.body_count;
    *awake = r->batch.awake_count;
}

void renderer_set_selection(renderer *r, cairn_body_id selected, cairn_body_id partner)
{
    r->batch.selected = selected;
    r->batch.partner = partner;
}

mat4s renderer_view_projection(const renderer *r)
{
    return r->view_projection;
}
