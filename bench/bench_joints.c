/* Joint benchmark: (A) 100 hanging chains of 20 capsule links on ball joints, released
   horizontal so that they swing down through each other, and (B) 40 ragdolls (one table of
   capsules, swing-twist and hinge joints) falling down a staircase of static boxes. Each scene is
   plain data (bench_joints_bullet.h) built the same way in Cairn and, when libbullet-dev is
   installed, in Bullet's btDiscreteDynamicsWorld; each engine runs in its own forked child, so
   its peak memory (VmHWM) is its own. Prints steps per second, median ms per step, the largest
   joint gap over the run, peak memory, the ratio Cairn / Bullet, and CSV lines to keep. Then a
   third child per scene steps both engines in turn (run_lockstep): a ratio that the machine's
   changes of speed do not skew.
   Usage: bench_joints [chains|ragdolls]   env: BENCH_STEPS (default 600), BENCH_SLEEP=1 (let
   bodies sleep in both engines), BENCH_JOINT_FRICTION (Cairn swing-twist friction, N m),
   BENCH_SETTINGS=path/to/settings.yaml (Cairn's world def from a settings file, cairn_io),
   BENCH_NO_PEERS=1 (Cairn alone, to profile; no lockstep either). */
/* fork, pipe and waitpid are POSIX; -std=c17 hides them unless asked for. */
#define _POSIX_C_SOURCE 200809L

#include "core/timer.h"
#include "bench_joints_bullet.h"
#include "bench_util.h"
#include <cairn/io.h>
#include <cairn/joint.h>
#include <cairn/shape.h>
#include <cairn/world.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef CAIRN_HAVE_BULLET
static const int BULLET_ITERATIONS = 10;
#endif

enum { DEFAULT_STEPS = 600, MAX_BODIES = 2048, MAX_JOINTS = 2048 };
static const float DT = 1.0f / 60.0f;
static const float GRAVITY_Y = -9.81f;
static const float PI = 3.14159265f;
static const float BOX_CONVEX_RADIUS = 0.05f; /* Cairn's rounding of the stair boxes */

enum { ENGINE_CAIRN, ENGINE_BULLET, ENGINES };
/* Not an engine: both in one child, a step of each in turn (run_lockstep). */
enum { LOCKSTEP = ENGINES };
static const char *engine_name[ENGINES + 1] = {"cairn", "bullet", "lockstep"};

/* Settings of the run, read once from the environment. */
static bool allow_sleep = false;
static float joint_friction = 3.0f; /* Cairn swing-twist joint friction, N m (0: none) */

typedef struct scene {
    const char *name;
    jb_body bodies[MAX_BODIES];
    jb_joint joints[MAX_JOINTS];
    int body_count, joint_count;
} scene;

static jb_body *add_body(scene *s, int shape, vec3s size, vec3s pos, versors rot, float density)
{
    jb_body *b = &s->bodies[s->body_count++];
    memset(b, 0, sizeof *b);
    b->shape = shape;
    memcpy(b->size, size.raw, sizeof b->size);
    memcpy(b->pos, pos.raw, sizeof b->pos);
    memcpy(b->rot, rot.raw, sizeof b->rot);
    b->density = density;
    return b;
}

static jb_joint *add_joint(scene *s, int type, int a, int b, vec3s anchor, vec3s axis)
{
    jb_joint *j = &s->joints[s->joint_count++];
    memset(j, 0, sizeof *j);
    j->type = type;
    j->a = a;
    j->b = b;
    memcpy(j->anchor, anchor.raw, sizeof j->anchor);
    memcpy(j->axis, axis.raw, sizeof j->axis);
    return j;
}

static vec3s v3(float x, float y, float z)
{
    return (vec3s){{x, y, z}};
}

static vec3s vec3_of(const float v[3])
{
    return (vec3s){{v[0], v[1], v[2]}};
}

/* ---- scene A: hanging chains ---- */

enum { CHAIN_ROWS = 10, CHAIN_COLS = 10, CHAIN_LINKS = 20 };
static const float LINK_HALF_HEIGHT = 0.2f, LINK_RADIUS = 0.05f, LINK_DENSITY = 1000.0f;
static const float CHAIN_DX = 2.0f, CHAIN_DZ = 0.6f;  /* pivot spacing, m */
static const float CHAIN_Y = 11.0f, CHAIN_DY = 0.15f; /* pivot height, step per pivot along x */

/* Chain (i, j) hangs from the world at (2 i, 11 + 0.15 i, 0.6 j), laid along +x: 10 m long, so
   in a row along x it lies over the next four pivots, 0.15 m higher each (two link diameters
   and a half: nothing touches at the start); swinging down, it sweeps through them. */
static void build_chains(scene *s)
{
    s->name = "chains";
    versors along_x = glms_quatv(-0.5f * PI, v3(0, 0, 1)); /* capsule axis +y -> +x */
    float link = 2.0f * (LINK_HALF_HEIGHT + LINK_RADIUS);
    for (int i = 0; i < CHAIN_COLS; i++) {
        for (int j = 0; j < CHAIN_ROWS; j++) {
            vec3s pivot =
                v3(CHAIN_DX * (float)i, CHAIN_Y + CHAIN_DY * (float)i, CHAIN_DZ * (float)j);
            for (int k = 0; k < CHAIN_LINKS; k++) {
                vec3s centre = glms_vec3_add(pivot, v3(link * ((float)k + 0.5f), 0, 0));
                add_body(s, JB_CAPSULE, v3(LINK_HALF_HEIGHT, LINK_RADIUS, 0), centre, along_x,
                         LINK_DENSITY);
                vec3s anchor = glms_vec3_add(pivot, v3(link * (float)k, 0, 0));
                int b = s->body_count - 1;
                add_joint(s, JB_BALL, k == 0 ? -1 : b - 1, b, anchor, v3(1, 0, 0));
            }
        }
    }
}

