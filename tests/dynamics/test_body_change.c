/* Changing a body's type and mass after creation (cairn_body_set_type,
   cairn_body_set_mass_properties): motion against the analytic answer, contacts and joints
   across the change, snapshots, bad input. */
#include "scene_helpers.h"

#include <stdlib.h>
#include <string.h>

static const vec3s unit_half = {{0.5f, 0.5f, 0.5f}};

static cairn_world *weightless_world(void)
{
    cairn_world_def def = cairn_world_default_def();
    def.gravity = v3(0, 0, 0);
    return scene_world(&def);
}

/* The mass a dynamic body of this shape and density gets at creation. */
static double creation_mass(const cairn_shape *shape, float density)
{
    cairn_mass_properties mass;
    cr_assert(cairn_shape_mass_properties(shape, density, &mass));
    return (double)mass.mass;
}

/* A static platform high up, a box resting on it; the platform turned dynamic falls freely with
   the box on it: its drop after t is g t^2 / 2 (the ground is far below). */
Test(body_change, a_static_platform_made_dynamic_falls_freely_with_its_load)
{
    cairn_world *world = scene_default_world();
    vec3s half = v3(2, 0.25f, 2);
    cairn_body_id platform = scene_body(world, cairn_shape_box(half, SCENE_RADIUS), CAIRN_STATIC,
                                        scene_at(v3(0, 100, 0)), 500.0f, 0.6f, 0.0f);
    cairn_body_id box = scene_box(world, v3(0, 100.75f, 0), unit_half, 1000.0f, 0.6f);
    scene_step(world, 120);
    cr_assert(!cairn_body_is_awake(world, box), "the box did not settle");
    cr_expect_eq(cairn_body_mass(world, platform), 0.0f);
    vec3s rest = scene_position(world, box);

    cr_assert(cairn_body_set_type(world, platform, CAIRN_DYNAMIC), "%s", cairn_last_error());
    cr_expect_eq(cairn_body_get_type(world, platform), CAIRN_DYNAMIC);
    double expected = creation_mass(cairn_body_shape(world, platform), 500.0f);
    cr_expect(fabs(cairn_body_mass(world, platform) - expected) < 1e-3 * expected,
              "mass %g, at creation %g", (double)cairn_body_mass(world, platform), expected);
    cr_expect(cairn_body_is_awake(world, platform));
    cr_expect(cairn_body_is_awake(world, box), "the load was not woken");

    int steps = 60;
    scene_step(world, steps);
    double t = steps * (double)SCENE_DT, drop = 0.5 * SCENE_G * t * t;
    double fallen = 100.0 - (double)scene_position(world, platform).y;
    cr_expect(fabs(fallen - drop) < 0.01 * drop, "fell %g m, g t^2 / 2 = %g m", fallen, drop);
    double load_fallen = (double)rest.y - (double)scene_position(world, box).y;
    cr_expect(fabs(load_fallen - drop) < 0.01 * drop, "the load fell %g m, not %g", load_fallen,
              drop);
    cairn_world_destroy(world);
}

/* A falling box turned static stops where it is and holds what lands on it. */
Test(body_change, a_dynamic_box_made_static_stops_and_holds_a_load)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id pillar = scene_box(world, v3(0, 10, 0), unit_half, 1000.0f, 0.6f);
    scene_step(world, 20);
    cairn_transform frozen = cairn_body_transform(world, pillar);
    cr_assert(cairn_body_set_type(world, pillar, CAIRN_STATIC), "%s", cairn_last_error());
    cr_expect_eq(cairn_body_mass(world, pillar), 0.0f);
    cr_expect_eq(scene_length(cairn_body_linear_velocity(world, pillar)), 0.0);
    cr_expect(!cairn_body_is_awake(world, pillar), "a static body is never awake");
    cairn_body_id load =
        scene_box(world, v3(0, frozen.position.y + 3, 0), unit_half, 1000.0f, 0.6f);
    scene_step(world, 180);
    vec3s now = scene_position(world, pillar);
    cr_expect_eq(memcmp(&now, &frozen.position, sizeof now), 0, "the static box moved");
    double top = scene_box_max_y(frozen, unit_half);
    double bottom = scene_box_min_y(cairn_body_transform(world, load), unit_half);
    cr_expect(fabs(bottom - top) < 0.02, "the load rests at %g, the top is at %g", bottom, top);
    cairn_world_destroy(world);
}

