/* Locked translation axes (cairn_body_def.locked_translation, cairn_body_set_locked_translation):
   each against an analytic answer with the lock as a frictionless rail, and against the free
   body's answer where that differs, so that a lock that does nothing fails. Contacts (the rail
   changes the effective mass: a bounce off a slanted wall, a slide down a slanted ramp, momentum
   kept along the free axes), joints (a pendulum held in its plane, a 2.5D pendulum whose point
   block would have a dead row, a hinged bar in the three position-correction modes, a slanted rod
   or slider), rows nearly along the rail (the floor on their effective mass), a 2.5D stack, API
   calls, type changes, snapshots and bad input. */
#include "scene_helpers.h"

#include "snapshot_reseal.h"

#include <stdlib.h>
#include <string.h>

/* No damping; the given gravity. */
static cairn_world *rail_world(vec3s gravity, int position_correction)
{
    cairn_world_def def = cairn_world_default_def();
    def.gravity = gravity;
    def.linear_damping = 0.0f;
    def.angular_damping = 0.0f;
    def.solver.position_correction = position_correction;
    return scene_world(&def);
}

static cairn_body_id railed_body(cairn_world *world, cairn_shape *shape, cairn_transform xf,
                                 uint32_t translation, uint32_t rotation, float friction,
                                 float restitution)
{
    cr_assert_not_null(shape);
    cairn_body_def def = cairn_body_default_def();
    def.shape = shape;
    def.transform = xf;
    def.friction = friction;
    def.restitution = restitution;
    def.locked_translation = translation;
    def.locked_rotation = rotation;
    def.allow_sleep = false; /* a slow swing would sleep */
    cairn_body_id id = cairn_body_create(world, &def);
    cairn_shape_release(shape);
    cr_assert(!id_is_null(id), "%s", cairn_last_error());
    return id;
}

/* A static box whose +y face has the unit normal n (turned from +y about y x n). */
static cairn_body_id slanted_box(cairn_world *world, vec3s half, vec3s n, vec3s position,
                                 float friction, float restitution)
{
    vec3s up = v3(0, 1, 0);
    vec3s axis = glms_vec3_cross(up, n);
    double angle = acos((double)glms_vec3_dot(up, n));
    cairn_transform xf = scene_at(position);
    if (glms_vec3_norm(axis) > 0.0f) {
        axis = glms_vec3_normalize(axis);
        float s = (float)sin(0.5 * angle);
        xf.rotation = (versors){{axis.x * s, axis.y * s, axis.z * s, (float)cos(0.5 * angle)}};
    }
    return scene_body_ex(world, cairn_shape_box(half, 0.0f), CAIRN_STATIC, xf, 1000.0f, friction,
                         restitution, true);
}

/* Impulses, set velocities and a new lock drop the locked parts; an unlocked body keeps them. */
Test(locked_translation, velocities_along_locked_axes_are_dropped)
{
    cairn_world *world = rail_world(v3(0, 0, 0), CAIRN_SOFT_STEP);
    cairn_body_id ball = railed_body(world, cairn_shape_sphere(0.5f), scene_at(v3(0, 5, 0)),
                                     CAIRN_LOCK_TRANSLATION_Z, 0u, 0.6f, 0.0f);
    double mass = cairn_body_mass(world, ball);
    cairn_body_apply_impulse(world, ball, glms_vec3_scale(v3(3, 4, 5), (float)mass), v3(0, 5, 0));
    vec3s v = cairn_body_linear_velocity(world, ball);
    cr_expect(fabs((double)v.x - 3.0) < 1e-5 && fabs((double)v.y - 4.0) < 1e-5 && v.z == 0.0f,
              "v (%g, %g, %g)", (double)v.x, (double)v.y, (double)v.z);
    cr_assert(cairn_body_set_linear_velocity(world, ball, v3(1, 2, 3)));
    v = cairn_body_linear_velocity(world, ball);
    cr_expect(v.x == 1.0f && v.y == 2.0f && v.z == 0.0f);
    cr_assert(cairn_body_set_locked_translation(world, ball, CAIRN_LOCK_TRANSLATION_X));
    cr_expect_eq(cairn_body_locked_translation(world, ball), CAIRN_LOCK_TRANSLATION_X);
    v = cairn_body_linear_velocity(world, ball);
    cr_expect(v.x == 0.0f && v.y == 2.0f && v.z == 0.0f);
    cr_assert(cairn_body_set_locked_translation(world, ball, 0u));
    cr_assert(cairn_body_set_linear_velocity(world, ball, v3(1, 2, 3)));
    v = cairn_body_linear_velocity(world, ball);
    cr_expect(v.x == 1.0f && v.y == 2.0f && v.z == 3.0f, "an unlocked body keeps every part");
    cairn_world_destroy(world);
}

