/* Rolling resistance (cairn_body_def.rolling_resistance): a rolling torque held to C x the normal
   force x the rolling radius, against the analytic motion of a body rolling without slipping
   under that torque. A ball or a cylinder on the flat slows at C g / (1 + I / (m r^2)) (5/7 C g
   for a solid ball, 2/3 C g for a cylinder) and stops; on a slope of angle a it stays put while
   tan a <= C and rolls down at g (sin a - C cos a) / (1 + I / (m r^2)) beyond. A body spinning
   in place on one point slows at C m g lever / I and stops. Each case runs
   the same body without resistance alongside, so a resistance that does nothing fails; a box
   sliding without turning keeps its bits (the rows act on turning only). Then the pair's value
   (the larger), the pre-solve callback, the API, snapshots and bad input. */
#include "scene_helpers.h"

#include "snapshot_reseal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double g = 9.81;

/* No damping: the only thing slowing a rolling body is the resistance. */
static cairn_world *rolling_world(vec3s gravity)
{
    cairn_world_def def = cairn_world_default_def();
    def.gravity = gravity;
    def.linear_damping = 0.0f;
    def.angular_damping = 0.0f;
    return scene_world(&def);
}

static cairn_body_id rolling_body(cairn_world *world, cairn_shape *shape, cairn_transform xf,
                                  float rolling_resistance)
{
    cr_assert_not_null(shape);
    cairn_body_def def = cairn_body_default_def();
    def.shape = shape;
    def.transform = xf;
    def.friction = 1.0f;
    def.rolling_resistance = rolling_resistance;
    def.allow_sleep = false;
    cairn_body_id id = cairn_body_create(world, &def);
    cairn_shape_release(shape);
    cr_assert(!id_is_null(id), "%s", cairn_last_error());
    return id;
}

/* A ground box whose top face is at y = 0, with the given rolling resistance. */
static cairn_body_id ground(cairn_world *world, float rolling_resistance)
{
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_STATIC;
    def.shape = cairn_shape_box(v3(100, 1, 100), 0.0f);
    def.transform = scene_at(v3(0, -1, 0));
    def.friction = 1.0f;
    def.rolling_resistance = rolling_resistance;
    cairn_body_id id = cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);
    cr_assert(!id_is_null(id), "%s", cairn_last_error());
    return id;
}

/* Started rolling along +x at speed v over the ground (turning about -z at v / r). */
static void start_rolling(cairn_world *world, cairn_body_id id, float v, float radius)
{
    cr_assert(cairn_body_set_linear_velocity(world, id, v3(v, 0, 0)));
    cr_assert(cairn_body_set_angular_velocity(world, id, v3(0, 0, -v / radius)));
}

static double speed_x(const cairn_world *world, cairn_body_id id)
{
    return (double)cairn_body_linear_velocity(world, id).x;
}

/* A lying cylinder (its axis along z) or a ball, radius 0.5 m, resting on the ground at x. */
static cairn_body_id ball_at(cairn_world *world, float x, float z, float resistance)
{
    return rolling_body(world, cairn_shape_sphere(0.5f), scene_at(v3(x, 0.5f, z)), resistance);
}

static cairn_body_id cylinder_at(cairn_world *world, float x, float z, float resistance)
{
    cairn_transform xf = scene_at(v3(x, 0.5f, z));
    xf.rotation = glms_quatv(GLM_PI_2f, v3(1, 0, 0));
    return rolling_body(world, cairn_shape_cylinder(0.5f, 0.5f, 0.05f), xf, resistance);
}