/* Kinematic keeps the velocity it had and no longer feels gravity: x = x0 + v t. */
Test(body_change, a_dynamic_body_made_kinematic_moves_on_at_its_velocity)
{
    cairn_world *world = scene_default_world();
    cairn_body_id ball = scene_sphere(world, v3(0, 50, 0), 0.5f, 1000.0f, 0.5f, 0.0f);
    cr_assert(cairn_body_set_linear_velocity(world, ball, v3(3, 0, -2)));
    cr_assert(cairn_body_apply_force(world, ball, v3(1000, 0, 0), v3(0, 50, 0)));
    cr_assert(cairn_body_set_type(world, ball, CAIRN_KINEMATIC), "%s", cairn_last_error());
    vec3s v = cairn_body_linear_velocity(world, ball);
    cr_expect(v.x == 3 && v.y == 0 && v.z == -2, "velocity (%g %g %g)", (double)v.x, (double)v.y,
              (double)v.z);
    int steps = 60;
    scene_step(world, steps);
    double t = steps * (double)SCENE_DT;
    vec3s p = scene_position(world, ball);
    cr_expect(fabs((double)p.x - 3 * t) < 1e-4 && fabs((double)p.y - 50) < 1e-4 &&
                  fabs((double)p.z + 2 * t) < 1e-4,
              "at (%g %g %g), expected (%g 50 %g): the stored force or gravity acted", (double)p.x,
              (double)p.y, (double)p.z, 3 * t, -2 * t);
    cairn_world_destroy(world);
}

static bool has_begin(const cairn_world *world, cairn_body_id a, cairn_body_id b)
{
    cairn_contact_events e = cairn_world_contact_events(world);
    for (int i = 0; i < e.begin_count; ++i)
        if ((cairn_body_id_equal(e.begins[i].body_a, a) &&
             cairn_body_id_equal(e.begins[i].body_b, b)) ||
            (cairn_body_id_equal(e.begins[i].body_a, b) &&
             cairn_body_id_equal(e.begins[i].body_b, a)))
            return true;
    return false;
}

static bool has_end(const cairn_world *world, cairn_body_id a, cairn_body_id b)
{
    cairn_contact_events e = cairn_world_contact_events(world);
    for (int i = 0; i < e.end_count; ++i)
        if ((cairn_body_id_equal(e.ends[i].body_a, a) &&
             cairn_body_id_equal(e.ends[i].body_b, b)) ||
            (cairn_body_id_equal(e.ends[i].body_a, b) && cairn_body_id_equal(e.ends[i].body_b, a)))
            return true;
    return false;
}

/* The ground turned kinematic and back in one frame: the resting box's contact goes on (no end,
   no begin) and the box stays where it rests. The box then made static too: no dynamic body is
   left in the pair, and the contact ends at once with its event. */
Test(body_change, a_contact_goes_on_while_its_pair_has_a_dynamic_body)
{
    cairn_world *world = scene_default_world();
    cairn_body_id ground = scene_floor(world, 0.6f, 0.0f);
    cairn_body_id box = scene_box(world, v3(0, 0.5f, 0), unit_half, 1000.0f, 0.6f);
    scene_step(world, 30);
    vec3s rest = scene_position(world, box);
    cr_assert(cairn_body_set_type(world, ground, CAIRN_KINEMATIC), "%s", cairn_last_error());
    cr_expect(cairn_body_is_awake(world, box));
    cr_assert(cairn_body_set_type(world, ground, CAIRN_STATIC), "%s", cairn_last_error());
    cairn_world_step(world, SCENE_DT);
    cr_expect(!has_end(world, box, ground), "the contact ended");
    cr_expect(!has_begin(world, box, ground), "the contact began again");
    scene_step(world, 60);
    cairn_contact_data data[4];
    cr_expect_eq(cairn_body_contacts(world, box, data, 4), 1);
    cr_expect(scene_distance(scene_position(world, box), rest) < 1e-3, "the box moved %g m",
              scene_distance(scene_position(world, box), rest));

    cr_assert(cairn_body_set_type(world, box, CAIRN_STATIC), "%s", cairn_last_error());
    cr_expect(has_end(world, box, ground), "no end event right after the call");
    cairn_world_step(world, SCENE_DT);
    cr_expect_eq(cairn_body_contacts(world, box, data, 4), 0);
    cairn_world_destroy(world);
}

/* A static body under a kinematic one makes no contact; once dynamic, it is pushed. */
Test(body_change, a_pair_without_a_dynamic_body_gets_its_contact_when_one_becomes_dynamic)
{
    cairn_world *world = weightless_world();
    cairn_body_id pusher = scene_body(world, cairn_shape_box(unit_half, SCENE_RADIUS),
                                      CAIRN_KINEMATIC, scene_at(v3(0, 0, 0)), 1000.0f, 0.0f, 0.0f);
    cairn_body_id crate = scene_body(world, cairn_shape_box(unit_half, SCENE_RADIUS), CAIRN_STATIC,
                                     scene_at(v3(1.2f, 0, 0)), 1000.0f, 0.0f, 0.0f);
    cr_assert(cairn_body_set_linear_velocity(world, pusher, v3(1, 0, 0)));
    scene_step(world, 10); /* the pusher enters the crate: no contact between them */
    cairn_contact_data data[4];
    cr_expect_eq(cairn_body_contacts(world, crate, data, 4), 0);
    cr_assert(cairn_body_set_type(world, crate, CAIRN_DYNAMIC), "%s", cairn_last_error());
    scene_step(world, 60);
    cr_expect(scene_position(world, crate).x > 1.5f, "the crate was not pushed (x = %g)",
              (double)scene_position(world, crate).x);
    cairn_world_destroy(world);
}