/* Gravity slanted into the locked axis: the body falls along y alone, at g_y (the rail takes
   g_z), and its z is the one it started with, to the bit. A force along z is dropped too. */
Test(locked_translation, slanted_gravity_and_forces_move_it_along_its_free_axes_only)
{
    cairn_world *world = rail_world(v3(0, (float)-SCENE_G, -5.0f), CAIRN_SOFT_STEP);
    cairn_body_id ball = railed_body(world, cairn_shape_sphere(0.5f), scene_at(v3(0, 50, 0.25f)),
                                     CAIRN_LOCK_TRANSLATION_Z, 0u, 0.6f, 0.0f);
    for (int step = 0; step < 60; ++step) {
        cr_assert(cairn_body_apply_force(world, ball, v3(0, 0, 1000), v3(0, 50, 0.25f)));
        cairn_world_step(world, SCENE_DT);
    }
    vec3s p = scene_position(world, ball), v = cairn_body_linear_velocity(world, ball);
    cr_expect(p.z == 0.25f && v.z == 0.0f, "z %.9g, v.z %g", (double)p.z, (double)v.z);
    cr_expect(fabs((double)v.y + SCENE_G) < 1e-4, "v.y %g after 1 s, not -g", (double)v.y);
    cr_expect(fabs((double)p.y - (50.0 - 0.5 * SCENE_G)) < 0.1, "y %g", (double)p.y);
    cairn_world_destroy(world);
}

/* v.n after a bounce off a static wall whose face normal is n, with restitution 1 and no
   friction, the ball held to the plane z = 0 or free. */
static vec3s bounce(vec3s n, uint32_t translation)
{
    cairn_world *world = rail_world(v3(0, 0, 0), CAIRN_SOFT_STEP);
    slanted_box(world, v3(5, 0.25f, 5), n, glms_vec3_scale(n, -2.0f), 0.0f, 1.0f);
    cairn_body_id ball = railed_body(world, cairn_shape_sphere(0.5f), scene_at(v3(0, 0, 0)),
                                     translation, 0u, 0.0f, 1.0f);
    cr_assert(cairn_body_set_linear_velocity(world, ball, v3(-2, 0, 0)));
    scene_step(world, 90);
    vec3s v = cairn_body_linear_velocity(world, ball);
    cairn_world_destroy(world);
    return v;
}

/* A ball rolling along -x on a rail in the plane z = 0 meets a wall turned 45 degrees, its normal
   (1, 0, 1) / sqrt 2. With the rail, the wall meets twice the ball's mass along its normal and the
   elastic bounce sends the ball straight back at 2 m/s (energy kept, only x free). A free ball
   leaves along +z at 2 m/s (the mirror image). An effective mass without the rail would give the
   locked ball half the impulse it needs: it would stop dead. */
Test(locked_translation, an_elastic_bounce_off_a_slanted_wall_meets_the_mass_along_the_rail)
{
    vec3s n = glms_vec3_normalize(v3(1, 0, 1));
    vec3s railed = bounce(n, CAIRN_LOCK_TRANSLATION_Z);
    cr_expect(fabs((double)railed.x - 2.0) < 2e-3 && fabs((double)railed.y) < 1e-5 &&
                  railed.z == 0.0f,
              "railed: v (%g, %g, %g), not (2, 0, 0)", (double)railed.x, (double)railed.y,
              (double)railed.z);
    vec3s free = bounce(n, 0u);
    cr_expect(fabs((double)free.x) < 2e-3 && fabs((double)free.z - 2.0) < 2e-3,
              "free: v (%g, %g, %g), not (0, 0, 2)", (double)free.x, (double)free.y,
              (double)free.z);
}

/* x velocity after 1 s of a frictionless ball sliding from rest down a ramp with normal n. */
static double slide_speed(vec3s n, uint32_t translation, double *z_moved)
{
    cairn_world *world = rail_world(v3(0, (float)-SCENE_G, 0), CAIRN_SOFT_STEP);
    slanted_box(world, v3(30, 0.5f, 30), n, glms_vec3_scale(n, -0.5f), 0.0f, 0.0f);
    vec3s start = glms_vec3_scale(n, 0.5f);
    cairn_body_id ball =
        railed_body(world, cairn_shape_sphere(0.5f), scene_at(start), translation, 0u, 0.0f, 0.0f);
    scene_step(world, 60);
    *z_moved = fabs((double)scene_position(world, ball).z - (double)start.z);
    double speed = (double)cairn_body_linear_velocity(world, ball).x;
    cairn_world_destroy(world);
    return speed;
}

