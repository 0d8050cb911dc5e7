/* cairn-demo under Xvfb with Mesa's software OpenGL: it renders the default scene and a falling
   pile to PNG (many colours; bodies where their physics positions project), frames of a falling
   pile differ, --record saves the frames, and a broken shader, a missing scene and a malformed
   scene each end with a clear message and a non-zero exit, not a crash. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <cairn/io.h>
#include <criterion/criterion.h>
#include <stb_image.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define WIDTH  480
#define HEIGHT 270
#define DT     (1.0f / 60.0f)

typedef struct run_result {
    int exit_code; /* -1 when the process died from a signal */
    char out[8192], err[8192];
} run_result;

static char work_dir[256];

static void need_viewer(void)
{
    if (!CAIRN_DEMO_PATH[0]) {
        cr_skip_test("cairn-demo is not built (CAIRN_BUILD_DEMOS=OFF)");
    }
}

static void need_xvfb(void)
{
    need_viewer();
    if (!CAIRN_XVFB_RUN[0]) {
        cr_skip_test("xvfb-run not found (Debian: xvfb): the viewer cannot render here");
    }
}

static void make_work_dir(void)
{
    snprintf(work_dir, sizeof work_dir, "/tmp/cairn_viewer_test_XXXXXX");
    cr_assert_not_null(mkdtemp(work_dir));
}

