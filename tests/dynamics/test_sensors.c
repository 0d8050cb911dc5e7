/* Sensors: a body falling through a sensor box begins and ends its overlap exactly once, at the
   times free fall predicts, and falls exactly like a twin far from the sensor; sensors never see
   each other; a static sensor sees a kinematic body; a destroyed or disabled visitor ends its
   overlap; no contact events or contact forces come from a sensor. */
#include "scene_helpers.h"

static cairn_body_id sensor_box(cairn_world *world, cairn_body_type type, vec3s position,
                                vec3s half)
{
    cairn_shape *shape = cairn_shape_box(half, 0.0f);
    cr_assert_not_null(shape);
    cairn_body_def def = cairn_body_default_def();
    def.type = type;
    def.transform = scene_at(position);
    def.shape = shape;
    def.is_sensor = true;
    cairn_body_id id = cairn_body_create(world, &def);
    cairn_shape_release(shape);
    cr_assert(!id_is_null(id), "%s", cairn_last_error());
    return id;
}

static bool same_id(cairn_body_id a, cairn_body_id b)
{
    return a.index == b.index && a.generation == b.generation;
}

typedef struct sensor_log {
    int begins, ends, begin_step, end_step, contact_events;
} sensor_log;

static void log_events(const cairn_world *world, int step, cairn_body_id sensor,
                       cairn_body_id visitor, sensor_log *log)
{
    cairn_sensor_events e = cairn_world_sensor_events(world);
    for (int i = 0; i < e.begin_count; ++i) {
        cr_expect(same_id(e.begins[i].sensor, sensor) && same_id(e.begins[i].visitor, visitor));
        log->begins++;
        log->begin_step = step;
    }
    for (int i = 0; i < e.end_count; ++i) {
        cr_expect(same_id(e.ends[i].sensor, sensor) && same_id(e.ends[i].visitor, visitor));
        log->ends++;
        log->end_step = step;
    }
    cairn_contact_events c = cairn_world_contact_events(world);
    log->contact_events += c.begin_count + c.end_count + c.hit_count;
}

/* First step n (1-based) after which a body dropped from rest at y0 is below y, by the
   integrator's own recurrence (semi-implicit Euler per substep): the analytic free fall
   y0 - g t^2 / 2 differs from it by g h t / 2, a few millimetres. */
static int step_below(double y0, double y, int substeps)
{
    double h = (double)SCENE_DT / substeps, v = 0.0, p = y0;
    for (int n = 1; n < 10000; ++n) {
        for (int s = 0; s < substeps; ++s) {
            v -= SCENE_G * h;
            p += v * h;
        }
        if (p < y)
            return n;
    }
    return -1;
}

Test(sensors, falling_through_a_sensor_begins_and_ends_once_and_does_not_slow_the_body)
{
    cairn_world *world = scene_default_world();
    float radius = 0.25f;
    cairn_body_id sensor = sensor_box(world, CAIRN_STATIC, v3(0, 5, 0), v3(1, 1, 1));
    cairn_body_id ball = scene_sphere(world, v3(0, 10, 0), radius, 1000.0f, 0.5f, 0.0f);
    cairn_body_id twin = scene_sphere(world, v3(30, 10, 0), radius, 1000.0f, 0.5f, 0.0f);
    sensor_log log = {0};
    double worst = 0.0;
    for (int n = 1; n <= 120; ++n) { /* 2 s: the ball falls 19.6 m, through the sensor */
        cairn_world_step(world, SCENE_DT);
        log_events(world, n, sensor, ball, &log);
        vec3s v = cairn_body_linear_velocity(world, ball),
              w = cairn_body_linear_velocity(world, twin);
        worst = fmax(worst, scene_distance(v, w));
    }
    cr_expect_eq(log.begins, 1, "begin events: %d", log.begins);
    cr_expect_eq(log.ends, 1, "end events: %d", log.ends);
    cr_expect_eq(log.contact_events, 0, "a sensor made contact events");
    cr_expect(worst <= 1e-5, "the sensor changed the ball's velocity by %g m/s", worst);
    int substeps = cairn_world_default_def().solver.substeps;
    /* Overlap from when the ball's bottom passes y = 6 until its top passes y = 4. */
    int begin = step_below(10.0, 6.0 + radius, substeps);
    int end = step_below(10.0, 4.0 - radius, substeps);
    cr_expect(abs(log.begin_step - begin) <= 1, "begin at step %d, expected %d", log.begin_step,
              begin);
    cr_expect(abs(log.end_step - end) <= 1, "end at step %d, expected %d", log.end_step, end);
    cairn_world_destroy(world);
}