/* A ramp whose fall line slants into z (normal (0.3, 1, 0.4) / |n|). On the rail z = const the
   ball slides along u = (n_y, -n_x, 0) / |.|, the ramp's line in its plane, with acceleration
   (g . u) u: a_x = g n_x n_y / (n_x^2 + n_y^2) = 2.700 m/s^2. A free ball slides down the fall
   line: a_x = g n_x n_y / |n|^2 = 2.354 m/s^2. */
Test(locked_translation, a_ball_on_a_rail_slides_down_a_slanted_ramp_along_the_rail)
{
    vec3s n = glms_vec3_normalize(v3(0.3f, 1.0f, 0.4f));
    double nx = (double)n.x, ny = (double)n.y;
    double railed_a = SCENE_G * nx * ny / (nx * nx + ny * ny), free_a = SCENE_G * nx * ny;
    double z_moved;
    double railed = slide_speed(n, CAIRN_LOCK_TRANSLATION_Z, &z_moved);
    cr_expect(fabs(railed - railed_a) < 0.01 * railed_a, "railed: v.x %g after 1 s, a_x %g", railed,
              railed_a);
    cr_expect_eq(z_moved, 0.0, "the railed ball moved %g m along z", z_moved);
    double free = slide_speed(n, 0u, &z_moved);
    cr_expect(fabs(free - free_a) < 0.01 * free_a, "free: v.x %g after 1 s, a_x %g", free, free_a);
    cr_expect(z_moved > 0.5, "the free ball stayed on the rail's line");
}

/* A free body hits a railed one off-centre along z: the rail takes only z, so the momentum along
   x and y is kept; the railed body never leaves z = 0. Free, the struck ball leaves along z. */
static void strike(uint32_t translation, vec3s *momentum_change, double *struck_z)
{
    cairn_world *world = rail_world(v3(0, 0, 0), CAIRN_SOFT_STEP);
    cairn_body_id hammer =
        railed_body(world, cairn_shape_sphere(0.5f), scene_at(v3(-3, 0, 0.4f)), 0u, 0u, 0.0f, 0.5f);
    cairn_body_id struck = railed_body(world, cairn_shape_sphere(0.5f), scene_at(v3(0, 0, 0)),
                                       translation, 0u, 0.0f, 0.5f);
    cr_assert(cairn_body_set_linear_velocity(world, hammer, v3(4, 0, 0)));
    double mass = cairn_body_mass(world, hammer);
    vec3s before = glms_vec3_scale(v3(4, 0, 0), (float)mass);
    scene_step(world, 60);
    vec3s after = glms_vec3_scale(glms_vec3_add(cairn_body_linear_velocity(world, hammer),
                                                cairn_body_linear_velocity(world, struck)),
                                  (float)mass);
    *momentum_change = glms_vec3_sub(after, before);
    *struck_z = (double)scene_position(world, struck).z;
    cairn_world_destroy(world);
}

Test(locked_translation, a_railed_body_struck_off_centre_keeps_momentum_along_its_free_axes)
{
    vec3s change;
    double z;
    strike(CAIRN_LOCK_TRANSLATION_Z, &change, &z);
    cr_expect(fabs((double)change.x) < 1e-3 * 4.0 * 523.6 && fabs((double)change.y) < 1e-3,
              "momentum changed by (%g, %g) N s along the free axes", (double)change.x,
              (double)change.y);
    cr_expect(fabs((double)change.z) > 50.0, "the rail took no z impulse (%g N s)",
              (double)change.z);
    cr_expect_eq(z, 0.0, "the railed ball left z = 0 (%g)", z);
    strike(0u, &change, &z);
    cr_expect(z < -0.1, "the free ball stayed at z %g", z);
}

/* The period of a body swinging through x = 0 over 10 s, measured between upward zero crossings
   of its x (interpolated within the step); its largest distance from the plane z = z0. */
static double swing_period(cairn_world *world, cairn_body_id body, double z0, double *z_moved)
{
    double last_x = (double)scene_position(world, body).x, first = -1.0, last = -1.0;
    int crossings = 0;
    *z_moved = 0.0;
    for (int step = 1; step <= 600; ++step) {
        cairn_world_step(world, SCENE_DT);
        vec3s p = scene_position(world, body);
        *z_moved = fmax(*z_moved, fabs((double)p.z - z0));
        if (last_x < 0.0 && (double)p.x >= 0.0) {
            double t = ((double)step - (double)p.x / ((double)p.x - last_x)) * SCENE_DT;
            first = first < 0.0 ? t : first;
            last = t;
            crossings++;
        }
        last_x = (double)p.x;
    }
    cr_assert(crossings >= 3, "%d crossings", crossings);
    return (last - first) / (double)(crossings - 1);
}

