/* A body pressed into a mesh or heightfield past its centre is pushed back out, not let through:
   a part-triangle pair that gave contact points last step (or whose neighbour across a flat seam
   did) is still pushed out along the face normal when the part's centre has gone behind the
   plane (mesh_collide.h). The case came from the API-sequence scripts (seeds 112, 122 and 223):
   a 0.08 m sphere resting on the heightfield, a heavy body landing on it, and the sphere pressed
   through into the void.
   - the rule in one query: the plane depth (analytic) with last step's touch on the triangle or
     on its neighbour across the flat seam, nothing without, nothing for a key of no triangle;
   - a pebble (sphere, capsule, box) under a 1,000 kg crate dropped on it, on a mesh and on a
     heightfield, in the three position-correction modes: it is never lost under the surface;
   - the same on bumpy terrain, whose seams fold both ways, at 12 places;
   - a snapshot of a pressed pebble restored into a rebuilt world goes on to the same state; one
     whose touched count is past what a contact holds is refused;
   - one-sidedness kept: a box standing under a one-way platform of the floor's own mesh, its top
     through the platform's back, is not lifted onto it; a box thrown up through the platform
     lands on top. */
#include <criterion/criterion.h>

#include "collision/mesh_collide.h"
#include "dynamics/snapshot_reseal.h"
#include "dynamics/world_state.h" /* to give a contact's touched list a value to find */
#include "mesh/mesh_helpers.h"

/* A flat 20 x 20 m square through y = 0 facing +Y: triangle 0 where z > x, triangle 1 where
   z < x, the diagonal between them a flat seam. */
static cairn_shape *flat_square(void)
{
    vec3s corners[4] = {v3(-10, 0, -10), v3(-10, 0, 10), v3(10, 0, 10), v3(10, 0, -10)};
    int idx[6] = {0, 1, 2, 0, 2, 3};
    cairn_shape *mesh = cairn_shape_mesh(corners, 4, idx, 2);
    cr_assert_not_null(mesh, "%s", cairn_last_error());
    return mesh;
}

enum { PEBBLE_SPHERE, PEBBLE_CAPSULE, PEBBLE_BOX, PEBBLE_KINDS };
static const char *const pebble_names[PEBBLE_KINDS] = {"sphere", "capsule", "box"};
static const float pebble_size = 0.08f; /* radius, and half height along Y */

/* A pebble whose lowest point lies pebble_size under its centre: a sphere, a capsule lying
   along X, a box. */
static cairn_shape *make_pebble(int kind)
{
    switch (kind) {
    case PEBBLE_SPHERE:
        return cairn_shape_sphere(pebble_size);
    case PEBBLE_CAPSULE:
        return cairn_shape_capsule(0.1f, pebble_size);
    default:
        return cairn_shape_box(v3(pebble_size, pebble_size, pebble_size), 0.01f);
    }
}

static cairn_transform pebble_at(int kind, vec3s position)
{
    cairn_transform xf = scene_at(position);
    if (kind == PEBBLE_CAPSULE) /* its axis (Y) laid along X */
        xf.rotation = glms_quatv(GLM_PI_2f, v3(0, 0, 1));
    return xf;
}

/* The manifolds of the pebble (B) with its centre `height` over triangle 1 of the flat square
   (A), 4 m from the seam, given last step's touched triangles (keys: the triangle index, the
   pebble being a body of one part). */
static int pebble_manifolds(int kind, float height, const uint32_t *touched, int touched_count,
                            manifold out[CONTACT_MAX_MANIFOLDS])
{
    cairn_shape *mesh = flat_square();
    cairn_shape *pebble = make_pebble(kind);
    vec3s up = v3(0, 1, 0);
    mesh_history history = {.normals = &up,
                            .normal_count = touched_count > 0,
                            .touched = touched,
                            .touched_count = touched_count};
    int count =
        mesh_manifolds(mesh, cairn_transform_identity(), pebble,
                       pebble_at(kind, v3(3.0f, height, -3.0f)), 0.02f, &history, NULL, out, NULL);
    cairn_shape_release(pebble);
    cairn_shape_release(mesh);
    return count;
}

