/* Every bad input to the body control API (NULL world, stale or null id, NaN/Inf, out of range
   values, the wrong body type) fails with a message and changes nothing: the state hash, the
   value the setter would change, and the world's behaviour afterwards stay as they were. */
#include "scene_helpers.h"

#include <string.h>

typedef struct fixture {
    cairn_world *world;
    cairn_body_id floor, box, kinematic, stale;
} fixture;

static fixture make(void)
{
    fixture f;
    f.world = scene_default_world();
    f.floor = scene_floor(f.world, 0.6f, 0.0f);
    f.box = scene_box(f.world, v3(0, 2, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    f.kinematic = scene_body(f.world, cairn_shape_sphere(0.5f), CAIRN_KINEMATIC,
                             scene_at(v3(5, 1, 0)), 1000.0f, 0.6f, 0.0f);
    f.stale = scene_box(f.world, v3(9, 2, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    cairn_body_destroy(f.world, f.stale);
    scene_step(f.world, 5);
    return f;
}

/* Everything a failed call could have touched. */
typedef struct snapshot {
    uint64_t hash;
    float gravity_scale, friction, restitution, linear_damping, angular_damping;
    uint32_t layer, mask;
    bool awake, enabled, sleep_allowed;
    void *user_data;
    cairn_world_def def;
} snapshot;

static snapshot take(const fixture *f)
{
    snapshot s;
    memset(&s, 0, sizeof s);
    s.hash = cairn_world_state_hash(f->world);
    s.gravity_scale = cairn_body_gravity_scale(f->world, f->box);
    s.friction = cairn_body_friction(f->world, f->box);
    s.restitution = cairn_body_restitution(f->world, f->box);
    s.linear_damping = cairn_body_linear_damping(f->world, f->box);
    s.angular_damping = cairn_body_angular_damping(f->world, f->box);
    s.layer = cairn_body_layer(f->world, f->box);
    s.mask = cairn_body_mask(f->world, f->box);
    s.awake = cairn_body_is_awake(f->world, f->box);
    s.enabled = cairn_body_is_enabled(f->world, f->box);
    s.sleep_allowed = cairn_body_is_sleep_allowed(f->world, f->box);
    s.user_data = cairn_body_user_data(f->world, f->box);
    s.def = cairn_world_get_def(f->world);
    return s;
}

static void expect_same(const snapshot *a, const snapshot *b, const char *what)
{
    cr_expect_eq(a->hash, b->hash, "%s: the state changed", what);
    cr_expect(a->gravity_scale == b->gravity_scale && a->friction == b->friction &&
                  a->restitution == b->restitution && a->linear_damping == b->linear_damping &&
                  a->angular_damping == b->angular_damping && a->layer == b->layer &&
                  a->mask == b->mask && a->awake == b->awake && a->enabled == b->enabled &&
                  a->sleep_allowed == b->sleep_allowed && a->user_data == b->user_data,
              "%s: a body property changed", what);
    cr_expect(memcmp(&a->def, &b->def, sizeof a->def) == 0, "%s: the world def changed", what);
}

/* Runs a call that must fail: false, a non-empty message, nothing changed. */
#define EXPECT_REJECTED(f, call)                                                                   \
    do {                                                                                           \
        snapshot before_ = take(&(f));                                                             \
        cairn_clear_error();                                                                       \
        bool ok_ = (call);                                                                         \
        cr_expect(!ok_, "%s succeeded", #call);                                                    \
        cr_expect(cairn_last_error()[0] != 0, "%s: no error message", #call);                      \
        cr_log_info("%s -> '%s'", #call, cairn_last_error());                                      \
        snapshot after_ = take(&(f));                                                              \
        expect_same(&before_, &after_, #call);                                                     \
    } while (0)

static const float bad_floats[] = {NAN, INFINITY, -INFINITY};

Test(body_api_errors, stale_null_ids_and_null_world)
{
    fixture f = make();
    cairn_body_id null_id = {0, 0};
    cairn_body_id ids[2] = {f.stale, null_id};
    cairn_transform xf = scene_at(v3(0, 3, 0));
    for (int k = 0; k < 2; ++k) {
        cairn_body_id id = ids[k];
        EXPECT_REJECTED(f, cairn_body_set_transform(f.world, id, xf));
        EXPECT_REJECTED(f, cairn_body_set_linear_velocity(f.world, id, v3(1, 0, 0)));
        EXPECT_REJECTED(f, cairn_body_set_angular_velocity(f.world, id, v3(1, 0, 0)));
        EXPECT_REJECTED(f, cairn_body_apply_force(f.world, id, v3(1, 0, 0), v3(0, 0, 0)));
        EXPECT_REJECTED(f, cairn_body_apply_torque(f.world, id, v3(1, 0, 0)));
        EXPECT_REJECTED(f, cairn_body_apply_angular_impulse(f.world, id, v3(1, 0, 0)));
        EXPECT_REJECTED(f, cairn_body_set_kinematic_target(f.world, id, xf, SCENE_DT));
        EXPECT_REJECTED(f, cairn_body_set_gravity_scale(f.world, id, 0.5f));
        EXPECT_REJECTED(f, cairn_body_set_linear_damping(f.world, id, 0.5f));
        EXPECT_REJECTED(f, cairn_body_set_angular_damping(f.world, id, 0.5f));
        EXPECT_REJECTED(f, cairn_body_set_enabled(f.world, id, false));
        EXPECT_REJECTED(f, cairn_body_set_allow_sleep(f.world, id, false));
        EXPECT_REJECTED(f, cairn_body_set_awake(f.world, id, false));
        EXPECT_REJECTED(f, cairn_body_set_friction(f.world, id, 0.1f));
        EXPECT_REJECTED(f, cairn_body_set_restitution(f.world, id, 0.1f));
        EXPECT_REJECTED(f, cairn_body_set_user_data(f.world, id, &f));
        EXPECT_REJECTED(f, cairn_body_set_filter(f.world, id, 2u, 2u));
        cairn_clear_error();
        cr_expect_eq(cairn_body_mass(f.world, id), 0.0f);
        cr_expect(cairn_last_error()[0] != 0, "cairn_body_mass: no error for a bad id");
    }
    EXPECT_REJECTED(f, cairn_body_set_transform(NULL, f.box, xf));
    EXPECT_REJECTED(f, cairn_body_set_gravity_scale(NULL, f.box, 1.0f));
    EXPECT_REJECTED(f, cairn_body_set_linear_damping(NULL, f.box, 1.0f));
    EXPECT_REJECTED(f, cairn_world_set_def(NULL, &(cairn_world_def){0}));
    EXPECT_REJECTED(f, cairn_world_set_pair_filter(NULL, NULL, NULL));
    cairn_world_destroy(f.world);
}

Test(body_api_errors, non_finite_values)
{
    fixture f = make();
    for (int k = 0; k < 3; ++k) {
        float x = bad_floats[k];
        vec3s bad = v3(0, x, 0);
        cairn_transform xf = scene_at(bad);
        EXPECT_REJECTED(f, cairn_body_set_transform(f.world, f.box, xf));
        xf = cairn_transform_identity();
        xf.rotation.w = x;
        EXPECT_REJECTED(f, cairn_body_set_transform(f.world, f.box, xf));
        EXPECT_REJECTED(f, cairn_body_set_kinematic_target(f.world, f.kinematic, xf, SCENE_DT));
        EXPECT_REJECTED(f, cairn_body_set_kinematic_target(f.world, f.kinematic,
                                                           cairn_transform_identity(), x));
        EXPECT_REJECTED(f, cairn_body_set_linear_velocity(f.world, f.box, bad));
        EXPECT_REJECTED(f, cairn_body_set_angular_velocity(f.world, f.box, bad));
        EXPECT_REJECTED(f, cairn_body_apply_force(f.world, f.box, bad, v3(0, 0, 0)));
        EXPECT_REJECTED(f, cairn_body_apply_force(f.world, f.box, v3(1, 0, 0), bad));
        EXPECT_REJECTED(f, cairn_body_apply_torque(f.world, f.box, bad));
        EXPECT_REJECTED(f, cairn_body_apply_angular_impulse(f.world, f.box, bad));
        EXPECT_REJECTED(f, cairn_body_set_gravity_scale(f.world, f.box, x));
        EXPECT_REJECTED(f, cairn_body_set_linear_damping(f.world, f.box, x));
        EXPECT_REJECTED(f, cairn_body_set_angular_damping(f.world, f.box, x));
        EXPECT_REJECTED(f, cairn_body_set_friction(f.world, f.box, x));
        EXPECT_REJECTED(f, cairn_body_set_restitution(f.world, f.box, x));
        cairn_world_def def = cairn_world_default_def();
        def.gravity = bad;
        EXPECT_REJECTED(f, cairn_world_set_def(f.world, &def));
    }
    cairn_world_destroy(f.world);
}

Test(body_api_errors, out_of_range_values)
{
    fixture f = make();
    EXPECT_REJECTED(f, cairn_body_set_transform(f.world, f.box, scene_at(v3(2e6f, 0, 0))));
    cairn_transform scaled = cairn_transform_identity();
    scaled.rotation.w = 2.0f; /* not a unit quaternion */
    EXPECT_REJECTED(f, cairn_body_set_transform(f.world, f.box, scaled));
    EXPECT_REJECTED(f, cairn_body_set_linear_velocity(f.world, f.box, v3(2e4f, 0, 0)));
    EXPECT_REJECTED(f, cairn_body_set_angular_velocity(f.world, f.box, v3(0, 0, -2e4f)));
    EXPECT_REJECTED(f, cairn_body_set_gravity_scale(f.world, f.box, 101.0f));
    EXPECT_REJECTED(f, cairn_body_set_gravity_scale(f.world, f.box, -101.0f));
    EXPECT_REJECTED(f, cairn_body_set_friction(f.world, f.box, -0.1f));
    EXPECT_REJECTED(f, cairn_body_set_restitution(f.world, f.box, -0.1f));
    EXPECT_REJECTED(f, cairn_body_set_restitution(f.world, f.box, 1.5f));
    EXPECT_REJECTED(
        f, cairn_body_set_kinematic_target(f.world, f.kinematic, cairn_transform_identity(), 0.0f));
    EXPECT_REJECTED(f, cairn_body_set_kinematic_target(f.world, f.kinematic,
                                                       cairn_transform_identity(), -SCENE_DT));
    /* 1 km in 1/60 s is 6e4 m/s, above the 1e4 m/s speed limit. */
    EXPECT_REJECTED(f, cairn_body_set_kinematic_target(f.world, f.kinematic,
                                                       scene_at(v3(1000, 0, 0)), SCENE_DT));
    cairn_world_def def = cairn_world_default_def();
    def.solver.substeps = 0;
    EXPECT_REJECTED(f, cairn_world_set_def(f.world, &def));
    def = cairn_world_default_def();
    def.linear_damping = -1.0f;
    EXPECT_REJECTED(f, cairn_world_set_def(f.world, &def));
    EXPECT_REJECTED(f, cairn_world_set_def(f.world, NULL));
    cairn_world_destroy(f.world);
}

Test(body_api_errors, wrong_body_types)
{
    fixture f = make();
    cairn_transform xf = scene_at(v3(0, 3, 0));
    EXPECT_REJECTED(f, cairn_body_set_kinematic_target(f.world, f.box, xf, SCENE_DT));
    EXPECT_REJECTED(f, cairn_body_set_kinematic_target(f.world, f.floor, xf, SCENE_DT));
    EXPECT_REJECTED(f, cairn_body_set_linear_velocity(f.world, f.floor, v3(1, 0, 0)));
    EXPECT_REJECTED(f, cairn_body_set_angular_velocity(f.world, f.floor, v3(1, 0, 0)));
    EXPECT_REJECTED(f, cairn_body_set_awake(f.world, f.floor, true));
    EXPECT_REJECTED(f, cairn_body_set_awake(f.world, f.kinematic, false));
    cr_assert(cairn_body_set_enabled(f.world, f.box, false));
    EXPECT_REJECTED(f, cairn_body_set_awake(f.world, f.box, true));
    cairn_world_destroy(f.world);
}

Test(body_def, new_fields_have_defaults_and_are_validated)
{
    cairn_body_def def = cairn_body_default_def();
    cr_expect_eq(def.gravity_scale, 1.0f);
    cr_expect_eq(def.layer, 1u);
    cr_expect_eq(def.mask, ~0u);
    cr_expect(!def.is_sensor);
    cr_expect(def.enabled);
    cairn_world *world = scene_default_world();
    cairn_shape *shape = cairn_shape_sphere(0.5f);
    def.shape = shape;
    const float bad_scales[] = {NAN, INFINITY, 100.5f, -100.5f};
    for (int k = 0; k < 4; ++k) {
        def.gravity_scale = bad_scales[k];
        cairn_clear_error();
        cr_expect(id_is_null(cairn_body_create(world, &def)), "gravity_scale %g accepted",
                  bad_scales[k]);
        cr_expect(strstr(cairn_last_error(), "gravity_scale") != NULL, "message: %s",
                  cairn_last_error());
    }
    cr_expect_eq(cairn_world_body_count(world), 0);
    /* A disabled body is created out of the world: not awake, not hit. */
    def = cairn_body_default_def();
    def.shape = shape;
    def.enabled = false;
    cairn_body_id id = cairn_body_create(world, &def);
    cr_assert(!id_is_null(id));
    cr_expect(!cairn_body_is_enabled(world, id));
    cr_expect(!cairn_body_is_awake(world, id));
    cairn_ray_hit hit;
    cr_expect(!cairn_world_raycast(world, v3(0, 5, 0), v3(0, -10, 0), &hit));
    cairn_shape_release(shape);
    cairn_world_destroy(world);
}