/* Period of small swings of a 0.1 m ball on a joint to the world at (0, 5, 0), measured between
   upward zero crossings of x; the ball's largest distance from its start plane z = z0. rod: a
   ball joint at the pivot (the ball is carried as on a rigid rod, turning with it); else a
   distance joint to the ball's centre (no torque on it: a point pendulum). */
static double bob_period(uint32_t translation, uint32_t rotation, double z0, double length,
                         bool rod, double *z_moved)
{
    cairn_world *world = rail_world(v3(0, (float)-SCENE_G, 0), CAIRN_SOFT_STEP);
    double angle = 8.0 * SCENE_PI / 180.0;
    vec3s pivot = v3(0, 5, 0);
    vec3s at = v3((float)(length * sin(angle)), (float)(5.0 - length * cos(angle)), (float)z0);
    cairn_body_id bob = railed_body(world, cairn_shape_sphere(0.1f), scene_at(at), translation,
                                    rotation, 0.6f, 0.0f);
    cairn_joint_def def = cairn_joint_default_def(rod ? CAIRN_JOINT_BALL : CAIRN_JOINT_DISTANCE);
    def.body_b = bob;
    def.anchor_a = pivot;
    def.anchor_b = rod ? pivot : at;
    cr_assert(cairn_joint_create(world, &def).generation != 0, "%s", cairn_last_error());
    double period = swing_period(world, bob, z0, z_moved);
    cairn_world_destroy(world);
    return period;
}

/* A bob 0.5 m out of the pivot's plane on a 1.118 m string, held in its plane z = 0.5 by the
   rail: its centre keeps on the circle of radius 1 m about (0, 5, 0.5), a point pendulum of
   length 1 m, T = 2 pi sqrt(1 / g) = 2.006 s (8 degrees: 0.1% longer). Free, it swings towards
   the pivot's plane on the whole string, 28 degrees out: over 2.12 s. */
Test(locked_translation, a_pendulum_on_a_rail_swings_in_the_rail_plane)
{
    double z_moved;
    double point = 2.0 * SCENE_PI * sqrt(1.0 / SCENE_G);
    double railed = bob_period(CAIRN_LOCK_TRANSLATION_Z, 0u, 0.5, 1.0, false, &z_moved);
    cr_expect(fabs(railed - point) < 0.005 * point, "railed: T %g s, point pendulum %g s", railed,
              point);
    cr_expect_eq(z_moved, 0.0, "the railed bob left its plane by %g m", z_moved);
    double free = bob_period(0u, 0u, 0.5, 1.0, false, &z_moved);
    cr_expect(free > 2.0 * SCENE_PI * sqrt(sqrt(1.25) / SCENE_G), "free: T %g s", free);
    cr_expect(z_moved > 0.4, "the free bob kept near its plane (%g m)", z_moved);
}

/* A 0.1 m ball at (0, 5, 0) on a joint of the given type to the world: a distance joint's rod
   from rod_from, or a slider (or another type) at the ball's centre along axis. */
static cairn_body_id jointed_ball(cairn_world *world, cairn_joint_type type, uint32_t translation,
                                  vec3s rod_from, vec3s axis)
{
    cairn_body_id ball = railed_body(world, cairn_shape_sphere(0.1f), scene_at(v3(0, 5, 0)),
                                     translation, 0u, 0.6f, 0.0f);
    cairn_joint_def def = cairn_joint_default_def(type);
    def.body_b = ball;
    def.anchor_a = type == CAIRN_JOINT_DISTANCE ? rod_from : v3(0, 5, 0);
    def.anchor_b = v3(0, 5, 0);
    def.axis = axis;
    cr_assert(cairn_joint_create(world, &def).generation != 0, "%s", cairn_last_error());
    return ball;
}

/* The velocity after one step of the ball given 1 m/s along x, held by a joint to the world whose
   direction slants into z, (1, 0, 1) / sqrt 2: a distance joint's rod from (-1, 5, -1), or a
   slider along it. */
static vec3s held_velocity(cairn_joint_type type, int mode, uint32_t translation)
{
    cairn_world *world = rail_world(v3(0, 0, 0), mode);
    cairn_body_id ball =
        jointed_ball(world, type, translation, v3(-1, 5, -1), glms_vec3_normalize(v3(1, 0, 1)));
    cr_assert(cairn_body_set_linear_velocity(world, ball, v3(1, 0, 0)));
    cairn_world_step(world, SCENE_DT);
    vec3s v = cairn_body_linear_velocity(world, ball);
    cairn_world_destroy(world);
    return v;
}