static cairn_joint_id hinge(cairn_world *world, cairn_body_id a, cairn_body_id b, vec3s anchor)
{
    cairn_joint_def def = cairn_joint_default_def(CAIRN_JOINT_HINGE);
    def.body_a = a;
    def.body_b = b;
    def.anchor_a = anchor;
    def.axis = v3(0, 0, 1);
    cairn_joint_id id = cairn_joint_create(world, &def);
    cr_assert(cairn_joint_is_valid(world, id), "%s", cairn_last_error());
    return id;
}

static double anchor_gap(const cairn_world *world, cairn_body_id a, vec3s local_a, cairn_body_id b,
                         vec3s local_b)
{
    cairn_transform xa = cairn_body_transform(world, a), xb = cairn_body_transform(world, b);
    vec3s pa = glms_vec3_add(xa.position, glms_quat_rotatev(xa.rotation, local_a));
    vec3s pb = glms_vec3_add(xb.position, glms_quat_rotatev(xb.rotation, local_b));
    return scene_distance(pa, pb);
}

/* A box hinged to a static post: the post made dynamic, the two fall together held at the
   hinge; the box made static too, the joint has no dynamic body and rests; one made dynamic
   again, the joint holds again. */
Test(body_change, joints_follow_their_bodies_types)
{
    cairn_world *world = scene_default_world();
    cairn_body_id post = scene_body(world, cairn_shape_box(v3(0.2f, 1, 0.2f), SCENE_RADIUS),
                                    CAIRN_STATIC, scene_at(v3(0, 60, 0)), 1000.0f, 0.6f, 0.0f);
    cairn_body_id box = scene_box(world, v3(1.5f, 61, 0), unit_half, 1000.0f, 0.6f);
    hinge(world, post, box, v3(0.5f, 61, 0));
    vec3s on_post = v3(0.5f, 1, 0), on_box = v3(-1, 0, 0);
    scene_step(world, 30);
    cr_expect(anchor_gap(world, post, on_post, box, on_box) < 1e-3);

    cr_assert(cairn_body_set_type(world, post, CAIRN_DYNAMIC), "%s", cairn_last_error());
    scene_step(world, 40);
    cr_expect(scene_position(world, post).y < 59.0f, "the post did not fall");
    cr_expect(anchor_gap(world, post, on_post, box, on_box) < 1e-3, "the hinge opened by %g m",
              anchor_gap(world, post, on_post, box, on_box));

    cr_assert(cairn_body_set_type(world, post, CAIRN_STATIC), "%s", cairn_last_error());
    cr_assert(cairn_body_set_type(world, box, CAIRN_KINEMATIC), "%s", cairn_last_error());
    cr_assert(cairn_body_set_linear_velocity(world, box, v3(0, 0, 0)));
    cr_assert(cairn_body_set_angular_velocity(world, box, v3(0, 0, 0)));
    cairn_transform still = cairn_body_transform(world, box);
    scene_step(world, 30); /* no dynamic body: nothing solved, nothing moves */
    vec3s now = scene_position(world, box);
    cr_expect_eq(memcmp(&now, &still.position, sizeof now), 0, "moved without a dynamic body");
    cr_assert(cairn_body_set_type(world, box, CAIRN_DYNAMIC), "%s", cairn_last_error());
    scene_step(world, 60);
    vec3s p = scene_position(world, box);
    cr_expect(isfinite(p.x) && isfinite(p.y) && isfinite(p.z));
    cr_expect(anchor_gap(world, post, on_post, box, on_box) < 1e-3, "the hinge opened by %g m",
              anchor_gap(world, post, on_post, box, on_box));
    cairn_world_destroy(world);
}

/* A disabled body changes type without entering the world; enabled, it acts as its new type. */
Test(body_change, a_disabled_body_takes_the_type_it_is_enabled_with)
{
    cairn_world *world = scene_default_world();
    cairn_body_id box = scene_box(world, v3(0, 10, 0), unit_half, 1000.0f, 0.6f);
    cr_assert(cairn_body_set_enabled(world, box, false));
    cr_assert(cairn_body_set_type(world, box, CAIRN_STATIC), "%s", cairn_last_error());
    cr_expect(!cairn_body_is_enabled(world, box));
    cr_assert(cairn_body_set_enabled(world, box, true));
    scene_step(world, 30);
    cr_expect_eq(scene_position(world, box).y, 10.0f, "a static body fell");
    cairn_body_id load = scene_box(world, v3(0, 11.5f, 0), unit_half, 1000.0f, 0.6f);
    scene_step(world, 60);
    cr_expect(scene_position(world, load).y > 10.9f, "fell through the static box (y = %g)",
              (double)scene_position(world, load).y);
    cairn_world_destroy(world);
}

/* Disabled, made kinematic and enabled again before a step, a box that rested on the floor
   keeps no contact with it (a kinematic-static pair has none). */
