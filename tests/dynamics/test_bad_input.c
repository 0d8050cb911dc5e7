/* Scenario 12: bad input - NaN or infinite transform or velocity, zero or negative density, a
   null shape, destroying a body twice, using a destroyed id - each gives a clear error (null id
   or false, plus a non-empty cairn_last_error() that names the problem) and changes nothing;
   never a crash. */
#include <ctype.h>
#include <string.h>

#include "scene_helpers.h"

/* Case-insensitive: does the last error mention one of the '|'-separated words? */
static bool error_mentions(const char *words)
{
    const char *msg = cairn_last_error();
    char lower[512];
    size_t n = 0;
    for (; msg[n] && n + 1 < sizeof lower; ++n)
        lower[n] = (char)tolower((unsigned char)msg[n]);
    lower[n] = 0;
    char list[256];
    snprintf(list, sizeof list, "%s", words);
    for (char *w = strtok(list, "|"); w; w = strtok(NULL, "|"))
        if (strstr(lower, w))
            return true;
    return false;
}

typedef struct fixture {
    cairn_world *world;
    cairn_body_id floor, box;
    cairn_shape *shape;
} fixture;

static fixture make(void)
{
    fixture f;
    f.world = scene_default_world();
    f.floor = scene_floor(f.world, 0.6f, 0.0f);
    f.box = scene_box(f.world, v3(0, 2, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    scene_step(f.world, 5); /* some motion, so the state is not trivial */
    f.shape = cairn_shape_box(v3(0.5f, 0.5f, 0.5f), SCENE_RADIUS);
    cr_assert_not_null(f.shape);
    return f;
}

static void unmake(fixture f)
{
    cairn_shape_release(f.shape);
    cairn_world_destroy(f.world);
}

/* Creating from `def` must fail: null id, a message naming one of `words`, nothing changed. */
static void expect_create_rejected(fixture f, const cairn_body_def *def, const char *words,
                                   const char *what)
{
    uint64_t hash = cairn_world_state_hash(f.world);
    int count = cairn_world_body_count(f.world);
    cairn_clear_error();
    cairn_body_id id = cairn_body_create(f.world, def);
    cr_expect(id_is_null(id), "%s: got body {%u, %u} instead of the null id", what, id.index,
              id.generation);
    cr_expect(cairn_last_error()[0] != 0, "%s: no error message", what);
    cr_expect(error_mentions(words), "%s: message '%s' mentions none of '%s'", what,
              cairn_last_error(), words);
    cr_expect_eq(cairn_world_body_count(f.world), count, "%s: body count changed", what);
    cr_expect_eq(cairn_world_state_hash(f.world), hash, "%s: world state changed", what);
    cr_log_info("%s -> '%s'", what, cairn_last_error());
}

Test(bad_input, non_finite_transform)
{
    fixture f = make();
    const float bad[2] = {NAN, INFINITY};
    for (int k = 0; k < 2; ++k) {
        cairn_body_def def = cairn_body_default_def();
        def.shape = f.shape;
        def.transform.position = v3(0, bad[k], 0);
        expect_create_rejected(f, &def, "position|transform|finite|nan|inf",
                               k ? "Inf position" : "NaN position");
        def = cairn_body_default_def();
        def.shape = f.shape;
        def.transform.position = v3(0, 3, 0);
        def.transform.rotation.w = bad[k];
        expect_create_rejected(f, &def, "rotation|quaternion|transform|orientation|finite|nan|inf",
                               k ? "Inf rotation" : "NaN rotation");
        def = cairn_body_default_def();
        def.shape = f.shape;
        def.transform.position = v3(-bad[k], 3, 0);
        expect_create_rejected(f, &def, "position|transform|finite|nan|inf",
                               k ? "-Inf position.x" : "NaN position.x");
    }
    unmake(f);
}

Test(bad_input, non_finite_velocity)
{
    fixture f = make();
    const float bad[2] = {NAN, INFINITY};
    for (int k = 0; k < 2; ++k) {
        cairn_body_def def = cairn_body_default_def();
        def.shape = f.shape;
        def.transform.position = v3(0, 3, 0);
        def.linear_velocity = v3(1, 0, bad[k]);
        expect_create_rejected(f, &def, "velocity",
                               k ? "Inf linear velocity" : "NaN linear velocity");
        def.linear_velocity = v3(0, 0, 0);
        def.angular_velocity = v3(bad[k], 0, 0);
        expect_create_rejected(f, &def, "velocity",
                               k ? "Inf angular velocity" : "NaN angular velocity");
    }
    unmake(f);
}

Test(bad_input, zero_or_negative_density)
{
    fixture f = make();
    const float bad[3] = {0.0f, -1000.0f, NAN};
    const char *names[3] = {"zero density", "negative density", "NaN density"};
    for (int k = 0; k < 3; ++k) {
        cairn_body_def def = cairn_body_default_def();
        def.shape = f.shape;
        def.transform.position = v3(0, 3, 0);
        def.density = bad[k];
        expect_create_rejected(f, &def, "density", names[k]);
    }
    unmake(f);
}

Test(bad_input, null_shape)
{
    fixture f = make();
    cairn_body_def def = cairn_body_default_def();
    def.transform.position = v3(0, 3, 0);
    def.shape = NULL;
    expect_create_rejected(f, &def, "shape", "null shape");
    unmake(f);
}

Test(bad_input, destroying_twice)
{
    fixture f = make();
    cairn_body_id extra = scene_box(f.world, v3(3, 0.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000, 0.6f);
    cairn_body_destroy(f.world, extra);
    cr_expect(!cairn_body_is_valid(f.world, extra), "destroyed body still valid");
    uint64_t hash = cairn_world_state_hash(f.world);
    int count = cairn_world_body_count(f.world);
    cairn_clear_error();
    cairn_body_destroy(f.world, extra); /* the second time */
    cr_expect(cairn_last_error()[0] != 0, "destroying twice: no error message");
    cr_expect(error_mentions("stale|invalid|destroyed|unknown|id|body"),
              "destroying twice: message '%s' does not name the id", cairn_last_error());
    cr_log_info("destroying twice -> '%s'", cairn_last_error());
    cr_expect_eq(cairn_world_body_count(f.world), count, "destroying twice changed the body count");
    cr_expect_eq(cairn_world_state_hash(f.world), hash, "destroying twice changed the world");
    cr_expect(cairn_body_is_valid(f.world, f.box) && cairn_body_is_valid(f.world, f.floor),
              "destroying twice hurt another body");
    /* the null id */
    cairn_clear_error();
    cairn_body_destroy(f.world, (cairn_body_id){0, 0});
    cr_expect(cairn_last_error()[0] != 0, "destroying the null id: no error message");
    cr_expect_eq(cairn_world_body_count(f.world), count);
    unmake(f);
}

Test(bad_input, using_a_destroyed_id)
{
    fixture f = make();
    cairn_body_id dead = scene_box(f.world, v3(3, 0.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000, 0.6f);
    cairn_body_destroy(f.world, dead);
    /* a new body may take the slot again: the stale id must still not reach it */
    cairn_body_id fresh = scene_box(f.world, v3(-3, 0.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000, 0.6f);
    cr_expect(!(fresh.index == dead.index && fresh.generation == dead.generation),
              "a new body got the destroyed body's id");
    uint64_t hash = cairn_world_state_hash(f.world);
    int count = cairn_world_body_count(f.world);
    const char *words = "stale|invalid|destroyed|unknown|id|body";

    cr_expect(!cairn_body_is_valid(f.world, dead), "stale id reported valid");

    cairn_clear_error();
    cr_expect(!cairn_body_is_awake(f.world, dead), "stale id reported awake");
    cr_expect(cairn_last_error()[0] != 0 && error_mentions(words), "is_awake(stale): message '%s'",
              cairn_last_error());

    cairn_clear_error();
    cairn_transform xf = cairn_body_transform(f.world, dead);
    cr_expect(cairn_last_error()[0] != 0 && error_mentions(words), "transform(stale): message '%s'",
              cairn_last_error());
    cr_expect(isfinite(xf.position.x) && isfinite(xf.position.y) && isfinite(xf.position.z),
              "transform(stale) is not finite");

    cairn_clear_error();
    vec3s v = cairn_body_linear_velocity(f.world, dead);
    cr_expect(cairn_last_error()[0] != 0 && error_mentions(words),
              "linear_velocity(stale): message '%s'", cairn_last_error());
    cr_expect(isfinite(v.x) && isfinite(v.y) && isfinite(v.z));

    cairn_clear_error();
    v = cairn_body_angular_velocity(f.world, dead);
    cr_expect(cairn_last_error()[0] != 0 && error_mentions(words),
              "angular_velocity(stale): message '%s'", cairn_last_error());

    cairn_clear_error();
    cairn_body_apply_impulse(f.world, dead, v3(0, 100, 0), v3(3, 0.5f, 0));
    cr_expect(cairn_last_error()[0] != 0 && error_mentions(words),
              "apply_impulse(stale): message '%s'", cairn_last_error());
    cr_log_info("using a destroyed id -> '%s'", cairn_last_error());

    cr_expect_eq(cairn_world_body_count(f.world), count, "stale id use changed the body count");
    cr_expect_eq(cairn_world_state_hash(f.world), hash, "stale id use changed the world");
    vec3s fv = cairn_body_linear_velocity(f.world, fresh);
    cr_expect(fv.y == 0.0f, "the impulse on the stale id reached the new body (vy = %g)", fv.y);

    /* an id that was never issued */
    cairn_clear_error();
    cairn_body_apply_impulse(f.world, (cairn_body_id){4000, 7}, v3(0, 1, 0), v3(0, 0, 0));
    cr_expect(cairn_last_error()[0] != 0, "apply_impulse(never issued id): no error");
    cr_expect_eq(cairn_world_state_hash(f.world), hash);
    unmake(f);
}

/* The same contract on the other entry points that take numbers (ARCHITECTURE.md, "Validation
   at the boundary"): a NaN impulse or time step is refused and changes nothing. */
Test(bad_input, non_finite_impulse_and_time_step)
{
    fixture f = make();
    uint64_t hash = cairn_world_state_hash(f.world);

    cairn_clear_error();
    cairn_body_apply_impulse(f.world, f.box, v3(NAN, 0, 0), v3(0, 2, 0));
    cr_expect(cairn_last_error()[0] != 0 && error_mentions("impulse|finite|nan"),
              "NaN impulse: message '%s'", cairn_last_error());
    cr_expect_eq(cairn_world_state_hash(f.world), hash, "NaN impulse changed the world");

    cairn_clear_error();
    cairn_body_apply_impulse(f.world, f.box, v3(0, 1, 0), v3(0, INFINITY, 0));
    cr_expect(cairn_last_error()[0] != 0 && error_mentions("point|finite|inf"),
              "Inf impulse point: message '%s'", cairn_last_error());
    cr_expect_eq(cairn_world_state_hash(f.world), hash, "Inf impulse point changed the world");

    const float bad_dt[3] = {NAN, INFINITY, -SCENE_DT};
    for (int k = 0; k < 3; ++k) {
        cairn_clear_error();
        cairn_world_step(f.world, bad_dt[k]);
        cr_expect(cairn_last_error()[0] != 0 && error_mentions("dt|time step|step|finite|negative"),
                  "step(%g): message '%s'", bad_dt[k], cairn_last_error());
        cr_expect_eq(cairn_world_state_hash(f.world), hash, "step(%g) changed the world",
                     bad_dt[k]);
    }
    cairn_clear_error();
    cairn_world_step(f.world, 0.0f);
    cr_expect_eq(cairn_world_state_hash(f.world), hash, "step(0) changed the world");
    cr_expect(cairn_last_error()[0] == 0, "step(0) is a no-op, not an error: '%s'",
              cairn_last_error());

    /* all of that left the world usable */
    scene_step(f.world, 10);
    vec3s p = scene_position(f.world, f.box);
    cr_expect(isfinite(p.y), "the world is broken after refused calls");
    unmake(f);
}

/* Enumeration returns exactly the live bodies, in id order, and their shapes and types. */
Test(bad_input, enumeration_lists_live_bodies)
{
    cairn_world *world = scene_default_world();
    cairn_body_id a = scene_box(world, v3(0, 1, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    cairn_body_id b = scene_box(world, v3(0, 3, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    cairn_body_destroy(world, a);
    cairn_body_id ids[4];
    cr_expect_eq(cairn_world_bodies(world, ids, 4), 1);
    cr_expect(ids[0].index == b.index && ids[0].generation == b.generation);
    cr_expect_not_null(cairn_body_shape(world, b));
    cr_expect_null(cairn_body_shape(world, a), "a destroyed body has no shape");
    cr_expect_eq(cairn_body_get_type(world, b), CAIRN_DYNAMIC);
    cairn_world_destroy(world);
}

/* The read-only world functions take a NULL world without crashing. */
Test(bad_input, null_world_readers_return_neutral_values)
{
    cairn_step_stats st = cairn_world_step_stats(NULL);
    cr_expect_eq(st.bodies, 0);
    cr_expect_eq(cairn_world_body_count(NULL), 0);
    cr_expect_eq(cairn_world_contact_events(NULL).begin_count, 0);
    cr_expect_eq(cairn_world_sensor_events(NULL).end_count, 0);
    cairn_world *empty = scene_default_world();
    cr_expect_eq(cairn_world_state_hash(NULL), cairn_world_state_hash(empty));
    cairn_world_destroy(empty);
}

/* The pair-cache limits are validated like every other setting: out of range or not finite
   refuses the def with an error naming the field. */
Test(bad_input, pair_cache_limits_out_of_range)
{
    const float bad[] = {-0.001f, 0.2f, NAN, INFINITY};
    for (int i = 0; i < 4; ++i) {
        cairn_world_def def = cairn_world_default_def();
        def.solver.pair_cache_distance = bad[i];
        cr_expect_null(cairn_world_create(&def));
        cr_expect(strstr(cairn_last_error(), "pair_cache_distance") != NULL, "%s",
                  cairn_last_error());
        def = cairn_world_default_def();
        def.solver.pair_cache_angle = bad[i] * 5.0f; /* -0.005, 1, NaN, Inf: outside [0, 0.5] */
        cr_expect_null(cairn_world_create(&def));
        cr_expect(strstr(cairn_last_error(), "pair_cache_angle") != NULL, "%s", cairn_last_error());
    }
}

/* The joint softness is validated like the contact softness. */
Test(bad_input, joint_softness_out_of_range)
{
    const float bad[] = {-1.0f, 2000.0f, NAN, INFINITY};
    for (int i = 0; i < 4; ++i) {
        cairn_world_def def = cairn_world_default_def();
        def.solver.joint_hertz = bad[i];
        cr_expect_null(cairn_world_create(&def));
        cr_expect(strstr(cairn_last_error(), "joint_hertz") != NULL, "%s", cairn_last_error());
        def = cairn_world_default_def();
        def.solver.joint_damping_ratio = bad[i] * 0.1f; /* -0.1, 200, NaN, Inf */
        cr_expect_null(cairn_world_create(&def));
        cr_expect(strstr(cairn_last_error(), "joint_damping_ratio") != NULL, "%s",
                  cairn_last_error());
    }
}