/* The speed after 2 s of rolling from 4 m/s: 4 - a t with a = C g / (1 + k), k = I / (m r^2). */
static void expect_rolling_slows(cairn_body_id (*make)(cairn_world *, float, float, float),
                                 double k, const char *what)
{
    cairn_world *world = rolling_world(v3(0, -9.81f, 0));
    ground(world, 0.0f);
    const float resistance = 0.1f;
    cairn_body_id held = make(world, 0, -3, resistance);
    cairn_body_id free = make(world, 0, 3, 0.0f);
    scene_step(world, 30); /* settle on the ground */
    start_rolling(world, held, 4.0f, 0.5f);
    start_rolling(world, free, 4.0f, 0.5f);
    scene_step(world, 120);
    double a = (double)resistance * g / (1.0 + k);
    double expected = 4.0 - a * 2.0;
    double v = speed_x(world, held), v_free = speed_x(world, free);
    cr_expect(fabs(v - expected) < 0.01 * (4.0 - expected), "%s: v %.5f m/s, expected %.5f", what,
              v, expected);
    cr_expect(fabs(v_free - 4.0) < 1e-3, "%s without resistance: v %.5f m/s, expected 4", what,
              v_free);
    /* rolling, not sliding: the contact point is at rest */
    double w = (double)cairn_body_angular_velocity(world, held).z;
    cr_expect(fabs(v + w * 0.5) < 1e-3, "%s: v %.5f against w r %.5f", what, v, -w * 0.5);
    cairn_world_destroy(world);
}

Test(rolling_resistance, a_ball_on_the_flat_slows_at_five_sevenths_of_c_g)
{
    expect_rolling_slows(ball_at, 0.4, "ball");
}

Test(rolling_resistance, a_cylinder_on_the_flat_slows_at_two_thirds_of_c_g)
{
    expect_rolling_slows(cylinder_at, 0.5, "cylinder");
}

/* From 2 m/s at C = 0.2 the ball stops after v^2 / (2 a) = 1.4265 m and stays stopped: the
   resistance holds, it does not push the ball back. */
Test(rolling_resistance, a_rolling_ball_stops_where_its_energy_runs_out_and_stays)
{
    cairn_world *world = rolling_world(v3(0, -9.81f, 0));
    ground(world, 0.0f);
    cairn_body_id ball = ball_at(world, 0, 0, 0.2f);
    scene_step(world, 30);
    double x0 = (double)scene_position(world, ball).x;
    start_rolling(world, ball, 2.0f, 0.5f);
    scene_step(world, 120); /* stops after 2 / (5/7 0.2 g) = 1.43 s */
    double a = 0.2 * g * 5.0 / 7.0;
    double travel = (double)scene_position(world, ball).x - x0;
    cr_expect(fabs(travel - 4.0 / (2.0 * a)) < 0.01, "rolled %.4f m, expected %.4f", travel,
              4.0 / (2.0 * a));
    double stopped = (double)scene_position(world, ball).x;
    scene_step(world, 120);
    double later = (double)scene_position(world, ball).x;
    cr_expect(fabs(later - stopped) < 1e-4, "moved %.2e m after stopping", later - stopped);
    cr_expect(fabs(speed_x(world, ball)) < 1e-3, "v %.2e m/s after stopping", speed_x(world, ball));
    cairn_world_destroy(world);
}

/* Spun about the vertical at w0 and left for t seconds with resistance c: the spin row holds a
   torque of c m g lever against it, so w = w0 - c m g lever / I t until it stops, where the same
   body without resistance keeps w0 (a single-point contact has no twist friction). Then it stays
   stopped. I is the body's own, about its vertical axis. */
