/* The game's own query filter (cairn_query_filter): every filtered query against the unfiltered
   one with the rejected bodies taken out afterwards (and the shape cast against cairn_shape_cast
   per kept body), in a random world whose bodies carry a team in their user data; the callback
   sees only bodies the query would test, at most once each; a ray cast from inside the caster's
   own body; bad input. */
#include "scene_helpers.h"

#include <stdlib.h>
#include <string.h>

enum { BODIES = 240, MAX_HITS = 512, TEAMS = 3 };

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static float uniform(float lo, float hi)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (float)((rng_state >> 40) & 0xffffff) / (float)0x1000000;
}

static int teams[BODIES];

typedef struct team_filter {
    const cairn_world *world;
    uint32_t mask;
    int rejected_team;
    int calls[BODIES + 1]; /* by body index */
    int calls_total;
    bool saw_bad_body; /* a body the query should not have offered */
} team_filter;

static bool keep_team(cairn_body_id body, void *context)
{
    team_filter *f = context;
    const int *team = cairn_body_user_data(f->world, body);
    if (team == NULL || cairn_body_is_sensor(f->world, body) ||
        (cairn_body_layer(f->world, body) & f->mask) == 0 || body.index > BODIES)
        f->saw_bad_body = true;
    else
        f->calls[body.index]++;
    f->calls_total++;
    return team != NULL && *team != f->rejected_team;
}

static bool kept(const team_filter *f, cairn_body_id body)
{
    return *(const int *)cairn_body_user_data(f->world, body) != f->rejected_team;
}

static void expect_each_body_offered_at_most_once(team_filter *f, const char *query)
{
    cr_expect(!f->saw_bad_body, "%s offered a sensor, a body off the mask or an unknown body",
              query);
    for (int i = 0; i <= BODIES; ++i)
        cr_expect(f->calls[i] <= 1, "%s offered body %d %d times", query, i, f->calls[i]);
    memset(f->calls, 0, sizeof f->calls);
    f->calls_total = 0;
}

/* Random bodies of four shapes in a 20 m cube, on layers 1 or 2, a few of them sensors, each
   with a team in its user data. */
static cairn_world *random_world(void)
{
    cairn_world_def def = cairn_world_default_def();
    def.gravity = v3(0, 0, 0);
    cairn_world *world = scene_world(&def);
    for (int i = 0; i < BODIES; ++i) {
        cairn_body_def body = cairn_body_default_def();
        switch (i % 4) {
        case 0:
            body.shape = cairn_shape_sphere(uniform(0.3f, 1.0f));
            break;
        case 1:
            body.shape =
                cairn_shape_box(v3(uniform(0.2f, 1), uniform(0.2f, 1), uniform(0.2f, 1)), 0.02f);
            break;
        case 2:
            body.shape = cairn_shape_capsule(uniform(0.2f, 0.8f), uniform(0.2f, 0.5f));
            break;
        default:
            body.shape = cairn_shape_cylinder(uniform(0.2f, 0.8f), uniform(0.2f, 0.6f), 0.03f);
        }
        body.type = CAIRN_STATIC;
        body.transform.position = v3(uniform(-10, 10), uniform(-10, 10), uniform(-10, 10));
        body.transform.rotation = glms_quat_normalize(
            (versors){{uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)}});
        body.layer = i % 5 == 0 ? 2u : 1u;
        body.is_sensor = i % 17 == 0;
        teams[i] = i % TEAMS;
        body.user_data = &teams[i];
        cairn_body_id id = cairn_body_create(world, &body);
        cairn_shape_release((cairn_shape *)body.shape);
        cr_assert(!id_is_null(id), "%s", cairn_last_error());
    }
    cairn_world_step(world, SCENE_DT); /* the broadphase sorts them in */
    return world;
}

/* The unfiltered answer with the rejected bodies taken out. */
static int without_rejected(const team_filter *f, const cairn_body_id *in, int count,
                            cairn_body_id *out)
{
    int n = 0;
    for (int i = 0; i < count; ++i)
        if (kept(f, in[i]))
            out[n++] = in[i];
    return n;
}