/* A railed ball (z rail) pulled along x by 1 m/s against a rod or a slider slanting into z: the
   joint allows no motion along the rod (or across the slider's axis), the rail none along z, so
   the ball stops. The joint's rows meet the ball's per-axis mass, and in each mode the step's
   passes stop it within the step (to 1e-9 m/s measured; the free ball's mass in the rod's row
   would leave 1-3 cm/s; in the rigid modes the slider is one block with the rail's mass in it).
   Free, the ball keeps the part across the rod, (1, 0, -1) / 2, or along the slider,
   (1, 0, 1) / 2. */
Test(locked_translation, a_slanted_rod_or_slider_stops_a_railed_ball_within_one_step)
{
    const int modes[3] = {CAIRN_SOFT_STEP, CAIRN_SPLIT_IMPULSE, CAIRN_BAUMGARTE};
    const cairn_joint_type types[2] = {CAIRN_JOINT_DISTANCE, CAIRN_JOINT_SLIDER};
    for (int t = 0; t < 2; ++t) {
        for (int m = 0; m < 3; ++m) {
            vec3s v = held_velocity(types[t], modes[m], CAIRN_LOCK_TRANSLATION_Z);
            cr_expect(scene_length(v) < 1e-4, "joint %d, mode %d: v (%g, %g, %g)", types[t],
                      modes[m], (double)v.x, (double)v.y, (double)v.z);
        }
        vec3s v = held_velocity(types[t], CAIRN_SOFT_STEP, 0u);
        double z = types[t] == CAIRN_JOINT_DISTANCE ? -0.5 : 0.5;
        cr_expect(fabs((double)v.x - 0.5) < 0.01 && fabs((double)v.z - z) < 0.01,
                  "joint %d, free: v (%g, %g, %g)", types[t], (double)v.x, (double)v.y,
                  (double)v.z);
    }
}

/* A 2.5D ball (z rail, turning about z only) on a ball joint 1.2 m above it: nothing can move the
   anchor along z, so the joint's point block would have a zero row there but for the rail's floor
   (BODY_RAIL_MIN_SHARE), and the whole block would count as singular. It swings as a rigid
   pendulum, T = 2 pi sqrt((L^2 + 2/5 r^2) / (g L)). */
Test(locked_translation, a_2_5d_pendulum_on_a_ball_joint_swings_as_a_rigid_pendulum)
{
    double z_moved, length = 1.2, r = 0.1;
    double expected = 2.0 * SCENE_PI * sqrt((length * length + 0.4 * r * r) / (SCENE_G * length));
    double railed =
        bob_period(CAIRN_LOCK_TRANSLATION_Z, CAIRN_LOCK_ROTATION_X | CAIRN_LOCK_ROTATION_Y, 0.0,
                   length, true, &z_moved);
    cr_expect(fabs(railed - expected) < 0.005 * expected, "T %g s, expected %g s", railed,
              expected);
    cr_expect_eq(z_moved, 0.0);
}

/* Small-swing period of a 2.5D bar (0.2 x 1 x 0.2 m, z rail, turning about z only) hinged to the
   world about z at its top end: a compound pendulum, T = 2 pi sqrt(I_pivot / (m g d)) with
   I_pivot = m ((0.2^2 + 1^2) / 12 + 0.5^2), d = 0.5 m: 1.6461 s, in each position-correction
   mode (the rigid modes solve the hinge as one block). */
Test(locked_translation, a_hinged_2_5d_bar_swings_as_a_compound_pendulum_in_every_mode)
{
    const int modes[3] = {CAIRN_SOFT_STEP, CAIRN_SPLIT_IMPULSE, CAIRN_BAUMGARTE};
    double expected = 2.0 * SCENE_PI * sqrt(((0.04 + 1.0) / 12.0 + 0.25) / (SCENE_G * 0.5));
    for (int m = 0; m < 3; ++m) {
        cairn_world *world = rail_world(v3(0, (float)-SCENE_G, 0), modes[m]);
        double angle = 8.0 * SCENE_PI / 180.0;
        cairn_transform xf =
            scene_at(v3((float)(0.5 * sin(angle)), (float)(5.0 - 0.5 * cos(angle)), 0));
        xf.rotation = (versors){{0, 0, (float)sin(0.5 * angle), (float)cos(0.5 * angle)}};
        cairn_body_id bar = railed_body(world, cairn_shape_box(v3(0.1f, 0.5f, 0.1f), 0.0f), xf,
                                        CAIRN_LOCK_TRANSLATION_Z,
                                        CAIRN_LOCK_ROTATION_X | CAIRN_LOCK_ROTATION_Y, 0.6f, 0.0f);
        cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_HINGE);
        def.body_b = bar;
        def.anchor_a = def.anchor_b = v3(0, 5, 0);
        def.axis = v3(0, 0, 1);
        cr_assert(cairn_joint_create(world, &def).generation != 0, "%s", cairn_last_error());
        double z_moved, period = swing_period(world, bar, 0.0, &z_moved);
        cr_expect(fabs(period - expected) < 0.005 * expected, "mode %d: T %g s, expected %g s",
                  modes[m], period, expected);
        cr_expect_eq(z_moved, 0.0, "mode %d: the bar left its plane by %g m", modes[m], z_moved);
        cairn_world_destroy(world);
    }
}

