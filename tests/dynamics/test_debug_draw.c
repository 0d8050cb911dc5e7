/* cairn_world_debug_draw and cairn_pair_debug_draw: callback counts per layer, contact points
   and normals against cairn_collide on a resting scene, the Minkowski sketch against the shapes'
   exact difference, and every bad input. */
#include "dynamics/scene_helpers.h"

#include <string.h>

#define MAX_RECORDED 4096

typedef struct recorder {
    int lines, points, boxes, frames;
    vec3s line_from[MAX_RECORDED], line_to[MAX_RECORDED];
    vec4s line_colour[MAX_RECORDED];
    vec3s point_at[MAX_RECORDED];
    vec4s point_colour[MAX_RECORDED];
} recorder;

static void on_line(void *context, vec3s from, vec3s to, vec4s colour)
{
    recorder *r = context;
    if (r->lines < MAX_RECORDED) {
        r->line_from[r->lines] = from;
        r->line_to[r->lines] = to;
        r->line_colour[r->lines] = colour;
    }
    ++r->lines;
}

static void on_point(void *context, vec3s at, float size, vec4s colour)
{
    recorder *r = context;
    cr_assert(size > 0.0f);
    if (r->points < MAX_RECORDED) {
        r->point_at[r->points] = at;
        r->point_colour[r->points] = colour;
    }
    ++r->points;
}

static void on_box(void *context, cairn_aabb box, vec4s colour)
{
    (void)colour;
    recorder *r = context;
    cr_assert(box.min.x <= box.max.x && box.min.y <= box.max.y && box.min.z <= box.max.z);
    ++r->boxes;
}

static void on_frame(void *context, cairn_transform xf, float length)
{
    (void)xf;
    recorder *r = context;
    cr_assert(length > 0.0f);
    ++r->frames;
}

static recorder rec;

static cairn_debug_draw full_draw(void)
{
    memset(&rec, 0, sizeof rec);
    return (cairn_debug_draw){on_line, on_point, on_box, on_frame, &rec};
}

static cairn_debug_draw lines_only(void)
{
    memset(&rec, 0, sizeof rec);
    return (cairn_debug_draw){.line = on_line, .context = &rec};
}

/* No gravity, bodies a few millimetres above the floor: inside the speculative distance, so
   contacts exist, yet nothing moves and the step leaves the poses as built. */
#define GAP 0.004f

typedef struct resting {
    cairn_world *world;
    cairn_body_id floor, ball, box;
} resting;

static resting resting_scene(void)
{
    cairn_world_def def = cairn_world_default_def();
    def.gravity = v3(0, 0, 0);
    resting s = {.world = scene_world(&def)};
    cairn_transform xf = cairn_transform_identity();
    xf.position = v3(0, -1, 0);
    s.floor = scene_body_ex(s.world, cairn_shape_box(v3(5, 1, 5), 0.0f), CAIRN_STATIC, xf, 1000,
                            0.6f, 0, true);
    xf.position = v3(-2, 0.5f + GAP, 0);
    s.ball =
        scene_body_ex(s.world, cairn_shape_sphere(0.5f), CAIRN_DYNAMIC, xf, 1000, 0.6f, 0, false);
    xf.position = v3(2, 0.5f + GAP, 1);
    s.box = scene_body_ex(s.world, cairn_shape_box(v3(0.5f, 0.5f, 0.5f), 0.05f), CAIRN_DYNAMIC, xf,
                          1000, 0.6f, 0, false);
    cairn_world_step(s.world, SCENE_DT);
    return s;
}

static cairn_query_result collide_bodies(cairn_world *w, cairn_body_id a, cairn_body_id b)
{
    cairn_query_result q;
    cr_assert(cairn_collide(cairn_body_shape(w, a), cairn_body_transform(w, a),
                            cairn_body_shape(w, b), cairn_body_transform(w, b), NULL, &q));
    return q;
}

static float dist(vec3s a, vec3s b)
{
    return glms_vec3_distance(a, b);
}

