/* Mesh benchmark: Jolt's PerformanceTest "ConvexVsMesh" scene (a 20,000-triangle terrain of sine
   hills and 1,764 falling boxes, spheres, capsules and pyramid hulls, friction 0.5, restitution
   0.6), 500 steps of 1/60 s on one thread in Cairn and, when libbullet-dev is installed, in
   Bullet's btDiscreteDynamicsWorld with a btBvhTriangleMeshShape, timed in interleaved rounds on
   the thread's CPU time. Then the BVH build of a 1M-triangle grid (time and bytes per triangle)
   and closest-hit ray casts per second against the terrain and the 1M grid.
   Usage: bench_mesh [steps]   (default 500)
   Environment: BENCH_ROUNDS (default 3), BENCH_SLEEP=1 (bodies may sleep), BENCH_NO_PEERS=1
   (Cairn alone, for profiling), BENCH_ONLY=scene|build|rays (one part). */
#define _POSIX_C_SOURCE 200809L

#include "bench_mesh_scene.h"
#include "bench_util.h"
#include <cairn/cairn.h>

#ifdef CAIRN_HAVE_BULLET
#include "bench_mesh_bullet.h"
#endif

#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { DEFAULT_STEPS = 500, DEFAULT_ROUNDS = 3, BUILD_ROUNDS = 3, RAY_ROUNDS = 5 };
enum { RAY_COUNT = 100000, BIG_CELLS = 708, MAX_ROUNDS = 64 };
enum { ENGINE_CAIRN, ENGINE_BULLET, ENGINES };
static const float DT = 1.0f / 60.0f;
static const float GRAVITY_Y = -9.81f;
static const float FRICTION = 0.5f, RESTITUTION = 0.6f;
static const float DENSITY = 1000.0f;
static const float CONVEX_RADIUS = 0.05f; /* box and hull rounding, Jolt's default too */
#ifdef CAIRN_HAVE_BULLET
static const int BULLET_ITERATIONS = 10;
#endif

static int env_int(const char *name, int fallback)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : fallback;
}

static bool wanted(const char *part)
{
    const char *only = getenv("BENCH_ONLY");
    return !only || !*only || strcmp(only, part) == 0;
}

/* ---- the scene in Cairn ---- */

/* Jolt's four shapes: box (0.5, 0.75, 1), sphere 0.5, capsule (0.75, 0.5), the pyramid hull. */
static void cairn_scene_shapes(cairn_shape *out[MESH_SCENE_KINDS])
{
    vec3s hull[5];
    for (int i = 0; i < 5; ++i)
        hull[i] = (vec3s){{mesh_scene_hull[i][0], mesh_scene_hull[i][1], mesh_scene_hull[i][2]}};
    out[0] = cairn_shape_box((vec3s){{0.5f, 0.75f, 1.0f}}, CONVEX_RADIUS);
    out[1] = cairn_shape_sphere(0.5f);
    out[2] = cairn_shape_capsule(0.75f, 0.5f);
    out[3] = cairn_shape_hull(hull, 5, CONVEX_RADIUS);
}

static cairn_shape *cairn_grid_mesh(const mesh_grid *g)
{
    return cairn_shape_mesh((const vec3s *)g->vertices, g->vertex_count, g->indices,
                            g->triangle_count);
}

/* The world: the terrain (static) and the bodies, every body at friction 0.5, restitution 0.6. */
static cairn_world *cairn_scene_world(const mesh_grid *g, const mesh_scene_body *bodies,
                                      bool allow_sleep, cairn_body_id *ids)
{
    cairn_world_def wd = cairn_world_default_def();
    wd.gravity = (vec3s){{0.0f, GRAVITY_Y, 0.0f}};
    cairn_world *world = cairn_world_create(&wd);
    cairn_shape *terrain = cairn_grid_mesh(g), *shapes[MESH_SCENE_KINDS];
    cairn_scene_shapes(shapes);
    cairn_body_def bd = cairn_body_default_def();
    bd.type = CAIRN_STATIC;
    bd.shape = terrain;
    bd.friction = FRICTION;
    bd.restitution = RESTITUTION;
    bool ok = world && terrain && cairn_body_is_valid(world, cairn_body_create(world, &bd));
    bd.type = CAIRN_DYNAMIC;
    bd.density = DENSITY;
    bd.allow_sleep = allow_sleep;
    for (int i = 0; ok && i < MESH_SCENE_BODIES; ++i) {
        bd.shape = shapes[bodies[i].kind];
        bd.transform = cairn_transform_identity();
        memcpy(bd.transform.position.raw, bodies[i].position, sizeof bodies[i].position);
        ids[i] = cairn_body_create(world, &bd);
        ok = cairn_body_is_valid(world, ids[i]);
    }
    if (!ok) {
        fprintf(stderr, "cairn: scene: %s\n", cairn_last_error());
        exit(1);
    }
    cairn_shape_release(terrain); /* the bodies keep their references */
    for (int k = 0; k < MESH_SCENE_KINDS; ++k)
        cairn_shape_release(shapes[k]);
    return world;
}