/* The plane depth of a pebble whose centre is `height` under the plane (its lowest point
   pebble_size under its centre) is the deepest point of the one manifold, along +Y. */
static void expect_pushed_out(int kind, float height, const uint32_t *touched, int touched_count,
                              const char *how)
{
    const char *name = pebble_names[kind];
    manifold m[CONTACT_MAX_MANIFOLDS];
    int count = pebble_manifolds(kind, height, touched, touched_count, m);
    cr_assert_eq(count, 1, "%s, %s: %d manifolds", name, how, count);
    cr_expect_float_eq(m[0].normal.y, 1.0f, 1e-6f, "%s, %s: normal %g %g %g", name, how,
                       m[0].normal.x, m[0].normal.y, m[0].normal.z);
    double deepest = INFINITY;
    for (int i = 0; i < m[0].point_count; ++i)
        deepest = fmin(deepest, (double)m[0].points[i].separation);
    double depth = (double)pebble_size - (double)height;
    cr_expect(fabs(deepest + depth) < 1e-5, "%s, %s: deepest point %.7f, plane depth %.7f", name,
              how, -deepest, depth);
}

Test(pressed_in, a_pair_that_touched_last_step_is_pushed_out_by_the_plane_depth)
{
    const uint32_t this_triangle = 1, across_the_seam = 0, no_triangle = 7;
    for (int kind = 0; kind < PEBBLE_KINDS; ++kind) {
        const char *name = pebble_names[kind];
        float height = -0.02f; /* the centre 2 cm under the plane, its lowest point 10 cm */
        manifold m[CONTACT_MAX_MANIFOLDS];
        cr_expect_eq(pebble_manifolds(kind, height, NULL, 0, m), 0,
                     "%s: a part through the back with no history is let through", name);
        cr_expect_eq(pebble_manifolds(kind, height, &no_triangle, 1, m), 0,
                     "%s: a key of no triangle counts", name);
        expect_pushed_out(kind, height, &this_triangle, 1, "touched");
        expect_pushed_out(kind, height, &across_the_seam, 1, "touched across the seam");
        /* in front of the plane the history changes nothing */
        manifold plain[CONTACT_MAX_MANIFOLDS];
        int a = pebble_manifolds(kind, 0.05f, NULL, 0, plain);
        int b = pebble_manifolds(kind, 0.05f, &this_triangle, 1, m);
        cr_expect(a == 1 && b == 1 && plain[0].point_count == m[0].point_count &&
                      plain[0].points[0].separation == m[0].points[0].separation,
                  "%s: in front, %d and %d manifolds", name, a, b);
    }
}

enum { SURFACE_MESH, SURFACE_HEIGHTFIELD };

/* A flat 20 x 20 m surface through y = 0: a mesh of two triangles or a 21 x 21 heightfield. */
static cairn_body_id flat_surface(cairn_world *world, int surface)
{
    if (surface == SURFACE_MESH) {
        vec3s corners[4] = {v3(-10, 0, -10), v3(-10, 0, 10), v3(10, 0, 10), v3(10, 0, -10)};
        int idx[6] = {0, 1, 2, 0, 2, 3};
        return scene_body(world, cairn_shape_mesh(corners, 4, idx, 2), CAIRN_STATIC,
                          scene_at(v3(0, 0, 0)), 1000.0f, 0.6f, 0.0f);
    }
    float heights[21 * 21] = {0};
    return scene_body(world, cairn_shape_heightfield(heights, 21, 21, v3(1, 1, 1)), CAIRN_STATIC,
                      scene_at(v3(-10, 0, -10)), 1000.0f, 0.6f, 0.0f);
}

/* The pebble scene: a flat surface, the pebble resting on it and a 1 m crate of 1,000 kg (470
   times the sphere's mass, 160 times the box's) 1 m above it; the pebble's id. */