/* A 2.5D stack (z rail, turning about z only) of eight boxes, struck by a free ball coming in
   at a slant (its velocity has a z part): in every mode the boxes stay in the plane z = 0 and turn
   about z only, to the bit, and the stack first stands: the top box slides under a millimetre in
   3 s (measured 0.03 mm in soft step and 0.05 mm in Baumgarte), under 3 mm in split impulse (1.4
   mm; 0.6 mm with the rotation lock alone, 0.24 mm with neither). */
Test(locked_translation, a_2_5d_stack_stands_and_stays_in_its_plane_when_struck)
{
    const int modes[3] = {CAIRN_SOFT_STEP, CAIRN_SPLIT_IMPULSE, CAIRN_BAUMGARTE};
    for (int m = 0; m < 3; ++m) {
        cairn_world *world = rail_world(v3(0, (float)-SCENE_G, 0), modes[m]);
        scene_floor(world, 0.6f, 0.0f);
        cairn_body_id boxes[8];
        for (int i = 0; i < 8; ++i)
            boxes[i] = railed_body(world, cairn_shape_box(v3(0.5f, 0.5f, 0.5f), 0.0f),
                                   scene_at(v3(0, 0.5f + (float)i, 0)), CAIRN_LOCK_TRANSLATION_Z,
                                   CAIRN_LOCK_ROTATION_X | CAIRN_LOCK_ROTATION_Y, 0.6f, 0.0f);
        scene_step(world, 180);
        vec3s top = scene_position(world, boxes[7]);
        double slide_limit = modes[m] == CAIRN_SPLIT_IMPULSE ? 3e-3 : 1e-3;
        cr_expect(fabs((double)top.x) < slide_limit && fabs((double)top.y - 7.5) < 0.01,
                  "mode %d: the top box at (%g, %g)", modes[m], (double)top.x, (double)top.y);
        cairn_body_id ball = railed_body(world, cairn_shape_sphere(0.4f),
                                         scene_at(v3(-4, 5.5f, -1.5f)), 0u, 0u, 0.6f, 0.0f);
        cr_assert(cairn_body_set_linear_velocity(world, ball, v3(12, 0, 4.5f)));
        double rocked = 0.0;
        for (int step = 0; step < 240; ++step) {
            cairn_world_step(world, SCENE_DT);
            double x = fabs((double)scene_position(world, boxes[5]).x);
            rocked = x > rocked ? x : rocked;
        }
        for (int i = 0; i < 8; ++i) {
            cairn_transform xf = cairn_body_transform(world, boxes[i]);
            cr_expect(xf.position.z == 0.0f && xf.rotation.x == 0.0f && xf.rotation.y == 0.0f,
                      "mode %d, box %d: z %g, q (%g, %g)", modes[m], i, (double)xf.position.z,
                      (double)xf.rotation.x, (double)xf.rotation.y);
        }
        cr_expect(rocked > 0.05, "mode %d: the ball missed the stack (%g m)", modes[m], rocked);
        cairn_world_destroy(world);
    }
}

/* The largest speed of the ball over 60 steps, or of its moves from step to step (split impulse
   moves it by pseudo-velocities that are not kept). */
static double top_speed(cairn_world *world, cairn_body_id ball)
{
    double top = 0.0;
    for (int step = 0; step < 60; ++step) {
        vec3s before = scene_position(world, ball);
        cairn_world_step(world, SCENE_DT);
        double moved = scene_distance(scene_position(world, ball), before) / SCENE_DT;
        double speed = scene_length(cairn_body_linear_velocity(world, ball));
        top = fmax(top, fmax(speed, moved));
    }
    return top;
}

/* A railed 0.1 m ball at (0, 5, 0) on a joint of the given type whose row across (a rod's length,
   a slider's side) is n, then pulled 2 cm along z: the largest speed over 60 steps. */
static double pulled_speed(cairn_joint_type type, vec3s n, int mode)
{
    cairn_world *world = rail_world(v3(0, 0, 0), mode);
    /* the slider's axis is square to n in the xz plane */
    cairn_body_id ball = jointed_ball(world, type, CAIRN_LOCK_TRANSLATION_Z,
                                      glms_vec3_sub(v3(0, 5, 0), n), v3(n.z, 0, -n.x));
    cr_assert(cairn_body_set_transform(world, ball, scene_at(v3(0, 5, 0.02f))));
    double top = top_speed(world, ball);
    cairn_world_destroy(world);
    return top;
}