/* ---- scene B: ragdolls down a staircase ---- */

/* One ragdoll, standing (feet at y = 0, facing +z, its left on +x), about 1.8 m tall: capsules
   along y or x (local +y turned to +x). */
typedef struct ragdoll_part {
    const char *name;
    float centre[3];
    bool along_x;
    float half_height, radius;
} ragdoll_part;

enum {
    PELVIS,
    TORSO,
    HEAD,
    UPPER_ARM_L,
    LOWER_ARM_L,
    UPPER_ARM_R,
    LOWER_ARM_R,
    UPPER_LEG_L,
    LOWER_LEG_L,
    UPPER_LEG_R,
    LOWER_LEG_R,
    PARTS
};

static const ragdoll_part ragdoll_parts[PARTS] = {
    {"pelvis", {0.0f, 0.98f, 0.0f}, true, 0.08f, 0.10f},
    {"torso", {0.0f, 1.30f, 0.0f}, false, 0.08f, 0.15f},
    {"head", {0.0f, 1.66f, 0.0f}, false, 0.04f, 0.10f},
    {"upper arm L", {0.31f, 1.42f, 0.0f}, true, 0.09f, 0.05f},
    {"lower arm L", {0.60f, 1.42f, 0.0f}, true, 0.105f, 0.045f},
    {"upper arm R", {-0.31f, 1.42f, 0.0f}, true, 0.09f, 0.05f},
    {"lower arm R", {-0.60f, 1.42f, 0.0f}, true, 0.105f, 0.045f},
    {"upper leg L", {0.10f, 0.70f, 0.0f}, false, 0.15f, 0.07f},
    {"lower leg L", {0.10f, 0.24f, 0.0f}, false, 0.18f, 0.06f},
    {"upper leg R", {-0.10f, 0.70f, 0.0f}, false, 0.15f, 0.07f},
    {"lower leg R", {-0.10f, 0.24f, 0.0f}, false, 0.18f, 0.06f},
};
static const float RAGDOLL_DENSITY = 1000.0f;

/* Swing-twist: axis from parent to child, cone and +-twist (rad). Hinge: angle of the child
   about the axis (right-hand rule), limits [lower, upper]: elbows bend forward, knees back. */
typedef struct ragdoll_joint {
    const char *name;
    int type, parent, child;
    float anchor[3], axis[3];
    float a, b; /* swing-twist: cone, twist; hinge: lower, upper */
} ragdoll_joint;

enum { RAGDOLL_JOINTS = 10 };
static const ragdoll_joint ragdoll_joints[RAGDOLL_JOINTS] = {
    {"spine", JB_SWING_TWIST, PELVIS, TORSO, {0.0f, 1.08f, 0.0f}, {0, 1, 0}, 0.4f, 0.3f},
    {"neck", JB_SWING_TWIST, TORSO, HEAD, {0.0f, 1.52f, 0.0f}, {0, 1, 0}, 0.5f, 0.6f},
    {"shoulder L", JB_SWING_TWIST, TORSO, UPPER_ARM_L, {0.17f, 1.42f, 0.0f}, {1, 0, 0}, 1.2f, 0.8f},
    {"shoulder R",
     JB_SWING_TWIST,
     TORSO,
     UPPER_ARM_R,
     {-0.17f, 1.42f, 0.0f},
     {-1, 0, 0},
     1.2f,
     0.8f},
    {"elbow L", JB_HINGE, UPPER_ARM_L, LOWER_ARM_L, {0.45f, 1.42f, 0.0f}, {0, -1, 0}, 0.0f, 2.5f},
    {"elbow R", JB_HINGE, UPPER_ARM_R, LOWER_ARM_R, {-0.45f, 1.42f, 0.0f}, {0, 1, 0}, 0.0f, 2.5f},
    {"hip L", JB_SWING_TWIST, PELVIS, UPPER_LEG_L, {0.10f, 0.92f, 0.0f}, {0, -1, 0}, 0.9f, 0.4f},
    {"hip R", JB_SWING_TWIST, PELVIS, UPPER_LEG_R, {-0.10f, 0.92f, 0.0f}, {0, -1, 0}, 0.9f, 0.4f},
    {"knee L", JB_HINGE, UPPER_LEG_L, LOWER_LEG_L, {0.10f, 0.48f, 0.0f}, {1, 0, 0}, 0.0f, 2.5f},
    {"knee R", JB_HINGE, UPPER_LEG_R, LOWER_LEG_R, {-0.10f, 0.48f, 0.0f}, {1, 0, 0}, 0.0f, 2.5f},
};

enum { RAGDOLL_ROWS = 4, RAGDOLL_COLS = 10, STAIR_STEPS = 20 };
static const float STAIR_RISE = 0.4f, STAIR_RUN = 0.5f, STAIR_HALF_WIDTH = 11.0f;
static const float LANDING = 2.0f;       /* the top step reaches this far back, m */
static const float RAGDOLL_SPEED = 2.0f; /* initial velocity down the stairs (+x), m/s */

/* Height of the stair top at x (the floor beyond the last step is at 0). */
static float stair_top(float x)
{
    int k = x < 0.0f ? 0 : (int)floorf(x / STAIR_RUN);
    return k >= STAIR_STEPS ? 0.0f : STAIR_RISE * (float)(STAIR_STEPS - k);
}

