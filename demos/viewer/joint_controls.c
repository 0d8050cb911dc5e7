/* Driving cars (wheel joints, or motorised hinges) with the arrow keys, and flashing broken
   joints. */
#include "joint_controls.h"

#include <SDL.h>
#include <math.h>

#define DRIVE_SPEED   15.0f /* rad/s of a wheel at full throttle */
#define TURN_FRACTION 0.8f  /* how much of it the inner wheels lose in a turn */
#define FLASH_SECONDS 1.0f

#define MAX_STEER 0.45f /* rad of a steered wheel at full lock */

/* The joint's anchor from its first body's centre (the chassis's), or from the origin. */
static vec3s from_chassis(const cairn_world *world, const cairn_joint_def *def)
{
    vec3s centre = cairn_body_is_valid(world, def->body_a)
                       ? cairn_body_center_of_mass(world, def->body_a)
                       : glms_vec3_zero();
    return glms_vec3_sub(def->anchor_a, centre);
}

/* +1 or -1: the side of the hinge's anchor from its first body's centre, along the axis. */
static float wheel_side(const cairn_world *world, const cairn_joint_def *def)
{
    return glms_vec3_dot(from_chassis(world, def), def->axis) >= 0.0f ? 1.0f : -1.0f;
}

/* A tank's steering: a motorised hinge's wheels on the inner side slow down. */
static void drive_hinge(cairn_world *world, cairn_joint_id id, const cairn_joint_def *def,
                        float throttle, float turn)
{
    float side = wheel_side(world, def);
    float speed = DRIVE_SPEED * throttle * (1.0f - TURN_FRACTION * fmaxf(0.0f, turn * side));
    if (throttle == 0.0f)
        speed = DRIVE_SPEED * 0.5f * turn * side; /* turn on the spot */
    cairn_joint_set_motor(world, id, true, speed, def->max_motor_force);
}

/* A car's: every wheel joint's motor takes the throttle, and the wheels ahead of their chassis
   centre steer. A wheel driven at a positive speed rolls along axle x axis (axis: its
   suspension, up), so that is ahead; a positive steering turns left, about the suspension. */
static void drive_wheel(cairn_world *world, cairn_joint_id id, const cairn_joint_def *def,
                        float throttle, float turn)
{
    if (def->enable_motor)
        cairn_joint_set_motor(world, id, true, DRIVE_SPEED * throttle, def->max_motor_force);
    vec3s ahead = glms_vec3_cross(def->axle, def->axis);
    if (glms_vec3_dot(from_chassis(world, def), ahead) > 0.0f)
        cairn_joint_set_steering(world, id, MAX_STEER * turn);
}

void joint_controls_drive(joint_controls *c, cairn_world *world, const unsigned char *keys)
{
    float throttle = (float)keys[SDL_SCANCODE_UP] - (float)keys[SDL_SCANCODE_DOWN];
    float turn = (float)keys[SDL_SCANCODE_LEFT] - (float)keys[SDL_SCANCODE_RIGHT];
    c->driving |= throttle != 0.0f || turn != 0.0f;
    if (!c->driving)
        return;
    int capacity = (int)(sizeof c->ids / sizeof c->ids[0]);
    int count = cairn_world_joints(world, c->ids, capacity);
    for (int i = 0; i < count && i < capacity; ++i) {
        cairn_joint_def def = cairn_joint_get_def(world, c->ids[i]);
        if (def.type == CAIRN_JOINT_WHEEL)
            drive_wheel(world, c->ids[i], &def, throttle, turn);
        else if (def.type == CAIRN_JOINT_HINGE && def.enable_motor)
            drive_hinge(world, c->ids[i], &def, throttle, turn);
    }
}

void joint_controls_after_step(joint_controls *c, const cairn_world *world, float dt)
{
    int kept = 0;
    for (int i = 0; i < c->flash_count; ++i) {
        c->flashes[i].seconds -= dt;
        if (c->flashes[i].seconds > 0.0f)
            c->flashes[kept++] = c->flashes[i];
    }
    c->flash_count = kept;
    cairn_joint_events events = cairn_world_joint_events(world);
    for (int i = 0; i < events.break_count && c->flash_count < FLASH_CAPACITY; ++i) {
        c->flashes[c->flash_count].point = events.breaks[i].point;
        c->flashes[c->flash_count++].seconds = FLASH_SECONDS;
    }
}

void joint_controls_draw(const joint_controls *c, debug_lines *lines)
{
    for (int i = 0; i < c->flash_count; ++i) {
        /* blinks five times a second, fading out */
        float age = FLASH_SECONDS - c->flashes[i].seconds;
        if (fmodf(age * 5.0f, 1.0f) > 0.5f)
            continue;
        float fade = c->flashes[i].seconds / FLASH_SECONDS;
        debug_lines_add_point(lines, c->flashes[i].point, 6.0f + 14.0f * fade,
                              (vec4s){{1.0f, 0.15f, 0.1f, fade}});
    }
}
