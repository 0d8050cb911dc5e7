/* What the viewer draws: shared shapes and bodies placed with them. Filled by a scene source
   (today the built-in static table, later a cairn_world). */
#ifndef CAIRN_DEMO_SCENE_H
#define CAIRN_DEMO_SCENE_H

#include <cairn/cairn.h>

#define SCENE_MAX_SHAPES 32

typedef struct scene_body {
    int shape; /* index into scene.shapes */
    cairn_transform transform;
    /* rgb: albedo; a: ground-grid strength (1 on the floor, 0 elsewhere) */
    vec4s colour;
    bool is_static;
} scene_body;

typedef struct scene {
    const char *name;
    cairn_shape *shapes[SCENE_MAX_SHAPES]; /* one reference each */
    int shape_count;
    scene_body *bodies;
    int body_count;
} scene;

/* Drops the shape references and frees the bodies; leaves an empty scene. */
void scene_destroy(scene *s);

/* The initial state of the default stacking demo; false (message on stderr) on failure. */
bool static_scene_create(scene *out);

#endif