Test(body_change, a_contact_the_new_type_forbids_ends_after_an_enable)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id box = scene_box(world, v3(0, 0.5f, 0), unit_half, 1000.0f, 0.6f);
    scene_step(world, 30);
    cr_assert(cairn_body_set_enabled(world, box, false));
    cr_assert(cairn_body_set_type(world, box, CAIRN_KINEMATIC));
    cr_assert(cairn_body_set_enabled(world, box, true));
    cairn_world_step(world, SCENE_DT);
    cairn_contact_data data[4];
    cr_expect_eq(cairn_body_contacts(world, box, data, 4), 0, "a kinematic-static contact");
    vec3s p = scene_position(world, box);
    cr_expect(isfinite(p.y) && fabs((double)p.y - 0.5) < 0.01, "the box is at y = %g", (double)p.y);
    cairn_world_destroy(world);
}

/* Stale ids, unknown types and meshes made dynamic are refused and change nothing. */
Test(body_change, bad_input_is_refused)
{
    cairn_world *world = scene_default_world();
    cairn_body_id box = scene_box(world, v3(0, 10, 0), unit_half, 1000.0f, 0.6f);
    cr_expect(!cairn_body_set_type(world, box, (cairn_body_type)7));
    cr_expect(strstr(cairn_last_error(), "not a body type") != NULL, "'%s'", cairn_last_error());
    cr_expect(!cairn_body_set_type(world, box, (cairn_body_type)-1));
    cr_expect_eq(cairn_body_get_type(world, box), CAIRN_DYNAMIC);

    vec3s points[3] = {v3(0, 0, 0), v3(1, 0, 0), v3(0, 0, 1)};
    int triangle[3] = {0, 1, 2};
    cairn_shape *mesh = cairn_shape_mesh(points, 3, triangle, 1);
    cr_assert_not_null(mesh, "%s", cairn_last_error());
    cairn_body_id ground =
        scene_body(world, mesh, CAIRN_STATIC, scene_at(v3(0, 0, 0)), 1000.0f, 0.6f, 0.0f);
    cr_expect(!cairn_body_set_type(world, ground, CAIRN_DYNAMIC));
    cr_expect(strstr(cairn_last_error(), "mesh") != NULL, "'%s'", cairn_last_error());
    cr_expect_eq(cairn_body_get_type(world, ground), CAIRN_STATIC);
    cr_expect(cairn_body_set_type(world, ground, CAIRN_KINEMATIC), "%s", cairn_last_error());

    cairn_body_destroy(world, box);
    cr_expect(!cairn_body_set_type(world, box, CAIRN_STATIC));
    cr_expect(strstr(cairn_last_error(), "stale") != NULL, "'%s'", cairn_last_error());
    cr_expect(!cairn_body_set_type(NULL, box, CAIRN_STATIC));
    cairn_world_destroy(world);
}

/* ---- mass properties ---- */

/* An off-diagonal inertia (a box's turned by a rotation): an impulse J at the new centre gives
   dv = J / m, an angular impulse L gives dw = I^-1 L. */
static mat3s turned_inertia(void)
{
    mat3s d = glms_mat3_zero();
    d.raw[0][0] = 2.0f;
    d.raw[1][1] = 5.0f;
    d.raw[2][2] = 6.0f;
    mat3s r = glms_quat_mat3(glms_quatv(0.7f, glms_vec3_normalize(v3(1, 2, 3))));
    return glms_mat3_mul(glms_mat3_mul(r, d), glms_mat3_transpose(r));
}

Test(body_change, given_mass_properties_answer_impulses_as_newton_says)
{
    cairn_world *world = weightless_world();
    cairn_body_id box = scene_box(world, v3(0, 0, 0), unit_half, 1000.0f, 0.6f);
    cairn_mass_properties mass = {
        .mass = 3.0f, .center = v3(0.1f, -0.2f, 0.3f), .inertia = turned_inertia()};
    cr_assert(cairn_body_set_mass_properties(world, box, &mass), "%s", cairn_last_error());
    cr_expect_eq(cairn_body_mass(world, box), 3.0f);
    vec3s c = cairn_body_center_of_mass(world, box);
    cr_expect(scene_distance(c, mass.center) < 1e-6, "centre (%g %g %g)", (double)c.x, (double)c.y,
              (double)c.z);
    cairn_body_apply_impulse(world, box, v3(6, 0, 0), c);
    vec3s v = cairn_body_linear_velocity(world, box);
    cr_expect(fabs((double)v.x - 2.0) < 1e-6 && v.y == 0 && v.z == 0, "v.x = %g", (double)v.x);
    vec3s l = v3(1, -2, 0.5f);
    cr_assert(cairn_body_apply_angular_impulse(world, box, l));
    vec3s w = cairn_body_angular_velocity(world, box);
    vec3s expected = glms_mat3_mulv(glms_mat3_inv(mass.inertia), l);
    cr_expect(scene_distance(w, expected) < 1e-5 * scene_length(expected),
              "w (%g %g %g), I^-1 L (%g %g %g)", (double)w.x, (double)w.y, (double)w.z,
              (double)expected.x, (double)expected.y, (double)expected.z);
    cairn_world_destroy(world);
}