static void build_stairs(scene *s)
{
    for (int k = 0; k < STAIR_STEPS; k++) {
        float top = STAIR_RISE * (float)(STAIR_STEPS - k);
        float x0 = k == 0 ? -LANDING : STAIR_RUN * (float)k, x1 = STAIR_RUN * (float)(k + 1);
        add_body(s, JB_BOX, v3(0.5f * (x1 - x0), 0.5f * top, STAIR_HALF_WIDTH),
                 v3(0.5f * (x0 + x1), 0.5f * top, 0), glms_quat_identity(), 0.0f);
    }
    float end = STAIR_RUN * STAIR_STEPS;
    add_body(s, JB_BOX, v3(10.0f, 0.5f, STAIR_HALF_WIDTH), v3(end + 10.0f, -0.5f, 0),
             glms_quat_identity(), 0.0f);
}

/* One ragdoll turned by rot about its pelvis, the pelvis at `at`, moving at `vel`. */
static void build_ragdoll(scene *s, versors rot, vec3s at, vec3s vel)
{
    vec3s origin = v3(ragdoll_parts[PELVIS].centre[0], ragdoll_parts[PELVIS].centre[1],
                      ragdoll_parts[PELVIS].centre[2]);
    versors along_x = glms_quatv(-0.5f * PI, v3(0, 0, 1));
    int first = s->body_count;
    for (int p = 0; p < PARTS; p++) {
        const ragdoll_part *part = &ragdoll_parts[p];
        vec3s local = glms_vec3_sub(vec3_of(part->centre), origin);
        vec3s pos = glms_vec3_add(at, glms_quat_rotatev(rot, local));
        versors q = part->along_x ? glms_quat_mul(rot, along_x) : rot;
        jb_body *b = add_body(s, JB_CAPSULE, v3(part->half_height, part->radius, 0), pos, q,
                              RAGDOLL_DENSITY);
        memcpy(b->vel, vel.raw, sizeof b->vel);
    }
    for (int i = 0; i < RAGDOLL_JOINTS; i++) {
        const ragdoll_joint *rj = &ragdoll_joints[i];
        vec3s local = glms_vec3_sub(vec3_of(rj->anchor), origin);
        vec3s anchor = glms_vec3_add(at, glms_quat_rotatev(rot, local));
        vec3s axis = glms_quat_rotatev(rot, vec3_of(rj->axis));
        jb_joint *j = add_joint(s, rj->type, first + rj->parent, first + rj->child, anchor, axis);
        if (rj->type == JB_HINGE) {
            j->lower = rj->a;
            j->upper = rj->b;
        } else {
            j->cone = rj->a;
            j->twist = rj->b;
        }
    }
}

/* 4 rows (down the stairs) of 10 ragdolls lying face down, head downhill, 2 m apart across, each
   turned a little about the vertical, 0.5 m above the stairs and moving down them at 2 m/s. */
static void build_ragdolls(scene *s)
{
    s->name = "ragdolls";
    build_stairs(s);
    /* standing +y (head) -> +x, +x (left) -> -z, +z (front) -> -y */
    versors lying =
        glms_quat_mul(glms_quatv(0.5f * PI, v3(1, 0, 0)), glms_quatv(-0.5f * PI, v3(0, 0, 1)));
    float feet = ragdoll_parts[PELVIS].centre[1]; /* pelvis to soles */
    for (int r = 0; r < RAGDOLL_ROWS; r++) {
        for (int c = 0; c < RAGDOLL_COLS; c++) {
            versors rot = glms_quat_mul(glms_quatv(0.15f * (float)(c % 3 - 1), v3(0, 1, 0)), lying);
            float x = 1.5f + 2.3f * (float)r;
            vec3s at = v3(x, stair_top(x - feet) + 0.15f + 0.5f, -9.0f + 2.0f * (float)c);
            build_ragdoll(s, rot, at, v3(RAGDOLL_SPEED, 0, 0));
        }
    }
}

/* ---- building in Cairn ---- */

/* One Cairn shape per distinct size (bodies keep their own references). */
typedef struct shape_cache {
    const jb_body *key[64];
    cairn_shape *shape[64];
    int count;
} shape_cache;

static cairn_shape *shape_for(shape_cache *c, const jb_body *b)
{
    for (int i = 0; i < c->count; i++)
        if (c->key[i]->shape == b->shape && !memcmp(c->key[i]->size, b->size, sizeof b->size))
            return c->shape[i];
    if (c->count == 64)
        return NULL;
    cairn_shape *shape =
        b->shape == JB_CAPSULE
            ? cairn_shape_capsule(b->size[0], b->size[1])
            : cairn_shape_box(v3(b->size[0], b->size[1], b->size[2]), BOX_CONVEX_RADIUS);
    c->key[c->count] = b;
    c->shape[c->count++] = shape;
    return shape;
}

static void shape_cache_release(shape_cache *c)
{
    for (int i = 0; i < c->count; i++)
        cairn_shape_release(c->shape[i]);
    c->count = 0;
}

/* Mass and inertia diagonal of every dynamic body, from Cairn's shapes, so that Bullet gets the
   same bodies (Bullet's own capsule inertia is that of the bounding box). */
static bool scene_mass(scene *s)
{
    shape_cache cache = {0};
    bool ok = true;
    for (int i = 0; i < s->body_count && ok; i++) {
        jb_body *b = &s->bodies[i];
        cairn_shape *shape = shape_for(&cache, b);
        cairn_mass_properties mp;
        ok = shape != NULL;
        if (ok && b->density > 0.0f) {
            ok = cairn_shape_mass_properties(shape, b->density, &mp);
            b->mass = mp.mass;
            for (int k = 0; k < 3; k++)
                b->inertia[k] = mp.inertia.raw[k][k];
        }
    }
    shape_cache_release(&cache);
    return ok;
}

