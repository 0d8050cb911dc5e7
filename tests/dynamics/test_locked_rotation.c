/* Locked rotation axes (cairn_body_def.locked_rotation, cairn_body_set_locked_rotation): each
   against an analytic answer with the lock as a joint of infinite stiffness, and against the
   free body's answer where that differs, so that a lock that does nothing fails; contacts,
   joints (the tree solve cannot take a locked body, the hinge's angle block has a dead row),
   snapshots, type changes and bad input. */
#include "scene_helpers.h"

#include <stdlib.h>
#include <string.h>

/* No gravity and no damping: velocities stay what impulses and torques made them. */
static cairn_world *empty_world(vec3s gravity)
{
    cairn_world_def def = cairn_world_default_def();
    def.gravity = gravity;
    def.linear_damping = 0.0f;
    def.angular_damping = 0.0f;
    return scene_world(&def);
}

static cairn_body_id locked_body(cairn_world *world, cairn_shape *shape, cairn_transform xf,
                                 uint32_t axes, float friction)
{
    cr_assert_not_null(shape);
    cairn_body_def def = cairn_body_default_def();
    def.shape = shape;
    def.transform = xf;
    def.friction = friction;
    def.locked_rotation = axes;
    def.allow_sleep = false; /* a slow swing or spin would sleep */
    cairn_body_id id = cairn_body_create(world, &def);
    cairn_shape_release(shape);
    cr_assert(!id_is_null(id), "%s", cairn_last_error());
    return id;
}

static cairn_transform turned_about_x(vec3s position, double degrees)
{
    double half = 0.5 * degrees * SCENE_PI / 180.0;
    cairn_transform xf = scene_at(position);
    xf.rotation = (versors){{(float)sin(half), 0.0f, 0.0f, (float)cos(half)}};
    return xf;
}

/* Equal but for the last bits the renormalisation at every substep may change. */
static bool same_rotation(versors a, versors b)
{
    for (int k = 0; k < 4; ++k)
        if (fabs((double)a.raw[k] - (double)b.raw[k]) > 1e-6)
            return false;
    return true;
}

/* A tall box held by every axis, pushed sideways at its top: the centre takes J / m and nothing
   turns (a free box would spin at I^-1 (r x J), 1.5 rad/s here). */
Test(locked_rotation, an_off_centre_impulse_moves_a_fully_locked_box_without_turning_it)
{
    cairn_world *world = empty_world(v3(0, 0, 0));
    cairn_transform start = scene_at(v3(0, 5, 0));
    cairn_body_id box = locked_body(world, cairn_shape_box(v3(0.5f, 2, 0.5f), 0.0f), start,
                                    CAIRN_LOCK_ROTATION_ALL, 0.6f);
    double mass = cairn_body_mass(world, box); /* 1000 kg/m^3 x 4 m^3 */
    cr_assert(fabs(mass - 4000.0) < 1.0, "mass %g", mass);
    cairn_body_apply_impulse(world, box, v3(4000, 0, 0), v3(0, 7, 0));
    cr_expect(fabs((double)cairn_body_linear_velocity(world, box).x - 1.0) < 1e-6);
    cr_expect_eq(scene_length(cairn_body_angular_velocity(world, box)), 0.0);
    scene_step(world, 60);
    cairn_transform now = cairn_body_transform(world, box);
    cr_expect(same_rotation(now.rotation, start.rotation), "the locked box turned");
    cr_expect(fabs((double)now.position.x - 1.0) < 1e-4, "moved %g m in 1 s at 1 m/s",
              (double)now.position.x);
    cairn_world_destroy(world);
}

/* A box tilted 30 degrees about x, free only about y, given a torque about y for one step: the
   lock holds x and z, so it turns with I_yy of its world inertia, w = tau dt / I_yy. A free body
   would answer with (I^-1)_yy instead, 35% more here. Then, with no torque, w stays and so does
   the tilt: about one fixed axis the inertia does not change as the body turns. */
