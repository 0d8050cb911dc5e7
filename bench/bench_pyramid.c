/* World-step benchmark: the pyramid of Jolt's PerformanceTest (1240 boxes of half extent 1 on a
   50 x 1 x 50 floor, sleeping off), stepped at 1/60 s in Cairn and, when libbullet-dev is
   installed, in Bullet's btDiscreteDynamicsWorld. Each engine runs in its own forked child, so
   the peak memory (VmHWM) printed is that engine's alone. Prints steps per second, ms per step
   (median, max), peak memory, drift (max box displacement between the middle and the last step),
   Cairn's per-stage times, and CSV lines to keep. Then a third child steps both engines in turn
   (run_lockstep): a ratio that the machine's changes of speed do not skew.
   Usage: bench_pyramid [steps]   (default 500) */
/* fork, pipe and waitpid are POSIX; -std=c17 hides them unless asked for. */
#define _POSIX_C_SOURCE 200809L

#include "core/timer.h"
#include "bench_util.h"
#include <cairn/shape.h>
#include <cairn/world.h>

#ifdef CAIRN_HAVE_BULLET
#include "bench_pyramid_bullet.h"
static const int BULLET_ITERATIONS = 10;
#endif

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

enum { LEVELS = 15, MAX_BOXES = 1240, DEFAULT_STEPS = 500 };
static const float DT = 1.0f / 60.0f;
static const float GRAVITY_Y = -9.81f;
static const float BOX_HALF = 1.0f;
static const float BOX_CONVEX_RADIUS = 0.05f; /* Cairn's rounding; the outer size stays 1 */
static const float DENSITY = 1000.0f;
static const float FLOOR_HALF[3] = {50.0f, 1.0f, 50.0f};
static const float FLOOR_POS[3] = {0.0f, -1.0f, 0.0f};

enum { ENGINE_CAIRN, ENGINE_BULLET, ENGINES };
/* Not an engine: both in one child, a step of each in turn (run_lockstep). */
enum { LOCKSTEP = ENGINES };
static const char *engine_name[ENGINES + 1] = {"cairn", "bullet", "lockstep"};

enum {
    STAGE_BROADPHASE,
    STAGE_NARROWPHASE,
    STAGE_SOLVER,
    STAGE_INTEGRATE,
    STAGE_ISLANDS,
    STAGE_TOTAL,
    STAGES
};
static const char *stage_name[STAGES] = {
    "broadphase", "narrowphase", "solver", "(of which integration)", "islands", "total(stats)"};

/* The pyramid: level i (0 at the bottom) is a (15 - i)^2 square, odd levels offset by 1. */
typedef struct scene {
    int count;
    float pos[MAX_BOXES][3];
    int level[MAX_BOXES];
} scene;

static void scene_build(scene *s)
{
    s->count = 0;
    for (int i = 0; i < LEVELS; i++) {
        float offset = (i & 1) ? 1.0f : 0.0f;
        for (int j = i / 2; j < LEVELS - (i + 1) / 2; j++) {
            for (int k = i / 2; k < LEVELS - (i + 1) / 2; k++) {
                int n = s->count++;
                s->pos[n][0] = -15.0f + 2.0f * (float)j + offset;
                s->pos[n][1] = 1.0f + 2.5f * (float)i;
                s->pos[n][2] = -15.0f + 2.0f * (float)k + offset;
                s->level[n] = i;
            }
        }
    }
}

/* What a child sends back through the pipe (plain data). */
typedef struct result {
    int ok, steps;
    double setup_ms, total_ms, median_ms, max_ms, peak_mb, drift_m;
    double cpu_ms; /* CPU time of the stepping loop: robust when other processes share the CPU */
    int drift_box;
    float top[3];          /* the box of the top level, at the end */
    int off_level;         /* boxes more than 0.5 m from their settled height 1 + 2 * level */
    float max_level_error; /* m */
    double stage_ms[STAGES];
    int pairs, contacts, points;
    /* the lockstep run: median ms per step of each engine, median of the steps' ratios */
    double lockstep_ms[ENGINES], lockstep_ratio;
} result;

