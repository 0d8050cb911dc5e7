/* cairn_body_contacts: a body's touching manifolds as the body sees it. Checked against statics:
   a resting box is pushed up by forces summing to its weight, each box of a stack carries the
   weight of those above it, normals point away from the asking body, a ball in a V trough
   (one compound body) touches it along two directions, sleeping contacts are still there,
   sensors never are; plus the capacity contract and bad input. */
#include "scene_helpers.h"

enum { CAPACITY = 8 };

static bool same_id(cairn_body_id a, cairn_body_id b)
{
    return a.index == b.index && a.generation == b.generation;
}

static double force_sum(const cairn_contact_data *d)
{
    double sum = 0;
    for (int i = 0; i < d->point_count; ++i)
        sum += (double)d->normal_forces[i];
    return sum;
}

/* The contact with other, or NULL. */
static const cairn_contact_data *with(const cairn_contact_data *d, int count, cairn_body_id other)
{
    for (int i = 0; i < count; ++i)
        if (same_id(d[i].other, other))
            return &d[i];
    return NULL;
}

Test(contact_data, a_resting_box_is_held_up_by_its_weight)
{
    cairn_world *world = scene_default_world();
    cairn_body_id floor = scene_floor(world, 0.6f, 0.0f);
    cairn_body_id box = scene_box(world, v3(0, 0.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    scene_step(world, 60);
    cairn_contact_data d[CAPACITY];
    int n = cairn_body_contacts(world, box, d, CAPACITY);
    cr_assert_eq(n, 1, "%d contacts", n);
    cr_expect(same_id(d[0].other, floor));
    cr_expect_float_eq(d[0].normal.y, -1.0f, 1e-3f, "normal (%g %g %g) should point down",
                       (double)d[0].normal.x, (double)d[0].normal.y, (double)d[0].normal.z);
    cr_expect_eq(d[0].point_count, 4);
    for (int i = 0; i < d[0].point_count; ++i) {
        cr_expect(fabsf(d[0].separations[i]) < 0.01f, "separation %g", (double)d[0].separations[i]);
        cr_expect(fabsf(d[0].points[i].y) < 0.01f, "point at height %g", (double)d[0].points[i].y);
    }
    double weight = (double)cairn_body_mass(world, box) * SCENE_G;
    cr_expect(fabs(force_sum(&d[0]) - weight) < 0.02 * weight, "forces %g N, weight %g N",
              force_sum(&d[0]), weight);
    /* the floor sees the same contact from its side */
    n = cairn_body_contacts(world, floor, d, CAPACITY);
    cr_assert_eq(n, 1);
    cr_expect(same_id(d[0].other, box));
    cr_expect_float_eq(d[0].normal.y, 1.0f, 1e-3f);
    cairn_world_destroy(world);
}

Test(contact_data, each_box_of_a_stack_carries_those_above_it_asleep_or_not)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id ids[3];
    scene_stack(world, 0, 0, 3, true, ids);
    double weight = (double)cairn_body_mass(world, ids[0]) * SCENE_G;
    for (int pass = 0; pass < 2; ++pass) {
        /* pass 0 awake (sleep comes after 0.5 s still), pass 1 asleep: contacts parked */
        scene_step(world, pass == 0 ? 20 : 120);
        cr_assert_eq(cairn_body_is_awake(world, ids[1]), pass == 0);
        cairn_contact_data d[CAPACITY];
        int n = cairn_body_contacts(world, ids[1], d, CAPACITY);
        cr_assert_eq(n, 2, "pass %d: %d contacts", pass, n);
        const cairn_contact_data *below = with(d, n, ids[0]), *above = with(d, n, ids[2]);
        cr_assert(below && above);
        cr_expect(below->normal.y < -0.999f && above->normal.y > 0.999f);
        cr_expect(fabs(force_sum(below) - 2 * weight) < 0.03 * 2 * weight,
                  "pass %d: below %g N, expected %g", pass, force_sum(below), 2 * weight);
        cr_expect(fabs(force_sum(above) - weight) < 0.03 * weight,
                  "pass %d: above %g N, expected %g", pass, force_sum(above), weight);
    }
    cairn_world_destroy(world);
}

Test(contact_data, a_ball_in_a_trough_touches_it_along_two_directions)
{
    cairn_world *world = scene_default_world();
    /* frictionless, so that the walls' normal forces alone hold the ball */
    cairn_body_id v = scene_body(world, scene_v_trough(), CAIRN_STATIC, scene_at(v3(0, 0, 0)),
                                 1000.0f, 0.0f, 0.0f);
    cairn_body_id ball = scene_sphere(world, v3(0.05f, 1.0f, 0), 0.25f, 1000.0f, 0.0f, 0.0f);
    scene_step(world, 120);
    cairn_contact_data d[CAPACITY];
    int n = cairn_body_contacts(world, ball, d, CAPACITY);
    cr_assert_eq(n, 2, "%d manifolds", n);
    float s = sqrtf(0.5f);
    for (int i = 0; i < n; ++i) {
        cr_expect(same_id(d[i].other, v));
        cr_expect_float_eq(fabsf(d[i].normal.x), s, 1e-3f);
        cr_expect_float_eq(d[i].normal.y, -s, 1e-3f);
    }
    cr_expect(d[0].normal.x * d[1].normal.x < 0, "one wall on each side");
    /* each wall pushes along its normal; together they hold the weight */
    double up = 0;
    for (int i = 0; i < n; ++i)
        up += force_sum(&d[i]) * -(double)d[i].normal.y;
    double weight = (double)cairn_body_mass(world, ball) * SCENE_G;
    cr_expect(fabs(up - weight) < 0.03 * weight, "held up by %g N, weight %g N", up, weight);
    cairn_world_destroy(world);
}

Test(contact_data, sensors_are_never_contacts)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id box = scene_box(world, v3(0, 0.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_STATIC;
    def.is_sensor = true;
    cairn_shape *zone = cairn_shape_box(v3(2, 2, 2), 0.0f);
    def.shape = zone;
    cairn_body_id sensor = cairn_body_create(world, &def);
    cairn_shape_release(zone);
    scene_step(world, 30);
    cairn_contact_data d[CAPACITY];
    cr_expect_eq(cairn_body_contacts(world, box, d, CAPACITY), 1, "the floor only");
    cr_expect_eq(cairn_body_contacts(world, sensor, d, CAPACITY), 0);
    cairn_world_destroy(world);
}

Test(contact_data, capacity_and_bad_input)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    cairn_body_id ids[3];
    scene_stack(world, 0, 0, 3, false, ids);
    scene_step(world, 10);
    cr_expect_eq(cairn_body_contacts(world, ids[1], NULL, 0), 2, "counting needs no output");
    cairn_contact_data one;
    one.point_count = -7;
    cr_expect_eq(cairn_body_contacts(world, ids[1], &one, 1), 2, "the total, one written");
    cr_expect_gt(one.point_count, 0);
    cr_expect_eq(cairn_body_contacts(world, ids[1], NULL, 1), -1);
    cr_expect_neq(cairn_last_error()[0], '\0');
    cr_expect_eq(cairn_body_contacts(world, ids[1], &one, -1), -1);
    cr_expect_eq(cairn_body_contacts(NULL, ids[1], &one, 1), -1);
    cairn_body_id gone = ids[2];
    cairn_body_destroy(world, gone);
    cairn_clear_error();
    cr_expect_eq(cairn_body_contacts(world, gone, &one, 1), -1, "a stale id");
    cr_expect_neq(strstr(cairn_last_error(), "cairn_body_contacts"), NULL, "%s",
                  cairn_last_error());
    cairn_world_destroy(world);
}
