/* cairn-run end to end: summary lines, CSV dump (free fall against the closed form), determinism
   of state_hash, and exit code 2 with a positioned message for bad scenes and arguments. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run_program.h"

#define DATA   CAIRN_SOURCE_DIR "/tests/io/data/"
#define SCENES CAIRN_SOURCE_DIR "/demos/scenes/"

static run_result *run(const char *args)
{
    return run_program(CAIRN_RUN_PATH, args);
}

static const char *summary(const run_result *r, const char *key)
{
    return run_summary(r, key);
}

Test(cairn_run, prints_every_summary_line)
{
    run_result *r = run(SCENES "stack_10.yaml --steps 5 --quiet");
    cr_assert_eq(r->code, 0, "stderr: %s", r->err);
    static const char *const keys[] = {"steps", "bodies", "steps_per_second", "contacts",
                                       "awake", "joints", "state_hash"};
    for (int i = 0; i < 7; ++i)
        cr_expect_not_null(summary(r, keys[i]), "missing %s in:\n%s", keys[i], r->out);
    cr_expect_str_eq(summary(r, "steps"), "5");
    cr_expect_str_eq(summary(r, "bodies"), "11");
    cr_expect_str_eq(summary(r, "joints") ? summary(r, "joints") : "(none)", "0");
    const char *hash = summary(r, "state_hash");
    cr_assert_not_null(hash);
    cr_expect_eq(strlen(hash), 16);
    cr_expect_eq(strspn(hash, "0123456789abcdef"), 16);
    cr_expect_gt(atof(summary(r, "steps_per_second")), 0.0);
    cr_expect_str_eq(r->err, "", "quiet run wrote to stderr: %s", r->err);
}

Test(cairn_run, state_hash_is_identical_across_runs)
{
    char first[64];
    run_result *r = run(SCENES "wall.yaml --steps 30 --quiet");
    cr_assert_eq(r->code, 0, "%s", r->err);
    snprintf(first, sizeof first, "%s", summary(r, "state_hash"));
    r = run(SCENES "wall.yaml --steps 30 --quiet");
    cr_assert_eq(r->code, 0, "%s", r->err);
    cr_expect_str_eq(summary(r, "state_hash"), first);
}

Test(cairn_run, bad_scene_exits_2_with_file_line_column)
{
    run_result *r = run(DATA "run_bad_scene.yaml --quiet");
    cr_expect_eq(r->code, 2);
    cr_expect(strstr(r->err, "run_bad_scene.yaml:4:14: bodies[0].density = -5 is outside") != NULL,
              "stderr: %s", r->err);
    cr_expect_str_eq(r->out, "");
    r = run(DATA "malformed.yaml");
    cr_expect_eq(r->code, 2);
    cr_expect(strstr(r->err, "malformed.yaml:4:1: YAML syntax error") != NULL, "stderr: %s",
              r->err);
    r = run(SCENES "stack_10.yaml --settings " DATA "nan.yaml");
    cr_expect_eq(r->code, 2);
    cr_expect(strstr(r->err, "nan.yaml:2:14: solver.baumgarte = .nan is not a finite number") !=
                  NULL,
              "stderr: %s", r->err);
}

Test(cairn_run, bad_arguments_exit_2_with_a_message)
{
    static const char *const bad[] = {
        "",
        SCENES "stack_10.yaml --steps -1",
        SCENES "stack_10.yaml --steps many",
        SCENES "stack_10.yaml --dt 0",
        SCENES "stack_10.yaml --dt nan",
        SCENES "stack_10.yaml --dump-every 0",
        SCENES "stack_10.yaml --threads 0",
        SCENES "stack_10.yaml --frobnicate 3",
        SCENES "stack_10.yaml --steps",
        SCENES "stack_10.yaml " SCENES "wall.yaml",
        DATA "no_such_scene.yaml",
        SCENES "stack_10.yaml --dump /nonexistent_dir/x.csv",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        run_result *r = run(bad[i]);
        cr_expect_eq(r->code, 2, "'%s' exited %d", bad[i], r->code);
        cr_expect_gt(strlen(r->err), 10, "'%s' gave no message", bad[i]);
    }
    cr_expect_eq(run("--help")->code, 0);
}

Test(cairn_run, dump_csv_has_header_and_rows)
{
    char csv[128], args[512];
    snprintf(csv, sizeof csv, "/tmp/cairn_run_test_%d.csv", (int)getpid());
    snprintf(args, sizeof args, SCENES "stack_10.yaml --steps 25 --dump-every 10 --dump %s --quiet",
             csv);
    run_result *r = run(args);
    cr_assert_eq(r->code, 0, "%s", r->err);
    FILE *f = fopen(csv, "r");
    cr_assert_not_null(f);
    char line[1024];
    cr_assert_not_null(fgets(line, sizeof line, f));
    cr_expect_str_eq(line, "step,body,name,px,py,pz,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz\n");
    int rows = 0, steps_seen[4] = {0};
    while (fgets(line, sizeof line, f) != NULL) {
        int step, body, fields = 1;
        for (const char *c = line; *c; ++c)
            fields += *c == ',';
        cr_expect_eq(fields, 16, "%s", line);
        cr_assert_eq(sscanf(line, "%d,%d,", &step, &body), 2);
        int slot = step == 0 ? 0 : step == 10 ? 1 : step == 20 ? 2 : step == 25 ? 3 : -1;
        cr_expect_geq(slot, 0, "unexpected step %d", step);
        if (slot >= 0)
            steps_seen[slot]++;
        if (rows == 0)
            cr_expect(strncmp(line, "0,0,floor,", 10) == 0, "%s", line);
        if (rows == 1)
            cr_expect(strncmp(line, "0,1,stack_0,", 12) == 0, "%s", line);
        rows++;
    }
    fclose(f);
    remove(csv);
    cr_expect_eq(rows, 4 * 11);
    for (int i = 0; i < 4; ++i)
        cr_expect_eq(steps_seen[i], 11);
}

Test(cairn_run, ball_drop_matches_free_fall)
{
    char csv[128], args[512];
    snprintf(csv, sizeof csv, "/tmp/cairn_run_test_fall_%d.csv", (int)getpid());
    snprintf(args, sizeof args,
             DATA "run_ball_drop.yaml --steps 60 --dt 0.0166666667 --dump %s --quiet", csv);
    run_result *r = run(args);
    cr_assert_eq(r->code, 0, "%s", r->err);
    FILE *f = fopen(csv, "r");
    cr_assert_not_null(f);
    char line[1024];
    cr_assert_not_null(fgets(line, sizeof line, f));
    const double g = 9.81, dt = 1.0 / 60.0;
    int rows = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        int step, body;
        char name[64];
        double p[3], q[4], v[3], w[3];
        cr_assert_eq(sscanf(line,
                            "%d,%d,%63[^,],%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf",
                            &step, &body, name, &p[0], &p[1], &p[2], &q[0], &q[1], &q[2], &q[3],
                            &v[0], &v[1], &v[2], &w[0], &w[1], &w[2]),
                     16, "%s", line);
        double t = step * dt;
        /* semi-implicit Euler is within g dt t / 2 of the closed form, for any substep count */
        cr_expect(fabs(p[1] - (100.0 - 0.5 * g * t * t)) <= 0.5 * g * dt * t + 1e-3,
                  "step %d: y = %f, closed form %f", step, p[1], 100.0 - 0.5 * g * t * t);
        cr_expect(fabs(v[1] + g * t) <= 1e-3 * (1.0 + t), "step %d: vy = %f, expected %f", step,
                  v[1], -g * t);
        cr_expect(fabs(p[0]) < 1e-6 && fabs(p[2]) < 1e-6);
        rows++;
    }
    fclose(f);
    remove(csv);
    cr_expect_eq(rows, 61);
}

