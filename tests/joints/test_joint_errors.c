/* Every bad joint def and every bad run-time change is refused with a message naming what was
   wrong, and changes nothing: no joint appears, the world's state hash is unchanged. */
#include "joint_helpers.h"

#include <string.h>

typedef struct fixture {
    cairn_world *world;
    cairn_body_id a, b, ground, kinematic;
} fixture;

static fixture make_fixture(void)
{
    fixture f;
    f.world = joint_world_with(cairn_world_default_def());
    f.ground = joint_static(f.world, cairn_shape_box(v3(5, 1, 5), 0.0f), v3(0, -1, 0));
    f.kinematic = scene_body(f.world, cairn_shape_sphere(0.5f), CAIRN_KINEMATIC,
                             scene_at(v3(5, 1, 0)), 1000.0f, 0.5f, 0.0f);
    f.a = joint_body(f.world, cairn_shape_sphere(0.5f), v3(0, 3, 0));
    f.b = joint_body(f.world, cairn_shape_sphere(0.5f), v3(0, 5, 0));
    return f;
}

static cairn_joint_def good_def(const fixture *f, cairn_joint_type type)
{
    cairn_joint_def def = cairn_joint_default_def(type);
    def.body_a = f->a;
    def.body_b = f->b;
    def.anchor_a = def.anchor_b = v3(0, 4, 0);
    def.axis = v3(0, 0, 1);
    return def;
}

/* Creation fails with a message holding `words`, and nothing changed. */
static void expect_refused(const fixture *f, const cairn_joint_def *def, const char *words)
{
    uint64_t hash = cairn_world_state_hash(f->world);
    int joints = cairn_world_joint_count(f->world);
    cairn_joint_id id = cairn_joint_create(f->world, def);
    cr_expect(joint_id_is_null(id), "accepted a def that should fail with '%s'", words);
    cr_expect(strstr(cairn_last_error(), words) != NULL, "expected '%s' in: %s", words,
              cairn_last_error());
    cr_expect_eq(cairn_world_joint_count(f->world), joints);
    cr_expect_eq(cairn_world_state_hash(f->world), hash);
}

Test(joint_errors, bodies)
{
    fixture f = make_fixture();
    cairn_joint_def def = good_def(&f, CAIRN_JOINT_BALL);
    def.body_b = (cairn_body_id){0, 0};
    expect_refused(&f, &def, "body_b is the null id");
    def = good_def(&f, CAIRN_JOINT_BALL);
    def.body_b = (cairn_body_id){f.b.index, f.b.generation + 1};
    expect_refused(&f, &def, "body_b");
    def = good_def(&f, CAIRN_JOINT_BALL);
    def.body_a = (cairn_body_id){77, 1};
    expect_refused(&f, &def, "body_a");
    def = good_def(&f, CAIRN_JOINT_BALL);
    def.body_a = f.b;
    expect_refused(&f, &def, "same body");
    def = good_def(&f, CAIRN_JOINT_BALL);
    def.body_a = f.ground;
    def.body_b = f.kinematic;
    expect_refused(&f, &def, "neither body is dynamic");
    def.body_a = (cairn_body_id){0, 0};
    def.body_b = f.ground;
    expect_refused(&f, &def, "neither body is dynamic");
    /* a destroyed body's id is stale */
    cairn_body_id gone = joint_body(f.world, cairn_shape_sphere(0.5f), v3(3, 3, 0));
    cairn_body_destroy(f.world, gone);
    def = good_def(&f, CAIRN_JOINT_BALL);
    def.body_b = gone;
    expect_refused(&f, &def, "stale");
    cr_expect(joint_id_is_null(cairn_joint_create(NULL, &def)));
    cr_expect(strstr(cairn_last_error(), "world is NULL") != NULL);
    cr_expect(joint_id_is_null(cairn_joint_create(f.world, NULL)));
    cr_expect(strstr(cairn_last_error(), "def is NULL") != NULL);
    def = good_def(&f, CAIRN_JOINT_BALL);
    def.type = (cairn_joint_type)42;
    expect_refused(&f, &def, "not a joint type");
    cairn_world_destroy(f.world);
}

Test(joint_errors, geometry)
{
    fixture f = make_fixture();
    cairn_joint_def def = good_def(&f, CAIRN_JOINT_HINGE);
    def.anchor_a.y = NAN;
    expect_refused(&f, &def, "anchor_a is not finite");
    def = good_def(&f, CAIRN_JOINT_DISTANCE);
    def.anchor_b.x = INFINITY;
    expect_refused(&f, &def, "anchor_b is not finite");
    def = good_def(&f, CAIRN_JOINT_BALL);
    def.anchor_a.x = 2e6f;
    expect_refused(&f, &def, "|anchor_a|");
    const cairn_joint_type with_axis[] = {CAIRN_JOINT_HINGE, CAIRN_JOINT_SLIDER,
                                          CAIRN_JOINT_SWING_TWIST};
    for (int i = 0; i < 3; ++i) {
        def = good_def(&f, with_axis[i]);
        def.axis = v3(0, 0, 0);
        expect_refused(&f, &def, "axis is zero");
        def.axis = v3(0, NAN, 1);
        expect_refused(&f, &def, "axis is not finite");
    }
    const float cones[] = {0.0f, -0.5f, (float)SCENE_PI, 4.0f, NAN};
    for (int i = 0; i < 5; ++i) {
        def = good_def(&f, CAIRN_JOINT_SWING_TWIST);
        def.cone_angle = cones[i];
        expect_refused(&f, &def, "cone_angle");
    }
    cairn_world_destroy(f.world);
}

