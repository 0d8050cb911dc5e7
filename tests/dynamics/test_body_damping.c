/* A body's own damping (cairn_body_def.linear_damping, angular_damping and their setters): added
   to the world's, applied implicitly each substep as v / (1 + h c); bad values refused; kept by
   snapshots. */
#include "scene_helpers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { STEPS = 60 };

static cairn_world *floating_world(float linear, float angular)
{
    cairn_world_def def = cairn_world_default_def();
    def.gravity = v3(0, 0, 0);
    def.linear_damping = linear;
    def.angular_damping = angular;
    return scene_world(&def);
}

/* A sphere (no gyroscopic turn) moving at 10 m/s and turning at 5 rad/s. */
static cairn_body_id moving_sphere(cairn_world *world, vec3s at)
{
    cairn_body_id id = scene_sphere(world, at, 0.5f, 1000.0f, 0.5f, 0.0f);
    cr_assert(cairn_body_set_allow_sleep(world, id, false));
    cr_assert(cairn_body_set_linear_velocity(world, id, v3(10, 0, 0)));
    cr_assert(cairn_body_set_angular_velocity(world, id, v3(0, 0, 5)));
    return id;
}

/* The speed after STEPS steps of v / (1 + h c) per substep, and the continuous e^(-c t). */
static double discrete(double v0, double c)
{
    int substeps = cairn_world_default_def().solver.substeps;
    double h = (double)SCENE_DT / substeps;
    return v0 * pow(1.0 / (1.0 + h * c), STEPS * substeps);
}

Test(body_damping, adds_to_the_worlds_and_decays_as_the_implicit_rule_says)
{
    cairn_world *world = floating_world(0.5f, 0.0f);
    cairn_body_id plain = moving_sphere(world, v3(0, 0, 0));
    cairn_body_def def = cairn_body_default_def();
    def.shape = cairn_shape_sphere(0.5f);
    def.transform = scene_at(v3(0, 10, 0));
    def.linear_velocity = v3(10, 0, 0);
    def.angular_velocity = v3(0, 0, 5);
    def.allow_sleep = false;
    def.linear_damping = 2.0f;
    def.angular_damping = 3.0f;
    cairn_body_id damped = cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);
    cr_assert(!id_is_null(damped), "%s", cairn_last_error());
    cr_expect_eq(cairn_body_linear_damping(world, damped), 2.0f);
    cr_expect_eq(cairn_body_angular_damping(world, damped), 3.0f);
    scene_step(world, STEPS);
    struct {
        cairn_body_id id;
        double linear, angular; /* damping rates, 1/s: the world's plus the body's */
    } cases[] = {{plain, 0.5, 0.0}, {damped, 2.5, 3.0}};
    for (int i = 0; i < 2; ++i) {
        double v = cairn_body_linear_velocity(world, cases[i].id).x;
        double w = cairn_body_angular_velocity(world, cases[i].id).z;
        double v_expected = discrete(10.0, cases[i].linear);
        double w_expected = discrete(5.0, cases[i].angular);
        cr_expect(fabs(v - v_expected) < 1e-4 * v_expected, "body %d: v %.6f, expected %.6f", i, v,
                  v_expected);
        cr_expect(fabs(w - w_expected) < 1e-4 * w_expected, "body %d: w %.6f, expected %.6f", i, w,
                  w_expected);
        /* and near the continuous decay: the implicit rule's error over a time t is about
           c^2 h t / 2 of v; twice that is allowed */
        double t = STEPS * (double)SCENE_DT, c = cases[i].linear;
        double h = (double)SCENE_DT / cairn_world_default_def().solver.substeps;
        double exact = 10.0 * exp(-c * t);
        cr_expect(fabs(v - exact) <= c * c * h * t * exact, "body %d: v %.4f, e^-ct %.4f", i, v,
                  exact);
    }
    cairn_world_destroy(world);
}