static void read_file(const char *path, char *out, size_t capacity)
{
    out[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (f) {
        size_t n = fread(out, 1, capacity - 1, f);
        out[n] = '\0';
        fclose(f);
    }
}

/* Runs cairn-demo with args (under Xvfb when xvfb is true), capturing stdout and stderr. Leak
   reports are off for the child: Mesa's and SDL's own allocations at exit are not ours. */
static run_result run_demo_once(const char *args, bool xvfb, int attempt)
{
    char out_path[512], err_path[512], server[128] = "", command[4096];
    snprintf(out_path, sizeof out_path, "%s/stdout.txt", work_dir);
    snprintf(err_path, sizeof err_path, "%s/stderr.txt", work_dir);
    if (xvfb) {
        /* Other tests (the game's) start Xvfb too: search for a free display from a number of
           our own, so two xvfb-run -a rarely race for the same one. */
        snprintf(server, sizeof server, "%s -a -n %d -s '-screen 0 640x480x24'", CAIRN_XVFB_RUN,
                 100 + (int)(getpid() % 400) + 7 * attempt);
    }
    snprintf(command, sizeof command, "ASAN_OPTIONS=detect_leaks=0 %s %s %s >%s 2>%s", server,
             CAIRN_DEMO_PATH, args, out_path, err_path);
    int status = system(command);
    run_result r;
    /* xvfb-run and the shell report a death by signal as 128 + the signal. */
    r.exit_code = WIFEXITED(status) && WEXITSTATUS(status) < 128 ? WEXITSTATUS(status) : -1;
    read_file(out_path, r.out, sizeof r.out);
    read_file(err_path, r.err, sizeof r.err);
    return r;
}

static run_result run_demo(const char *args, bool xvfb)
{
    run_result r = run_demo_once(args, xvfb, 0);
    for (int attempt = 1; attempt < 3 && xvfb && strstr(r.err, "Xvfb failed to start"); ++attempt) {
        r = run_demo_once(args, xvfb, attempt);
    }
    return r;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

/* ---- images ---- */

typedef struct image {
    unsigned char *pixels; /* RGB, top row first */
    int width, height;
} image;

static image load_png(const char *path)
{
    image im = {0};
    int channels;
    im.pixels = stbi_load(path, &im.width, &im.height, &channels, 3);
    cr_assert_not_null(im.pixels, "cannot decode %s: %s", path, stbi_failure_reason());
    return im;
}

static const unsigned char *pixel(const image *im, int x, int y)
{
    return im->pixels + 3 * ((size_t)y * (size_t)im->width + (size_t)x);
}

/* Distinct RGB values, counted with a bitmap over the 2^24 colours. */
static int distinct_colours(const image *im)
{
    unsigned char *seen = calloc(1u << 21, 1);
    cr_assert_not_null(seen);
    int count = 0;
    for (int i = 0; i < im->width * im->height; ++i) {
        const unsigned char *p = im->pixels + 3 * (size_t)i;
        uint32_t c = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
        if (!(seen[c >> 3] & (1u << (c & 7)))) {
            seen[c >> 3] |= (unsigned char)(1u << (c & 7));
            ++count;
        }
    }
    free(seen);
    return count;
}

/* The scenes' bodies are boxes, drawn orange-brown (red well above blue, lit or shaded); the sky
   is blue-grey and the ground a neutral grey, both with blue at least red. */
static bool body_coloured(const unsigned char *p)
{
    return p[0] > p[2] + 15 && p[0] >= p[1];
}

/* Most of the 5x5 pixels around (x, y) are body-coloured. */
static bool body_around(const image *im, int x, int y)
{
    int hits = 0, total = 0;
    for (int dy = -2; dy <= 2; ++dy) {
        for (int dx = -2; dx <= 2; ++dx) {
            int px = x + dx, py = y + dy;
            if (px >= 0 && py >= 0 && px < im->width && py < im->height) {
                hits += body_coloured(pixel(im, px, py)) ? 1 : 0;
                ++total;
            }
        }
    }
    return total > 0 && 2 * hits > total;
}

/* ---- where the bodies are ---- */

static mat4s parse_view_projection(const char *summary)
{
    const char *line = strstr(summary, "view_projection:");
    cr_assert_not_null(line, "no view_projection in the summary:\n%s", summary);
    line += strlen("view_projection:");
    mat4s m;
    for (int column = 0; column < 4; ++column) {
        for (int row = 0; row < 4; ++row) {
            char *end;
            m.raw[column][row] = strtof(line, &end);
            cr_assert(end != line, "short view_projection line");
            line = end;
        }
    }
    return m;
}

/* The scene as the viewer shows it after `steps` steps, simulated here independently. */
static cairn_world *simulate(const char *scene_path, int steps)
{
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert(cairn_scene_load(scene_path, &world, &err), "%s: %s", scene_path, err.message);
    for (int i = 0; i < steps; ++i) {
        cairn_world_step(world, DT);
    }
    return world;
}

/* Projects up to `wanted` dynamic bodies spread over the world's list that land inside the
   image; checks each lands on body-coloured pixels. Returns how many were checked. */
static int check_bodies(const image *im, cairn_world *world, mat4s vp, int wanted)
{
    cairn_body_id ids[4096];
    int count = cairn_world_bodies(world, ids, 4096);
    count = count < 4096 ? count : 4096;
    int checked = 0, stride = count / wanted > 0 ? count / wanted : 1;
    for (int i = 0; i < count && checked < wanted; i += stride) {
        if (cairn_body_get_type(world, ids[i]) != CAIRN_DYNAMIC) {
            continue;
        }
        vec3s p = cairn_body_transform(world, ids[i]).position;
        vec4s clip = glms_mat4_mulv(vp, (vec4s){{p.x, p.y, p.z, 1.0f}});
        if (clip.w <= 0.0f) {
            continue;
        }
        float x = (clip.x / clip.w * 0.5f + 0.5f) * (float)im->width;
        float y = (0.5f - clip.y / clip.w * 0.5f) * (float)im->height;
        if (x < 3 || y < 3 || x > (float)im->width - 4 || y > (float)im->height - 4) {
            continue;
        }
        const unsigned char *c = pixel(im, (int)x, (int)y);
        cr_assert(body_around(im, (int)x, (int)y),
                  "body %d at (%.2f, %.2f, %.2f) projects to pixel (%d, %d), coloured %d %d %d", i,
                  (double)p.x, (double)p.y, (double)p.z, (int)x, (int)y, c[0], c[1], c[2]);
        ++checked;
    }
    return checked;
}

/* Background exists too, so the body check could fail: the top row is sky. */
static void check_background(const image *im)
{
    int sky = 0;
    for (int x = 0; x < im->width; ++x) {
        sky += body_coloured(pixel(im, x, 0)) ? 0 : 1;
    }
    cr_assert(sky > im->width / 2, "the top row should be mostly sky");
}

/* A pile of 16 boxes dropped from 2-6 m onto a floor, 4 x 4, 1.5 m apart. */
static void write_falling_pile(const char *path)
{
    char text[4096];
    size_t used = (size_t)snprintf(text, sizeof text,
                                   "bodies:\n"
                                   "  - name: floor\n"
                                   "    type: static\n"
                                   "    shape: { box: { half_extents: [20, 1, 20] } }\n"
                                   "    position: [0, -1, 0]\n");
    for (int i = 0; i < 16; ++i) {
        used += (size_t)snprintf(text + used, sizeof text - used,
                                 "  - shape: { box: { half_extents: [0.5, 0.5, 0.5] } }\n"
                                 "    position: [%.1f, %.1f, %.1f]\n"
                                 "    euler_degrees: [%d, %d, 0]\n",
                                 -2.25 + 1.5 * (i % 4), 2.0 + 0.25 * i, -2.25 + 1.5 * (i / 4),
                                 7 * i, 11 * i);
    }
    write_text(path, text);
}

static void remove_work_dir(void)
{
    char command[512];
    snprintf(command, sizeof command, "rm -rf '%s'", work_dir);
    cr_assert_eq(system(command), 0);
}

TestSuite(viewer, .init = make_work_dir, .fini = remove_work_dir);

Test(viewer, renders_the_default_scene)
{
    need_xvfb();
    char png[512], args[1024];
    snprintf(png, sizeof png, "%s/default.png", work_dir);
    snprintf(args, sizeof args, "--paused --no-overlay --size %dx%d --screenshot %s --frames 2",
             WIDTH, HEIGHT, png);
    run_result r = run_demo(args, true);
    cr_assert_eq(r.exit_code, 0, "cairn-demo failed (%d):\n%s\n%s", r.exit_code, r.out, r.err);
    image im = load_png(png);
    cr_assert_eq(im.width, WIDTH);
    cr_assert_eq(im.height, HEIGHT);
    int colours = distinct_colours(&im);
    cr_assert(colours > 500, "only %d distinct colours", colours);
    check_background(&im);
    cairn_world *world = simulate(CAIRN_SOURCE_DIR "/demos/scenes/default.yaml", 0);
    cr_assert_geq(check_bodies(&im, world, parse_view_projection(r.out), 8), 5);
    cairn_world_destroy(world);
    stbi_image_free(im.pixels);
}

Test(viewer, renders_a_falling_pile_whose_frames_differ)
{
    need_xvfb();
    char scene[512], early[512], late[512], record[512], args[2048];
    snprintf(scene, sizeof scene, "%s/pile.yaml", work_dir);
    snprintf(early, sizeof early, "%s/early.png", work_dir);
    snprintf(late, sizeof late, "%s/late.png", work_dir);
    snprintf(record, sizeof record, "%s/frames", work_dir);
    write_falling_pile(scene);
    snprintf(args, sizeof args, "%s --no-overlay --size %dx%d --screenshot %s --frames 2", scene,
             WIDTH, HEIGHT, early);
    run_result r = run_demo(args, true);
    cr_assert_eq(r.exit_code, 0, "cairn-demo failed:\n%s\n%s", r.out, r.err);
    snprintf(args, sizeof args,
             "%s --no-overlay --size %dx%d --screenshot %s --frames 30 --record %s", scene, WIDTH,
             HEIGHT, late, record);
    r = run_demo(args, true);
    cr_assert_eq(r.exit_code, 0, "cairn-demo failed:\n%s\n%s", r.out, r.err);

    image a = load_png(early), b = load_png(late);
    int colours = distinct_colours(&b);
    cr_assert(colours > 200, "only %d distinct colours", colours);
    check_background(&b);
    size_t differing = 0;
    for (int i = 0; i < WIDTH * HEIGHT * 3; ++i) {
        differing += a.pixels[i] != b.pixels[i] ? 1 : 0;
    }
    cr_assert(differing > (size_t)(WIDTH * HEIGHT / 50), "frames 2 and 30 differ in %zu values",
              differing);
    /* 30 steps later (0.5 s) the boxes are where an independent run of the scene puts them. */
    cairn_world *world = simulate(scene, 30);
    cr_assert_geq(check_bodies(&b, world, parse_view_projection(r.out), 8), 5);
    cairn_world_destroy(world);

    /* --record saved every frame; the last one is the screenshot. */
    char last[600];
    snprintf(last, sizeof last, "%s/frame_000029.png", record);
    image recorded = load_png(last);
    cr_assert_eq(memcmp(recorded.pixels, b.pixels, (size_t)WIDTH * HEIGHT * 3), 0);
    snprintf(last, sizeof last, "%s/frame_000000.png", record);
    struct stat st;
    cr_assert_eq(stat(last, &st), 0, "first recorded frame missing");
    stbi_image_free(recorded.pixels);
    stbi_image_free(a.pixels);
    stbi_image_free(b.pixels);
}

Test(viewer, broken_shader_is_a_clear_error)
{
    need_xvfb();
    char command[1024], args[1024];
    snprintf(command, sizeof command,
             "mkdir -p %s/shaders && cp " CAIRN_SOURCE_DIR "/shaders/* %s/shaders/ && "
             "printf 'this is not GLSL;\\n' >> %s/shaders/lit.frag",
             work_dir, work_dir, work_dir);
    cr_assert_eq(system(command), 0);
    snprintf(args, sizeof args, "--shaders %s/shaders --size 160x90 --screenshot %s/x.png",
             work_dir, work_dir);
    run_result r = run_demo(args, true);
    cr_assert(r.exit_code > 0, "exit %d (want a non-zero exit, not a crash):\n%s", r.exit_code,
              r.err);
    cr_assert(strstr(r.err, "shader compile failed") && strstr(r.err, "lit.frag"),
              "stderr should name the failing file:\n%s", r.err);
}

Test(viewer, missing_scene_is_a_clear_error)
{
    need_viewer();
    run_result r = run_demo("/nonexistent/dir/no_such_scene.yaml --frames 1", false);
    cr_assert(r.exit_code > 0, "exit %d:\n%s", r.exit_code, r.err);
    cr_assert(strstr(r.err, "cannot load scene") && strstr(r.err, "no_such_scene.yaml"),
              "stderr:\n%s", r.err);
}

Test(viewer, malformed_scene_is_a_clear_error)
{
    need_viewer();
    char scene[512], args[1024], where[600];
    snprintf(scene, sizeof scene, "%s/broken.yaml", work_dir);
    write_text(scene, "bodies:\n  - name: floor\n    shape: { box: { half_extents: [1, 1] } }\n");
    snprintf(args, sizeof args, "%s --frames 1", scene);
    run_result r = run_demo(args, false);
    cr_assert(r.exit_code > 0, "exit %d:\n%s", r.exit_code, r.err);
    snprintf(where, sizeof where, "%s:3:", scene);
    cr_assert(strstr(r.err, where), "stderr should give file:line:column:\n%s", r.err);

    write_text(scene, "bodies: [ { name: floor\n");
    r = run_demo(args, false);
    cr_assert(r.exit_code > 0, "exit %d:\n%s", r.exit_code, r.err);
    cr_assert(strstr(r.err, "cannot load scene") && strstr(r.err, "broken.yaml"), "stderr:\n%s",
              r.err);
}

/* --threads T: the step runs on T workers (the summary says so); a count outside [1, 64] is
   refused before a window opens. */
Test(viewer, steps_on_several_workers)
{
    need_xvfb();
    char png[512], args[1024];
    snprintf(png, sizeof png, "%s/threads.png", work_dir);
    snprintf(args, sizeof args, "--no-overlay --size %dx%d --screenshot %s --frames 10 --threads 3",
             WIDTH, HEIGHT, png);
    run_result r = run_demo(args, true);
    cr_assert_eq(r.exit_code, 0, "cairn-demo failed (%d):\n%s\n%s", r.exit_code, r.out, r.err);
    cr_expect(strstr(r.out, "workers: 3\n") != NULL, "summary:\n%s", r.out);
    r = run_demo("--threads 0 --frames 1", false);
    cr_expect_eq(r.exit_code, 2, "exit %d:\n%s", r.exit_code, r.err);
    cr_expect(strstr(r.err, "--threads needs a worker count from 1 to 64") != NULL, "%s", r.err);
    r = run_demo("--threads 65 --frames 1", false);
    cr_expect_eq(r.exit_code, 2, "exit %d:\n%s", r.exit_code, r.err);
}
