/* What the viewer simulates: a cairn_world loaded from a scene file (cairn_io) or built in,
   plus the projectiles the user fires into it. */
#ifndef CAIRN_DEMO_SCENE_H
#define CAIRN_DEMO_SCENE_H

#include <cairn/cairn.h>

#include "surfaces_scene.h"

typedef struct scene {
    cairn_world *world;
    char name[1024];         /* the scene file's path, or "built-in stacking" */
    char path[1024];         /* the scene file's path; empty for the built-in world */
    cairn_world_def def;     /* the definition in effect (scene, then the settings file) */
    cairn_shape *projectile; /* shared by every sphere shot; NULL until the first */
    cairn_shape *box_projectile;
    surface_rules surfaces; /* the pre-solve callback's context in the surfaces demo */
} scene;

/* path NULL: the default demo (default.yaml in the scene directory when present, else the
   built-in world); SURFACES_SCENE_PATH: the contact-modification demo (surfaces_scene.c). The
   scene must stay where it was loaded: the surfaces demo's callback points into it. settings_path
   (may be NULL) is applied over the scene's own settings. False (message on stderr) when the scene
   or the settings cannot be loaded. */
bool scene_load(scene *out, const char *path, const char *settings_path);
/* Re-reads the scene's and the settings file's solver settings into the running world (bodies
   stay as they are). False with the reason in message when a file is invalid (nothing changes). */
bool scene_reload_settings(scene *s, const char *settings_path, char *message, size_t capacity);
/* Destroys the world and drops the projectile; leaves an empty scene. */
void scene_destroy(scene *s);

/* Fires a sphere (radius 0.25 m) or a box (0.3 m half extents) at 20 m/s from origin along
   the unit direction. */
bool scene_shoot(scene *s, vec3s origin, vec3s direction, bool box);

/* Bounds of the dynamic bodies (of every body when none is dynamic); false for an empty world. */
bool scene_focus_bounds(const scene *s, cairn_aabb *out);

/* $CAIRN_SCENE_DIR when set, else the source tree's demos/scenes. Always writes a path. */
void scene_dir_find(char *out, size_t capacity);

/* The built-in stacking world (builtin_scene.c); NULL (message on stderr) on failure. */
cairn_world *builtin_scene_create(void);

/* Swaps in new solver settings (validated; on failure nothing changes and the error is set). */
bool scene_apply_solver(cairn_world *world, const cairn_solver_settings *solver);

#endif