Test(debug_draw, contact_points_and_normals_match_cairn_collide)
{
    resting s = resting_scene();
    cairn_step_stats stats = cairn_world_step_stats(s.world);
    cr_assert_eq(stats.points, 5, "a sphere (1 point) and a flat box (4) on the floor: %d",
                 stats.points);
    cairn_debug_draw draw = full_draw();
    uint32_t flags = CAIRN_DEBUG_DRAW_CONTACT_POINTS | CAIRN_DEBUG_DRAW_CONTACT_NORMALS;
    cr_assert(cairn_world_debug_draw(s.world, &draw, flags), "%s", cairn_last_error());
    cr_assert_eq(rec.points, stats.points);
    cr_assert_eq(rec.lines, stats.points, "one normal per point");

    cairn_query_result on_ball = collide_bodies(s.world, s.floor, s.ball);
    cairn_query_result on_box = collide_bodies(s.world, s.floor, s.box);
    vec3s ball_mid = glms_vec3_scale(glms_vec3_add(on_ball.point_a, on_ball.point_b), 0.5f);
    int ball_points = 0, box_points = 0;
    for (int i = 0; i < rec.points; ++i) {
        vec3s p = rec.point_at[i];
        /* The normal line starting at this point. */
        int n = -1;
        for (int k = 0; k < rec.lines; ++k) {
            n = dist(rec.line_from[k], p) < 1e-6f ? k : n;
        }
        cr_assert(n >= 0, "no normal drawn from point %d", i);
        vec3s dir = glms_vec3_normalize(glms_vec3_sub(rec.line_to[n], rec.line_from[n]));
        if (dist(p, ball_mid) < 1e-3f) {
            ++ball_points;
            cr_assert(glms_vec3_dot(dir, on_ball.normal) > 0.9999f);
        } else {
            ++box_points;
            cr_assert(glms_vec3_dot(dir, on_box.normal) > 0.9999f);
            /* Halfway across the gap, inside the box's footprint. */
            cr_assert_float_eq(p.y, 0.5f * on_box.distance, 1e-3f, "y %g", (double)p.y);
            cr_assert(fabsf(p.x - 2.0f) <= 0.5f + 1e-3f && fabsf(p.z - 1.0f) <= 0.5f + 1e-3f);
        }
    }
    cr_assert_eq(ball_points, 1);
    cr_assert_eq(box_points, 4);
    cr_assert_float_eq(on_ball.distance, GAP, 1e-4f);
    cairn_world_destroy(s.world);
}

Test(debug_draw, layer_counts)
{
    resting s = resting_scene();
    cairn_step_stats stats = cairn_world_step_stats(s.world);
    cairn_debug_draw draw = full_draw();
    cr_assert(cairn_world_debug_draw(s.world, &draw, CAIRN_DEBUG_DRAW_AABBS));
    cr_assert_eq(rec.boxes, 3, "one fat AABB per body");
    cr_assert_eq(rec.lines + rec.points, 0);

    draw = lines_only();
    cr_assert(cairn_world_debug_draw(s.world, &draw, CAIRN_DEBUG_DRAW_AABBS));
    cr_assert_eq(rec.lines, 3 * 12, "without a box callback: 12 edges per box");

    draw = full_draw();
    cr_assert(cairn_world_debug_draw(s.world, &draw, CAIRN_DEBUG_DRAW_CENTERS));
    cr_assert_eq(rec.points, 2, "the two dynamic bodies");
    cr_assert_eq(rec.frames, 2);

    draw = full_draw();
    cr_assert(cairn_world_debug_draw(s.world, &draw, CAIRN_DEBUG_DRAW_VELOCITY));
    cr_assert_eq(rec.lines, 0, "nothing moves");

    draw = full_draw();
    cr_assert(cairn_world_debug_draw(s.world, &draw, CAIRN_DEBUG_DRAW_PAIRS));
    cr_assert_eq(rec.lines, stats.pairs);
    cr_assert_eq(stats.pairs, 2, "floor-ball and floor-box; ball and box are 4 m apart");

    draw = full_draw();
    cr_assert(cairn_world_debug_draw(s.world, &draw, CAIRN_DEBUG_DRAW_SAP_INTERVALS));
    cr_assert(rec.lines == 2 * 3 || rec.lines == 3 * 3, "one interval per body per sorted axis");

    draw = full_draw();
    cr_assert(cairn_world_debug_draw(s.world, &draw, CAIRN_DEBUG_DRAW_SLEEP));
    cr_assert_eq(rec.boxes, 2, "bounds of the two dynamic bodies");
    cr_assert_eq(rec.lines, 0, "no touching contact between two dynamic bodies");

    draw = full_draw();
    cr_assert(cairn_world_debug_draw(s.world, &draw, 0));
    cr_assert_eq(rec.lines + rec.points + rec.boxes + rec.frames, 0);
    cairn_world_destroy(s.world);
}