/* ---- one simulation: time, where the bodies end, Cairn's stages ---- */

typedef struct run_result {
    double cpu_ns;    /* the stepping loop's thread CPU time */
    int through, off; /* bodies whose centre ended under the terrain; bodies off its edge */
    float lowest;     /* the lowest centre at the end, m */
    int contacts, points;
    double stage_ms[5]; /* Cairn: broadphase, narrow phase, solver, islands, total (medians) */
} run_result;

static const char *const stage_names[5] = {"broadphase", "narrowphase", "solver", "islands",
                                           "total"};

/* Bodies that ended with their centre of mass below the surface under them went through the
   mesh. */
static void judge_positions(const mesh_grid *g, const float *centres, run_result *r)
{
    float edge = 0.5f * (float)g->cells * g->cell_size;
    r->through = r->off = 0;
    r->lowest = INFINITY;
    for (int i = 0; i < MESH_SCENE_BODIES; ++i) {
        const float *p = &centres[3 * i];
        r->lowest = fminf(r->lowest, p[1]);
        if (fabsf(p[0]) > edge || fabsf(p[2]) > edge)
            r->off++;
        else if (p[1] < mesh_grid_surface(g, p[0], p[2]))
            r->through++;
    }
}

/* The body's centre of mass in the world (a hull's origin is the middle of its base; Bullet's
   bodies are placed by their centres of mass, so both are judged by them). */
static void cairn_centre_of_mass(const cairn_world *world, cairn_body_id id, float out[3])
{
    cairn_mass_properties mp;
    cairn_shape_mass_properties(cairn_body_shape(world, id), DENSITY, &mp);
    cairn_transform xf = cairn_body_transform(world, id);
    vec3s c = glms_vec3_add(xf.position, glms_quat_rotatev(xf.rotation, mp.center));
    memcpy(out, c.raw, sizeof c.raw);
}

static void run_cairn(const mesh_grid *g, const mesh_scene_body *bodies, int steps,
                      bool allow_sleep, run_result *r)
{
    static cairn_body_id ids[MESH_SCENE_BODIES];
    static float centres[3 * MESH_SCENE_BODIES];
    cairn_world *world = cairn_scene_world(g, bodies, allow_sleep, ids);
    double *stage[5];
    for (int s = 0; s < 5; ++s)
        stage[s] = calloc((size_t)steps, sizeof(double));
    r->cpu_ns = 0.0;
    for (int s = 0; s < steps; ++s) {
        double start = bench_thread_cpu_ns();
        cairn_world_step(world, DT);
        r->cpu_ns += bench_thread_cpu_ns() - start;
        cairn_step_stats st = cairn_world_step_stats(world);
        double values[5] = {st.broadphase_ms, st.narrowphase_ms, st.solver_ms, st.islands_ms,
                            st.total_ms};
        for (int k = 0; k < 5; ++k)
            stage[k][s] = values[k];
        r->contacts = st.contacts;
        r->points = st.points;
    }
    for (int k = 0; k < 5; ++k) {
        r->stage_ms[k] = bench_median(stage[k], steps);
        free(stage[k]);
    }
    for (int i = 0; i < MESH_SCENE_BODIES; ++i)
        cairn_centre_of_mass(world, ids[i], &centres[3 * i]);
    judge_positions(g, centres, r);
    cairn_world_destroy(world);
}

#ifdef CAIRN_HAVE_BULLET
/* Bullet's bodies get Cairn's masses and principal inertias; the hull's points are moved so that
   its centre of mass is its origin (Bullet turns a body about its origin), and its body starts
   where Cairn's centre of mass does. */