static cairn_body_id pebble_scene(cairn_world *world, int kind, int surface)
{
    flat_surface(world, surface);
    cairn_body_id pebble =
        scene_body(world, make_pebble(kind), CAIRN_DYNAMIC,
                   pebble_at(kind, v3(0.1f, pebble_size, 0.05f)), 1000.0f, 0.6f, 0.0f);
    scene_box(world, v3(0, 1.5f, 0), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
    return pebble;
}

/* How deep the pebble's centre went in 4 s after the crate is dropped on it, and where it
   ended. */
typedef struct pressed {
    double lowest, last;
} pressed;

static pressed pebble_pressed(int kind, int surface, int position_correction)
{
    cairn_world_def def = cairn_world_default_def();
    def.solver.position_correction = position_correction;
    cairn_world *world = scene_world(&def);
    cairn_body_id pebble = pebble_scene(world, kind, surface);
    pressed out = {INFINITY, 0.0};
    for (int step = 0; step < 240; ++step) {
        cairn_world_step(world, SCENE_DT);
        out.last = (double)scene_position(world, pebble).y;
        out.lowest = fmin(out.lowest, out.last);
    }
    cairn_world_destroy(world);
    return out;
}

/* With the touched rule off every pebble falls through, 56 to 81 m down in the 4 s, on both
   surfaces and in every mode; on a static box floor, which is solid, the same crate presses their
   centres 2 to 8 cm under its top. The check: the surface keeps holding the pebble. Its centre
   never goes a whole pebble height under the surface (a pebble let go falls metres), and it
   ends less than half a height under. (A 2,000 kg crate presses the box 10 cm under even the
   solid floor in split-impulse mode: no surface without thickness can hold that.) */
Test(pressed_in, a_pebble_under_a_heavy_crate_is_not_pressed_through, .timeout = 120)
{
    const int modes[3] = {CAIRN_SOFT_STEP, CAIRN_SPLIT_IMPULSE, CAIRN_BAUMGARTE};
    for (int surface = 0; surface < 2; ++surface)
        for (int kind = 0; kind < PEBBLE_KINDS; ++kind)
            for (int m = 0; m < 3; ++m) {
                pressed p = pebble_pressed(kind, surface, modes[m]);
                const char *where = surface ? "heightfield" : "mesh";
                cr_log_info("%s on the %s, mode %d: centre down to %.4f m, ends at %.4f m",
                            pebble_names[kind], where, modes[m], p.lowest, p.last);
                cr_expect_gt(p.lowest, -2.0 * (double)pebble_size,
                             "%s on the %s, mode %d: the centre went down to %g m",
                             pebble_names[kind], where, modes[m], p.lowest);
                cr_expect_gt(p.last, -(double)pebble_size,
                             "%s on the %s, mode %d: the centre ended at %g m", pebble_names[kind],
                             where, modes[m], p.last);
            }
}

/* A bumpy heightfield, 21 x 21 samples 2 m apart, heights up to `bumps` metres (seeded): its
   seams fold both ways, some by more than the 5 degrees of an inactive edge. On layer 2. */
static void bumpy_heightfield(cairn_world *world, float bumps)
{
    test_rng rng = {12345};
    float heights[21 * 21];
    for (int i = 0; i < 21 * 21; ++i)
        heights[i] = rng_range(&rng, 0.0f, bumps);
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_STATIC;
    def.shape = cairn_shape_heightfield(heights, 21, 21, v3(2, 1, 2));
    cr_assert_not_null(def.shape, "%s", cairn_last_error());
    def.transform = scene_at(v3(-20, 0, -20));
    def.layer = 2;
    cairn_body_id ground = cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);
    cr_assert(cairn_body_is_valid(world, ground), "%s", cairn_last_error());
}

/* The surface's height under (x, z): a ray down that sees only the heightfield's layer. */
static float ground_under(const cairn_world *world, float x, float z)
{
    cairn_ray_hit hit;
    cr_assert(cairn_world_raycast_mask(world, v3(x, 50, z), v3(0, -100, 0), 2u, &hit),
              "no ground under %g %g", x, z);
    return hit.point.y;
}

/* The pebble under the crate at 12 places on bumpy terrain, in soft-step mode: it ends resting
   on the surface under it, never more than its own height under. With the touched rule off, 10
   of these 36 drops are lost through the terrain. */