static cairn_joint_def joint_def(const jb_joint *j, const cairn_body_id *ids)
{
    static const cairn_joint_type type[] = {CAIRN_JOINT_BALL, CAIRN_JOINT_HINGE,
                                            CAIRN_JOINT_SWING_TWIST};
    cairn_joint_def def = cairn_joint_default_def(type[j->type]);
    if (j->a >= 0)
        def.body_a = ids[j->a];
    def.body_b = ids[j->b];
    def.anchor_a = def.anchor_b = vec3_of(j->anchor);
    def.axis = vec3_of(j->axis);
    if (j->type == JB_HINGE) {
        def.enable_limit = true;
        def.lower = j->lower;
        def.upper = j->upper;
    } else if (j->type == JB_SWING_TWIST) {
        def.cone_angle = j->cone;
        def.enable_limit = true;
        def.lower = -j->twist;
        def.upper = j->twist;
        def.enable_motor = joint_friction > 0.0f;
        def.motor_speed = 0.0f;
        def.max_motor_force = joint_friction;
    }
    return def;
}

/* base: cairn_world_default_def() or a settings file's (BENCH_SETTINGS). The bench's own
   changes go on top of either, so that Cairn always gets the gravity that Bullet gets. */
static cairn_world *cairn_build(const scene *s, const cairn_world_def *base, cairn_body_id *ids,
                                cairn_joint_id *joints)
{
    cairn_world_def wd = *base;
    wd.gravity = v3(0, GRAVITY_Y, 0);
    cairn_world *world = cairn_world_create(&wd);
    if (!world)
        return NULL;
    shape_cache cache = {0};
    for (int i = 0; i < s->body_count; i++) {
        const jb_body *b = &s->bodies[i];
        cairn_body_def bd = cairn_body_default_def();
        bd.type = b->density > 0.0f ? CAIRN_DYNAMIC : CAIRN_STATIC;
        bd.shape = shape_for(&cache, b);
        bd.density = b->density > 0.0f ? b->density : bd.density;
        bd.transform.position = vec3_of(b->pos);
        bd.transform.rotation = glms_quat_init(b->rot[0], b->rot[1], b->rot[2], b->rot[3]);
        bd.linear_velocity = vec3_of(b->vel);
        bd.allow_sleep = allow_sleep;
        ids[i] = cairn_body_create(world, &bd);
        if (!cairn_body_is_valid(world, ids[i])) {
            fprintf(stderr, "cairn: body %d: %s\n", i, cairn_last_error());
            cairn_world_destroy(world);
            shape_cache_release(&cache);
            return NULL;
        }
    }
    shape_cache_release(&cache);
    for (int i = 0; i < s->joint_count; i++) {
        cairn_joint_def def = joint_def(&s->joints[i], ids);
        joints[i] = cairn_joint_create(world, &def);
        if (!cairn_joint_is_valid(world, joints[i])) {
            fprintf(stderr, "cairn: joint %d: %s\n", i, cairn_last_error());
            cairn_world_destroy(world);
            return NULL;
        }
    }
    return world;
}

/* ---- running ---- */

