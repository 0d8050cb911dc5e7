/* The viewer's character mode (K): a character controller walked through the scene with W A S D
   (relative to the view), Space to jump, pushing what it meets; the camera follows it and it is
   drawn as a capsule outline. Public API only. */
#ifndef CAIRN_DEMO_WALKER_H
#define CAIRN_DEMO_WALKER_H

#include <cairn/cairn.h>

#include "camera.h"
#include "debug_lines.h"

typedef struct walker {
    cairn_character *character; /* NULL when the mode is off */
    const cairn_world *world;   /* the world it walks in */
} walker;

/* On: a character dropped at the camera's target (above it, out of anything there); off:
   gone. Returns whether the mode is on now. */
bool walker_toggle(walker *w, cairn_world *world, const camera *cam);
/* Before each step: the keys held now, as a wanted velocity (gravity while in the air). */
void walker_step(walker *w, const camera *cam, const unsigned char *keys, float dt);
/* The camera's target follows the character. */
void walker_follow(const walker *w, camera *cam);
void walker_draw(const walker *w, debug_lines *lines);
/* Forgets the character (its world is gone). */
void walker_clear(walker *w);

#endif