Test(locked_rotation, a_tilted_yaw_only_box_turns_with_the_inertia_about_its_free_axis)
{
    cairn_world *world = empty_world(v3(0, 0, 0));
    double hx = 0.2, hy = 1.0, hz = 0.5, tilt = 30.0 * SCENE_PI / 180.0;
    cairn_body_id box = locked_body(
        world, cairn_shape_box(v3((float)hx, (float)hy, (float)hz), 0.0f),
        turned_about_x(v3(0, 5, 0), 30.0), CAIRN_LOCK_ROTATION_X | CAIRN_LOCK_ROTATION_Z, 0.6f);
    double m = 1000.0 * 8.0 * hx * hy * hz;
    double iyy = m / 3.0 * (hx * hx + hz * hz), izz = m / 3.0 * (hx * hx + hy * hy);
    double c2 = cos(tilt) * cos(tilt), s2 = sin(tilt) * sin(tilt);
    double world_iyy = iyy * c2 + izz * s2;       /* (R I R^T)_yy */
    double free_inverse_yy = c2 / iyy + s2 / izz; /* (R I^-1 R^T)_yy */
    cr_assert(world_iyy * free_inverse_yy > 1.3, "the scene does not tell the two apart");

    double torque = 5000.0;
    cairn_body_apply_torque(world, box, v3(0, (float)torque, 0));
    cairn_world_step(world, SCENE_DT);
    vec3s w = cairn_body_angular_velocity(world, box);
    double expected = torque * (double)SCENE_DT / world_iyy;
    cr_expect(fabs((double)w.y - expected) < 1e-4 * expected, "w_y %g, tau dt / I_yy = %g",
              (double)w.y, expected);
    cr_expect(w.x == 0.0f && w.z == 0.0f, "w (%g, %g, %g) has locked parts", (double)w.x,
              (double)w.y, (double)w.z);

    scene_step(world, 120);
    vec3s later = cairn_body_angular_velocity(world, box);
    cr_expect(fabs((double)later.y - (double)w.y) < 1e-5 * (double)w.y, "w_y %g -> %g", (double)w.y,
              (double)later.y);
    /* the body's y axis still makes 30 degrees with the world's */
    versors q = cairn_body_transform(world, box).rotation;
    double axis_y = 1.0 - 2.0 * ((double)q.x * q.x + (double)q.z * q.z);
    cr_expect(fabs(acos(axis_y) - tilt) < 1e-4, "tilt %g rad, was %g", acos(axis_y), tilt);
    cairn_world_destroy(world);
}

/* Gravity tilted 30 degrees from the floor's normal is a ramp. A ball locked against turning
   slides: a = g (sin - mu cos). A free ball (mu above 2/7 tan) rolls: a = 5/7 g sin, 9% more. */
static double ramp_distance(uint32_t axes)
{
    double angle = 30.0 * SCENE_PI / 180.0;
    cairn_world *world =
        empty_world(v3((float)(SCENE_G * sin(angle)), (float)(-SCENE_G * cos(angle)), 0));
    scene_floor(world, 0.2f, 0.0f);
    cairn_body_id ball =
        locked_body(world, cairn_shape_sphere(0.5f), scene_at(v3(-20, 0.5f, 0)), axes, 0.2f);
    scene_step(world, 10); /* the contact forms */
    double x0 = (double)scene_position(world, ball).x;
    double v0 = (double)cairn_body_linear_velocity(world, ball).x;
    scene_step(world, 60);
    if (axes == CAIRN_LOCK_ROTATION_ALL)
        cr_expect_eq(scene_length(cairn_body_angular_velocity(world, ball)), 0.0);
    double distance = (double)scene_position(world, ball).x - x0 - v0;
    cairn_world_destroy(world);
    return distance;
}

Test(locked_rotation, a_ball_locked_against_rolling_slides_down_a_ramp)
{
    double angle = 30.0 * SCENE_PI / 180.0, mu = 0.2;
    double sliding = 0.5 * SCENE_G * (sin(angle) - mu * cos(angle));
    double rolling = 0.5 * 5.0 / 7.0 * SCENE_G * sin(angle);
    double locked = ramp_distance(CAIRN_LOCK_ROTATION_ALL);
    double free = ramp_distance(0);
    cr_expect(fabs(locked - sliding) < 0.02 * sliding, "locked: %g m in 1 s, sliding %g", locked,
              sliding);
    cr_expect(fabs(free - rolling) < 0.02 * rolling, "free: %g m in 1 s, rolling %g", free,
              rolling);
}

/* A box locked in every axis, dropped tilted onto the floor, comes to rest on its edge at the
   tilt it fell with; a free one falls flat. */
Test(locked_rotation, a_fully_locked_box_lands_and_rests_on_its_edge)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    vec3s half = v3(0.5f, 0.5f, 0.5f);
    cairn_transform start = turned_about_x(v3(0, 2, 0), 20.0);
    cairn_body_id box =
        locked_body(world, cairn_shape_box(half, 0.0f), start, CAIRN_LOCK_ROTATION_ALL, 0.6f);
    scene_step(world, 180);
    cairn_transform now = cairn_body_transform(world, box);
    cr_expect(same_rotation(now.rotation, start.rotation), "the locked box turned");
    double bottom = scene_box_min_y(now, half);
    cr_expect(fabs(bottom) < 0.01, "its lowest edge at %g m, the floor at 0", bottom);
    cr_expect(scene_length(cairn_body_linear_velocity(world, box)) < 1e-3,
              "it did not come to rest");
    cr_expect(scene_horizontal_distance(now.position, start.position) < 0.01, "it slid %g m",
              scene_horizontal_distance(now.position, start.position));
    cairn_world_destroy(world);
}