/* What a child sends back through the pipe (plain data). */
typedef struct result {
    int ok, steps;
    double setup_ms, total_ms, median_ms, max_ms, cpu_ms, peak_mb;
    double max_gap; /* m, over every step */
    int gap_joint;  /* where and when it was largest */
    int gap_step;
    double end_gap;    /* m, after the last step */
    double median_gap; /* m, median over the steps of each step's largest gap */
    float mean_pos[3]; /* mean centre of the dynamic bodies at the end */
    int awake;         /* dynamic bodies awake at the end */
    int manifolds, points;
    double solver_ms, narrowphase_ms; /* Cairn's per-stage medians */
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

/* The step loop shared by both engines: time each step (wall and CPU), then measure the gaps
   outside the timed part. */
typedef struct engine_ops {
    void *world;
    void (*step)(void *world);
    double (*max_gap)(void *world, int *joint);
} engine_ops;

static void run_steps(const engine_ops *e, int steps, result *r)
{
    double *ms = calloc((size_t)steps, sizeof *ms), *gaps = calloc((size_t)steps, sizeof *gaps);
    r->max_gap = 0.0;
    r->gap_joint = r->gap_step = -1;
    for (int s = 0; s < steps; s++) {
        double cpu = cpu_ms_now();
        uint64_t start = timer_ticks();
        e->step(e->world);
        ms[s] = timer_ms_since(start);
        r->cpu_ms += cpu_ms_now() - cpu;
        r->total_ms += ms[s];
        int joint;
        double gap = e->max_gap(e->world, &joint);
        if (!(gap <= r->max_gap)) { /* NaN is the largest of all */
            r->max_gap = isnan(gap) ? INFINITY : gap;
            r->gap_joint = joint;
            r->gap_step = s;
        }
        r->end_gap = gaps[s] = gap;
    }
    r->median_gap = bench_median(gaps, steps);
    free(gaps);
    r->max_ms = 0.0;
    for (int s = 0; s < steps; s++)
        r->max_ms = fmax(r->max_ms, ms[s]);
    r->median_ms = bench_median(ms, steps);
    free(ms);
}

typedef struct cairn_run {
    cairn_world *world;
    const cairn_joint_id *joints;
    int joint_count;
    double *solver_ms, *narrowphase_ms;
    int step;
} cairn_run;

static void cairn_step(void *p)
{
    cairn_run *c = p;
    cairn_world_step(c->world, DT);
    cairn_step_stats st = cairn_world_step_stats(c->world);
    c->solver_ms[c->step] = st.solver_ms;
    c->narrowphase_ms[c->step++] = st.narrowphase_ms;
}

/* The distance between anchor_a and anchor_b, each where its body carries it now. */
static double cairn_max_gap(void *p, int *worst)
{
    const cairn_run *c = p;
    double gap = 0.0;
    *worst = -1;
    for (int i = 0; i < c->joint_count; i++) {
        cairn_joint_def def = cairn_joint_get_def(c->world, c->joints[i]);
        double d = glms_vec3_distance(def.anchor_a, def.anchor_b);
        if (!isfinite(d))
            d = INFINITY;
        if (d > gap || *worst < 0) {
            gap = d;
            *worst = i;
        }
    }
    return gap;
}

static void mean_position(const scene *s, int body, const float p[3], float sum[3], int *n)
{
    if (s->bodies[body].density <= 0.0f)
        return;
    for (int k = 0; k < 3; k++)
        sum[k] += p[k];
    ++*n;
}

static void finish_mean(float sum[3], int n)
{
    for (int k = 0; k < 3; k++)
        sum[k] /= (float)(n > 0 ? n : 1);
}

static void run_cairn(const scene *s, const cairn_world_def *wd, int steps, result *r)
{
    static cairn_body_id ids[MAX_BODIES];
    static cairn_joint_id joints[MAX_JOINTS];
    uint64_t t0 = timer_ticks();
    cairn_world *world = cairn_build(s, wd, ids, joints);
    if (!world)
        return;
    r->setup_ms = timer_ms_since(t0);
    cairn_run c = {world,
                   joints,
                   s->joint_count,
                   calloc((size_t)steps, sizeof(double)),
                   calloc((size_t)steps, sizeof(double)),
                   0};
    engine_ops e = {&c, cairn_step, cairn_max_gap};
    run_steps(&e, steps, r);
    r->solver_ms = bench_median(c.solver_ms, steps);
    r->narrowphase_ms = bench_median(c.narrowphase_ms, steps);
    free(c.solver_ms);
    free(c.narrowphase_ms);
    int n = 0;
    for (int i = 0; i < s->body_count; i++) {
        mean_position(s, i, cairn_body_transform(world, ids[i]).position.raw, r->mean_pos, &n);
        r->awake += s->bodies[i].density > 0.0f && cairn_body_is_awake(world, ids[i]);
    }
    finish_mean(r->mean_pos, n);
    cairn_step_stats st = cairn_world_step_stats(world);
    r->manifolds = st.contacts;
    r->points = st.points;
    cairn_world_destroy(world);
    r->ok = 1;
}

#ifdef CAIRN_HAVE_BULLET
static void bullet_step(void *b)
{
    jb_bullet_step(b, DT);
}

static double bullet_max_gap(void *b, int *worst)
{
    return jb_bullet_max_gap(b, worst);
}

static jb_scene bullet_scene(const scene *s)
{
    return (jb_scene){s->bodies, s->body_count, s->joints, s->joint_count};
}

static void run_bullet(const scene *s, int steps, result *r)
{
    uint64_t t0 = timer_ticks();
    jb_scene js = bullet_scene(s);
    jb_bullet *b = jb_bullet_create(&js, GRAVITY_Y, BULLET_ITERATIONS, allow_sleep);
    r->setup_ms = timer_ms_since(t0);
    engine_ops e = {b, bullet_step, bullet_max_gap};
    run_steps(&e, steps, r);
    int n = 0;
    for (int i = 0; i < s->body_count; i++) {
        float p[3];
        jb_bullet_position(b, i, p);
        mean_position(s, i, p, r->mean_pos, &n);
    }
    finish_mean(r->mean_pos, n);
    r->awake = jb_bullet_awake_count(b);
    jb_bullet_contacts(b, &r->manifolds, &r->points);
    jb_bullet_destroy(b);
    r->ok = 1;
}

/* One step of each engine, the first of the two alternating with s; the times go to ms[e][s]. */
static void lockstep_step(cairn_world *world, jb_bullet *b, int s, double *ms[ENGINES])
{
    for (int k = 0; k < ENGINES; k++) {
        int e = (s + k) % ENGINES;
        uint64_t start = timer_ticks();
        if (e == ENGINE_CAIRN)
            cairn_world_step(world, DT);
        else
            jb_bullet_step(b, DT);
        ms[e][s] = timer_ms_since(start);
    }
}

/* Both engines in one process, a step of each in turn, the first of the two alternating: a
   change of the machine's speed (other processes, the host of a virtual machine) then falls on
   both alike, and the median of the steps' ratios compares like with like. Each engine's caches
   are cooled by the other's step, so both are a little slower than alone. Only the steps are
   timed; no gaps are measured (the cairn and bullet children do that). */
static void run_lockstep(const scene *s, const cairn_world_def *wd, int steps, result *r)
{
    cairn_body_id ids[MAX_BODIES];
    cairn_joint_id joints[MAX_JOINTS];
    cairn_world *world = cairn_build(s, wd, ids, joints);
    jb_scene js = bullet_scene(s);
    jb_bullet *b = jb_bullet_create(&js, GRAVITY_Y, BULLET_ITERATIONS, allow_sleep);
    double *ms[ENGINES], *ratio = calloc((size_t)steps, sizeof(double));
    for (int e = 0; e < ENGINES; e++)
        ms[e] = calloc((size_t)steps, sizeof(double));
    if (world && b && ratio && ms[ENGINE_CAIRN] && ms[ENGINE_BULLET]) {
        for (int k = 0; k < steps; k++) {
            lockstep_step(world, b, k, ms);
            ratio[k] = ms[ENGINE_BULLET][k] / ms[ENGINE_CAIRN][k];
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
        jb_bullet_destroy(b);
    if (world)
        cairn_world_destroy(world);
}
#endif

static void run_engine(int engine, const scene *s, const cairn_world_def *wd, int steps, result *r)
{
    memset(r, 0, sizeof *r);
    r->steps = steps;
#ifdef CAIRN_HAVE_BULLET
    if (engine == ENGINE_BULLET) {
        run_bullet(s, steps, r);
        return;
    }
    if (engine == LOCKSTEP) {
        run_lockstep(s, wd, steps, r);
        return;
    }
#endif
    if (engine == ENGINE_CAIRN)
        run_cairn(s, wd, steps, r);
}

/* Runs one engine (or LOCKSTEP) in a forked child; its result comes back through a pipe. wd is
   Cairn's world def, the same for every child. */
static bool run_forked(int engine, const scene *s, const cairn_world_def *wd, int steps,
                       result *out)
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
        run_engine(engine, s, wd, steps, &r);
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

/* ---- printing ---- */

static const char *correction_name(int c)
{
    return c == CAIRN_BAUMGARTE       ? "baumgarte"
           : c == CAIRN_SPLIT_IMPULSE ? "split impulse"
                                      : "soft step";
}

/* d is the world def every Cairn child starts from (before gravity); source says where it came
   from: a settings file's path, or NULL for cairn_world_default_def(). */
static void print_cairn_settings(const cairn_world_def *d, const char *source)
{
    const cairn_solver_settings *s = &d->solver;
    cairn_body_def bd = cairn_body_default_def();
    if (source)
        printf("cairn settings: settings file %s (cairn_settings_load over "
               "cairn_world_default_def(); gravity set by the bench): ",
               source);
    else
        printf("cairn settings: cairn_world_default_def(): ");
    printf("velocity_iterations %d, "
           "position_iterations %d, substeps %d, position_correction %s, joint_hertz %g, "
           "joint_damping_ratio %g, contact_hertz %g, contact_damping_ratio %g, warm_starting %d, "
           "linear_damping %g, angular_damping %g; bodies: friction %g (combined sqrt(a*b)), "
           "restitution %g, allow_sleep %s; stair boxes with convex radius %g (outer size kept); "
           "joints: collide_connected false; swing-twist joint friction (enable_motor, speed 0, "
           "max_motor_force) %g N m, hinges none\n",
           s->velocity_iterations, s->position_iterations, s->substeps,
           correction_name(s->position_correction), (double)s->joint_hertz,
           (double)s->joint_damping_ratio, (double)s->contact_hertz,
           (double)s->contact_damping_ratio, s->warm_starting, (double)d->linear_damping,
           (double)d->angular_damping, (double)bd.friction, (double)bd.restitution,
           allow_sleep ? "true" : "false", (double)BOX_CONVEX_RADIUS, (double)joint_friction);
}

#ifdef CAIRN_HAVE_BULLET
static void print_bullet_settings(const scene *ragdolls)
{
    /* The ragdoll world just to read the settings (in a child, so the parent stays small). */
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        jb_scene js = bullet_scene(ragdolls);
        jb_bullet *b = jb_bullet_create(&js, GRAVITY_Y, BULLET_ITERATIONS, allow_sleep);
        jb_bullet_settings s = jb_bullet_get_settings(b);
        jb_bullet_destroy(b);
        printf("bullet settings: Bullet %d.%02d, btDiscreteDynamicsWorld + btDbvtBroadphase + "
               "btCollisionDispatcher(btDefaultCollisionConfiguration) + "
               "btSequentialImpulseConstraintSolver: m_numIterations %d, m_erp %g, m_erp2 %g, "
               "m_globalCfm %g, m_splitImpulse %d, m_warmstartingFactor %g, m_solverMode 0x%x; "
               "stepSimulation(1/60, 0); bodies: friction %g (combined a*b), linear_damping %g, "
               "angular_damping %g, %s; btCapsuleShape (margin = radius), btBoxShape margin %g; "
               "mass and inertia set to Cairn's (Bullet's own capsule inertia is its bounding "
               "box's); joints: btPoint2PointConstraint, btHingeConstraint(setLimit), "
               "btConeTwistConstraint(setLimit(cone, cone, twist)), constraint ERP/CFM at their "
               "defaults, addConstraint(c, true) (joined bodies do not collide); no joint "
               "friction or damping added to the cone-twist (its m_damping %g acts only in the "
               "obsolete solver path, off by default)\n",
               s.version / 100, s.version % 100, s.iterations, (double)s.erp, (double)s.erp2,
               (double)s.cfm, s.split_impulse, (double)s.warmstarting_factor,
               (unsigned)s.solver_mode, (double)s.friction, (double)s.linear_damping,
               (double)s.angular_damping,
               allow_sleep ? "deactivation allowed (default thresholds)" : "DISABLE_DEACTIVATION",
               (double)s.box_margin, (double)s.cone_damping);
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

static void print_scenes(const scene *chains, const scene *ragdolls)
{
    float link_mass = chains->bodies[0].mass;
    printf("scene chains: %d chains of %d capsule links (half height %g m, radius %g m, density "
           "%g, %.2f kg) on ball joints, %d bodies, %d joints; pivots on the world in a %d x %d "
           "grid, %g m apart along x and %g m along z, %g m higher per column along x; chains "
           "laid along +x and released at rest; joined links do not collide, all others do\n",
           CHAIN_COLS * CHAIN_ROWS, CHAIN_LINKS, (double)LINK_HALF_HEIGHT, (double)LINK_RADIUS,
           (double)LINK_DENSITY, (double)link_mass, chains->body_count, chains->joint_count,
           CHAIN_COLS, CHAIN_ROWS, (double)CHAIN_DX, (double)CHAIN_DZ, (double)CHAIN_DY);
    float mass = 0.0f;
    printf("ragdoll (one table, both engines):");
    for (int p = 0; p < PARTS; p++) {
        const jb_body *b = &ragdolls->bodies[STAIR_STEPS + 1 + p];
        mass += b->mass;
        printf(" %s capsule(%g, r %g) %.1f kg;", ragdoll_parts[p].name,
               (double)ragdoll_parts[p].half_height, (double)ragdoll_parts[p].radius,
               (double)b->mass);
    }
    printf(" total %.1f kg, 1.80 m tall\n  joints:", (double)mass);
    for (int i = 0; i < RAGDOLL_JOINTS; i++) {
        const ragdoll_joint *j = &ragdoll_joints[i];
        if (j->type == JB_HINGE)
            printf(" %s hinge [%g, %g] rad;", j->name, (double)j->a, (double)j->b);
        else
            printf(" %s swing-twist cone %g, twist +-%g rad;", j->name, (double)j->a, (double)j->b);
    }
    printf("\nscene ragdolls: %d ragdolls (%d rows down the stairs x %d across, 2 m apart, lying "
           "face down, head downhill, released 0.5 m above the steps at %g m/s down them), %d "
           "bodies, %d joints; a staircase of %d static boxes (rise %g m, run %g m, %g m wide) "
           "and a floor box\n",
           RAGDOLL_ROWS * RAGDOLL_COLS, RAGDOLL_ROWS, RAGDOLL_COLS, (double)RAGDOLL_SPEED,
           ragdolls->body_count, ragdolls->joint_count, STAIR_STEPS, (double)STAIR_RISE,
           (double)STAIR_RUN, (double)(2.0f * STAIR_HALF_WIDTH));
}

static void print_results(const scene *s, const result *res, int engines)
{
    printf("\n[%s] %-7s %9s %10s %9s %8s %11s %9s %11s %7s %8s %22s\n", s->name, "engine",
           "steps/s", "median_ms", "max_ms", "cpu_s/s", "max_gap_mm", "at_step", "median_gap",
           "awake", "peak_MB", "mean end pos (x,y,z)");
    for (int e = 0; e < engines; e++) {
        const result *r = &res[e];
        if (!r->ok) {
            printf("[%s] %-7s failed\n", s->name, engine_name[e]);
            continue;
        }
        char pos[64];
        snprintf(pos, sizeof pos, "(%.2f,%.2f,%.2f)", (double)r->mean_pos[0],
                 (double)r->mean_pos[1], (double)r->mean_pos[2]);
        printf("[%s] %-7s %9.1f %10.3f %9.3f %8.1f %11.3f %9d %11.3f %7d %8.1f %22s\n", s->name,
               engine_name[e], 1000.0 * r->steps / r->total_ms, r->median_ms, r->max_ms,
               1000.0 * r->steps / r->cpu_ms, 1000.0 * r->max_gap, r->gap_step,
               1000.0 * r->median_gap, r->awake, r->peak_mb, pos);
    }
    const result *c = &res[ENGINE_CAIRN];
    if (c->ok)
        printf("[%s] cairn: median solver %.3f ms, narrow phase %.3f ms; largest gap at joint %d; "
               "contacts %d, points %d at the end\n",
               s->name, c->solver_ms, c->narrowphase_ms, c->gap_joint, c->manifolds, c->points);
    if (engines < ENGINES)
        return;
    const result *b = &res[ENGINE_BULLET];
    if (b->ok)
        printf("[%s] bullet: largest gap at joint %d; manifolds %d, points %d at the end\n",
               s->name, b->gap_joint, b->manifolds, b->points);
    if (c->ok && b->ok)
        printf("[%s] ratio cairn/bullet steps per second: %.2f (wall clock, medians: %.2f), %.2f "
               "(CPU time); largest gap: cairn %.3f mm, bullet %.3f mm; peak memory: cairn %.1f "
               "MB, bullet %.1f MB\n",
               s->name, b->total_ms / c->total_ms, b->median_ms / c->median_ms,
               b->cpu_ms / c->cpu_ms, 1000.0 * c->max_gap, 1000.0 * b->max_gap, c->peak_mb,
               b->peak_mb);
}

static void print_lockstep(const scene *s, const result *l)
{
    if (!l->ok) {
        printf("[%s] lockstep failed\n", s->name);
        return;
    }
    printf("[%s] lockstep (one child, a step of each engine in turn): median ms per step cairn "
           "%.3f, bullet %.3f; median of the steps' ratios (bullet ms / cairn ms) %.3f\n",
           s->name, l->lockstep_ms[ENGINE_CAIRN], l->lockstep_ms[ENGINE_BULLET], l->lockstep_ratio);
}

static void print_csv(const scene *s, const result *res, int engines)
{
    for (int e = 0; e < engines; e++) {
        const result *r = &res[e];
        if (r->ok)
            printf("%s,%s,%d,%.2f,%.4f,%.4f,%.7f,%.7f,%.2f,%d\n", s->name, engine_name[e], r->steps,
                   1000.0 * r->steps / r->total_ms, r->median_ms, r->max_ms, r->max_gap,
                   r->median_gap, r->peak_mb, r->awake);
    }
}

/* A second table after the first (whose columns stay as they were). */
static void print_lockstep_csv(const scene *s, const result *l)
{
    if (l->ok)
        printf("%s,lockstep,%d,%.4f,%.4f,%.4f\n", s->name, l->steps, l->lockstep_ms[ENGINE_CAIRN],
               l->lockstep_ms[ENGINE_BULLET], l->lockstep_ratio);
}

static int env_int(const char *name, int fallback, int lo, int hi)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return fallback;
    char *end = NULL;
    long x = strtol(v, &end, 10);
    if (*end != '\0' || x < lo || x > hi) {
        fprintf(stderr, "%s=%s: expected an integer in [%d, %d]\n", name, v, lo, hi);
        exit(2);
    }
    return (int)x;
}

/* Cairn's world def: cairn_world_default_def(), or the settings file at path (BENCH_SETTINGS)
   when not NULL. Loaded once, in the parent, so that every child gets the same def; a file that
   cannot be used ends the run (status 2) rather than quietly benchmarking the defaults. */
static cairn_world_def load_world_def(const char *path)
{
    cairn_world_def def = cairn_world_default_def();
    if (!path)
        return def;
    cairn_io_error err;
    if (!cairn_settings_load(path, &def, &err)) {
        char message[600];
        cairn_io_error_format(&err, message, sizeof message);
        fprintf(stderr, "bench_joints: BENCH_SETTINGS: %s\n", message); /* names the file */
        exit(2);
    }
    return def;
}

/* The engines' children of one scene, then (with Bullet) the lockstep child; returns the number
   of children that failed. */
static int run_scene(const scene *s, const cairn_world_def *wd, int steps, int engines,
                     result res[ENGINES], result *lockstep)
{
    int failed = 0;
    for (int e = 0; e < engines; e++)
        failed += !run_forked(e, s, wd, steps, &res[e]);
    print_results(s, res, engines);
    if (engines < ENGINES)
        return failed;
    failed += !run_forked(LOCKSTEP, s, wd, steps, lockstep);
    print_lockstep(s, lockstep);
    return failed;
}

int main(int argc, char **argv)
{
    bool want[2] = {true, true};
    if (argc > 1) {
        want[0] = !strcmp(argv[1], "chains");
        want[1] = !strcmp(argv[1], "ragdolls");
        if (argc > 2 || (!want[0] && !want[1])) {
            fprintf(stderr,
                    "usage: %s [chains|ragdolls]  (env BENCH_STEPS, BENCH_SLEEP=1, "
                    "BENCH_JOINT_FRICTION=N m, BENCH_SETTINGS=path/to/settings.yaml, "
                    "BENCH_NO_PEERS=1)\n",
                    argv[0]);
            return 2;
        }
    }
    int steps = env_int("BENCH_STEPS", DEFAULT_STEPS, 1, 1000000);
    allow_sleep = env_int("BENCH_SLEEP", 0, 0, 1) != 0;
    if (getenv("BENCH_JOINT_FRICTION"))
        joint_friction = strtof(getenv("BENCH_JOINT_FRICTION"), NULL);
    if (!(joint_friction >= 0.0f && joint_friction < 1e4f)) {
        fprintf(stderr, "BENCH_JOINT_FRICTION: expected N m in [0, 1e4)\n");
        return 2;
    }
    const char *settings_path = getenv("BENCH_SETTINGS");
    if (settings_path && !*settings_path)
        settings_path = NULL;
    const cairn_world_def wd = load_world_def(settings_path);

    static scene scenes[2];
    build_chains(&scenes[0]);
    build_ragdolls(&scenes[1]);
    for (int i = 0; i < 2; i++)
        if (!scene_mass(&scenes[i])) {
            fprintf(stderr, "shapes: %s\n", cairn_last_error());
            return 1;
        }
    printf("bench_joints: %d steps of 1/60 s on one thread, gravity %g; the gap of a joint is the "
           "distance between its two world anchors, each carried by its body, measured after "
           "every step\n",
           steps, (double)GRAVITY_Y);
    print_scenes(&scenes[0], &scenes[1]);
    print_cairn_settings(&wd, settings_path);
#ifdef CAIRN_HAVE_BULLET
    print_bullet_settings(&scenes[1]);
    const int engines = getenv("BENCH_NO_PEERS") ? 1 : ENGINES; /* Cairn alone, to profile */
#else
    printf("bullet: not found\n");
    const int engines = 1;
#endif

    result res[2][ENGINES], lockstep[2];
    memset(res, 0, sizeof res);
    memset(lockstep, 0, sizeof lockstep);
    int failed = 0;
    for (int i = 0; i < 2; i++)
        if (want[i])
            failed += run_scene(&scenes[i], &wd, steps, engines, res[i], &lockstep[i]);
    printf("\nscene,engine,steps,steps_per_second,median_ms,max_ms,max_gap_m,median_gap_m,peak_mb,"
           "awake\n");
    for (int i = 0; i < 2; i++)
        if (want[i])
            print_csv(&scenes[i], res[i], engines);
    if (engines == ENGINES) {
        printf("scene,lockstep,steps,cairn_median_ms,bullet_median_ms,median_ratio_bullet_over_"
               "cairn\n");
        for (int i = 0; i < 2; i++)
            if (want[i])
                print_lockstep_csv(&scenes[i], &lockstep[i]);
    }
    return failed ? 1 : 0;
}