Test(joint_errors, settings)
{
    fixture f = make_fixture();
    cairn_joint_def def = good_def(&f, CAIRN_JOINT_HINGE);
    def.enable_limit = true;
    def.lower = 1.0f;
    def.upper = 0.5f;
    expect_refused(&f, &def, "lower = 1 is above upper = 0.5");
    def.lower = -4.0f;
    expect_refused(&f, &def, "outside [-pi, pi]");
    def = good_def(&f, CAIRN_JOINT_DISTANCE);
    def.enable_limit = true;
    def.lower = -1.0f;
    def.upper = 2.0f;
    expect_refused(&f, &def, "negative length");
    def = good_def(&f, CAIRN_JOINT_SLIDER);
    def.upper = NAN;
    expect_refused(&f, &def, "upper is not finite");
    def = good_def(&f, CAIRN_JOINT_HINGE);
    def.enable_motor = true;
    def.max_motor_force = -1.0f;
    expect_refused(&f, &def, "max_motor_force = -1 must be >= 0");
    def.max_motor_force = 1.0f;
    def.motor_speed = INFINITY;
    expect_refused(&f, &def, "motor_speed is not finite");
    def = good_def(&f, CAIRN_JOINT_SLIDER);
    def.enable_spring = true;
    def.spring_hertz = -2.0f;
    expect_refused(&f, &def, "spring_hertz = -2 must be >= 0");
    def.spring_hertz = 0.0f;
    expect_refused(&f, &def, "spring_hertz must be > 0");
    def.spring_hertz = 1.0f;
    def.spring_damping_ratio = -0.1f;
    expect_refused(&f, &def, "spring_damping_ratio");
    def = good_def(&f, CAIRN_JOINT_FIXED);
    def.break_force = -5.0f;
    expect_refused(&f, &def, "break_force = -5 must be >= 0");
    def = good_def(&f, CAIRN_JOINT_SWING_TWIST);
    def.enable_motor = true;
    def.motor_speed = 1.0f;
    expect_refused(&f, &def, "motor_speed must be 0");
    /* features a type does not have */
    def = good_def(&f, CAIRN_JOINT_BALL);
    def.enable_motor = true;
    expect_refused(&f, &def, "a ball joint has no motor");
    def = good_def(&f, CAIRN_JOINT_FIXED);
    def.enable_limit = true;
    expect_refused(&f, &def, "a fixed joint has no limit");
    def = good_def(&f, CAIRN_JOINT_DISTANCE);
    def.enable_motor = true;
    expect_refused(&f, &def, "a distance joint has no motor");
    def = good_def(&f, CAIRN_JOINT_SWING_TWIST);
    def.enable_spring = true;
    def.spring_hertz = 1.0f;
    expect_refused(&f, &def, "a swing-twist joint has no spring");
    cairn_world_destroy(f.world);
}

Test(joint_errors, changes_at_run_time)
{
    fixture f = make_fixture();
    cairn_joint_def def = good_def(&f, CAIRN_JOINT_HINGE);
    def.enable_limit = true;
    def.lower = -0.5f;
    def.upper = 0.5f;
    cairn_joint_id hinge = joint_make(f.world, &def);
    cr_expect(!cairn_joint_set_limits(f.world, hinge, true, 0.5f, -0.5f));
    cr_expect(strstr(cairn_last_error(), "cairn_joint_set_limits: lower") != NULL, "%s",
              cairn_last_error());
    cr_expect(!cairn_joint_set_motor(f.world, hinge, true, 1.0f, -3.0f));
    cr_expect(strstr(cairn_last_error(), "max_motor_force") != NULL);
    cr_expect(!cairn_joint_set_spring(f.world, hinge, true, NAN, 1.0f, 0.0f));
    cr_expect(strstr(cairn_last_error(), "spring_hertz") != NULL);
    cr_expect(!cairn_joint_set_break_force(f.world, hinge, -1.0f));
    cr_expect(!cairn_joint_set_limits(NULL, hinge, false, 0, 0));
    cr_expect(strstr(cairn_last_error(), "world is NULL") != NULL);
    cairn_joint_def now = cairn_joint_get_def(f.world, hinge);
    cr_expect(now.enable_limit && now.lower == -0.5f && now.upper == 0.5f, "unchanged limits");
    cr_expect(!now.enable_motor && !now.enable_spring && now.break_force == 0.0f);
    /* good changes take */
    cr_expect(cairn_joint_set_motor(f.world, hinge, true, 2.0f, 10.0f));
    cr_expect(cairn_joint_set_spring(f.world, hinge, true, 3.0f, 0.5f, 0.25f));
    cr_expect(cairn_joint_set_limits(f.world, hinge, false, 0.0f, 0.0f));
    int tag = 7;
    cr_expect(cairn_joint_set_user_data(f.world, hinge, &tag));
    now = cairn_joint_get_def(f.world, hinge);
    cr_expect(now.enable_motor && now.motor_speed == 2.0f && now.max_motor_force == 10.0f);
    cr_expect(now.enable_spring && now.spring_hertz == 3.0f && now.spring_target == 0.25f);
    cr_expect(!now.enable_limit);
    cr_expect(cairn_joint_user_data(f.world, hinge) == &tag);
    cr_expect(glms_vec3_distance(now.axis, v3(0, 0, 1)) < 1e-6f, "axis as created");
    /* bad arguments of the readers */
    cr_expect_eq(cairn_body_joints(f.world, f.a, NULL, 2), -1);
    cr_expect_eq(cairn_body_joints(f.world, f.a, NULL, -1), -1);
    cr_expect_eq(cairn_body_joints(f.world, (cairn_body_id){0, 0}, NULL, 0), -1);
    cr_expect_eq(cairn_world_joint_count(NULL), 0);
    cr_expect_eq(cairn_world_joint_events(NULL).break_count, 0);
    cairn_world_destroy(f.world);
}