/* Repeated passes: a ball bouncing (restitution 1) in and out of a sensor slab on the floor
   gives one begin and one end per pass, alternating. */
Test(sensors, every_pass_counts_once)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.0f, 1.0f);
    cairn_body_id sensor = sensor_box(world, CAIRN_STATIC, v3(0, 1, 0), v3(2, 0.5f, 2));
    cairn_body_id ball = scene_sphere(world, v3(0, 4, 0), 0.25f, 1000.0f, 0.0f, 1.0f);
    int inside = 0, begins = 0, ends = 0;
    for (int n = 0; n < 600; ++n) {
        cairn_world_step(world, SCENE_DT);
        cairn_sensor_events e = cairn_world_sensor_events(world);
        for (int i = 0; i < e.begin_count; ++i) {
            cr_assert_eq(inside, 0, "a second begin before the end");
            inside = 1;
            begins++;
        }
        for (int i = 0; i < e.end_count; ++i) {
            cr_assert_eq(inside, 1, "an end without a begin");
            inside = 0;
            ends++;
        }
        /* The sensor's answer matches the overlap of the full shapes at every step. */
        bool overlap =
            cairn_overlap(cairn_body_shape(world, sensor), cairn_body_transform(world, sensor),
                          cairn_body_shape(world, ball), cairn_body_transform(world, ball));
        cr_assert_eq(overlap, inside == 1, "step %d: overlap %d, sensor state %d", n, overlap,
                     inside);
    }
    cr_expect(begins >= 3, "only %d passes", begins);
    cr_expect(begins - ends == inside);
    cairn_world_destroy(world);
}

Test(sensors, sensors_never_see_each_other)
{
    cairn_world *world = scene_default_world();
    sensor_box(world, CAIRN_STATIC, v3(0, 0, 0), v3(2, 2, 2));
    sensor_box(world, CAIRN_DYNAMIC, v3(0, 3, 0), v3(0.5f, 0.5f, 0.5f));
    scene_step(world, 120); /* the dynamic sensor falls through the static one */
    cairn_world_step(world, SCENE_DT);
    for (int n = 0; n < 120; ++n) {
        cairn_world_step(world, SCENE_DT);
        cairn_sensor_events e = cairn_world_sensor_events(world);
        cr_assert_eq(e.begin_count + e.end_count, 0, "sensors saw each other");
    }
    cairn_world_destroy(world);
}

Test(sensors, a_static_sensor_sees_a_kinematic_body)
{
    cairn_world *world = scene_default_world();
    cairn_body_id sensor = sensor_box(world, CAIRN_STATIC, v3(0, 0, 0), v3(1, 1, 1));
    cairn_body_id k = scene_body(world, cairn_shape_sphere(0.5f), CAIRN_KINEMATIC,
                                 scene_at(v3(-4, 0, 0)), 1000.0f, 0.5f, 0.0f);
    cr_assert(cairn_body_set_linear_velocity(world, k, v3(2, 0, 0)));
    sensor_log log = {0};
    for (int n = 1; n <= 240; ++n) { /* from x = -4 to x = +4 */
        cairn_world_step(world, SCENE_DT);
        log_events(world, n, sensor, k, &log);
    }
    cr_expect_eq(log.begins, 1);
    cr_expect_eq(log.ends, 1);
    /* Overlap while |x| < 1.5: x = -4 + 2 t, so from t = 1.25 s (step 75) to 2.75 s (165). */
    cr_expect(abs(log.begin_step - 75) <= 1, "begin at step %d", log.begin_step);
    cr_expect(abs(log.end_step - 165) <= 1, "end at step %d", log.end_step);
    cairn_world_destroy(world);
}