static void bullet_bodies(const mesh_scene_body *bodies, mesh_bullet_body *out,
                          float hull_points[5][3])
{
    cairn_shape *shapes[MESH_SCENE_KINDS];
    cairn_scene_shapes(shapes);
    cairn_mass_properties mp[MESH_SCENE_KINDS];
    for (int k = 0; k < MESH_SCENE_KINDS; ++k) {
        cairn_shape_mass_properties(shapes[k], DENSITY, &mp[k]);
        cairn_shape_release(shapes[k]);
    }
    for (int i = 0; i < 5; ++i)
        for (int a = 0; a < 3; ++a)
            hull_points[i][a] = mesh_scene_hull[i][a] - mp[3].center.raw[a];
    for (int i = 0; i < MESH_SCENE_BODIES; ++i) {
        const cairn_mass_properties *m = &mp[bodies[i].kind];
        out[i].kind = bodies[i].kind; /* the same order as MESH_BULLET_BOX ... HULL */
        out[i].mass = m->mass;
        for (int a = 0; a < 3; ++a) {
            out[i].position[a] = bodies[i].position[a] + m->center.raw[a];
            out[i].inertia[a] = m->inertia.raw[a][a];
        }
    }
}

static void run_bullet(const mesh_grid *g, const mesh_scene_body *bodies, int steps,
                       bool allow_sleep, run_result *r)
{
    static mesh_bullet_body bb[MESH_SCENE_BODIES];
    static float centres[3 * MESH_SCENE_BODIES];
    float hull[5][3];
    bullet_bodies(bodies, bb, hull);
    mesh_bullet_mesh mesh = {g->vertices, g->vertex_count, g->indices, g->triangle_count};
    mesh_bullet_shapes shapes = {{0.5f, 0.75f, 1.0f}, 0.5f, 0.75f, 0.5f, &hull[0][0], 5};
    mesh_bullet_def def = {GRAVITY_Y, FRICTION, RESTITUTION, BULLET_ITERATIONS, allow_sleep};
    mesh_bullet *b = mesh_bullet_create(&mesh, &shapes, bb, MESH_SCENE_BODIES, &def);
    r->cpu_ns = 0.0;
    for (int s = 0; s < steps; ++s) {
        double start = bench_thread_cpu_ns();
        mesh_bullet_step(b, DT);
        r->cpu_ns += bench_thread_cpu_ns() - start;
    }
    mesh_bullet_contacts(b, &r->contacts, &r->points);
    mesh_bullet_positions(b, centres);
    judge_positions(g, centres, r);
    mesh_bullet_destroy(b);
}
#endif

static void print_run(const char *engine, int round, int steps, const run_result *r)
{
    printf(
        "  round %d %-6s %7.1f steps/s (CPU)  contacts %5d points %5d  centres of mass under the "
        "terrain %d, off its edge %d, lowest %.2f m\n",
        round, engine, 1e9 * steps / r->cpu_ns, r->contacts, r->points, r->through, r->off,
        (double)r->lowest);
}

/* Rounds of Cairn then Bullet; medians of steps per CPU second and of the rounds' ratios. */
static void bench_scene(const mesh_grid *g, int steps, int rounds)
{
    static mesh_scene_body bodies[MESH_SCENE_BODIES];
    mesh_scene_bodies(bodies);
    bool sleep = env_int("BENCH_SLEEP", 0) != 0;
    printf("\n== ConvexVsMesh: %d triangles, %d bodies, %d steps of 1/60 s, one thread, sleeping "
           "%s, %d interleaved rounds\n",
           g->triangle_count, MESH_SCENE_BODIES, steps, sleep ? "on" : "off", rounds);
    double speed[ENGINES][MAX_ROUNDS], ratio[MAX_ROUNDS], stage[5][MAX_ROUNDS];
    int engines = 1;
    for (int round = 0; round < rounds; ++round) {
        run_result c;
        run_cairn(g, bodies, steps, sleep, &c);
        print_run("cairn", round, steps, &c);
        speed[ENGINE_CAIRN][round] = 1e9 * steps / c.cpu_ns;
        for (int k = 0; k < 5; ++k)
            stage[k][round] = c.stage_ms[k];
#ifdef CAIRN_HAVE_BULLET
        if (env_int("BENCH_NO_PEERS", 0))
            continue;
        run_result b;
        run_bullet(g, bodies, steps, sleep, &b);
        print_run("bullet", round, steps, &b);
        speed[ENGINE_BULLET][round] = 1e9 * steps / b.cpu_ns;
        ratio[round] = b.cpu_ns / c.cpu_ns;
        engines = 2;
#endif
    }
    (void)ratio; /* without Bullet */
    printf("cairn median per-stage ms:");
    for (int k = 0; k < 5; ++k)
        printf(" %s %.3f", stage_names[k], bench_median(stage[k], rounds));
    printf("\nmedian steps per CPU second: cairn %.1f", bench_median(speed[ENGINE_CAIRN], rounds));
    if (engines == 2)
        printf(", bullet %.1f; cairn / bullet (median of the rounds' ratios) %.3f",
               bench_median(speed[ENGINE_BULLET], rounds), bench_median(ratio, rounds));
    printf("\n");
}