Test(debug_draw, velocity_lines_scale_with_speed)
{
    resting s = resting_scene();
    /* 1 N s at the centre of a 523.6 kg ball: no spin. */
    float mass = 1000.0f * 4.0f / 3.0f * (float)SCENE_PI * 0.125f;
    vec3s centre = cairn_body_transform(s.world, s.ball).position;
    cairn_body_apply_impulse(s.world, s.ball, v3(0, 0, 100), centre);
    vec3s v = cairn_body_linear_velocity(s.world, s.ball);
    cr_assert_float_eq(v.z, 100.0f / mass, 1e-4f);
    cairn_debug_draw draw = full_draw();
    cr_assert(cairn_world_debug_draw(s.world, &draw, CAIRN_DEBUG_DRAW_VELOCITY));
    cr_assert_eq(rec.lines, 1);
    cr_assert(dist(rec.line_from[0], centre) < 1e-5f);
    cr_assert_float_eq(dist(rec.line_from[0], rec.line_to[0]), 0.1f * v.z, 1e-5f);
    cairn_world_destroy(s.world);
}

Test(debug_draw, points_fall_back_to_lines)
{
    resting s = resting_scene();
    cairn_debug_draw draw = lines_only();
    cr_assert(cairn_world_debug_draw(s.world, &draw, CAIRN_DEBUG_DRAW_CONTACT_POINTS));
    cr_assert_eq(rec.lines, 3 * cairn_world_step_stats(s.world).points, "a 3-line cross each");
    cairn_world_destroy(s.world);
}

Test(debug_draw, bad_input_draws_nothing)
{
    resting s = resting_scene();
    cairn_debug_draw draw = full_draw();
    cairn_clear_error();
    cr_assert_not(cairn_world_debug_draw(NULL, &draw, CAIRN_DEBUG_DRAW_ALL));
    cr_assert(strstr(cairn_last_error(), "world is NULL"));
    cr_assert_not(cairn_world_debug_draw(s.world, NULL, CAIRN_DEBUG_DRAW_ALL));
    cr_assert(strstr(cairn_last_error(), "draw is NULL"));
    cairn_debug_draw no_line = draw;
    no_line.line = NULL;
    cr_assert_not(cairn_world_debug_draw(s.world, &no_line, CAIRN_DEBUG_DRAW_ALL));
    cr_assert(strstr(cairn_last_error(), "draw->line"));
    cr_assert_not(cairn_world_debug_draw(s.world, &draw, 1u << 20));
    cr_assert(strstr(cairn_last_error(), "0x100000"), "%s", cairn_last_error());
    cr_assert_eq(rec.lines + rec.points + rec.boxes + rec.frames, 0);

    cairn_shape *sphere = cairn_shape_sphere(0.5f);
    cairn_transform xf = cairn_transform_identity(), bad = xf;
    bad.position.y = NAN;
    cairn_transform unnormal = xf;
    unnormal.rotation.w = 2.0f;
    vec3s o = v3(0, 0, 0);
    cr_assert_not(cairn_pair_debug_draw(NULL, xf, sphere, xf, o, &draw, NULL));
    cr_assert(strstr(cairn_last_error(), "shape a is NULL"));
    cr_assert_not(cairn_pair_debug_draw(sphere, xf, NULL, xf, o, &draw, NULL));
    cr_assert(strstr(cairn_last_error(), "shape b is NULL"));
    cr_assert_not(cairn_pair_debug_draw(sphere, bad, sphere, xf, o, &draw, NULL));
    cr_assert(strstr(cairn_last_error(), "xa.position"));
    cr_assert_not(cairn_pair_debug_draw(sphere, xf, sphere, unnormal, o, &draw, NULL));
    cr_assert(strstr(cairn_last_error(), "xb.rotation"));
    cr_assert_not(cairn_pair_debug_draw(sphere, xf, sphere, xf, v3(INFINITY, 0, 0), &draw, NULL));
    cr_assert(strstr(cairn_last_error(), "cso_origin"));
    cr_assert_not(cairn_pair_debug_draw(sphere, xf, sphere, xf, o, &no_line, NULL));
    cr_assert_eq(rec.lines + rec.points + rec.boxes + rec.frames, 0);
    cairn_shape_release(sphere);
    cairn_world_destroy(s.world);
}