Test(pressed_in, a_pebble_on_bumpy_terrain_is_not_pressed_through, .timeout = 120)
{
    test_rng rng = {777};
    for (int trial = 0; trial < 12; ++trial) {
        float x = rng_range(&rng, -10, 10), z = rng_range(&rng, -10, 10);
        for (int kind = 0; kind < PEBBLE_KINDS; ++kind) {
            cairn_world *world = scene_default_world();
            bumpy_heightfield(world, 1.0f);
            float ground = ground_under(world, x, z);
            cairn_body_id pebble =
                scene_body(world, make_pebble(kind), CAIRN_DYNAMIC,
                           pebble_at(kind, v3(x, ground + 0.1f, z)), 1000.0f, 0.6f, 0.0f);
            scene_box(world, v3(x - 0.1f, ground + 1.7f, z - 0.05f), v3(0.5f, 0.5f, 0.5f), 1000.0f,
                      0.6f);
            double lowest = INFINITY;
            for (int step = 0; step < 240; ++step) {
                cairn_world_step(world, SCENE_DT);
                vec3s at = scene_position(world, pebble);
                lowest = fmin(lowest, (double)(at.y - ground_under(world, at.x, at.z)));
            }
            cr_expect_gt(lowest, -2.0 * (double)pebble_size,
                         "%s at %g %g: its centre went %g m under the surface", pebble_names[kind],
                         x, z, -lowest);
            cairn_world_destroy(world);
        }
    }
}

/* The triangles a pebble touched are state: a snapshot taken while the crate holds the sphere
   pressed past its centre, restored into a world built the same way, goes on to the same state
   hash (without them the restored sphere would fall through). */
Test(pressed_in, a_snapshot_keeps_the_touched_triangles)
{
    cairn_world_def def = cairn_world_default_def();
    cairn_world *world = scene_world(&def);
    cairn_body_id pebble = pebble_scene(world, PEBBLE_SPHERE, SURFACE_HEIGHTFIELD);
    int step = 0;
    while (step < 120 && scene_position(world, pebble).y >= 0.0f) {
        cairn_world_step(world, SCENE_DT);
        ++step;
    }
    cr_assert_lt(scene_position(world, pebble).y, 0.0f,
                 "the sphere was never pressed past its centre");
    size_t size = cairn_world_snapshot_size(world);
    void *snapshot = malloc(size);
    cr_assert(cairn_world_snapshot(world, snapshot, size), "%s", cairn_last_error());
    cairn_world *copy = scene_world(&def);
    cairn_body_id restored = pebble_scene(copy, PEBBLE_SPHERE, SURFACE_HEIGHTFIELD);
    cr_assert(cairn_world_restore(copy, snapshot, size), "%s", cairn_last_error());
    scene_step(world, 60);
    scene_step(copy, 60);
    cr_expect_eq(cairn_world_state_hash(copy), cairn_world_state_hash(world),
                 "the restored world went its own way (pressed at step %d)", step);
    cr_expect_gt(scene_position(copy, restored).y, 0.0f, "the restored sphere is at %g m",
                 scene_position(copy, restored).y);
    free(snapshot);
    cairn_world_destroy(copy);
    cairn_world_destroy(world);
}

/* A snapshot whose touched count says more than a contact can hold (17 of 16), its checksum fixed,
   is refused with an error that names it, and the world is unchanged. The list is given 13 keys
   of 0xC0FFEE01 (no triangle: the step ignores them) so that the count can be found. */