/* Peak resident set of this process (VmHWM), MB; -1 when unreadable. */
static double peak_mb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1.0;
    char line[256];
    double mb = -1.0;
    while (fgets(line, sizeof line, f)) {
        long kb;
        if (sscanf(line, "VmHWM: %ld kB", &kb) == 1) {
            mb = (double)kb / 1024.0;
            break;
        }
    }
    fclose(f);
    return mb;
}

/* CPU time of this process, ms (each engine runs in its own child). */
static double cpu_ms_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

/* Step timing shared by both engines. */
typedef struct timing {
    double *ms;
    double total;
    double cpu_start;
} timing;

static void finish_timing(result *r, timing *t, int steps)
{
    r->cpu_ms = cpu_ms_now() - t->cpu_start;
    r->total_ms = t->total;
    r->max_ms = 0.0;
    for (int s = 0; s < steps; s++)
        if (t->ms[s] > r->max_ms)
            r->max_ms = t->ms[s];
    r->median_ms = bench_median(t->ms, steps);
}

/* Drift between the middle snapshot and the end, and how far the pyramid is from settled. */
static void finish_positions(result *r, const scene *sc, float (*mid)[3], float (*end)[3])
{
    r->drift_m = 0.0;
    r->drift_box = -1;
    r->off_level = 0;
    r->max_level_error = 0.0f;
    for (int n = 0; n < sc->count; n++) {
        double dx = end[n][0] - mid[n][0], dy = end[n][1] - mid[n][1], dz = end[n][2] - mid[n][2];
        double d = sqrt(dx * dx + dy * dy + dz * dz);
        if (d > r->drift_m || r->drift_box < 0) {
            r->drift_m = d;
            r->drift_box = n;
        }
        float err = fabsf(end[n][1] - (1.0f + 2.0f * (float)sc->level[n]));
        if (err > r->max_level_error)
            r->max_level_error = err;
        r->off_level += err > 0.5f;
    }
    memcpy(r->top, end[sc->count - 1], sizeof r->top);
}

static cairn_world_def cairn_def(void)
{
    return cairn_world_default_def();
}

/* The pyramid in a Cairn world; NULL (and a message) when something is refused. */
static cairn_world *cairn_build(const scene *sc, cairn_body_id *ids)
{
    cairn_world_def def = cairn_def();
    def.gravity = (vec3s){{0.0f, GRAVITY_Y, 0.0f}};
    cairn_world *world = cairn_world_create(&def);
    if (!world) {
        fprintf(stderr, "cairn: world: %s\n", cairn_last_error());
        return NULL;
    }
    cairn_shape *floor_shape =
        cairn_shape_box((vec3s){{FLOOR_HALF[0], FLOOR_HALF[1], FLOOR_HALF[2]}}, BOX_CONVEX_RADIUS);
    cairn_shape *box = cairn_shape_box((vec3s){{BOX_HALF, BOX_HALF, BOX_HALF}}, BOX_CONVEX_RADIUS);
    if (!floor_shape || !box) {
        fprintf(stderr, "cairn: shape: %s\n", cairn_last_error());
        return NULL;
    }
    cairn_body_def bd = cairn_body_default_def();
    bd.type = CAIRN_STATIC;
    bd.shape = floor_shape;
    bd.transform = cairn_transform_identity();
    bd.transform.position = (vec3s){{FLOOR_POS[0], FLOOR_POS[1], FLOOR_POS[2]}};
    if (!cairn_body_is_valid(world, cairn_body_create(world, &bd))) {
        fprintf(stderr, "cairn: floor: %s\n", cairn_last_error());
        return NULL;
    }
    bd = cairn_body_default_def();
    bd.type = CAIRN_DYNAMIC;
    bd.shape = box;
    bd.density = DENSITY;
    bd.allow_sleep = false;
    for (int n = 0; n < sc->count; n++) {
        bd.transform = cairn_transform_identity();
        bd.transform.position = (vec3s){{sc->pos[n][0], sc->pos[n][1], sc->pos[n][2]}};
        ids[n] = cairn_body_create(world, &bd);
        if (!cairn_body_is_valid(world, ids[n])) {
            fprintf(stderr, "cairn: body %d: %s\n", n, cairn_last_error());
            return NULL;
        }
    }
    cairn_shape_release(floor_shape); /* the bodies keep their references */
    cairn_shape_release(box);
    return world;
}

