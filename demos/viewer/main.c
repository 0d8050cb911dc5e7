/* cairn-demo: parses arguments, opens the window, runs the frame loop, takes the screenshot
   and prints the run summary. */
#include "camera.h"
#include "input.h"
#include "renderer.h"
#include "scene.h"
#include "screenshot.h"
#include "shader.h"
#include "window.h"

#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW_WIDTH              1280
#define WINDOW_HEIGHT             720
#define DEFAULT_SCREENSHOT_FRAMES 3

typedef struct options {
    const char *scene_path; /* NULL: the built-in scene */
    const char *screenshot_path;
    int frames; /* 0: run until the user quits */
    bool paused;
} options;

typedef struct app {
    options opt;
    window win;
    scene scene;
    renderer *renderer;
    camera camera;
    int frames_drawn;
    char gl_renderer[256];
} app;

static void usage(FILE *out)
{
    fprintf(out, "usage: cairn-demo [SCENE.yaml] [--paused] [--screenshot OUT.png --frames N]\n");
}

static bool parse_count(const char *text, int *out)
{
    char *end = NULL;
    long n = strtol(text, &end, 10);
    if (!text[0] || *end || n < 1 || n > 1000000) {
        return false;
    }
    *out = (int)n;
    return true;
}

/* 0 to go on, else the process exit code (2 on bad arguments). */
static int parse_args(int argc, char **argv, options *opt)
{
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return -1;
        } else if (!strcmp(a, "--paused")) {
            opt->paused = true;
        } else if (!strcmp(a, "--screenshot") && has_value) {
            opt->screenshot_path = argv[++i];
        } else if (!strcmp(a, "--frames") && has_value) {
            if (!parse_count(argv[++i], &opt->frames)) {
                fprintf(stderr, "cairn-demo: --frames needs a count from 1 to 1000000\n");
                return 2;
            }
        } else if (a[0] != '-' && !opt->scene_path) {
            opt->scene_path = a;
        } else {
            fprintf(stderr, "cairn-demo: unexpected argument '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (opt->screenshot_path && opt->frames == 0) {
        opt->frames = DEFAULT_SCREENSHOT_FRAMES;
    }
    return 0;
}

static bool app_start(app *a)
{
    if (a->opt.scene_path) {
        fprintf(stderr, "cairn-demo: scene files arrive with cairn_io; showing the built-in "
                        "stacking scene\n");
    }
    if (!static_scene_create(&a->scene)) {
        return false;
    }
    /* A capture should run as fast as it can; an interactive view should not tear. */
    if (!window_open(&a->win, "cairn-demo", WINDOW_WIDTH, WINDOW_HEIGHT, !a->opt.screenshot_path)) {
        return false;
    }
    snprintf(a->gl_renderer, sizeof a->gl_renderer, "%s", (const char *)glGetString(GL_RENDERER));
    char shader_dir[1024];
    shader_dir_find(shader_dir, sizeof shader_dir);
    a->renderer = renderer_create(shader_dir, &a->scene);
    a->camera = camera_default();
    return a->renderer != NULL;
}

static void app_stop(app *a)
{
    renderer_destroy(a->renderer);
    a->renderer = NULL;
    if (a->win.sdl) {
        window_close(&a->win);
    }
    scene_destroy(&a->scene);
}

static bool poll_events(app *a, int height)
{
    bool quit = false;
    SDL_Event event;
    while (SDL_PollEvent(&event)) {
        quit = input_handle(&event, &a->camera, height) || quit;
    }
    return quit;
}

/* Draws frames until the user quits or --frames is reached; false when the screenshot fails. */
static bool run(app *a)
{
    for (;;) {
        int width, height;
        window_drawable_size(&a->win, &width, &height);
        if (poll_events(a, height)) {
            return true;
        }
        renderer_draw(a->renderer, &a->scene, &a->camera, width, height);
        ++a->frames_drawn;
        bool last = a->opt.frames > 0 && a->frames_drawn >= a->opt.frames;
        /* Read before the swap: afterwards the back buffer's contents are undefined. */
        if (last && a->opt.screenshot_path &&
            !screenshot_write_png(a->opt.screenshot_path, width, height)) {
            return false;
        }
        SDL_GL_SwapWindow(a->win.sdl);
        if (last) {
            return true;
        }
    }
}

static void print_summary(const app *a)
{
    printf("scene: %s\n", a->scene.name);
    printf("bodies: %d\n", a->scene.body_count);
    printf("frames: %d\n", a->frames_drawn);
    if (a->opt.screenshot_path) {
        printf("screenshot: %s\n", a->opt.screenshot_path);
    }
    printf("msaa: %d\n", a->win.samples);
    printf("renderer: %s\n", a->gl_renderer);
}

int main(int argc, char **argv)
{
    app a = {.opt = {0}};
    int code = parse_args(argc, argv, &a.opt);
    if (code != 0) {
        return code < 0 ? 0 : code;
    }
    bool ok = app_start(&a) && run(&a);
    if (ok) {
        print_summary(&a);
    }
    app_stop(&a);
    return ok ? 0 : 1;
}