static void expect_spin_slows(cairn_shape *shape, float y, double lever, double c, const char *what)
{
    const double w0 = 4.0, t = 0.5;
    cairn_world *world = rolling_world(v3(0, -9.81f, 0));
    ground(world, 0.0f);
    cairn_shape_retain(shape); /* rolling_body takes a reference each time */
    cairn_body_id held = rolling_body(world, shape, scene_at(v3(0, y, -3)), (float)c);
    cairn_body_id free = rolling_body(world, shape, scene_at(v3(0, y, 3)), 0.0f);
    scene_step(world, 30); /* settle on the ground */
    cr_assert(cairn_body_set_angular_velocity(world, held, v3(0, (float)w0, 0)));
    cr_assert(cairn_body_set_angular_velocity(world, free, v3(0, (float)w0, 0)));
    scene_step(world, (int)(t * 60.0));
    double inertia = (double)cairn_body_inertia(world, held).m11;
    double expected = w0 - c * cairn_body_mass(world, held) * g * lever / inertia * t;
    cr_assert(expected > 0.5, "the case must still spin at t");
    double w = (double)cairn_body_angular_velocity(world, held).y;
    double w_free = (double)cairn_body_angular_velocity(world, free).y;
    cr_expect(fabs(w - expected) < 0.01 * (w0 - expected), "%s: w %.5f rad/s, expected %.5f", what,
              w, expected);
    cr_expect(fabs(w_free - w0) < 1e-3, "%s without resistance: w %.5f rad/s, expected %.1f", what,
              w_free, w0);
    scene_step(world, 120); /* stopped after w0 / (w0 - expected) t, under 2 s */
    vec3s spin = cairn_body_angular_velocity(world, held);
    cr_expect(glms_vec3_norm(spin) < 1e-3f, "%s: still turning at %.2e rad/s", what,
              (double)glms_vec3_norm(spin));
    vec3s at = scene_position(world, held);
    cr_expect(fabsf(at.x) < 1e-3f && fabsf(at.z + 3.0f) < 1e-3f, "%s: moved to (%.4f, %.4f)", what,
              (double)at.x, (double)at.z);
    cairn_world_destroy(world);
}

/* A ball's lever is its radius: it slows at 5/2 C g / r. */
Test(rolling_resistance, a_ball_spinning_in_place_slows_and_stops)
{
    expect_spin_slows(cairn_shape_sphere(0.5f), 0.5f, 0.5, 0.1, "ball");
}

/* A capsule standing on one end touches at a single point 0.75 m below its centre of mass. */
Test(rolling_resistance, a_capsule_spinning_on_its_end_slows_by_its_height)
{
    expect_spin_slows(cairn_shape_capsule(0.5f, 0.25f), 0.75f, 0.75, 0.02, "standing capsule");
}

/* Gravity tilted by angle a in the x-y plane: the flat ground is a slope down +x. */
static vec3s slope_gravity(double angle)
{
    return v3((float)(g * sin(angle)), (float)(-g * cos(angle)), 0.0f);
}

/* tan a = 0.8 C: the ball stays put; tan a = 1.25 C: it rolls down at
   5/7 g (sin a - C cos a). */
Test(rolling_resistance, a_ball_holds_on_a_slope_up_to_atan_c_and_rolls_down_beyond)
{
    const double c = 0.1;
    double holding = atan(0.8 * c), rolling = atan(1.25 * c);
    cairn_world *world = rolling_world(slope_gravity(holding));
    ground(world, 0.0f);
    cairn_body_id ball = ball_at(world, 0, 0, (float)c);
    cairn_body_id free = ball_at(world, 0, 5, 0.0f);
    scene_step(world, 120);
    double held_x = (double)scene_position(world, ball).x;
    cr_expect(fabs(held_x) < 1e-3, "tan a = 0.8 C: moved %.2e m in 2 s", held_x);
    double free_x = (double)scene_position(world, free).x;
    double free_expected = 0.5 * 5.0 / 7.0 * g * sin(holding) * 4.0;
    cr_expect(fabs(free_x - free_expected) < 0.01 * free_expected,
              "without resistance: %.4f m, expected %.4f", free_x, free_expected);
    cairn_world_destroy(world);

    world = rolling_world(slope_gravity(rolling));
    ground(world, 0.0f);
    ball = ball_at(world, 0, 0, (float)c);
    scene_step(world, 120);
    double a = 5.0 / 7.0 * g * (sin(rolling) - c * cos(rolling));
    double v = speed_x(world, ball);
    cr_expect(fabs(v - 2.0 * a) < 0.02 * 2.0 * a, "tan a = 1.25 C: v %.5f m/s, expected %.5f", v,
              2.0 * a);
    cairn_world_destroy(world);
}