/* Rows nearly along the rail: a railed ball 5 cm into a wall whose normal is 0.1 degree off the
   rail (z), and a railed ball pulled 2 cm along z from where its rod, or its slider's side, 0.1
   degree off z, holds it. Only a move along x of about 30 m (the wall), 11.5 m (the slider: along
   its axis) or none at all (the rod) can close them, and the exact effective mass asks for it at
   once: the ball moved at 426 (soft step), 913 (split impulse) and 909 m/s (Baumgarte) against
   the wall, and up to 7,095 m/s on the rod. With the rows' floor (BODY_RAIL_MIN_SHARE) the rail
   takes them. Measured, soft step / split impulse / Baumgarte: the rod 0.11 / 0.01 / 0.51 m/s;
   the wall's push, whose x part drives the ball out along its 0.1-degree wedge, 4.7 / 0.01 / 10.6
   m/s; the slider's, which drives it along the slider towards where the gap closes, 8.4 / 0.01 m/s.
   In Baumgarte that drive reaches 91 m/s by the end of the slide (its bias feeds the position
   error into the velocity it keeps, and only the slide can close the error): not checked. */
Test(locked_translation, rows_nearly_along_the_rail_do_not_fling_the_body)
{
    const int modes[3] = {CAIRN_SOFT_STEP, CAIRN_SPLIT_IMPULSE, CAIRN_BAUMGARTE};
    double tilt = 0.1 * SCENE_PI / 180.0;
    vec3s n = v3((float)sin(tilt), 0.0f, (float)cos(tilt));
    for (int m = 0; m < 3; ++m) {
        cairn_world *world = rail_world(v3(0, 0, 0), modes[m]);
        /* the wall's face is the plane n . p = -0.45: the ball (radius 0.5) is 5 cm in */
        slanted_box(world, v3(5, 0.25f, 5), n, glms_vec3_scale(n, -0.7f), 0.6f, 0.0f);
        cairn_body_id ball = railed_body(world, cairn_shape_sphere(0.5f), scene_at(v3(0, 0, 0)),
                                         CAIRN_LOCK_TRANSLATION_Z, 0u, 0.6f, 0.0f);
        double wall = top_speed(world, ball);
        cr_expect(wall < 20.0, "mode %d: a wall near the rail flung the ball at %g m/s", modes[m],
                  wall);
        cairn_world_destroy(world);

        const cairn_joint_type types[2] = {CAIRN_JOINT_DISTANCE, CAIRN_JOINT_SLIDER};
        for (int t = 0; t < 2; ++t) {
            bool slides = types[t] == CAIRN_JOINT_SLIDER;
            if (slides && modes[m] == CAIRN_BAUMGARTE)
                continue; /* see above */
            double pulled = pulled_speed(types[t], n, modes[m]);
            cr_expect(pulled < (slides ? 20.0 : 2.0),
                      "mode %d: joint %d near the rail flung the ball at %g m/s", modes[m],
                      types[t], pulled);
        }
    }
}

/* A kinematic body keeps its bits and ignores them; made dynamic, it is locked. */
Test(locked_translation, a_type_change_keeps_the_lock)
{
    cairn_world *world = rail_world(v3(0, 0, 0), CAIRN_SOFT_STEP);
    cairn_body_id box =
        railed_body(world, cairn_shape_box(v3(0.5f, 0.5f, 0.5f), 0.0f), scene_at(v3(0, 5, 0)),
                    CAIRN_LOCK_TRANSLATION_ALL, 0u, 0.6f, 0.0f);
    cr_assert(cairn_body_set_type(world, box, CAIRN_KINEMATIC));
    cr_assert(cairn_body_set_linear_velocity(world, box, v3(0, 0, 1)));
    scene_step(world, 30);
    cr_expect(fabs((double)scene_position(world, box).z - 0.5) < 1e-5, "the kinematic body moved");
    cr_assert(cairn_body_set_type(world, box, CAIRN_DYNAMIC));
    cr_expect_eq(cairn_body_locked_translation(world, box), CAIRN_LOCK_TRANSLATION_ALL);
    cr_expect_eq(scene_length(cairn_body_linear_velocity(world, box)), 0.0);
    cairn_body_apply_impulse(world, box, v3(100, 100, 100), v3(0.5f, 5.5f, 0.5f));
    cr_expect_eq(scene_length(cairn_body_linear_velocity(world, box)), 0.0);
    cr_expect(scene_length(cairn_body_angular_velocity(world, box)) > 0.0, "it should turn");
    cairn_world_destroy(world);
}

/* A snapshot keeps the lock: restored over an unlocked body, the two worlds go on to the same
   state hash. */