/* Period of small swings of a 1.2 m box hung from the world by a rod (a distance joint) of
   length rod fixed at its top face: zero crossings of its centre's x, interpolated between
   steps. */
static double swing_period(uint32_t axes, double rod, bool *kept_rotation)
{
    cairn_world *world = empty_world(v3(0, (float)-SCENE_G, 0));
    double start_angle = 0.05;
    vec3s top = v3((float)(rod * sin(start_angle)), (float)(10.0 - rod * cos(start_angle)), 0);
    cairn_transform start = scene_at(v3(top.x, top.y - 0.6f, 0));
    cairn_body_id bob =
        locked_body(world, cairn_shape_box(v3(0.6f, 0.6f, 0.6f), 0.0f), start, axes, 0.6f);
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_DISTANCE);
    def.body_b = bob;
    def.anchor_a = v3(0, 10, 0);
    def.anchor_b = top;
    cr_assert(cairn_joint_create(world, &def).generation != 0, "%s", cairn_last_error());
    double crossings[8];
    int found = 0;
    double previous = (double)scene_position(world, bob).x;
    for (int step = 1; step <= 1200 && found < 8; ++step) {
        cairn_world_step(world, SCENE_DT);
        double x = (double)scene_position(world, bob).x;
        if ((previous > 0.0) != (x > 0.0))
            crossings[found++] = (step - 1 + previous / (previous - x)) * (double)SCENE_DT;
        previous = x;
    }
    *kept_rotation = same_rotation(cairn_body_transform(world, bob).rotation, start.rotation);
    cairn_world_destroy(world);
    cr_assert_eq(found, 8, "the bob stopped swinging");
    return 2.0 * (crossings[7] - crossings[1]) / 6.0;
}

/* Locked, the bob moves without turning, its centre on a circle of the rod's radius: a
   point-mass pendulum, T = 2 pi sqrt(rod / g). Free, it also swings about the rod's end (a double
   pendulum), and its slow mode is slower than one of length rod + 0.6 m. */
Test(locked_rotation, a_locked_bob_on_a_rod_swings_as_a_point_mass)
{
    double rod = 1.4;
    double point = 2.0 * SCENE_PI * sqrt(rod / SCENE_G);
    bool kept = false;
    double locked = swing_period(CAIRN_LOCK_ROTATION_ALL, rod, &kept);
    cr_expect(kept, "the locked bob turned");
    cr_expect(fabs(locked - point) < 0.004 * point, "locked: T %g s, point mass %g", locked, point);
    double longer = 2.0 * SCENE_PI * sqrt((rod + 0.6) / SCENE_G);
    double free = swing_period(0, rod, &kept);
    cr_expect(free > longer, "free: T %g s, not above %g", free, longer);
}

static cairn_body_id hinged(cairn_world *world, vec3s axis, vec3s spin)
{
    cairn_body_id box =
        locked_body(world, cairn_shape_box(v3(0.5f, 0.5f, 0.5f), 0.0f), scene_at(v3(0, 5, 0)),
                    CAIRN_LOCK_ROTATION_X | CAIRN_LOCK_ROTATION_Z, 0.6f);
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_HINGE);
    def.body_b = box;
    def.anchor_a = def.anchor_b = v3(0, 5, 0);
    def.axis = axis;
    cr_assert(cairn_joint_create(world, &def).generation != 0, "%s", cairn_last_error());
    cr_assert(cairn_body_set_angular_velocity(world, box, spin));
    return box;
}

/* A yaw-only box hinged to the world about y spins on freely. Hinged about x (a locked axis) it
   cannot turn at all: the hinge's angle rows are y (free) and z (locked, a dead row), and the y
   row must still hold when the z row can take no impulse. */
