/* The viewer's car controls (demos/viewer/joint_controls.c) without a window, on the demo car
   (wheel joints): Up drives it forward, Left steers its front wheels and turns it left, and
   letting go brakes and straightens the wheels. */
#include "../../demos/viewer/joint_controls.h"

#include <SDL.h>
#include <cairn/io.h>
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

static void drive(joint_controls *c, cairn_world *world, const unsigned char *keys, int steps)
{
    for (int n = 0; n < steps; ++n) {
        joint_controls_drive(c, world, keys);
        cairn_world_step(world, 1.0f / 60.0f);
    }
}

static double heading(const cairn_world *world, cairn_body_id chassis)
{
    vec3s forward =
        glms_quat_rotatev(cairn_body_transform(world, chassis).rotation, (vec3s){{1, 0, 0}});
    return atan2(-(double)forward.z, (double)forward.x);
}

Test(joint_controls, the_arrows_drive_and_steer_the_demo_car)
{
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert(cairn_scene_load(CAIRN_SOURCE_DIR "/demos/scenes/car.yaml", &world, &err),
              "%s:%d:%d: %s", err.file, err.line, err.column, err.message);
    cairn_body_id ids[2];
    cr_assert_geq(cairn_world_bodies(world, ids, 2), 2);
    cairn_body_id chassis = ids[1]; /* the floor, then car_0 */
    static joint_controls c;
    memset(&c, 0, sizeof c);
    unsigned char keys[SDL_NUM_SCANCODES];
    memset(keys, 0, sizeof keys);
    keys[SDL_SCANCODE_UP] = 1;
    float x0 = cairn_body_transform(world, chassis).position.x;
    drive(&c, world, keys, 60);
    cr_expect(cairn_body_transform(world, chassis).position.x > x0 + 1.0f, "it did not drive");

    keys[SDL_SCANCODE_LEFT] = 1;
    double before = heading(world, chassis);
    drive(&c, world, keys, 60);
    cr_expect(heading(world, chassis) > before + 0.2, "it turned %g rad left",
              heading(world, chassis) - before);
    cairn_joint_id joints[4];
    cr_assert_eq(cairn_world_joints(world, joints, 4), 4);
    int steered = 0;
    for (int i = 0; i < 4; ++i)
        steered += cairn_joint_get_def(world, joints[i]).steering > 0.0f;
    cr_expect_eq(steered, 2, "%d wheels steered, the front two should", steered);

    memset(keys, 0, sizeof keys);
    drive(&c, world, keys, 120);
    for (int i = 0; i < 4; ++i) {
        cairn_joint_def def = cairn_joint_get_def(world, joints[i]);
        cr_expect(def.steering == 0.0f && def.motor_speed == 0.0f,
                  "wheel %d: steering %g, speed %g", i, (double)def.steering,
                  (double)def.motor_speed);
    }
    vec3s v = cairn_body_linear_velocity(world, chassis);
    cr_expect(glms_vec3_norm(v) < 0.5f, "still at %g m/s after 2 s of braking",
              (double)glms_vec3_norm(v));
    cairn_world_destroy(world);
}