/* A unit box at (1, 2, 3) moving at 1 m/s along x and turning at (0, 2, 1) rad/s. */
static cairn_body_id spinning_box(cairn_world *world)
{
    cairn_body_id box = scene_box(world, v3(1, 2, 3), unit_half, 1000.0f, 0.6f);
    cr_assert(cairn_body_set_linear_velocity(world, box, v3(1, 0, 0)));
    cr_assert(cairn_body_set_angular_velocity(world, box, v3(0, 2, 1)));
    return box;
}

/* The velocity of a world point moving with the body: v + w x (point - centre of mass). */
static vec3s point_velocity(const cairn_world *world, cairn_body_id id, vec3s point)
{
    vec3s arm = glms_vec3_sub(point, cairn_body_center_of_mass(world, id));
    return glms_vec3_add(cairn_body_linear_velocity(world, id),
                         glms_vec3_cross(cairn_body_angular_velocity(world, id), arm));
}

/* Moving the centre keeps the body's motion: every point keeps its velocity. */
Test(body_change, moving_the_centre_keeps_every_points_velocity)
{
    cairn_world *world = weightless_world();
    cairn_body_id box = spinning_box(world);
    vec3s probe = v3(1.4f, 2.3f, 2.6f), before = point_velocity(world, box, probe);
    cairn_mass_properties mass;
    cr_assert(cairn_shape_mass_properties(cairn_body_shape(world, box), 1000.0f, &mass));
    mass.center = v3(0, -0.4f, 0.2f);
    cr_assert(cairn_body_set_mass_properties(world, box, &mass), "%s", cairn_last_error());
    vec3s after = point_velocity(world, box, probe);
    cr_expect(scene_distance(before, after) < 1e-5, "the probe's velocity changed by %g m/s",
              scene_distance(before, after));
    cr_expect(scene_distance(cairn_body_center_of_mass(world, box), v3(1, 1.6f, 3.2f)) < 1e-6);
    cairn_world_destroy(world);
}

/* A 1 x 4 x 1 box tipped 20 degrees onto an edge: with its own centre (2 m up, 2 tan 20 = 0.73 m
   past the 0.5 m half width) it falls over; with the centre lowered to 0.1 m above its base
   (0.036 m past, inside the base) it stands back up. */
static double tipped_box_final_uprightness(bool lowered)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.9f, 0.0f);
    vec3s half = v3(0.5f, 2, 0.5f);
    float tilt = 20.0f * (float)SCENE_PI / 180.0f;
    versors q = glms_quatv(tilt, v3(0, 0, 1));
    /* the lowest edge (local (0.5, -2, z)) on the floor */
    vec3s edge = glms_quat_rotatev(q, v3(0.5f, -2, 0));
    cairn_transform xf = {v3(-edge.x, -edge.y, 0), q};
    cairn_body_id box =
        scene_body(world, cairn_shape_box(half, 0.0f), CAIRN_DYNAMIC, xf, 1000.0f, 0.9f, 0.0f);
    if (lowered) {
        cairn_mass_properties mass;
        cr_assert(cairn_shape_mass_properties(cairn_body_shape(world, box), 1000.0f, &mass));
        mass.center = v3(0, -1.9f, 0);
        cr_assert(cairn_body_set_mass_properties(world, box, &mass), "%s", cairn_last_error());
    }
    scene_step(world, 300);
    vec3s up = glms_quat_rotatev(cairn_body_transform(world, box).rotation, v3(0, 1, 0));
    cairn_world_destroy(world);
    return fabs((double)up.y);
}

Test(body_change, a_lowered_centre_of_mass_rights_a_tipped_box)
{
    double own = tipped_box_final_uprightness(false), lowered = tipped_box_final_uprightness(true);
    cr_expect(own < 0.1, "with its own centre the box did not fall over (up.y = %g)", own);
    cr_expect(lowered > 0.999, "with the lowered centre the box did not right itself (up.y = %g)",
              lowered);
}

/* A new type drops the override: the mass is density x volume again. */
Test(body_change, a_new_type_drops_the_override)
{
    cairn_world *world = weightless_world();
    cairn_body_id box = scene_box(world, v3(0, 0, 0), unit_half, 1000.0f, 0.6f);
    cairn_mass_properties mass = {.mass = 3.0f, .inertia = turned_inertia()};
    cr_assert(cairn_body_set_mass_properties(world, box, &mass));
    cr_assert(cairn_body_set_type(world, box, CAIRN_KINEMATIC));
    cr_expect_eq(cairn_body_mass(world, box), 0.0f);
    cr_expect(!cairn_body_set_mass_properties(world, box, &mass), "a kinematic body took a mass");
    cr_expect(strstr(cairn_last_error(), "not dynamic") != NULL, "'%s'", cairn_last_error());
    cr_assert(cairn_body_set_type(world, box, CAIRN_DYNAMIC));
    double expected = creation_mass(cairn_body_shape(world, box), 1000.0f);
    cr_expect(fabs(cairn_body_mass(world, box) - expected) < 1e-3 * expected);
    cairn_world_destroy(world);
}