Test(locked_rotation, a_hinge_about_the_free_axis_spins_and_one_about_a_locked_axis_holds)
{
    cairn_world *world = empty_world(v3(0, (float)-SCENE_G, 0));
    cairn_body_id spinning = hinged(world, v3(0, 1, 0), v3(0, 2, 0));
    scene_step(world, 60);
    vec3s w = cairn_body_angular_velocity(world, spinning);
    cr_expect(fabs((double)w.y - 2.0) < 1e-3 && w.x == 0.0f && w.z == 0.0f, "w (%g, %g, %g)",
              (double)w.x, (double)w.y, (double)w.z);
    cr_expect(scene_distance(scene_position(world, spinning), v3(0, 5, 0)) < 1e-3);
    cairn_world_destroy(world);

    world = empty_world(v3(0, (float)-SCENE_G, 0));
    cairn_body_id held = hinged(world, v3(1, 0, 0), v3(0, 2, 0));
    scene_step(world, 60);
    w = cairn_body_angular_velocity(world, held);
    cr_expect(scene_length(w) < 1e-3, "w (%g, %g, %g)", (double)w.x, (double)w.y, (double)w.z);
    versors q = cairn_body_transform(world, held).rotation;
    cr_expect(fabs((double)q.w) > 0.99999, "it turned: q (%g, %g, %g, %g)", (double)q.x,
              (double)q.y, (double)q.z, (double)q.w);
    cairn_world_destroy(world);
}

/* The part of a set angular velocity about a locked axis is dropped; a new lock drops it from
   the velocity the body has. */
Test(locked_rotation, velocities_about_locked_axes_are_dropped)
{
    cairn_world *world = empty_world(v3(0, 0, 0));
    cairn_body_id box = locked_body(world, cairn_shape_box(v3(0.5f, 0.5f, 0.5f), 0.0f),
                                    scene_at(v3(0, 5, 0)), CAIRN_LOCK_ROTATION_Y, 0.6f);
    cr_assert(cairn_body_set_angular_velocity(world, box, v3(1, 2, 3)));
    vec3s w = cairn_body_angular_velocity(world, box);
    cr_expect(w.x == 1.0f && w.y == 0.0f && w.z == 3.0f);
    cr_assert(cairn_body_set_locked_rotation(world, box, CAIRN_LOCK_ROTATION_Z));
    cr_expect_eq(cairn_body_locked_rotation(world, box), CAIRN_LOCK_ROTATION_Z);
    w = cairn_body_angular_velocity(world, box);
    cr_expect(w.x == 1.0f && w.y == 0.0f && w.z == 0.0f);
    cr_assert(cairn_body_set_locked_rotation(world, box, 0));
    cr_assert(cairn_body_set_angular_velocity(world, box, v3(1, 2, 3)));
    w = cairn_body_angular_velocity(world, box);
    cr_expect(w.x == 1.0f && w.y == 2.0f && w.z == 3.0f, "an unlocked body keeps every part");
    cairn_world_destroy(world);
}

/* A kinematic body keeps its bits and ignores them; made dynamic, it is locked. */
Test(locked_rotation, a_type_change_keeps_the_lock)
{
    cairn_world *world = empty_world(v3(0, 0, 0));
    cairn_body_id box = locked_body(world, cairn_shape_box(v3(0.5f, 0.5f, 0.5f), 0.0f),
                                    scene_at(v3(0, 5, 0)), CAIRN_LOCK_ROTATION_ALL, 0.6f);
    cr_assert(cairn_body_set_type(world, box, CAIRN_KINEMATIC));
    cr_assert(cairn_body_set_angular_velocity(world, box, v3(0, 1, 0)));
    scene_step(world, 30);
    versors q = cairn_body_transform(world, box).rotation;
    cr_expect(fabs((double)q.y - sin(0.25)) < 1e-4, "the kinematic body turned to q.y %g",
              (double)q.y);
    cr_assert(cairn_body_set_type(world, box, CAIRN_DYNAMIC));
    cr_expect_eq(cairn_body_locked_rotation(world, box), CAIRN_LOCK_ROTATION_ALL);
    cr_expect_eq(scene_length(cairn_body_angular_velocity(world, box)), 0.0);
    cairn_body_apply_impulse(world, box, v3(0, 0, 100), v3(0.5f, 5.5f, 0));
    cr_expect_eq(scene_length(cairn_body_angular_velocity(world, box)), 0.0);
    cairn_world_destroy(world);
}

/* A snapshot keeps the lock: restored over an unlocked body, the two worlds go on to the same
   state hash. */