static void run_cairn(const scene *sc, int steps, result *r)
{
    uint64_t t0 = timer_ticks();
    static cairn_body_id ids[MAX_BOXES];
    cairn_world *world = cairn_build(sc, ids);
    if (!world)
        return;
    r->setup_ms = timer_ms_since(t0);

    static float mid[MAX_BOXES][3], end[MAX_BOXES][3];
    double *stage[STAGES];
    timing t = {calloc((size_t)steps, sizeof(double)), 0.0};
    for (int g = 0; g < STAGES; g++)
        stage[g] = calloc((size_t)steps, sizeof(double));
    t.cpu_start = cpu_ms_now();
    for (int s = 0; s <= steps; s++) {
        if (s == steps / 2 || s == steps) {
            float(*dst)[3] = s == steps ? end : mid;
            for (int n = 0; n < sc->count; n++)
                memcpy(dst[n], cairn_body_transform(world, ids[n]).position.raw, sizeof dst[n]);
        }
        if (s == steps)
            break;
        uint64_t start = timer_ticks();
        cairn_world_step(world, DT);
        t.ms[s] = timer_ms_since(start);
        t.total += t.ms[s];
        cairn_step_stats st = cairn_world_step_stats(world);
        stage[STAGE_BROADPHASE][s] = st.broadphase_ms;
        stage[STAGE_NARROWPHASE][s] = st.narrowphase_ms;
        stage[STAGE_SOLVER][s] = st.solver_ms;
        stage[STAGE_INTEGRATE][s] = st.integrate_ms;
        stage[STAGE_ISLANDS][s] = st.islands_ms;
        stage[STAGE_TOTAL][s] = st.total_ms;
        r->pairs = st.pairs;
        r->contacts = st.contacts;
        r->points = st.points;
    }
    finish_timing(r, &t, steps);
    for (int g = 0; g < STAGES; g++) {
        r->stage_ms[g] = bench_median(stage[g], steps);
        free(stage[g]);
    }
    free(t.ms);
    finish_positions(r, sc, mid, end);
    cairn_world_destroy(world);
    r->ok = 1;
}

#ifdef CAIRN_HAVE_BULLET
static void run_bullet(const scene *sc, int steps, result *r)
{
    uint64_t t0 = timer_ticks();
    pyr_bullet *b = pyr_bullet_create(FLOOR_HALF, FLOOR_POS, BOX_HALF, DENSITY, &sc->pos[0][0],
                                      sc->count, GRAVITY_Y, BULLET_ITERATIONS);
    r->setup_ms = timer_ms_since(t0);
    static float mid[MAX_BOXES][3], end[MAX_BOXES][3];
    timing t = {calloc((size_t)steps, sizeof(double)), 0.0};
    t.cpu_start = cpu_ms_now();
    for (int s = 0; s <= steps; s++) {
        if (s == steps / 2)
            pyr_bullet_positions(b, &mid[0][0]);
        if (s == steps) {
            pyr_bullet_positions(b, &end[0][0]);
            break;
        }
        uint64_t start = timer_ticks();
        pyr_bullet_step(b, DT);
        t.ms[s] = timer_ms_since(start);
        t.total += t.ms[s];
    }
    finish_timing(r, &t, steps);
    free(t.ms);
    finish_positions(r, sc, mid, end);
    pyr_bullet_contacts(b, &r->contacts, &r->points);
    pyr_bullet_destroy(b);
    r->ok = 1;
}

/* Both engines in one process, a step of each in turn, the first of the two alternating: a
   change of the machine's speed (other processes, the host of a virtual machine) then falls on
   both alike, and the median of the steps' ratios compares like with like. Each engine's caches
   are cooled by the other's step, so both are a little slower than alone. */