/* A box sliding on its face barely turns: the rolling rows push almost nothing, and the box
   slides as far as it does without resistance (to 1 mm), where a ball of the same resistance
   would have lost a third of its speed. */
Test(rolling_resistance, a_sliding_box_slides_as_far)
{
    double x[2];
    for (int k = 0; k < 2; ++k) {
        cairn_world *world = rolling_world(v3(0, -9.81f, 0));
        ground(world, k == 0 ? 0.0f : 1.0f);
        cairn_body_id box = rolling_body(world, cairn_shape_box(v3(0.5f, 0.5f, 0.5f), 0.02f),
                                         scene_at(v3(0, 0.5f, 0)), (float)k);
        scene_step(world, 30);
        cr_assert(cairn_body_set_friction(world, box, 0.2f));
        cr_assert(cairn_body_set_linear_velocity(world, box, v3(3, 0, 0)));
        scene_step(world, 120);
        x[k] = (double)scene_position(world, box).x;
        cairn_world_destroy(world);
    }
    double expected = 9.0 / (2.0 * sqrt(0.2) * g); /* friction sqrt(0.2 x 1) with the ground */
    cr_expect(fabs(x[0] - expected) < 0.02, "slid %.4f m, expected %.4f", x[0], expected);
    cr_expect(fabs(x[1] - x[0]) < 1e-3, "with resistance %.5f m, without %.5f m", x[1], x[0]);
}

/* The pair takes the larger value: a ball without resistance on resisting ground slows as a
   resisting ball does. */
Test(rolling_resistance, the_pair_takes_the_larger_value)
{
    double v[2];
    for (int k = 0; k < 2; ++k) {
        cairn_world *world = rolling_world(v3(0, -9.81f, 0));
        ground(world, k == 0 ? 0.1f : 0.0f);
        cairn_body_id ball = ball_at(world, 0, 0, k == 0 ? 0.0f : 0.1f);
        scene_step(world, 30);
        start_rolling(world, ball, 4.0f, 0.5f);
        scene_step(world, 60);
        v[k] = speed_x(world, ball);
        cairn_world_destroy(world);
    }
    double expected = 4.0 - 0.1 * g * 5.0 / 7.0;
    cr_expect(fabs(v[0] - expected) < 0.01, "resisting ground: v %.5f, expected %.5f", v[0],
              expected);
    cr_expect_eq(v[0], v[1], "ground %.7f against ball %.7f", v[0], v[1]);
}

/* A capsule lying across its roll rolls on its radius: it slows as a cylinder's mass would not
   say, but at C g / (1 + I / (m r^2)) with its own I about the axis, measured from the body. */
Test(rolling_resistance, a_capsule_slows_by_its_own_inertia)
{
    cairn_world *world = rolling_world(v3(0, -9.81f, 0));
    ground(world, 0.0f);
    cairn_transform xf = scene_at(v3(0, 0.5f, 0));
    xf.rotation = glms_quatv(GLM_PI_2f, v3(1, 0, 0));
    cairn_body_id capsule = rolling_body(world, cairn_shape_capsule(0.5f, 0.5f), xf, 0.1f);
    scene_step(world, 30);
    start_rolling(world, capsule, 4.0f, 0.5f);
    scene_step(world, 120);
    double k = (double)cairn_body_inertia(world, capsule).m11 /
               (cairn_body_mass(world, capsule) * 0.25); /* about its axis: local y */
    double expected = 4.0 - 0.1 * g / (1.0 + k) * 2.0;
    double v = speed_x(world, capsule);
    cr_expect(fabs(v - expected) < 0.01 * (4.0 - expected), "v %.5f m/s, expected %.5f", v,
              expected);
    cairn_world_destroy(world);
}

static void raise_resistance(cairn_contact_modify *contact, void *context)
{
    (void)context;
    cr_expect_eq(contact->rolling_resistance, 0.0f);
    contact->rolling_resistance = 0.1f;
}