Test(sensors, destroying_or_disabling_a_visitor_ends_its_overlap)
{
    cairn_world *world = scene_default_world();
    cairn_body_id sensor = sensor_box(world, CAIRN_STATIC, v3(0, 0, 0), v3(3, 3, 3));
    cairn_body_id a = scene_sphere(world, v3(-1, 0, 0), 0.5f, 1000.0f, 0.5f, 0.0f);
    cairn_body_id b = scene_sphere(world, v3(1, 0, 0), 0.5f, 1000.0f, 0.5f, 0.0f);
    cr_assert(cairn_body_set_gravity_scale(world, a, 0.0f));
    cr_assert(cairn_body_set_gravity_scale(world, b, 0.0f));
    cairn_world_step(world, SCENE_DT);
    cr_assert_eq(cairn_world_sensor_events(world).begin_count, 2);
    cairn_body_destroy(world, a);
    cairn_sensor_events e = cairn_world_sensor_events(world);
    cr_assert_eq(e.end_count, 1, "destroying a visitor: %d end events", e.end_count);
    cr_expect(same_id(e.ends[0].sensor, sensor) && e.ends[0].visitor.index == a.index);
    cr_assert(cairn_body_set_enabled(world, b, false));
    cairn_world_step(world, SCENE_DT);
    e = cairn_world_sensor_events(world);
    cr_expect_eq(e.end_count, 1, "disabling a visitor: %d end events", e.end_count);
    cr_expect_eq(e.begin_count, 0);
    /* Enabled again inside the sensor: a new overlap begins. */
    cr_assert(cairn_body_set_enabled(world, b, true));
    cairn_world_step(world, SCENE_DT);
    e = cairn_world_sensor_events(world);
    cr_expect_eq(e.begin_count, 1, "enabling inside: %d begin events", e.begin_count);
    cairn_world_destroy(world);
}

/* A static sensor created around a sleeping box, and one teleported onto it, both see it. */
Test(sensors, a_sensor_sees_a_sleeping_body)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id box = scene_box(world, v3(0, 0.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    scene_step(world, 120);
    cr_assert(!cairn_body_is_awake(world, box));
    cairn_body_id around = sensor_box(world, CAIRN_STATIC, v3(0, 0.5f, 0), v3(1, 1, 1));
    cairn_body_id away = sensor_box(world, CAIRN_STATIC, v3(10, 0.5f, 0), v3(1, 1, 1));
    cairn_world_step(world, SCENE_DT);
    cairn_sensor_events e = cairn_world_sensor_events(world);
    cr_assert_eq(e.begin_count, 1, "begin events: %d", e.begin_count);
    cr_expect(same_id(e.begins[0].sensor, around) && same_id(e.begins[0].visitor, box));
    cr_assert(!cairn_body_is_awake(world, box), "the sensor woke the box");
    cr_assert(cairn_body_set_transform(world, away, scene_at(v3(0.5f, 0.5f, 0))));
    cairn_world_step(world, SCENE_DT);
    e = cairn_world_sensor_events(world);
    cr_assert_eq(e.begin_count, 1, "begin events after the teleport: %d", e.begin_count);
    cr_expect(same_id(e.begins[0].sensor, away) && same_id(e.begins[0].visitor, box));
    /* And away again: the overlap ends. */
    cr_assert(cairn_body_set_transform(world, away, scene_at(v3(10, 0.5f, 0))));
    cairn_world_step(world, SCENE_DT);
    e = cairn_world_sensor_events(world);
    cr_expect_eq(e.end_count, 1, "end events after the teleport away: %d", e.end_count);
    cairn_world_destroy(world);
}

/* Queries see solid bodies only: a ray through a sensor hits the box behind it. */
Test(sensors, queries_skip_sensors)
{
    cairn_world *world = scene_default_world();
    cairn_body_def def = cairn_body_default_def();
    cairn_shape *box = cairn_shape_box(v3(0.5f, 0.5f, 0.5f), 0.0f);
    def.shape = box;
    def.type = CAIRN_STATIC;
    def.is_sensor = true;
    def.transform.position = v3(0, 0, 0);
    cairn_body_id sensor = cairn_body_create(world, &def);
    def.is_sensor = false;
    def.transform.position = v3(3, 0, 0);
    cairn_body_id solid = cairn_body_create(world, &def);
    cairn_shape_release(box);
    cairn_ray_hit hit;
    cr_assert(cairn_world_raycast(world, v3(-5, 0, 0), v3(10, 0, 0), &hit));
    cr_expect_eq(hit.body.index, solid.index, "the ray stopped at the sensor");
    cr_expect_float_eq(hit.point.x, 2.5f, 1e-4f);
    cairn_body_id found[4];
    int n = cairn_world_overlap_aabb(world, (cairn_aabb){v3(-1, -1, -1), v3(1, 1, 1)},
                                     CAIRN_QUERY_ALL, found, 4);
    cr_expect_eq(n, 0, "an AABB query around the sensor found %d bodies", n);
    (void)sensor;
    cairn_world_destroy(world);
}
