/* cairn-run: loads a scene, steps it headless, prints a summary (and optionally a CSV dump of
   every body). Exit code 0 on success, 2 on bad arguments or a bad scene. */
#define _POSIX_C_SOURCE 200809L
#include <cairn/io.h>
#include <cairn/thread_pool.h>

#include "state_file.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct run_args {
    const char *scene;
    const char *settings;
    const char *dump;
    const char *save_state, *load_state;
    long save_at; /* -1: not given */
    long steps;
    double dt;
    long threads;
    long dump_every;
    bool quiet;
} run_args;

typedef struct run_body {
    cairn_body_id id;
    char name[CAIRN_IO_NAME_CAPACITY];
} run_body;

typedef struct body_list {
    run_body *items;
    int count, capacity;
    bool out_of_memory;
} body_list;

static int usage(const char *problem)
{
    if (problem != NULL)
        fprintf(stderr, "cairn-run: %s\n", problem);
    fprintf(stderr, "usage: cairn-run SCENE.yaml [--settings FILE.yaml] [--steps N] [--dt SECONDS]"
                    " [--threads T] [--dump FILE.csv] [--dump-every K] [--quiet]"
                    " [--save-state FILE --save-at K] [--load-state FILE]\n");
    return 2;
}

static bool parse_long(const char *text, long low, long high, long *out)
{
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || value < low || value > high)
        return false;
    *out = value;
    return true;
}

static bool parse_seconds(const char *text, double *out)
{
    char *end = NULL;
    double value = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(value) || value <= 0.0 ||
        value > (double)CAIRN_MAX_TIME_STEP)
        return false;
    *out = value;
    return true;
}

/* Returns 0 when the arguments are good, -1 after --help, else the exit code (after printing
   why). */
static int parse_args(int argc, char **argv, run_args *args)
{
    *args =
        (run_args){.steps = 600, .dt = 1.0 / 60.0, .threads = 1, .dump_every = 1, .save_at = -1};
    char problem[256];
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(NULL);
            return -1;
        }
        if (strcmp(arg, "--quiet") == 0) {
            args->quiet = true;
            continue;
        }
        if (strncmp(arg, "--", 2) != 0) {
            if (args->scene != NULL)
                return usage("more than one scene given");
            args->scene = arg;
            continue;
        }
        if (i + 1 >= argc) {
            snprintf(problem, sizeof problem, "%s needs a value", arg);
            return usage(problem);
        }
        const char *value = argv[++i];
        bool ok = true;
        if (strcmp(arg, "--settings") == 0)
            args->settings = value;
        else if (strcmp(arg, "--dump") == 0)
            args->dump = value;
        else if (strcmp(arg, "--save-state") == 0)
            args->save_state = value;
        else if (strcmp(arg, "--load-state") == 0)
            args->load_state = value;
        else if (strcmp(arg, "--save-at") == 0)
            ok = parse_long(value, 0, 100000000L, &args->save_at);
        else if (strcmp(arg, "--steps") == 0)
            ok = parse_long(value, 0, 100000000L, &args->steps);
        else if (strcmp(arg, "--dump-every") == 0)
            ok = parse_long(value, 1, 100000000L, &args->dump_every);
        else if (strcmp(arg, "--threads") == 0)
            ok = parse_long(value, 1, CAIRN_MAX_WORKERS, &args->threads);
        else if (strcmp(arg, "--dt") == 0)
            ok = parse_seconds(value, &args->dt);
        else {
            snprintf(problem, sizeof problem, "unknown option %s", arg);
            return usage(problem);
        }
        if (!ok) {
            snprintf(problem, sizeof problem, "bad value for %s: '%s'%s", arg, value,
                     strcmp(arg, "--dt") == 0 ? " (seconds in (0, 0.25])" : "");
            return usage(problem);
        }
    }
    if (args->scene == NULL)
        return usage("no scene given");
    if ((args->save_state == NULL) != (args->save_at < 0))
        return usage("--save-state and --save-at go together");
    if (args->save_at > args->steps)
        return usage("--save-at is beyond --steps");
    return 0;
}