Test(cairn_run, joints_line_counts_the_world_s_joints_at_the_end)
{
    run_result *r = run(DATA "scene_joints.yaml --steps 5 --quiet");
    cr_assert_eq(r->code, 0, "%s", r->err);
    cr_assert_not_null(summary(r, "joints"), "no joints line in:\n%s", r->out);
    cr_expect_str_eq(summary(r, "joints"), "6");
    /* the steel ball breaks welds out of the wall: fewer joints at the end than at the start */
    r = run(SCENES "breakable.yaml --steps 0 --quiet");
    cr_assert_eq(r->code, 0, "%s", r->err);
    cr_expect_str_eq(summary(r, "joints"), "317");
    r = run(SCENES "breakable.yaml --steps 60 --quiet");
    cr_assert_eq(r->code, 0, "%s", r->err);
    cr_assert_not_null(summary(r, "joints"), "no joints line in:\n%s", r->out);
    cr_expect_lt(atoi(summary(r, "joints")), 317);
}

Test(cairn_run, bad_joint_exits_2_with_file_line_column)
{
    run_result *r = run(DATA "scene_joint_unknown_body.yaml --quiet");
    cr_expect_eq(r->code, 2);
    cr_expect(strstr(r->err, "scene_joint_unknown_body.yaml:10:13: joints[0].body_b: no body is "
                             "named 'dor'") != NULL,
              "stderr: %s", r->err);
    cr_expect_str_eq(r->out, "");
}

/* --save-state after step 60 of 150 and --load-state then 90 steps end on the same state_hash
   (a pile of ragdolls in motion and a wall whose welds break after the save); a snapshot of
   another scene or a truncated one exits 2 naming the file and what was wrong. */
Test(cairn_run, save_and_load_state_continue_the_run_bit_for_bit)
{
    const char *scenes[] = {"ragdolls.yaml", "breakable.yaml"};
    char path[64], args[512], hash[64];
    snprintf(path, sizeof path, "/tmp/cairn_run_state_%d.bin", (int)getpid());
    for (int i = 0; i < 2; ++i) {
        snprintf(args, sizeof args, SCENES "%s --steps 150 --save-state %s --save-at 60 --quiet",
                 scenes[i], path);
        run_result *r = run(args);
        cr_assert_eq(r->code, 0, "%s", r->err);
        snprintf(hash, sizeof hash, "%s", summary(r, "state_hash"));
        snprintf(args, sizeof args, SCENES "%s --steps 90 --load-state %s --quiet", scenes[i],
                 path);
        r = run(args);
        cr_assert_eq(r->code, 0, "%s", r->err);
        cr_expect_str_eq(summary(r, "state_hash"), hash, "%s", scenes[i]);
    }
    snprintf(args, sizeof args, SCENES "stack_10.yaml --steps 1 --load-state %s --quiet", path);
    run_result *r = run(args);
    cr_expect_eq(r->code, 2);
    cr_expect(strstr(r->err, path) != NULL && strstr(r->err, "not its world") != NULL, "%s",
              r->err);
    FILE *file = fopen(path, "r+b");
    cr_assert_not_null(file);
    cr_assert_eq(ftruncate(fileno(file), 256), 0);
    fclose(file);
    snprintf(args, sizeof args, SCENES "breakable.yaml --steps 1 --load-state %s --quiet", path);
    r = run(args);
    cr_expect_eq(r->code, 2);
    cr_expect(strstr(r->err, "truncated or corrupt") != NULL, "%s", r->err);
    snprintf(args, sizeof args, SCENES "stack_10.yaml --save-state %s --quiet", path);
    cr_expect_eq(run(args)->code, 2, "--save-state without --save-at");
    unlink(path);
}