static void expect_same_ids(const cairn_body_id *a, int na, const cairn_body_id *b, int nb,
                            const char *query)
{
    cr_expect_eq(na, nb, "%s: %d bodies filtered, %d expected", query, na, nb);
    for (int i = 0; i < na && i < nb; ++i)
        cr_expect(cairn_body_id_equal(a[i], b[i]), "%s: body %d is %u, expected %u", query, i,
                  a[i].index, b[i].index);
}

/* f reset for a world and mask; the filter that asks it. */
static cairn_query_filter team_filter_on(team_filter *f, const cairn_world *world, uint32_t mask)
{
    memset(f, 0, sizeof *f);
    f->world = world;
    f->mask = mask;
    return (cairn_query_filter){mask, keep_team, f};
}

Test(query_filter, ray_casts_give_the_unfiltered_hits_without_the_rejected_bodies)
{
    cairn_world *world = random_world();
    static team_filter f;
    cairn_query_filter filter = team_filter_on(&f, world, 1u);
    static cairn_ray_hit all[MAX_HITS], filtered[MAX_HITS];
    int rays_with_rejections = 0;
    for (int ray = 0; ray < 200; ++ray) {
        f.rejected_team = ray % TEAMS;
        vec3s origin = v3(uniform(-12, 12), uniform(-12, 12), -15);
        vec3s translation = v3(uniform(-5, 5), uniform(-5, 5), 30);
        int total = cairn_world_raycast_all(world, origin, translation, 1u, all, MAX_HITS);
        int count = cairn_world_raycast_all_filtered(world, origin, translation, &filter, filtered,
                                                     MAX_HITS);
        expect_each_body_offered_at_most_once(&f, "raycast_all_filtered");
        int expected = 0;
        for (int i = 0; i < total; ++i) {
            if (!kept(&f, all[i].body))
                continue;
            cr_expect(expected < count &&
                          cairn_body_id_equal(filtered[expected].body, all[i].body) &&
                          filtered[expected].fraction == all[i].fraction,
                      "ray %d: hit %d differs", ray, expected);
            expected++;
        }
        cr_expect_eq(count, expected, "ray %d: %d hits filtered, %d expected", ray, count,
                     expected);
        rays_with_rejections += total > expected;

        cairn_ray_hit closest;
        bool found = cairn_world_raycast_filtered(world, origin, translation, &filter, &closest);
        expect_each_body_offered_at_most_once(&f, "raycast_filtered");
        cr_expect_eq(found, expected > 0, "ray %d: closest found %d, %d kept hits", ray, found,
                     expected);
        if (found && expected > 0)
            cr_expect(cairn_body_id_equal(closest.body, filtered[0].body) &&
                          closest.fraction == filtered[0].fraction,
                      "ray %d: closest %u at %g, first kept %u at %g", ray, closest.body.index,
                      (double)closest.fraction, filtered[0].body.index,
                      (double)filtered[0].fraction);
    }
    cr_expect(rays_with_rejections > 20, "only %d rays lost a hit to the filter",
              rays_with_rejections);
    cairn_world_destroy(world);
}