static void remember_body(void *user, const cairn_scene_body *body)
{
    body_list *list = user;
    if (list->count == list->capacity) {
        int capacity = list->capacity ? 2 * list->capacity : 256;
        run_body *items = realloc(list->items, (size_t)capacity * sizeof *items);
        if (items == NULL) {
            list->out_of_memory = true;
            return;
        }
        list->items = items;
        list->capacity = capacity;
    }
    run_body *entry = &list->items[list->count++];
    entry->id = body->id;
    snprintf(entry->name, sizeof entry->name, "%s", body->name);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void dump_step(FILE *out, const cairn_world *world, const body_list *bodies, long step)
{
    for (int i = 0; i < bodies->count; ++i) {
        cairn_body_id id = bodies->items[i].id;
        cairn_transform xf = cairn_body_transform(world, id);
        vec3s v = cairn_body_linear_velocity(world, id);
        vec3s w = cairn_body_angular_velocity(world, id);
        fprintf(out, "%ld,%d,%s,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n",
                step, i, bodies->items[i].name, (double)xf.position.x, (double)xf.position.y,
                (double)xf.position.z, (double)xf.rotation.x, (double)xf.rotation.y,
                (double)xf.rotation.z, (double)xf.rotation.w, (double)v.x, (double)v.y, (double)v.z,
                (double)w.x, (double)w.y, (double)w.z);
    }
}

/* A one-line bar on stderr, shown once a run has taken a couple of seconds. */
typedef struct progress {
    bool enabled, shown;
    double start, last;
} progress;

static void progress_update(progress *p, long step, long total)
{
    if (!p->enabled)
        return;
    double t = now_seconds();
    if (t - p->start < 2.0 || t - p->last < 0.1)
        return;
    p->last = t;
    p->shown = true;
    int width = 40, filled = (int)((double)width * (double)step / (double)total);
    char bar[41];
    for (int i = 0; i < width; ++i)
        bar[i] = i < filled ? '#' : '.';
    bar[width] = '\0';
    fprintf(stderr, "\r[%s] %3d%% %ld/%ld steps", bar, (int)(100.0 * (double)step / (double)total),
            step, total);
    fflush(stderr);
}

static void progress_end(progress *p)
{
    if (p->shown)
        fprintf(stderr, "\r%80s\r", "");
}

/* Writes the snapshot after step `step` when it is the one asked for; false (after saying why)
   when it cannot. */
static bool save_if_due(const run_args *args, const cairn_world *world, long step)
{
    char why[512];
    if (step != args->save_at || state_file_save(world, args->save_state, why, sizeof why))
        return true;
    fprintf(stderr, "cairn-run: %s\n", why);
    return false;
}

static int run(const run_args *args, cairn_world *world, const body_list *bodies)
{
    FILE *dump = NULL;
    if (args->dump != NULL) {
        dump = fopen(args->dump, "w");
        if (dump == NULL) {
            fprintf(stderr, "cairn-run: cannot write %s: %s\n", args->dump, strerror(errno));
            return 2;
        }
        fprintf(dump, "step,body,name,px,py,pz,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz\n");
        dump_step(dump, world, bodies, 0);
    }
    progress bar = {.enabled = !args->quiet && isatty(STDERR_FILENO)};
    bar.start = bar.last = now_seconds();
    double start = now_seconds();
    bool saved = save_if_due(args, world, 0);
    for (long step = 1; step <= args->steps && saved; ++step) {
        cairn_world_step(world, (float)args->dt);
        if (dump != NULL && (step % args->dump_every == 0 || step == args->steps))
            dump_step(dump, world, bodies, step);
        progress_update(&bar, step, args->steps);
        saved = save_if_due(args, world, step);
    }
    if (!saved) {
        if (dump != NULL)
            fclose(dump);
        return 2;
    }
    double elapsed = now_seconds() - start;
    progress_end(&bar);
    if (dump != NULL && fclose(dump) != 0) {
        fprintf(stderr, "cairn-run: cannot write %s\n", args->dump);
        return 2;
    }
    int awake = 0;
    for (int i = 0; i < bodies->count; ++i)
        awake += cairn_body_is_awake(world, bodies->items[i].id) ? 1 : 0;
    printf("steps: %ld\n", args->steps);
    printf("bodies: %d\n", bodies->count);
    printf("steps_per_second: %.1f\n", elapsed > 0.0 ? (double)args->steps / elapsed : 0.0);
    printf("contacts: %d\n", cairn_world_step_stats(world).contacts);
    printf("awake: %d\n", awake);
    printf("joints: %d\n", cairn_world_joint_count(world));
    printf("state_hash: %016" PRIx64 "\n", cairn_world_state_hash(world));
    return 0;
}

/* --threads T: the world steps on a pool of T workers (the state hash is the same for every T). */
static bool use_threads(cairn_world *world, int threads, cairn_thread_pool **pool)
{
    if (threads == 1)
        return true;
    *pool = cairn_thread_pool_create(threads);
    if (*pool == NULL) {
        fprintf(stderr, "cairn-run: %s\n", cairn_thread_pool_last_error());
        return false;
    }
    cairn_world_def def = cairn_world_get_def(world);
    cairn_thread_pool_bind(*pool, &def);
    if (!cairn_world_set_def(world, &def)) {
        fprintf(stderr, "cairn-run: %s\n", cairn_last_error());
        return false;
    }
    return true;
}

int main(int argc, char **argv)
{
    run_args args;
    int code = parse_args(argc, argv, &args);
    if (code != 0)
        return code < 0 ? 0 : code;
    body_list bodies = {0};
    cairn_scene_options options = cairn_scene_default_options();
    options.settings_path = args.settings;
    options.on_body = remember_body;
    options.user = &bodies;
    cairn_world *world = NULL;
    cairn_io_error error;
    if (!cairn_scene_load_ex(args.scene, &options, &world, &error)) {
        char text[600];
        cairn_io_error_format(&error, text, sizeof text);
        fprintf(stderr, "%s\n", text);
        free(bodies.items);
        return 2;
    }
    char why[512];
    cairn_thread_pool *pool = NULL;
    if (bodies.out_of_memory) {
        fprintf(stderr, "cairn-run: out of memory\n");
        code = 2;
    } else if (!use_threads(world, (int)args.threads, &pool)) {
        code = 2;
    } else if (args.load_state != NULL &&
               !state_file_load(world, args.load_state, why, sizeof why)) {
        fprintf(stderr, "cairn-run: %s\n", why);
        code = 2;
    } else {
        code = run(&args, world, &bodies);
    }
    cairn_world_destroy(world);
    cairn_thread_pool_destroy(pool);
    free(bodies.items);
    return code;
}