Test(body_change, bad_mass_properties_are_refused)
{
    cairn_world *world = weightless_world();
    cairn_body_id box = scene_box(world, v3(0, 0, 0), unit_half, 1000.0f, 0.6f);
    cairn_mass_properties good;
    cr_assert(cairn_shape_mass_properties(cairn_body_shape(world, box), 1000.0f, &good));
    float inf = INFINITY, nan = NAN;
    cairn_mass_properties bad[12];
    for (int i = 0; i < 12; ++i)
        bad[i] = good;
    bad[0].mass = 0.0f;
    bad[1].mass = -1.0f;
    bad[2].mass = nan;
    bad[3].mass = inf;
    bad[4].center.y = nan;
    bad[5].center.x = 2e6f;
    bad[6].inertia.raw[1][0] += 10.0f; /* not symmetric */
    bad[7].inertia.raw[2][2] = -good.inertia.raw[2][2];
    bad[8].inertia = glms_mat3_zero();
    bad[9].inertia.raw[0][0] = inf;
    bad[10].inertia.raw[1][1] = 0.0f; /* singular */
    bad[11].inertia.raw[0][1] = bad[11].inertia.raw[1][0] = 10 * good.inertia.raw[0][0];
    for (int i = 0; i < 12; ++i) {
        cr_expect(!cairn_body_set_mass_properties(world, box, &bad[i]), "case %d accepted", i);
        cr_expect(strstr(cairn_last_error(), "cairn_body_set_mass_properties") != NULL,
                  "case %d: '%s'", i, cairn_last_error());
        cr_expect(fabs(cairn_body_mass(world, box) - good.mass) < 1e-3, "case %d changed it", i);
    }
    cr_expect(!cairn_body_set_mass_properties(world, box, NULL));
    cairn_body_destroy(world, box);
    cr_expect(!cairn_body_set_mass_properties(world, box, &good));
    cr_expect(strstr(cairn_last_error(), "stale") != NULL, "'%s'", cairn_last_error());
    cairn_world_destroy(world);
}

/* ---- snapshots ---- */

/* A snapshot keeps the type and the mass: restored over a world where both changed, the run
   replays the saved one's hashes. */
Test(body_change, a_snapshot_keeps_type_and_mass)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id box = scene_box(world, v3(0, 3, 0), unit_half, 1000.0f, 0.6f);
    cairn_body_id post = scene_body(world, cairn_shape_box(unit_half, SCENE_RADIUS), CAIRN_STATIC,
                                    scene_at(v3(0.3f, 6, 0)), 1000.0f, 0.6f, 0.0f);
    cairn_mass_properties mass = {
        .mass = 50.0f, .center = v3(0.2f, 0, 0), .inertia = turned_inertia()};
    cr_assert(cairn_body_set_mass_properties(world, box, &mass));
    scene_step(world, 10);
    size_t size = cairn_world_snapshot_size(world);
    void *saved = malloc(size);
    cr_assert(cairn_world_snapshot(world, saved, size), "%s", cairn_last_error());
    cr_assert(cairn_body_set_type(world, post, CAIRN_DYNAMIC));
    scene_step(world, 90);
    uint64_t post_falls = cairn_world_state_hash(world);

    cr_assert(cairn_world_restore(world, saved, size), "%s", cairn_last_error());
    scene_step(world, 90);
    uint64_t expected = cairn_world_state_hash(world);
    cr_expect_neq(expected, post_falls, "the hash does not see the post");

    cr_assert(cairn_body_set_type(world, box, CAIRN_KINEMATIC));
    cr_assert(cairn_body_set_type(world, post, CAIRN_DYNAMIC));
    scene_step(world, 5);
    cr_assert(cairn_world_restore(world, saved, size), "%s", cairn_last_error());
    cr_expect_eq(cairn_body_get_type(world, box), CAIRN_DYNAMIC);
    cr_expect_eq(cairn_body_get_type(world, post), CAIRN_STATIC);
    cr_expect_eq(cairn_body_mass(world, box), 50.0f);
    scene_step(world, 90);
    cr_expect_eq(cairn_world_state_hash(world), expected, "the restored run differs");
    free(saved);
    cairn_world_destroy(world);
}

/* ---- shapes ---- */

static bool has_begin_or_end(const cairn_world *world, cairn_body_id a, cairn_body_id b, bool end)
{
    return end ? has_end(world, a, b) : has_begin(world, a, b);
}

/* A ball resting on the floor given a bigger sphere: the touch ends at once and begins again at
   the next step, the ball settles with its centre at the new radius, and its mass is the new
   sphere's. */