static void run_lockstep(const scene *sc, int steps, result *r)
{
    static cairn_body_id ids[MAX_BOXES];
    cairn_world *world = cairn_build(sc, ids);
    pyr_bullet *b = pyr_bullet_create(FLOOR_HALF, FLOOR_POS, BOX_HALF, DENSITY, &sc->pos[0][0],
                                      sc->count, GRAVITY_Y, BULLET_ITERATIONS);
    double *ms[ENGINES], *ratio = calloc((size_t)steps, sizeof(double));
    for (int e = 0; e < ENGINES; e++)
        ms[e] = calloc((size_t)steps, sizeof(double));
    if (world && b && ratio && ms[ENGINE_CAIRN] && ms[ENGINE_BULLET]) {
        for (int s = 0; s < steps; s++) {
            for (int k = 0; k < ENGINES; k++) {
                int e = (s + k) % ENGINES;
                uint64_t start = timer_ticks();
                if (e == ENGINE_CAIRN)
                    cairn_world_step(world, DT);
                else
                    pyr_bullet_step(b, DT);
                ms[e][s] = timer_ms_since(start);
            }
            ratio[s] = ms[ENGINE_BULLET][s] / ms[ENGINE_CAIRN][s];
        }
        for (int e = 0; e < ENGINES; e++)
            r->lockstep_ms[e] = bench_median(ms[e], steps);
        r->lockstep_ratio = bench_median(ratio, steps);
        r->ok = 1;
    }
    for (int e = 0; e < ENGINES; e++)
        free(ms[e]);
    free(ratio);
    if (b)
        pyr_bullet_destroy(b);
    if (world)
        cairn_world_destroy(world);
}
#endif

static void run_engine(int engine, const scene *sc, int steps, result *r)
{
    memset(r, 0, sizeof *r);
    r->steps = steps;
#ifdef CAIRN_HAVE_BULLET
    if (engine == ENGINE_BULLET) {
        run_bullet(sc, steps, r);
        return;
    }
    if (engine == LOCKSTEP) {
        run_lockstep(sc, steps, r);
        return;
    }
#endif
    if (engine == ENGINE_CAIRN)
        run_cairn(sc, steps, r);
}