Test(body_damping, setters_change_it_and_refuse_bad_values)
{
    cairn_world *world = floating_world(0.0f, 0.0f);
    cairn_body_id ball = moving_sphere(world, v3(0, 0, 0));
    cr_assert(cairn_body_set_linear_damping(world, ball, 4.0f));
    cr_assert(cairn_body_set_angular_damping(world, ball, 100.0f));
    cr_expect_eq(cairn_body_linear_damping(world, ball), 4.0f);
    cr_expect_eq(cairn_body_angular_damping(world, ball), 100.0f);
    const float bad[] = {-0.001f, 100.5f, NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        cairn_clear_error();
        cr_expect(!cairn_body_set_linear_damping(world, ball, bad[i]), "accepted %g",
                  (double)bad[i]);
        cr_expect(strstr(cairn_last_error(), "cairn_body_set_linear_damping") != NULL, "'%s'",
                  cairn_last_error());
        cr_expect(!cairn_body_set_angular_damping(world, ball, bad[i]), "accepted %g",
                  (double)bad[i]);
        cr_expect(strstr(cairn_last_error(), "cairn_body_set_angular_damping") != NULL, "'%s'",
                  cairn_last_error());
        cr_expect_eq(cairn_body_linear_damping(world, ball), 4.0f, "changed by %g", (double)bad[i]);
        cr_expect_eq(cairn_body_angular_damping(world, ball), 100.0f, "changed by %g",
                     (double)bad[i]);
        cairn_body_def def = cairn_body_default_def();
        def.shape = cairn_shape_sphere(0.5f);
        def.linear_damping = i % 2 ? bad[i] : 0.0f;
        def.angular_damping = i % 2 ? 0.0f : bad[i];
        cr_expect(id_is_null(cairn_body_create(world, &def)), "created with %g", (double)bad[i]);
        cr_expect(strstr(cairn_last_error(), "damping") != NULL, "'%s'", cairn_last_error());
        cairn_shape_release((cairn_shape *)def.shape);
    }
    /* a stale id: an error, and 0 from the getters */
    cairn_body_destroy(world, ball);
    cr_expect(!cairn_body_set_linear_damping(world, ball, 1.0f));
    cr_expect(!cairn_body_set_angular_damping(world, ball, 1.0f));
    cr_expect_eq(cairn_body_linear_damping(world, ball), 0.0f);
    cr_expect_eq(cairn_body_angular_damping(world, ball), 0.0f);
    cairn_world_destroy(world);
}

/* A sleeping body woken by the setter: the new damping acts at once. */
Test(body_damping, setting_it_wakes_the_body)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id box = scene_box(world, v3(0, 0.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    scene_step(world, 120);
    cr_assert(!cairn_body_is_awake(world, box), "the box did not fall asleep");
    cr_assert(cairn_body_set_linear_damping(world, box, 1.0f));
    cr_expect(cairn_body_is_awake(world, box));
    cairn_world_destroy(world);
}

/* Saved and restored with the body: restoring over other values and stepping gives the saved
   run's hashes. */
Test(body_damping, a_snapshot_keeps_it)
{
    cairn_world *world = floating_world(0.0f, 0.0f);
    cairn_body_id ball = moving_sphere(world, v3(0, 0, 0));
    cr_assert(cairn_body_set_linear_damping(world, ball, 1.5f));
    cr_assert(cairn_body_set_angular_damping(world, ball, 2.5f));
    size_t size = cairn_world_snapshot_size(world);
    void *saved = malloc(size);
    cr_assert(cairn_world_snapshot(world, saved, size), "%s", cairn_last_error());
    scene_step(world, 30);
    uint64_t expected = cairn_world_state_hash(world);
    cr_assert(cairn_body_set_linear_damping(world, ball, 0.0f));
    cr_assert(cairn_body_set_angular_damping(world, ball, 0.0f));
    cr_assert(cairn_world_restore(world, saved, size), "%s", cairn_last_error());
    cr_expect_eq(cairn_body_linear_damping(world, ball), 1.5f);
    cr_expect_eq(cairn_body_angular_damping(world, ball), 2.5f);
    scene_step(world, 30);
    cr_expect_eq(cairn_world_state_hash(world), expected, "the restored run differs");
    free(saved);
    cairn_world_destroy(world);
}
