/* What the viewer does with a scene's joints beyond drawing them: the arrow keys drive its cars
   (wheel joints, or motorised hinges), and joints that break flash for a moment where they broke.
   Public API only. */
#ifndef CAIRN_DEMO_JOINT_CONTROLS_H
#define CAIRN_DEMO_JOINT_CONTROLS_H

#include <cairn/cairn.h>

#include "debug_lines.h"

enum { FLASH_CAPACITY = 64 };

typedef struct joint_controls {
    bool driving; /* an arrow key was pressed: the motors are the keys' from now on */
    struct {
        vec3s point;
        float seconds; /* left to flash */
    } flashes[FLASH_CAPACITY];
    int flash_count;
    cairn_joint_id ids[4096]; /* scratch for walking the world's joints */
} joint_controls;

/* Before a step: Up/Down drive every wheel joint's motor and every motorised hinge forward/back;
   Left/Right steer the wheel joints ahead of their chassis's centre, and turn hinged cars by
   slowing the wheels on one side (the side of its first body's centre along the hinge axis);
   with no arrow held, once driving, the motors brake and the wheels straighten. keys is SDL's
   keyboard state. */
void joint_controls_drive(joint_controls *c, cairn_world *world, const unsigned char *keys);
/* After a step: the joints that broke start flashing; flashes age by dt. */
void joint_controls_after_step(joint_controls *c, const cairn_world *world, float dt);
/* The flashes as blinking red points. */
void joint_controls_draw(const joint_controls *c, debug_lines *lines);

#endif