/* Runs one engine in a forked child; its result comes back through a pipe. */
static bool run_forked(int engine, const scene *sc, int steps, result *out)
{
    memset(out, 0, sizeof *out);
    int fd[2];
    if (pipe(fd) != 0) {
        perror("pipe");
        return false;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        close(fd[0]);
        close(fd[1]);
        return false;
    }
    if (pid == 0) {
        close(fd[0]);
        result r;
        run_engine(engine, sc, steps, &r);
        r.peak_mb = peak_mb();
        const char *p = (const char *)&r;
        size_t left = sizeof r;
        while (left > 0) {
            ssize_t w = write(fd[1], p, left);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                _exit(2);
            p += w;
            left -= (size_t)w;
        }
        close(fd[1]);
        _exit(r.ok ? 0 : 1);
    }
    close(fd[1]);
    char *p = (char *)out;
    size_t got = 0;
    while (got < sizeof *out) {
        ssize_t n = read(fd[0], p + got, sizeof *out - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (got != sizeof *out || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "%s: child failed (status %d, %zu of %zu bytes)\n", engine_name[engine],
                status, got, sizeof *out);
        out->ok = 0;
        return false;
    }
    return out->ok != 0;
}

static const char *correction_name(int c)
{
    switch (c) {
    case CAIRN_BAUMGARTE:
        return "baumgarte";
    case CAIRN_SPLIT_IMPULSE:
        return "split impulse";
    case CAIRN_SOFT_STEP:
        return "soft step";
    default:
        return "?";
    }
}

static void print_cairn_settings(void)
{
    cairn_world_def d = cairn_def();
    const cairn_solver_settings *s = &d.solver;
    cairn_body_def bd = cairn_body_default_def();
    cairn_shape *box = cairn_shape_box((vec3s){{BOX_HALF, BOX_HALF, BOX_HALF}}, BOX_CONVEX_RADIUS);
    cairn_mass_properties mp = {0};
    if (box)
        cairn_shape_mass_properties(box, DENSITY, &mp);
    printf("cairn settings: cairn_world_default_def(): velocity_iterations %d, position_iterations "
           "%d, substeps %d, position_correction %s, contact_hertz %g, contact_damping_ratio %g, "
           "warm_starting %d (factor %g), linear_slop %g m, speculative_distance %g m, "
           "max_push_velocity %g m/s, linear_damping %g, angular_damping %g\n",
           s->velocity_iterations, s->position_iterations, s->substeps,
           correction_name(s->position_correction), (double)s->contact_hertz,
           (double)s->contact_damping_ratio, s->warm_starting, (double)s->warm_start_factor,
           (double)s->linear_slop, (double)s->speculative_distance, (double)s->max_push_velocity,
           (double)d.linear_damping, (double)d.angular_damping);
    printf("cairn bodies: cairn_shape_box((%g,%g,%g), convex radius %g) (outer size stays %g), "
           "density %g -> mass %.1f kg, friction %g (combined sqrt(a*b)), restitution %g, "
           "allow_sleep false\n",
           (double)BOX_HALF, (double)BOX_HALF, (double)BOX_HALF, (double)BOX_CONVEX_RADIUS,
           (double)BOX_HALF, (double)DENSITY, (double)mp.mass, (double)bd.friction,
           (double)bd.restitution);
    cairn_shape_release(box);
}

#ifdef CAIRN_HAVE_BULLET
static void print_bullet_settings(void)
{
    /* A one-box world just to read the settings (in a child, so the parent stays small). */
    float one[3] = {0.0f, 1.0f, 0.0f};
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        pyr_bullet *b = pyr_bullet_create(FLOOR_HALF, FLOOR_POS, BOX_HALF, DENSITY, one, 1,
                                          GRAVITY_Y, BULLET_ITERATIONS);
        pyr_bullet_settings s = pyr_bullet_get_settings(b);
        pyr_bullet_destroy(b);
        printf("bullet settings: Bullet %d.%02d, btDiscreteDynamicsWorld + btDbvtBroadphase + "
               "btCollisionDispatcher(btDefaultCollisionConfiguration) + "
               "btSequentialImpulseConstraintSolver: m_numIterations %d, m_splitImpulse %d "
               "(threshold %g m), m_erp %g, m_erp2 %g, m_warmstartingFactor %g, m_solverMode "
               "0x%x; stepSimulation(1/60, 0)\n",
               s.version / 100, s.version % 100, s.iterations, s.split_impulse,
               (double)s.split_threshold, (double)s.erp, (double)s.erp2,
               (double)s.warmstarting_factor, (unsigned)s.solver_mode);
        printf("bullet bodies: btBoxShape(%g,%g,%g), collision margin %g (default), mass %.1f kg "
               "(8 m^3 * %g), friction %g (combined a*b), linear_damping %g, angular_damping %g, "
               "DISABLE_DEACTIVATION\n",
               (double)BOX_HALF, (double)BOX_HALF, (double)BOX_HALF, (double)s.margin,
               (double)s.box_mass, (double)DENSITY, (double)s.friction, (double)s.linear_damping,
               (double)s.angular_damping);
        fflush(stdout);
        _exit(0);
    }
    if (pid > 0) {
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
}
#endif

int main(int argc, char **argv)
{
    int steps = DEFAULT_STEPS;
    if (argc > 1) {
        char *endp = NULL;
        long v = strtol(argv[1], &endp, 10);
        if (!endp || *endp != '\0' || v < 1 || v > 1000000) {
            fprintf(stderr, "usage: %s [steps >= 1] (default %d)\n", argv[0], DEFAULT_STEPS);
            return 2;
        }
        steps = (int)v;
    }
    static scene sc;
    scene_build(&sc);
    printf("bench_pyramid: %d boxes of half extent %g (density %g) in %d levels on a static floor "
           "box (%g,%g,%g) at (%g,%g,%g); gravity %g; %d steps of 1/60 s; sleeping off; drift "
           "between step %d and step %d\n",
           sc.count, (double)BOX_HALF, (double)DENSITY, LEVELS, (double)FLOOR_HALF[0],
           (double)FLOOR_HALF[1], (double)FLOOR_HALF[2], (double)FLOOR_POS[0], (double)FLOOR_POS[1],
           (double)FLOOR_POS[2], (double)GRAVITY_Y, steps, steps / 2, steps);
    print_cairn_settings();
#ifdef CAIRN_HAVE_BULLET
    print_bullet_settings();
    const int engines = ENGINES;
#else
    printf("bullet: not found\n");
    const int engines = 1;
#endif
    printf("parent VmHWM before forking: %.1f MB (each engine's peak below is its child's VmHWM)\n",
           peak_mb());

    result res[ENGINES];
    memset(res, 0, sizeof res);
    for (int e = 0; e < engines; e++)
        run_forked(e, &sc, steps, &res[e]);

    printf("\n%-7s %9s %10s %9s %9s %10s %8s %18s %9s %9s\n", "engine", "steps/s", "median_ms",
           "max_ms", "peak_MB", "drift_mm", "setup_ms", "top box (x,y,z)", "off_level",
           "max_err_m");
    for (int e = 0; e < engines; e++) {
        const result *r = &res[e];
        if (!r->ok) {
            printf("%-7s failed\n", engine_name[e]);
            continue;
        }
        char top[64];
        snprintf(top, sizeof top, "(%.2f,%.2f,%.2f)", (double)r->top[0], (double)r->top[1],
                 (double)r->top[2]);
        printf("%-7s %9.1f %10.3f %9.3f %9.1f %10.2f %8.1f %18s %9d %9.3f\n", engine_name[e],
               1000.0 * r->steps / r->total_ms, r->median_ms, r->max_ms, r->peak_mb,
               1000.0 * r->drift_m, r->setup_ms, top, r->off_level, (double)r->max_level_error);
    }
    if (res[ENGINE_CAIRN].ok) {
        const result *r = &res[ENGINE_CAIRN];
        printf("\ncairn per-stage median ms:");
        for (int g = 0; g < STAGES; g++)
            printf(" %s %.3f", stage_name[g], r->stage_ms[g]);
        printf("\ncairn at the end: pairs %d, contacts %d, points %d\n", r->pairs, r->contacts,
               r->points);
    }
#ifdef CAIRN_HAVE_BULLET
    if (res[ENGINE_BULLET].ok)
        printf("bullet at the end: manifolds %d, points %d\n", res[ENGINE_BULLET].contacts,
               res[ENGINE_BULLET].points);
    if (res[ENGINE_CAIRN].ok && res[ENGINE_BULLET].ok) {
        const result *c = &res[ENGINE_CAIRN], *b = &res[ENGINE_BULLET];
        printf("\nratio cairn/bullet steps_per_second: %.3f (wall clock), %.3f (CPU time: %.1f "
               "against %.1f steps per CPU second)\n",
               (c->steps / c->total_ms) / (b->steps / b->total_ms), b->cpu_ms / c->cpu_ms,
               1000.0 * c->steps / c->cpu_ms, 1000.0 * b->steps / b->cpu_ms);
        printf("drift: cairn %.2f mm, bullet %.2f mm; peak memory: cairn %.1f MB, bullet %.1f MB\n",
               1000.0 * c->drift_m, 1000.0 * b->drift_m, c->peak_mb, b->peak_mb);
    }
    result lockstep;
    if (run_forked(LOCKSTEP, &sc, steps, &lockstep))
        printf("lockstep (one child, a step of each engine in turn): median ms per step cairn "
               "%.3f, bullet %.3f; cairn / bullet speed, median of the steps' ratios: %.3f\n",
               lockstep.lockstep_ms[ENGINE_CAIRN], lockstep.lockstep_ms[ENGINE_BULLET],
               lockstep.lockstep_ratio);
#endif

    printf("\nengine,steps,steps_per_second,median_ms,max_ms,peak_mb,drift_m,top_y,off_level\n");
    for (int e = 0; e < engines; e++) {
        const result *r = &res[e];
        if (r->ok)
            printf("%s,%d,%.2f,%.4f,%.4f,%.2f,%.5f,%.4f,%d\n", engine_name[e], r->steps,
                   1000.0 * r->steps / r->total_ms, r->median_ms, r->max_ms, r->peak_mb, r->drift_m,
                   (double)r->top[1], r->off_level);
    }
    if (res[ENGINE_CAIRN].ok) {
        printf("stages,broadphase_ms,narrowphase_ms,solver_ms,integrate_ms,islands_ms,total_ms,"
               "contacts,"
               "points"
               "\ncairn_stages");
        for (int g = 0; g < STAGES; g++)
            printf(",%.4f", res[ENGINE_CAIRN].stage_ms[g]);
        printf(",%d,%d\n", res[ENGINE_CAIRN].contacts, res[ENGINE_CAIRN].points);
    }
    int failed = 0;
    for (int e = 0; e < engines; e++)
        failed += !res[e].ok;
    return failed ? 1 : 0;
}
