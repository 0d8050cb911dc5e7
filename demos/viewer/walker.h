/* The viewer's character mode (K): a character controller walked through the scene with W A S D
   (relative to the view), Space to jump, pushing what it meets; the camera follows it and it is
   drawn as a capsule outline. Public API only. */
#ifndef CAIRN_DEMO_WALKER_H
#define CAIRN_DEMO_WALKER_H

#include <cairn/cairn.h>

#include "camera.h"
#include "debug_lines.h"

/* ---- the motion rule, shared with cairn-game: static inline and free of SDL and GL, so the
   game's headless rounds and replays move its character exactly as the window does without
   linking this file's SDL part ---- */

#define WALK_SPEED       4.0f  /* m/s on the ground (Shift: twice) */
#define WALK_JUMP_SPEED  5.5f  /* m/s up: about 1.5 m high */
#define WALK_GRAVITY     9.81f /* m/s^2 added while in the air (the controller adds none) */
#define WALK_HALF_HEIGHT 0.5f  /* m, half the capsule's segment */
#define WALK_RADIUS      0.3f  /* m */

/* The controller's defaults with the walker's capsule, its centre at position. */
static inline cairn_character_def walk_character_def(vec3s position)
{
    cairn_character_def def = cairn_character_default_def();
    def.half_height = WALK_HALF_HEIGHT;
    def.radius = WALK_RADIUS;
    def.position = position;
    return def;
}

/* The velocity to move the character with for one step of dt: the horizontal part of walk
   (m/s, world); vertically the jump speed when jump is held on the ground, 0 otherwise on the
   ground, and in the air the last move's vertical velocity less gravity dt. */
static inline vec3s walk_move_velocity(const cairn_character *character, vec3s walk, bool jump,
                                       float dt)
{
    float vertical = cairn_character_velocity(character).y - WALK_GRAVITY * dt;
    if (cairn_character_ground_state(character).on_ground)
        vertical = jump ? WALK_JUMP_SPEED : 0.0f;
    return (vec3s){{walk.x, vertical, walk.z}};
}

/* ---- the viewer's character mode ---- */

typedef struct walker {
    cairn_character *character; /* NULL when the mode is off */
    const cairn_world *world;   /* the world it walks in */
} walker;

/* On: a character dropped at the camera's target (above it, out of anything there); off:
   gone. Returns whether the mode is on now. */
bool walker_toggle(walker *w, cairn_world *world, const camera *cam);
/* Before each step: the keys held now, as a wanted velocity (gravity while in the air). */
void walker_step(walker *w, const camera *cam, const unsigned char *keys, float dt);
/* The horizontal velocity (m/s, world) W A S D ask for along the view, Shift twice as fast;
   keys is SDL's keyboard state. */
vec3s walker_walk_velocity(const camera *cam, const unsigned char *keys);
/* Whether the keys ask for a jump (Space). */
bool walker_jump_held(const unsigned char *keys);
/* The camera's target follows the character. */
void walker_follow(const walker *w, camera *cam);
void walker_draw(const walker *w, debug_lines *lines);
/* Forgets the character (its world is gone). */
void walker_clear(walker *w);

#endif