/* ---- BVH build of a 1M-triangle grid ---- */

static void bench_build(const mesh_grid *big)
{
    printf("\n== BVH build: %d x %d grid, %d triangles, %d vertices; thread CPU time, median of %d "
           "interleaved rounds\n",
           big->cells, big->cells, big->triangle_count, big->vertex_count, BUILD_ROUNDS);
    double cairn_ms[BUILD_ROUNDS], bullet_ms[BUILD_ROUNDS];
    size_t cairn_bytes = 0, bullet_bytes = 0;
    for (int round = 0; round < BUILD_ROUNDS; ++round) {
        size_t before = cairn_allocated_bytes();
        double start = bench_thread_cpu_ns();
        cairn_shape *mesh = cairn_grid_mesh(big);
        cairn_ms[round] = 1e-6 * (bench_thread_cpu_ns() - start);
        cairn_bytes = cairn_allocated_bytes() - before;
        cairn_shape_release(mesh);
#ifdef CAIRN_HAVE_BULLET
        mesh_bullet_mesh m = {big->vertices, big->vertex_count, big->indices, big->triangle_count};
        double ns;
        mesh_bullet_rays *r = mesh_bullet_rays_create(&m, &bullet_bytes, &ns);
        bullet_ms[round] = 1e-6 * ns;
        mesh_bullet_rays_destroy(r);
#endif
    }
    double tris = (double)big->triangle_count;
    printf("cairn  cairn_shape_mesh: %.1f ms, %zu bytes (%.1f bytes per triangle, vertices and "
           "triangles included)\n",
           bench_median(cairn_ms, BUILD_ROUNDS), cairn_bytes, (double)cairn_bytes / tris);
#ifdef CAIRN_HAVE_BULLET
    size_t arrays = (size_t)big->vertex_count * 12 + (size_t)big->triangle_count * 12;
    printf("bullet btBvhTriangleMeshShape (quantized): %.1f ms, %zu bytes (%.1f bytes per "
           "triangle; with the vertex and index arrays it points to, %.1f)\n",
           bench_median(bullet_ms, BUILD_ROUNDS), bullet_bytes, (double)bullet_bytes / tris,
           (double)(bullet_bytes + arrays) / tris);
#else
    (void)bullet_ms;
    (void)bullet_bytes;
#endif
}

/* ---- closest-hit ray casts ---- */

/* Rays straight down from 2 m above the highest hill to 2 m under the ground, uniformly over the
   grid (1 m inside its edges), from a fixed seed. */
static void make_rays(const mesh_grid *g, float *from, float *to)
{
    uint64_t state = 12345;
    float edge = 0.5f * (float)g->cells * g->cell_size - 1.0f, top = 2.0f * g->height + 2.0f;
    for (int i = 0; i < RAY_COUNT; ++i) {
        float p[2];
        for (int k = 0; k < 2; ++k) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            p[k] = -edge + 2.0f * edge * (float)(state >> 40) / (float)(1ull << 24);
        }
        from[3 * i] = to[3 * i] = p[0];
        from[3 * i + 2] = to[3 * i + 2] = p[1];
        from[3 * i + 1] = top;
        to[3 * i + 1] = -2.0f;
    }
}

static int cairn_rays(const cairn_world *world, const float *from, const float *to, float *fraction)
{
    int hits = 0;
    for (int i = 0; i < RAY_COUNT; ++i) {
        vec3s o = {{from[3 * i], from[3 * i + 1], from[3 * i + 2]}};
        vec3s d = {{to[3 * i] - o.x, to[3 * i + 1] - o.y, to[3 * i + 2] - o.z}};
        cairn_ray_hit hit;
        bool got = cairn_world_raycast(world, o, d, &hit);
        fraction[i] = got ? hit.fraction : -1.0f;
        hits += got;
    }
    return hits;
}

/* Rays per CPU second of each engine (median of the rounds), and how far their hits differ. */
static void bench_rays(const mesh_grid *g, const char *label)
{
    float *from = malloc(sizeof(float) * 3 * RAY_COUNT),
          *to = malloc(sizeof(float) * 3 * RAY_COUNT);
    float *fc = malloc(sizeof(float) * RAY_COUNT), *fb = malloc(sizeof(float) * RAY_COUNT);
    make_rays(g, from, to);
    cairn_world_def wd = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&wd);
    cairn_body_def bd = cairn_body_default_def();
    bd.type = CAIRN_STATIC;
    bd.shape = cairn_grid_mesh(g);
    cairn_body_create(world, &bd);
    cairn_shape_release((cairn_shape *)bd.shape);