Test(debug_draw, pair_witnesses_and_minkowski_difference)
{
    /* A unit cube (no convex radius: the core is the cube) and a sphere of radius 0.5 (core:
       its centre) 1.5 m apart along X: the core difference is the cube moved by -centre. */
    cairn_shape *cube = cairn_shape_box(v3(1, 1, 1), 0.0f);
    cairn_shape *ball = cairn_shape_sphere(0.5f);
    cairn_transform xa = cairn_transform_identity(), xb = xa;
    xb.position = v3(2.5f, 0.25f, 0);
    vec3s origin = v3(10, 0, 0);
    cairn_debug_draw draw = full_draw();
    cairn_query_result q;
    cr_assert(cairn_pair_debug_draw(cube, xa, ball, xb, origin, &draw, &q), "%s",
              cairn_last_error());
    cr_assert_float_eq(q.distance, 1.0f, 1e-4f, "1.5 m gap minus the 0.5 m radius");
    cr_assert(dist(rec.point_at[0], v3(1, 0.25f, 0)) < 1e-4f, "witness on the cube's face");
    cr_assert(dist(rec.point_at[1], v3(2, 0.25f, 0)) < 1e-4f, "witness on the sphere");
    cr_assert(glms_vec3_dot(glms_vec3_sub(rec.line_to[1], rec.line_from[1]), v3(1, 0, 0)) > 0.0f);
    bool origin_drawn = false;
    for (int i = 0; i < rec.points; ++i) {
        origin_drawn |= dist(rec.point_at[i], origin) < 1e-6f;
    }
    cr_assert(origin_drawn);
    /* Every sketched and simplex point is on the cube [-1, 1]^3 shifted by -(2.5, 0.25, 0) and
       drawn around origin; the sketch reaches its corners. */
    vec3s lo = v3(10 - 3.5f, -1.25f, -1), hi = v3(10 - 1.5f, 0.75f, 1);
    int corners = 0;
    for (int i = 2; i < rec.lines && i < MAX_RECORDED; ++i) {
        vec3s p = rec.line_from[i];
        for (int k = 0; k < 3; ++k) {
            cr_assert(p.raw[k] >= lo.raw[k] - 1e-4f && p.raw[k] <= hi.raw[k] + 1e-4f,
                      "line %d axis %d: %g", i, k, (double)p.raw[k]);
        }
        corners += dist(p, hi) < 1e-4f;
    }
    cr_assert(corners > 0, "a sampled direction (1, 1, 1)-ish finds the far corner");
    cr_assert(rec.lines > 2 * 16 * 8, "the latitude/longitude sketch");
    cairn_shape_release(cube);
    cairn_shape_release(ball);
}

/* Overlapping cores: the pair view adds the final EPA polytope. Its vertices are support points
   of the core difference (the cube shifted by -(0.5, 0.25, 0)), so they lie on that box's
   surface, and its faces enclose the origin of the difference (drawn at `origin`). */
Test(debug_draw, pair_epa_polytope_lies_on_the_minkowski_difference)
{
    cairn_shape *cube = cairn_shape_box(v3(1, 1, 1), 0.0f);
    cairn_shape *ball = cairn_shape_sphere(0.5f);
    cairn_transform xa = cairn_transform_identity(), xb = xa;
    xb.position = v3(0.5f, 0.25f, 0);
    vec3s origin = v3(10, 0, 0);
    cairn_debug_draw draw = full_draw();
    cairn_query_result q;
    cr_assert(cairn_pair_debug_draw(cube, xa, ball, xb, origin, &draw, &q), "%s",
              cairn_last_error());
    cr_assert_float_eq(q.distance, -1.0f, 1e-4f, "0.5 m inside the +x face, plus the radius");
    vec3s lo = v3(10 - 1.5f, -1.25f, -1), hi = v3(10 + 0.5f, 0.75f, 1);
    int epa_lines = 0;
    vec3s low = v3(1e9f, 1e9f, 1e9f), high = v3(-1e9f, -1e9f, -1e9f);
    for (int i = 0; i < rec.lines && i < MAX_RECORDED; ++i) {
        vec4s c = rec.line_colour[i];
        if (!(c.x == 1.0f && c.y > 0.5f && c.y < 0.6f && c.z < 0.2f))
            continue; /* orange: the polytope */
        ++epa_lines;
        vec3s p = rec.line_from[i];
        bool on_surface = false;
        for (int k = 0; k < 3; ++k) {
            cr_assert(p.raw[k] >= lo.raw[k] - 1e-4f && p.raw[k] <= hi.raw[k] + 1e-4f);
            on_surface |=
                fabsf(p.raw[k] - lo.raw[k]) < 1e-4f || fabsf(p.raw[k] - hi.raw[k]) < 1e-4f;
        }
        cr_assert(on_surface, "polytope vertex (%g, %g, %g) inside the difference", p.x, p.y, p.z);
        low = glms_vec3_minv(low, p);
        high = glms_vec3_maxv(high, p);
    }
    cr_assert_geq(epa_lines, 12, "at least a tetrahedron's 4 faces, 3 edges each");
    for (int k = 0; k < 3; ++k)
        cr_assert(low.raw[k] < origin.raw[k] && high.raw[k] > origin.raw[k], "encloses the origin");
    cairn_shape_release(cube);
    cairn_shape_release(ball);
}