Test(body_change, a_new_shape_rests_at_its_own_height_and_weighs_its_own_mass)
{
    cairn_world *world = scene_default_world();
    cairn_body_id ground = scene_floor(world, 0.6f, 0.0f);
    cairn_body_id ball = scene_sphere(world, v3(0, 0.25f, 0), 0.25f, 800.0f, 0.6f, 0.0f);
    scene_step(world, 60);
    cr_assert(fabs((double)scene_position(world, ball).y - 0.25) < 0.01);
    cairn_shape *big = cairn_shape_sphere(0.6f);
    cr_assert(cairn_body_set_shape(world, ball, big), "%s", cairn_last_error());
    cr_expect(has_begin_or_end(world, ball, ground, true), "no end event right after the call");
    cr_expect_eq(cairn_body_shape(world, ball), big);
    double expected = creation_mass(big, 800.0f);
    cairn_shape_release(big); /* the body holds its own reference */
    cr_expect(fabs(cairn_body_mass(world, ball) - expected) < 1e-6 * expected, "mass %g, not %g",
              (double)cairn_body_mass(world, ball), expected);
    cr_expect(cairn_body_is_awake(world, ball));
    cairn_world_step(world, SCENE_DT);
    cr_expect(has_begin_or_end(world, ball, ground, false), "no begin event at the next step");
    scene_step(world, 120);
    double y = scene_position(world, ball).y;
    cr_expect(fabs(y - 0.6) < 0.01, "the big ball's centre is at %g, its radius is 0.6", y);
    cairn_world_destroy(world);
    cr_expect_eq(cairn_allocated_bytes(), 0, "%zu bytes still allocated", cairn_allocated_bytes());
}

/* A spinning body given a shape whose centre is elsewhere (a sphere off the origin in a
   compound): every point keeps its velocity. */
Test(body_change, a_new_shape_keeps_every_points_velocity)
{
    cairn_world *world = weightless_world();
    cairn_body_id box = spinning_box(world);
    vec3s probe = v3(1.4f, 2.3f, 2.6f), before = point_velocity(world, box, probe);
    cairn_shape *ball = cairn_shape_sphere(0.5f);
    const cairn_shape *children[1] = {ball};
    cairn_transform at[1] = {scene_at(v3(0.8f, -0.3f, 0))};
    cairn_shape *off = cairn_shape_compound(children, at, 1);
    cairn_shape_release(ball);
    cr_assert(cairn_body_set_shape(world, box, off), "%s", cairn_last_error());
    cairn_shape_release(off);
    vec3s centre = cairn_body_center_of_mass(world, box);
    cr_expect(scene_distance(centre, v3(1.8f, 1.7f, 3)) < 1e-5, "centre (%g %g %g)",
              (double)centre.x, (double)centre.y, (double)centre.z);
    vec3s after = point_velocity(world, box, probe);
    cr_expect(scene_distance(before, after) < 1e-5, "the probe's velocity changed by %g m/s",
              scene_distance(before, after));
    cairn_world_destroy(world);
}

/* A compound of four balls resting on a mesh, given a box, then a hull, then the compound back:
   no cache of the old shape's children or triangles survives into the new one's contacts (the
   sanitizer build would see a stale index), and the body comes to rest on the mesh each time. */
Test(body_change, shapes_swapped_on_a_mesh_come_to_rest)
{
    cairn_world *world = scene_default_world();
    vec3s corners[4] = {v3(-5, 0, -5), v3(5, 0, -5), v3(5, 0, 5), v3(-5, 0, 5)};
    int triangles[6] = {0, 2, 1, 0, 3, 2};
    cairn_shape *mesh = cairn_shape_mesh(corners, 4, triangles, 2);
    scene_body(world, mesh, CAIRN_STATIC, scene_at(v3(0, 0, 0)), 1000.0f, 0.6f, 0.0f);
    cairn_shape *ball = cairn_shape_sphere(0.2f);
    const cairn_shape *children[4] = {ball, ball, ball, ball};
    cairn_transform at[4] = {scene_at(v3(-0.3f, 0, -0.3f)), scene_at(v3(0.3f, 0, -0.3f)),
                             scene_at(v3(0.3f, 0, 0.3f)), scene_at(v3(-0.3f, 0, 0.3f))};
    cairn_shape *balls = cairn_shape_compound(children, at, 4);
    cairn_shape_release(ball);
    vec3s points[5] = {v3(-0.4f, -0.3f, -0.4f), v3(0.4f, -0.3f, -0.4f), v3(0.4f, -0.3f, 0.4f),
                       v3(-0.4f, -0.3f, 0.4f), v3(0, 0.5f, 0)};
    cairn_shape *pyramid = cairn_shape_hull(points, 5, 0.02f);
    cr_assert_not_null(pyramid, "%s", cairn_last_error());
    cairn_shape *box_shape = cairn_shape_box(v3(0.4f, 0.3f, 0.4f), SCENE_RADIUS);
    cairn_body_def def = cairn_body_default_def();
    def.shape = balls;
    def.transform = scene_at(v3(0, 0.25f, 0));
    cairn_body_id body = cairn_body_create(world, &def);
    cr_assert(cairn_body_is_valid(world, body), "%s", cairn_last_error());
    const cairn_shape *sequence[3] = {box_shape, pyramid, balls};
    const double rest_y[3] = {0.3, 0.3, 0.2}; /* the body origin above the mesh at rest */
    scene_step(world, 60);
    for (int k = 0; k < 3; ++k) {
        cr_assert(cairn_body_set_shape(world, body, sequence[k]), "%s", cairn_last_error());
        scene_step(world, 90);
        vec3s p = scene_position(world, body);
        cr_expect(fabs((double)p.y - rest_y[k]) < 0.03 &&
                      scene_length(cairn_body_linear_velocity(world, body)) < 0.05,
                  "shape %d: origin at y = %g, expected %g at rest", k, (double)p.y, rest_y[k]);
    }
    cairn_shape_release(balls);
    cairn_shape_release(pyramid);
    cairn_shape_release(box_shape);
    cairn_world_destroy(world);
}