Test(query_filter, overlaps_give_the_unfiltered_bodies_without_the_rejected_ones)
{
    cairn_world *world = random_world();
    static team_filter f;
    cairn_query_filter filter = team_filter_on(&f, world, CAIRN_QUERY_ALL);
    static cairn_body_id all[MAX_HITS], expected[MAX_HITS], got[MAX_HITS];
    cairn_shape *probe = cairn_shape_sphere(3.0f);
    int checked = 0;
    for (int k = 0; k < 60; ++k) {
        f.rejected_team = k % TEAMS;
        cairn_transform xf = scene_at(v3(uniform(-10, 10), uniform(-10, 10), uniform(-10, 10)));
        int total = cairn_world_overlap_shape(world, probe, xf, CAIRN_QUERY_ALL, all, MAX_HITS);
        int count = cairn_world_overlap_shape_filtered(world, probe, xf, &filter, got, MAX_HITS);
        expect_each_body_offered_at_most_once(&f, "overlap_shape_filtered");
        expect_same_ids(got, count, expected, without_rejected(&f, all, total, expected),
                        "overlap_shape_filtered");

        cairn_aabb box = {glms_vec3_subs(xf.position, 2.5f), glms_vec3_adds(xf.position, 2.5f)};
        total = cairn_world_overlap_aabb(world, box, CAIRN_QUERY_ALL, all, MAX_HITS);
        count = cairn_world_overlap_aabb_filtered(world, box, &filter, got, MAX_HITS);
        expect_each_body_offered_at_most_once(&f, "overlap_aabb_filtered");
        expect_same_ids(got, count, expected, without_rejected(&f, all, total, expected),
                        "overlap_aabb_filtered");
        checked += total;
    }
    cr_expect(checked > 100, "only %d overlaps in all", checked);
    cairn_shape_release(probe);
    cairn_world_destroy(world);
}

/* The world shape cast keeps the earliest hit over the kept bodies: cairn_shape_cast against each
   kept body in turn is the oracle. */
Test(query_filter, the_shape_cast_hits_the_first_kept_body)
{
    cairn_world *world = random_world();
    static team_filter f;
    cairn_query_filter filter = team_filter_on(&f, world, 1u);
    cairn_shape *cast = cairn_shape_box(v3(0.4f, 0.3f, 0.2f), 0.02f);
    cairn_body_id ids[BODIES];
    int n = cairn_world_bodies(world, ids, BODIES);
    int hits = 0;
    for (int k = 0; k < 40; ++k) {
        f.rejected_team = k % TEAMS;
        cairn_transform xf = scene_at(v3(uniform(-10, 10), uniform(-10, 10), -14));
        vec3s translation = v3(uniform(-3, 3), uniform(-3, 3), 28);
        cairn_shape_cast_hit hit;
        bool found = cairn_world_shape_cast_filtered(world, cast, xf, translation, &filter, &hit);
        expect_each_body_offered_at_most_once(&f, "shape_cast_filtered");
        float best = 2.0f;
        for (int i = 0; i < n; ++i) {
            if (cairn_body_is_sensor(world, ids[i]) || !(cairn_body_layer(world, ids[i]) & 1u) ||
                !kept(&f, ids[i]))
                continue;
            cairn_cast_hit h;
            if (cairn_shape_cast(cairn_body_shape(world, ids[i]),
                                 cairn_body_transform(world, ids[i]), cast, xf, translation, &h) &&
                h.fraction < best)
                best = h.fraction;
        }
        cr_expect_eq(found, best <= 1.0f, "cast %d: found %d, oracle %g", k, found, (double)best);
        if (found && best <= 1.0f) {
            cr_expect(fabs((double)hit.fraction - (double)best) < 1e-4, "cast %d: %g, oracle %g", k,
                      (double)hit.fraction, (double)best);
            cr_expect(kept(&f, hit.body), "cast %d hit a rejected body", k);
            hits++;
        }
    }
    cr_expect(hits > 10, "only %d casts hit", hits);
    cairn_shape_release(cast);
    cairn_world_destroy(world);
}

static bool not_this_body(cairn_body_id body, void *context)
{
    return !cairn_body_id_equal(body, *(const cairn_body_id *)context);
}

static bool reject_all(cairn_body_id body, void *context)
{
    (void)body;
    ++*(int *)context;
    return false;
}

/* A gun in the player's capsule fires along x: without a filter the ray starts inside the
   capsule and hits it at 0; with the player filtered out it hits the wall 5 m on, at 4.5 / 10. */