Test(pressed_in, a_snapshot_with_too_many_touched_triangles_is_refused)
{
    cairn_world_def def = cairn_world_default_def();
    cairn_world *world = scene_world(&def);
    pebble_scene(world, PEBBLE_SPHERE, SURFACE_HEIGHTFIELD);
    scene_step(world, 5);
    triangle_cache *memory = NULL;
    for (int i = 0; i < world->contacts.count && !memory; ++i)
        memory = world->contacts.data[i].triangles;
    cr_assert_not_null(memory, "the sphere has no mesh contact");
    enum { KEYS = 13 };
    unsigned char pattern[1 + 4 * KEYS];
    pattern[0] = KEYS;
    for (int k = 0; k < KEYS; ++k) {
        memory->touched[k] = 0xC0FFEE01u;
        memcpy(pattern + 1 + 4 * k, &memory->touched[k], 4);
    }
    memory->touched_count = KEYS;
    size_t size = cairn_world_snapshot_size(world);
    unsigned char *snapshot = malloc(size);
    cr_assert(cairn_world_snapshot(world, snapshot, size), "%s", cairn_last_error());
    unsigned char *at = snapshot_find(snapshot, size, pattern, sizeof pattern);
    cr_assert_not_null(at, "the touched list is not in the snapshot");
    *at = 17;
    snapshot_reseal(snapshot, size);
    uint64_t hash = cairn_world_state_hash(world);
    cr_expect(!cairn_world_restore(world, snapshot, size), "17 touched triangles were accepted");
    cr_expect(strstr(cairn_last_error(), "touched triangles") != NULL, "%s", cairn_last_error());
    cr_expect_eq(cairn_world_state_hash(world), hash);
    free(snapshot);
    cairn_world_destroy(world);
}

/* A floor at y = 0 (20 x 20 m) and a one-way platform at `height` (4 x 4 m), one mesh: one-sided
   squares facing up, neither touching the other. */
static void floor_and_platform(cairn_world *world, float height)
{
    vec3s corners[8] = {v3(-10, 0, -10),    v3(-10, 0, 10),    v3(10, 0, 10),    v3(10, 0, -10),
                        v3(-2, height, -2), v3(-2, height, 2), v3(2, height, 2), v3(2, height, -2)};
    int idx[12] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7};
    scene_body(world, cairn_shape_mesh(corners, 8, idx, 4), CAIRN_STATIC, scene_at(v3(0, 0, 0)),
               1000.0f, 0.6f, 0.0f);
}

/* A 1 m box sliding on the floor (without friction, so that the narrow phase runs every step:
   a resting pair reuses its manifold) whose top reaches 10 cm through the platform's back stays
   on the floor: it touches the floor's triangles, not the platform's, and the two share no
   seam. */
Test(pressed_in, a_box_under_a_one_way_platform_is_not_lifted_onto_it)
{
    cairn_world *world = scene_default_world();
    floor_and_platform(world, 0.9f);
    cairn_body_id box = scene_box(world, v3(-0.5f, 0.5f, 0.2f), v3(0.5f, 0.5f, 0.5f), 500.0f, 0.0f);
    cr_assert(cairn_body_set_linear_velocity(world, box, v3(0.5f, 0, 0)), "%s", cairn_last_error());
    double highest = -INFINITY;
    for (int step = 0; step < 120; ++step) {
        cairn_world_step(world, SCENE_DT);
        highest = fmax(highest, (double)scene_position(world, box).y);
    }
    cr_expect_lt(highest, 0.51, "the box rose to %g m (on the platform it would rest at 1.4 m)",
                 highest);
    cr_expect_gt(scene_position(world, box).x, 0.4f, "the box stopped at x = %g",
                 scene_position(world, box).x);
    cairn_world_destroy(world);
}

/* Thrown up through the platform from below, a box passes it and lands on top: 1.4 m. */
Test(pressed_in, a_box_thrown_up_through_a_one_way_platform_lands_on_it)
{
    cairn_world *world = scene_default_world();
    floor_and_platform(world, 1.5f);
    cairn_body_id box = scene_box(world, v3(0.3f, 0.5f, 0.2f), v3(0.3f, 0.3f, 0.3f), 500.0f, 0.6f);
    cr_assert(cairn_body_set_linear_velocity(world, box, v3(0, 8, 0)), "%s", cairn_last_error());
    scene_step(world, 180);
    cr_expect_float_eq(scene_position(world, box).y, 1.8f, 0.01f, "the box rests at %g m",
                       scene_position(world, box).y);
    cairn_world_destroy(world);
}