#ifdef CAIRN_HAVE_BULLET
    mesh_bullet_mesh m = {g->vertices, g->vertex_count, g->indices, g->triangle_count};
    size_t bytes;
    double ns;
    mesh_bullet_rays *br = mesh_bullet_rays_create(&m, &bytes, &ns);
#endif
    double speed[ENGINES][RAY_ROUNDS], ratio[RAY_ROUNDS];
    int hits[ENGINES] = {0, 0};
    for (int round = 0; round < RAY_ROUNDS; ++round) {
        double start = bench_thread_cpu_ns();
        hits[ENGINE_CAIRN] = cairn_rays(world, from, to, fc);
        double cairn_ns = bench_thread_cpu_ns() - start;
        speed[ENGINE_CAIRN][round] = 1e9 * RAY_COUNT / cairn_ns;
#ifdef CAIRN_HAVE_BULLET
        start = bench_thread_cpu_ns();
        hits[ENGINE_BULLET] = mesh_bullet_rays_cast(br, from, to, RAY_COUNT, fb);
        double bullet_ns = bench_thread_cpu_ns() - start;
        speed[ENGINE_BULLET][round] = 1e9 * RAY_COUNT / bullet_ns;
        ratio[round] = bullet_ns / cairn_ns;
#endif
    }
    printf("\n== Ray casts (%s, %d triangles): %d rays straight down, closest hit; thread CPU "
           "time, median of %d interleaved rounds\n",
           label, g->triangle_count, RAY_COUNT, RAY_ROUNDS);
    printf("cairn  cairn_world_raycast: %.0f rays/s, %d hits\n",
           bench_median(speed[ENGINE_CAIRN], RAY_ROUNDS), hits[ENGINE_CAIRN]);
#ifdef CAIRN_HAVE_BULLET
    float worst = 0.0f, length = 2.0f * g->height + 4.0f;
    int disagree = 0;
    for (int i = 0; i < RAY_COUNT; ++i) {
        disagree += (fc[i] < 0.0f) != (fb[i] < 0.0f);
        if (fc[i] >= 0.0f && fb[i] >= 0.0f)
            worst = fmaxf(worst, fabsf(fc[i] - fb[i]) * length);
    }
    printf("bullet btCollisionWorld::rayTest: %.0f rays/s, %d hits; cairn / bullet (median of the "
           "rounds' ratios) %.3f; hit or miss differ on %d rays, hit points differ by up to %.2g "
           "m\n",
           bench_median(speed[ENGINE_BULLET], RAY_ROUNDS), hits[ENGINE_BULLET],
           bench_median(ratio, RAY_ROUNDS), disagree, (double)worst);
    mesh_bullet_rays_destroy(br);
#else
    (void)ratio;
#endif
    cairn_world_destroy(world);
    free(from);
    free(to);
    free(fc);
    free(fb);
}

int main(int argc, char **argv)
{
#ifdef CAIRN_HAVE_BULLET
    mesh_bullet_count_memory(); /* before anything is made with Bullet */
#endif
    int steps = argc > 1 ? atoi(argv[1]) : DEFAULT_STEPS;
    int rounds = env_int("BENCH_ROUNDS", DEFAULT_ROUNDS);
    if (steps < 1 || rounds < 1 || rounds > MAX_ROUNDS) {
        fprintf(stderr, "usage: %s [steps >= 1] (BENCH_ROUNDS in [1, %d])\n", argv[0], MAX_ROUNDS);
        return 2;
    }
#ifndef CAIRN_HAVE_BULLET
    printf("bullet: not found (Cairn alone)\n");
#endif
    mesh_grid terrain, big;
    if (!mesh_grid_build(&terrain, 100, 3.0f, 5.0f)) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    if (wanted("scene"))
        bench_scene(&terrain, steps, rounds);
    if (wanted("rays"))
        bench_rays(&terrain, "the ConvexVsMesh terrain");
    if (wanted("build") || wanted("rays")) {
        if (!mesh_grid_build(&big, BIG_CELLS, 1.0f, 5.0f)) {
            fprintf(stderr, "out of memory\n");
            return 1;
        }
        if (wanted("build"))
            bench_build(&big);
        if (wanted("rays"))
            bench_rays(&big, "the 1M-triangle grid");
        mesh_grid_free(&big);
    }
    mesh_grid_free(&terrain);
    return 0;
}