Test(query_filter, a_ray_from_inside_the_player_passes_its_own_body)
{
    cairn_world *world = scene_default_world();
    cairn_body_id player = scene_body(world, cairn_shape_capsule(0.5f, 0.4f), CAIRN_DYNAMIC,
                                      scene_at(v3(0, 1, 0)), 1000.0f, 0.6f, 0.0f);
    cairn_body_id wall = scene_body(world, cairn_shape_box(v3(0.5f, 2, 2), 0.0f), CAIRN_STATIC,
                                    scene_at(v3(5, 1, 0)), 1000.0f, 0.6f, 0.0f);
    vec3s origin = v3(0, 1, 0), translation = v3(10, 0, 0);
    cairn_ray_hit hit;
    cr_assert(cairn_world_raycast_filtered(world, origin, translation, NULL, &hit));
    cr_expect(cairn_body_id_equal(hit.body, player) && hit.fraction == 0.0f);
    cairn_query_filter filter = cairn_query_default_filter();
    filter.accept = not_this_body;
    filter.context = &player;
    cr_assert(cairn_world_raycast_filtered(world, origin, translation, &filter, &hit));
    cr_expect(cairn_body_id_equal(hit.body, wall), "hit body %u", hit.body.index);
    cr_expect(fabs((double)hit.fraction - 0.45) < 1e-5, "fraction %g, expected 0.45",
              (double)hit.fraction);

    int calls = 0;
    filter = (cairn_query_filter){CAIRN_QUERY_ALL, reject_all, &calls};
    cr_expect(!cairn_world_raycast_filtered(world, origin, translation, &filter, &hit));
    cr_expect_eq(calls, 2, "the callback saw %d bodies, the ray passes 2", calls);
    calls = 0;
    filter.mask = 0u; /* no layer: the callback is never asked */
    cr_expect(!cairn_world_raycast_filtered(world, origin, translation, &filter, &hit));
    cr_expect_eq(calls, 0);
    cairn_world_destroy(world);
}

Test(query_filter, bad_input_names_the_filtered_call)
{
    cairn_ray_hit hit, hits[4];
    cairn_body_id ids[4];
    cairn_shape_cast_hit cast_hit;
    cairn_shape *sphere = cairn_shape_sphere(1.0f);
    cairn_transform xf = cairn_transform_identity();
    cairn_aabb box = {v3(0, 0, 0), v3(1, 1, 1)};
    cr_expect(!cairn_world_raycast_filtered(NULL, v3(0, 0, 0), v3(1, 0, 0), NULL, &hit));
    cr_expect(strstr(cairn_last_error(), "cairn_world_raycast_filtered") != NULL, "%s",
              cairn_last_error());
    cr_expect_eq(cairn_world_raycast_all_filtered(NULL, v3(0, 0, 0), v3(1, 0, 0), NULL, hits, 4),
                 -1);
    cr_expect(strstr(cairn_last_error(), "cairn_world_raycast_all_filtered") != NULL, "%s",
              cairn_last_error());
    cr_expect(!cairn_world_shape_cast_filtered(NULL, sphere, xf, v3(1, 0, 0), NULL, &cast_hit));
    cr_expect(strstr(cairn_last_error(), "cairn_world_shape_cast_filtered") != NULL, "%s",
              cairn_last_error());
    cr_expect_eq(cairn_world_overlap_shape_filtered(NULL, sphere, xf, NULL, ids, 4), -1);
    cr_expect(strstr(cairn_last_error(), "cairn_world_overlap_shape_filtered") != NULL, "%s",
              cairn_last_error());
    cr_expect_eq(cairn_world_overlap_aabb_filtered(NULL, box, NULL, ids, 4), -1);
    cr_expect(strstr(cairn_last_error(), "cairn_world_overlap_aabb_filtered") != NULL, "%s",
              cairn_last_error());
    cairn_world *world = scene_default_world();
    vec3s nan = v3(NAN, 0, 0);
    cr_expect(!cairn_world_raycast_filtered(world, nan, v3(1, 0, 0), NULL, &hit));
    cr_expect(strstr(cairn_last_error(), "not finite") != NULL, "%s", cairn_last_error());
    cairn_world_destroy(world);
    cairn_shape_release(sphere);
}
