/* Scene sources: a YAML file through cairn_io, the default demo, or the built-in world; settings
   layered over them and re-read while running; and shooting projectiles into the world. */
#include "scene.h"

#include <cairn/io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROJECTILE_RADIUS  0.25f
#define PROJECTILE_HALF    0.3f
#define PROJECTILE_SPEED   20.0f
#define PROJECTILE_DENSITY 2000.0f
#define DEFAULT_SCENE_FILE "default.yaml"
#define BUILTIN_NAME       "built-in stacking"

void scene_dir_find(char *out, size_t capacity)
{
    const char *env = getenv("CAIRN_SCENE_DIR");
    snprintf(out, capacity, "%s", env && env[0] ? env : CAIRN_SCENE_DIR);
}

bool scene_apply_solver(cairn_world *world, const cairn_solver_settings *solver)
{
    cairn_world_def def = cairn_world_get_def(world);
    def.solver = *solver;
    return cairn_world_set_def(world, &def);
}

static bool file_exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f) {
        fclose(f);
    }
    return f != NULL;
}

/* Loads path with the settings layered on; *def receives the definition in effect. */
static bool load_world(const char *path, const char *settings_path, cairn_world **world,
                       cairn_world_def *def, char *message, size_t capacity)
{
    cairn_scene_options options = cairn_scene_default_options();
    options.settings_path = settings_path;
    options.world_def = def;
    cairn_io_error err;
    if (!cairn_scene_load_ex(path, &options, world, &err)) {
        cairn_io_error_format(&err, message, capacity);
        return false;
    }
    return true;
}

static bool load_file(scene *out, const char *path, const char *settings_path)
{
    char message[1024];
    if (!load_world(path, settings_path, &out->world, &out->def, message, sizeof message)) {
        fprintf(stderr, "cairn-demo: cannot load scene: %s\n", message);
        return false;
    }
    snprintf(out->name, sizeof out->name, "%s", path);
    snprintf(out->path, sizeof out->path, "%s", path);
    return true;
}

/* The default definition with the settings file over it, for the built-in world. */
static bool builtin_def(const char *settings_path, cairn_world_def *def, char *message,
                        size_t capacity)
{
    *def = cairn_world_default_def();
    cairn_io_error err;
    if (settings_path && !cairn_settings_apply(settings_path, def, &err)) {
        cairn_io_error_format(&err, message, capacity);
        return false;
    }
    return true;
}

static bool load_builtin(scene *out, const char *settings_path)
{
    char message[1024];
    if (!builtin_def(settings_path, &out->def, message, sizeof message)) {
        fprintf(stderr, "cairn-demo: cannot load settings: %s\n", message);
        return false;
    }
    out->world = builtin_scene_create();
    snprintf(out->name, sizeof out->name, "%s", BUILTIN_NAME);
    return out->world && scene_apply_solver(out->world, &out->def.solver);
}

static bool load_surfaces(scene *out, const char *settings_path)
{
    char message[1024];
    if (!builtin_def(settings_path, &out->def, message, sizeof message)) {
        fprintf(stderr, "cairn-demo: cannot load settings: %s\n", message);
        return false;
    }
    out->world = surfaces_scene_create(&out->def, &out->surfaces);
    snprintf(out->name, sizeof out->name, "%s", SURFACES_SCENE_PATH);
    return out->world != NULL;
}

bool scene_load(scene *out, const char *path, const char *settings_path)
{
    *out = (scene){.world = NULL};
    if (path && strcmp(path, SURFACES_SCENE_PATH) == 0) {
        return load_surfaces(out, settings_path);
    }
    if (path) {
        return load_file(out, path, settings_path);
    }
    char dir[512], default_path[1024];
    scene_dir_find(dir, sizeof dir);
    snprintf(default_path, sizeof default_path, "%s/%s", dir, DEFAULT_SCENE_FILE);
    if (file_exists(default_path)) {
        if (load_file(out, default_path, settings_path)) {
            return true;
        }
        fprintf(stderr, "cairn-demo: falling back to the built-in scene\n");
    }
    return load_builtin(out, settings_path);
}

bool scene_reload_settings(scene *s, const char *settings_path, char *message, size_t capacity)
{
    cairn_world_def def;
    if (s->path[0]) {
        /* The loader is the one place that knows how scene and settings layer: load a scratch
           copy of the scene for its definition. */
        cairn_world *scratch = NULL;
        if (!load_world(s->path, settings_path, &scratch, &def, message, capacity)) {
            return false;
        }
        cairn_world_destroy(scratch);
    } else if (!builtin_def(settings_path, &def, message, capacity)) {
        return false;
    }
    if (!scene_apply_solver(s->world, &def.solver)) {
        snprintf(message, capacity, "%s", cairn_last_error());
        return false;
    }
    s->def = def;
    return true;
}

void scene_destroy(scene *s)
{
    cairn_world_destroy(s->world);
    cairn_shape_release(s->projectile);
    cairn_shape_release(s->box_projectile);
    memset(s, 0, sizeof *s);
}

static cairn_shape *projectile_shape(scene *s, bool box)
{
    if (box && !s->box_projectile) {
        float h = PROJECTILE_HALF;
        s->box_projectile = cairn_shape_box((vec3s){{h, h, h}}, 0.04f);
    } else if (!box && !s->projectile) {
        s->projectile = cairn_shape_sphere(PROJECTILE_RADIUS);
    }
    return box ? s->box_projectile : s->projectile;
}

bool scene_shoot(scene *s, vec3s origin, vec3s direction, bool box)
{
    cairn_body_def def = cairn_body_default_def();
    def.shape = projectile_shape(s, box);
    def.density = PROJECTILE_DENSITY;
    def.transform.position = origin;
    def.linear_velocity = glms_vec3_scale(direction, PROJECTILE_SPEED);
    if (!def.shape || !cairn_body_is_valid(s->world, cairn_body_create(s->world, &def))) {
        fprintf(stderr, "cairn-demo: cannot shoot: %s\n", cairn_last_error());
        return false;
    }
    return true;
}

static cairn_aabb aabb_union(cairn_aabb a, cairn_aabb b)
{
    return (cairn_aabb){glms_vec3_minv(a.min, b.min), glms_vec3_maxv(a.max, b.max)};
}

bool scene_focus_bounds(const scene *s, cairn_aabb *out)
{
    int count = cairn_world_body_count(s->world);
    cairn_body_id *ids = count > 0 ? malloc((size_t)count * sizeof *ids) : NULL;
    if (!ids) {
        return false;
    }
    int listed = cairn_world_bodies(s->world, ids, count);
    count = listed < count ? listed : count;
    cairn_aabb all = {{{0}}, {{0}}}, moving = all;
    bool any_moving = false;
    for (int i = 0; i < count; ++i) {
        cairn_aabb box = cairn_shape_bounds(cairn_body_shape(s->world, ids[i]),
                                            cairn_body_transform(s->world, ids[i]));
        all = i ? aabb_union(all, box) : box;
        if (cairn_body_get_type(s->world, ids[i]) == CAIRN_DYNAMIC) {
            moving = any_moving ? aabb_union(moving, box) : box;
            any_moving = true;
        }
    }
    free(ids);
    *out = any_moving ? moving : all;
    return count > 0;
}