/* The pre-solve callback sees the pair's value and may change it for the step. */
Test(rolling_resistance, the_presolve_callback_changes_it)
{
    cairn_world *world = rolling_world(v3(0, -9.81f, 0));
    ground(world, 0.0f);
    cairn_body_id ball = ball_at(world, 0, 0, 0.0f);
    scene_step(world, 30);
    cr_assert(cairn_world_set_presolve(world, raise_resistance, NULL));
    start_rolling(world, ball, 4.0f, 0.5f);
    scene_step(world, 60);
    double expected = 4.0 - 0.1 * g * 5.0 / 7.0;
    cr_expect(fabs(speed_x(world, ball) - expected) < 0.01, "v %.5f, expected %.5f",
              speed_x(world, ball), expected);
    cairn_world_destroy(world);
}

/* A snapshot keeps the bodies' values and the rolling impulses: restored mid-roll (and mid-spin),
   60 steps later the state hash is the one the saved world reached. */
Test(rolling_resistance, a_snapshot_keeps_it)
{
    cairn_world *world = rolling_world(v3(0, -9.81f, 0));
    ground(world, 0.0f);
    cairn_body_id ball = ball_at(world, 0, 0, 0.2f);
    cairn_body_id spinning = ball_at(world, 0, 3, 0.05f);
    scene_step(world, 30);
    start_rolling(world, ball, 4.0f, 0.5f);
    cr_assert(cairn_body_set_angular_velocity(world, spinning, v3(0, 3, 0)));
    scene_step(world, 20);
    size_t size = cairn_world_snapshot_size(world);
    void *saved = malloc(size);
    cr_assert(cairn_world_snapshot(world, saved, size), "%s", cairn_last_error());
    scene_step(world, 60);
    uint64_t expect = cairn_world_state_hash(world);
    cr_assert(cairn_body_set_rolling_resistance(world, ball, 0.0f));
    cr_assert(cairn_world_restore(world, saved, size), "%s", cairn_last_error());
    cr_expect_eq(cairn_body_rolling_resistance(world, ball), 0.2f);
    scene_step(world, 60);
    cr_expect_eq(cairn_world_state_hash(world), expect);
    free(saved);
    cairn_world_destroy(world);
}

/* The setter and getter; values outside [0, 1], NaN, a stale id and a NULL world are refused
   with an error and change nothing; so is a def with a bad value. */
Test(rolling_resistance, bad_values_are_refused)
{
    cairn_world *world = rolling_world(v3(0, -9.81f, 0));
    cairn_body_id ball = ball_at(world, 0, 0, 0.0f);
    cr_assert(cairn_body_set_rolling_resistance(world, ball, 0.25f));
    cr_expect_eq(cairn_body_rolling_resistance(world, ball), 0.25f);
    const float bad[] = {-0.01f, 1.01f, NAN, INFINITY};
    for (int k = 0; k < 4; ++k) {
        cairn_clear_error();
        cr_expect(!cairn_body_set_rolling_resistance(world, ball, bad[k]));
        cr_expect(strstr(cairn_last_error(), "rolling_resistance") != NULL, "%s",
                  cairn_last_error());
        cr_expect_eq(cairn_body_rolling_resistance(world, ball), 0.25f);
        cairn_body_def def = cairn_body_default_def();
        def.shape = cairn_shape_sphere(0.5f);
        def.rolling_resistance = bad[k];
        cairn_body_id none = cairn_body_create(world, &def);
        cairn_shape_release((cairn_shape *)def.shape);
        cr_expect(id_is_null(none));
        cr_expect(strstr(cairn_last_error(), "rolling_resistance") != NULL, "%s",
                  cairn_last_error());
    }
    cairn_body_destroy(world, ball);
    cr_expect(!cairn_body_set_rolling_resistance(world, ball, 0.1f));
    cr_expect_eq(cairn_body_rolling_resistance(world, ball), 0.0f);
    cr_expect(!cairn_body_set_rolling_resistance(NULL, ball, 0.1f));
    cairn_world_destroy(world);
}