Test(locked_translation, a_snapshot_keeps_the_lock)
{
    cairn_world *world = rail_world(v3(0, (float)-SCENE_G, -3.0f), CAIRN_SOFT_STEP);
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id box =
        railed_body(world, cairn_shape_box(v3(0.5f, 0.5f, 0.5f), 0.0f), scene_at(v3(0, 2, 0)),
                    CAIRN_LOCK_TRANSLATION_Z, 0u, 0.6f, 0.0f);
    scene_step(world, 5);
    size_t size = cairn_world_snapshot_size(world);
    void *buffer = malloc(size);
    cr_assert(cairn_world_snapshot(world, buffer, size));
    scene_step(world, 60);
    uint64_t expected = cairn_world_state_hash(world);

    cr_assert(cairn_body_set_locked_translation(world, box, 0));
    cr_assert(cairn_world_restore(world, buffer, size), "%s", cairn_last_error());
    cr_expect_eq(cairn_body_locked_translation(world, box), CAIRN_LOCK_TRANSLATION_Z);
    scene_step(world, 60);
    cr_expect_eq(cairn_world_state_hash(world), expected, "the restored world went elsewhere");
    free(buffer);
    cairn_world_destroy(world);
}

/* A snapshot whose body record holds translation bits beyond the three axes (8), its checksum
   fixed, is refused with an error naming the locked axes, and the world is unchanged. The record
   is found by its flags: dynamic, enabled, awake, no sleep, rotation lock 5, translation lock 6. */
Test(locked_translation, a_snapshot_with_a_corrupt_lock_is_refused)
{
    cairn_world *world = rail_world(v3(0, (float)-SCENE_G, 0), CAIRN_SOFT_STEP);
    railed_body(world, cairn_shape_sphere(0.5f), scene_at(v3(0, 5, 0)),
                CAIRN_LOCK_TRANSLATION_Y | CAIRN_LOCK_TRANSLATION_Z,
                CAIRN_LOCK_ROTATION_X | CAIRN_LOCK_ROTATION_Z, 0.6f, 0.0f);
    scene_step(world, 3);
    size_t size = cairn_world_snapshot_size(world);
    unsigned char *snapshot = malloc(size);
    cr_assert(cairn_world_snapshot(world, snapshot, size), "%s", cairn_last_error());
    const unsigned char flags[8] = {CAIRN_DYNAMIC, 1, 1, 0, 5, 6, 0, 0};
    unsigned char *at = snapshot_find(snapshot, size, flags, sizeof flags);
    cr_assert_not_null(at, "the body record is not in the snapshot");
    at[5] = 8;
    snapshot_reseal(snapshot, size);
    uint64_t hash = cairn_world_state_hash(world);
    cr_expect(!cairn_world_restore(world, snapshot, size), "a lock of 8 was accepted");
    cr_expect(strstr(cairn_last_error(), "locked axes") != NULL, "%s", cairn_last_error());
    cr_expect_eq(cairn_world_state_hash(world), hash);
    at[5] = 6; /* the same snapshot, whole again, is taken */
    snapshot_reseal(snapshot, size);
    cr_expect(cairn_world_restore(world, snapshot, size), "%s", cairn_last_error());
    free(snapshot);
    cairn_world_destroy(world);
}

Test(locked_translation, bad_locks_are_refused)
{
    cairn_world *world = rail_world(v3(0, 0, 0), CAIRN_SOFT_STEP);
    cairn_body_def def = cairn_body_default_def();
    def.shape = cairn_shape_sphere(0.5f);
    def.locked_translation = 8u;
    cairn_body_id none = cairn_body_create(world, &def);
    cr_expect(id_is_null(none));
    cr_expect(strstr(cairn_last_error(), "locked_translation") != NULL, "%s", cairn_last_error());
    def.locked_translation = CAIRN_LOCK_TRANSLATION_Y;
    cairn_body_id ball = cairn_body_create(world, &def);
    cr_assert(!id_is_null(ball));
    cr_expect(!cairn_body_set_locked_translation(world, ball, 0x10u));
    cr_expect(strstr(cairn_last_error(), "cairn_body_set_locked_translation") != NULL, "%s",
              cairn_last_error());
    cr_expect_eq(cairn_body_locked_translation(world, ball), CAIRN_LOCK_TRANSLATION_Y);
    cairn_body_destroy(world, ball);
    cr_expect(!cairn_body_set_locked_translation(world, ball, 0));
    cr_expect_eq(cairn_body_locked_translation(world, ball), 0u);
    cr_expect(!cairn_body_set_locked_translation(NULL, ball, 0));
    cairn_shape_release((cairn_shape *)def.shape);
    cairn_world_destroy(world);
}
