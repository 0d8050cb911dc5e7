/* The contact-modification demo ("builtin:surfaces"): one pre-solve callback makes a conveyor
   belt that carries crates onto a bouncy pad, and a one-way platform that balls thrown from
   below pass through and then land on. Public API only, like the rest of the viewer. */
#ifndef CAIRN_DEMO_SURFACES_SCENE_H
#define CAIRN_DEMO_SURFACES_SCENE_H

#include <cairn/cairn.h>

#define SURFACES_SCENE_PATH "builtin:surfaces"

/* What the callback needs: which bodies are special and how. Must outlive the world (the viewer
   keeps it in its scene). */
typedef struct surface_rules {
    cairn_body_id belt, pad, platform;
    vec3s belt_velocity; /* m/s, world: the belt surface's sliding velocity */
} surface_rules;

/* Layout, shared with the tests. */
#define SURFACES_BELT_SPEED   2.0f /* m/s along +x */
#define SURFACES_BELT_TOP     1.2f /* m */
#define SURFACES_PLATFORM_TOP 3.1f /* m */
#define SURFACES_PAD_TOP      0.2f /* m */
#define SURFACES_BALL_RADIUS  0.25f
#define SURFACES_THROW_SPEED  9.0f /* m/s up: apex well above the platform */
#define SURFACES_BALLS        5
#define SURFACES_CRATES       6
#define SURFACES_DROP_HEIGHT  2.0f /* m above the pad: the ball that shows the bounce */

/* The pre-solve callback (context: a surface_rules). */
void surfaces_presolve(cairn_contact_modify *contact, void *context);

/* Builds the world with def's settings, fills *rules and installs the callback with rules as its
   context. NULL (message on stderr) on failure. */
cairn_world *surfaces_scene_create(const cairn_world_def *def, surface_rules *rules);

#endif