/* A snapshot whose body record holds a rolling resistance of 1.5, its checksum fixed, is refused
   with an error naming it, and the world is unchanged; the same snapshot whole again is taken.
   The record is found by the body's value (0.123456, a ball with nothing to touch). */
Test(rolling_resistance, a_snapshot_with_a_corrupt_value_is_refused)
{
    cairn_world *world = rolling_world(v3(0, -9.81f, 0));
    ball_at(world, 0, 5, 0.123456f);
    scene_step(world, 3);
    size_t size = cairn_world_snapshot_size(world);
    unsigned char *snapshot = malloc(size);
    cr_assert(cairn_world_snapshot(world, snapshot, size), "%s", cairn_last_error());
    const float value = 0.123456f, bad = 1.5f;
    unsigned char *at = snapshot_find(snapshot, size, &value, sizeof value);
    cr_assert_not_null(at, "the value is not in the snapshot");
    memcpy(at, &bad, sizeof bad);
    snapshot_reseal(snapshot, size);
    uint64_t hash = cairn_world_state_hash(world);
    cr_expect(!cairn_world_restore(world, snapshot, size), "a rolling resistance of 1.5 was taken");
    cr_expect(strstr(cairn_last_error(), "rolling resistance") != NULL, "%s", cairn_last_error());
    cr_expect_eq(cairn_world_state_hash(world), hash);
    memcpy(at, &value, sizeof value);
    snapshot_reseal(snapshot, size);
    cr_expect(cairn_world_restore(world, snapshot, size), "%s", cairn_last_error());
    free(snapshot);
    cairn_world_destroy(world);
}

/* The pair cache keeps which of a pair's shapes can roll unseen (a ball: about any axis). A
   snapshot whose byte for it is out of range, its checksum fixed, is refused with an error naming
   the pair cache, and the world is unchanged. The byte follows the cache's reach of the ball
   (the length of its bounds' far corner, r sqrt 3) and the box's byte (none). */
Test(rolling_resistance, a_snapshot_with_a_corrupt_pair_cache_symmetry_is_refused)
{
    cairn_world *world = rolling_world(v3(0, -9.81f, 0));
    ground(world, 0.0f);
    const float radius = 0.4321f;
    rolling_body(world, cairn_shape_sphere(radius), scene_at(v3(0, radius, 0)), 0.0f);
    scene_step(world, 10);
    size_t size = cairn_world_snapshot_size(world);
    unsigned char *snapshot = malloc(size);
    cr_assert(cairn_world_snapshot(world, snapshot, size), "%s", cairn_last_error());
    const float reach = glms_vec3_norm(v3(radius, radius, radius));
    unsigned char pattern[sizeof reach + 2];
    memcpy(pattern, &reach, sizeof reach);
    pattern[sizeof reach] = 0;     /* the ground box: no symmetry */
    pattern[sizeof reach + 1] = 1; /* the ball: symmetric about its centre */
    unsigned char *at = snapshot_find(snapshot, size, pattern, sizeof pattern);
    cr_assert_not_null(at, "the pair cache's symmetry is not in the snapshot");
    at += sizeof reach + 1;
    *at = 3;
    snapshot_reseal(snapshot, size);
    uint64_t hash = cairn_world_state_hash(world);
    cr_expect(!cairn_world_restore(world, snapshot, size), "a symmetry of 3 was taken");
    cr_expect(strstr(cairn_last_error(), "pair-cache") != NULL, "%s", cairn_last_error());
    cr_expect_eq(cairn_world_state_hash(world), hash);
    *at = 1;
    snapshot_reseal(snapshot, size);
    cr_expect(cairn_world_restore(world, snapshot, size), "%s", cairn_last_error());
    free(snapshot);
    cairn_world_destroy(world);
}