/* A disabled body's new shape is the one it collides with once enabled. */
Test(body_change, a_disabled_body_comes_back_with_its_new_shape)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id ball = scene_sphere(world, v3(0, 0.25f, 0), 0.25f, 800.0f, 0.6f, 0.0f);
    scene_step(world, 30);
    cr_assert(cairn_body_set_enabled(world, ball, false));
    cairn_shape *big = cairn_shape_sphere(1.0f);
    cr_assert(cairn_body_set_shape(world, ball, big), "%s", cairn_last_error());
    cairn_shape_release(big);
    cr_assert(cairn_body_set_enabled(world, ball, true));
    scene_step(world, 120);
    double y = scene_position(world, ball).y;
    cr_expect(fabs(y - 1.0) < 0.01, "centre at %g, the new radius is 1", y);
    cairn_world_destroy(world);
}

Test(body_change, bad_shapes_are_refused)
{
    cairn_world *world = scene_default_world();
    cairn_body_id box = scene_box(world, v3(0, 10, 0), unit_half, 1000.0f, 0.6f);
    const cairn_shape *own = cairn_body_shape(world, box);
    cr_expect(!cairn_body_set_shape(world, box, NULL));
    cr_expect(strstr(cairn_last_error(), "NULL") != NULL, "'%s'", cairn_last_error());
    vec3s points[3] = {v3(0, 0, 0), v3(1, 0, 0), v3(0, 0, 1)};
    int triangle[3] = {0, 1, 2};
    cairn_shape *mesh = cairn_shape_mesh(points, 3, triangle, 1);
    cr_expect(!cairn_body_set_shape(world, box, mesh), "a dynamic body took a mesh");
    cr_expect(strstr(cairn_last_error(), "mesh") != NULL, "'%s'", cairn_last_error());
    cr_expect_eq(cairn_body_shape(world, box), own);
    cr_assert(cairn_body_set_type(world, box, CAIRN_STATIC));
    cr_expect(cairn_body_set_shape(world, box, mesh), "%s", cairn_last_error());
    cr_expect(!cairn_body_set_type(world, box, CAIRN_DYNAMIC), "a mesh body made dynamic");
    cairn_body_destroy(world, box);
    cr_expect(!cairn_body_set_shape(world, box, mesh));
    cr_expect(strstr(cairn_last_error(), "stale") != NULL, "'%s'", cairn_last_error());
    cairn_shape_release(mesh);
    cairn_world_destroy(world);
}

/* A snapshot carries no shapes: a restore refuses a body whose shape changed since the save and
   takes it once the shape is given back; a world rebuilt with shapes made the same way takes
   it too. */
static cairn_world *ball_on_floor(cairn_body_id *ball)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    *ball = scene_sphere(world, v3(0, 2, 0), 0.25f, 800.0f, 0.6f, 0.0f);
    return world;
}

Test(body_change, a_restore_needs_the_shapes_of_the_save)
{
    cairn_body_id ball;
    cairn_world *world = ball_on_floor(&ball);
    scene_step(world, 20);
    size_t size = cairn_world_snapshot_size(world);
    void *saved = malloc(size);
    cr_assert(cairn_world_snapshot(world, saved, size), "%s", cairn_last_error());
    scene_step(world, 60);
    uint64_t expected = cairn_world_state_hash(world);

    cairn_shape *own = (cairn_shape *)cairn_body_shape(world, ball);
    cairn_shape_retain(own); /* kept past the swap, to give it back */
    cairn_shape *cube = cairn_shape_box(unit_half, SCENE_RADIUS);
    cr_assert(cairn_body_set_shape(world, ball, cube));
    cr_expect(!cairn_world_restore(world, saved, size), "restored over another shape");
    cr_expect(strstr(cairn_last_error(), "another shape") != NULL, "'%s'", cairn_last_error());
    cr_assert(cairn_body_set_shape(world, ball, own));
    cr_assert(cairn_world_restore(world, saved, size), "%s", cairn_last_error());
    scene_step(world, 60);
    cr_expect_eq(cairn_world_state_hash(world), expected, "the restored run differs");

    cairn_body_id twin_ball;
    cairn_world *twin = ball_on_floor(&twin_ball);
    cr_assert(cairn_world_restore(twin, saved, size), "%s", cairn_last_error());
    scene_step(twin, 60);
    cr_expect_eq(cairn_world_state_hash(twin), expected, "the rebuilt world's run differs");
    cairn_world_destroy(twin);
    cairn_shape_release(own);
    cairn_shape_release(cube);
    free(saved);
    cairn_world_destroy(world);
}