Test(locked_rotation, a_snapshot_keeps_the_lock)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id box = locked_body(world, cairn_shape_box(v3(0.5f, 0.5f, 0.5f), 0.0f),
                                    turned_about_x(v3(0, 2, 0), 20.0), CAIRN_LOCK_ROTATION_X, 0.6f);
    scene_step(world, 5);
    size_t size = cairn_world_snapshot_size(world);
    void *buffer = malloc(size);
    cr_assert(cairn_world_snapshot(world, buffer, size));
    scene_step(world, 60);
    uint64_t expected = cairn_world_state_hash(world);

    cr_assert(cairn_world_restore(world, buffer, size), "%s", cairn_last_error());
    cr_assert(cairn_body_set_locked_rotation(world, box, 0));
    cr_assert(cairn_world_restore(world, buffer, size), "%s", cairn_last_error());
    cr_expect_eq(cairn_body_locked_rotation(world, box), CAIRN_LOCK_ROTATION_X);
    scene_step(world, 60);
    cr_expect_eq(cairn_world_state_hash(world), expected, "the restored world went elsewhere");
    free(buffer);
    cairn_world_destroy(world);
}

Test(locked_rotation, bad_locks_are_refused)
{
    cairn_world *world = empty_world(v3(0, 0, 0));
    cairn_body_def def = cairn_body_default_def();
    def.shape = cairn_shape_sphere(0.5f);
    def.locked_rotation = 8u;
    cairn_body_id none = cairn_body_create(world, &def);
    cr_expect(id_is_null(none));
    cr_expect(strstr(cairn_last_error(), "locked_rotation") != NULL, "%s", cairn_last_error());
    def.locked_rotation = CAIRN_LOCK_ROTATION_Y;
    cairn_body_id ball = cairn_body_create(world, &def);
    cr_assert(!id_is_null(ball));
    cr_expect(!cairn_body_set_locked_rotation(world, ball, 0x10u));
    cr_expect(strstr(cairn_last_error(), "cairn_body_set_locked_rotation") != NULL, "%s",
              cairn_last_error());
    cr_expect_eq(cairn_body_locked_rotation(world, ball), CAIRN_LOCK_ROTATION_Y);
    cairn_body_destroy(world, ball);
    cr_expect(!cairn_body_set_locked_rotation(world, ball, 0));
    cr_expect_eq(cairn_body_locked_rotation(world, ball), 0u);
    cr_expect(!cairn_body_set_locked_rotation(NULL, ball, 0));
    cairn_shape_release((cairn_shape *)def.shape);
    cairn_world_destroy(world);
}

/* A hanging chain of three boxes on ball joints, the middle one locked in every axis, released
   sideways: the middle box never turns, and every joint holds its anchors together. The tree
   solve cannot take the chain (the middle box has no finite inertia); Gauss-Seidel does. */
Test(locked_rotation, a_chain_with_a_locked_link_holds_together)
{
    cairn_world *world = empty_world(v3(0, (float)-SCENE_G, 0));
    cairn_body_id links[3];
    vec3s half = v3(0.2f, 0.5f, 0.2f);
    for (int i = 0; i < 3; ++i) {
        cairn_transform xf = scene_at(v3(0.5f + 0.5f * (float)i, 9.5f - (float)i, 0));
        links[i] = locked_body(world, cairn_shape_box(half, 0.0f), xf,
                               i == 1 ? CAIRN_LOCK_ROTATION_ALL : 0u, 0.6f);
    }
    cairn_transform middle = cairn_body_transform(world, links[1]);
    vec3s anchors[3] = {v3(0.25f, 10, 0), v3(0.75f, 9, 0), v3(1.25f, 8, 0)};
    for (int i = 0; i < 3; ++i) {
        cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_BALL);
        def.body_a = i == 0 ? (cairn_body_id){0, 0} : links[i - 1];
        def.body_b = links[i];
        def.anchor_a = def.anchor_b = anchors[i];
        cr_assert(cairn_joint_create(world, &def).generation != 0, "%s", cairn_last_error());
    }
    double worst = 0.0;
    for (int step = 0; step < 240; ++step) {
        cairn_world_step(world, SCENE_DT);
        /* the joint between links 1 and 2 sits at the bottom of link 1 and the top of link 2 */
        cairn_transform a = cairn_body_transform(world, links[1]);
        cairn_transform b = cairn_body_transform(world, links[2]);
        vec3s bottom =
            glms_vec3_add(a.position, glms_quat_rotatev(a.rotation, v3(0.25f, -0.5f, 0)));
        vec3s top = glms_vec3_add(b.position, glms_quat_rotatev(b.rotation, v3(-0.25f, 0.5f, 0)));
        double gap = scene_distance(bottom, top);
        worst = gap > worst ? gap : worst;
    }
    cr_expect(worst < 2e-3, "the lower joint opened %g m", worst);
    cr_expect(same_rotation(cairn_body_transform(world, links[1]).rotation, middle.rotation),
              "the locked link turned");
    cairn_world_destroy(world);
}
