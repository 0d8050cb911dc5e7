/* cairn-demo: opens the window, loads the scene, runs the frame loop (input, fixed-step
   simulation, drawing), saves screenshots and recorded frames, and prints the run summary. */
#include "app.h"
#include "screenshot.h"
#include "shader.h"

#include <epoxy/gl.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define WINDOW_WIDTH  1280
#define WINDOW_HEIGHT 720
#define FPS_SMOOTHING 0.05 /* weight of the newest frame in the displayed frame rate */

static void frame_camera(app *a)
{
    a->camera = camera_default();
    cairn_aabb focus;
    if (scene_focus_bounds(&a->scene, &focus)) {
        camera_frame(&a->camera, focus);
    }
}

static bool make_record_dir(const char *dir)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "cairn-demo: cannot create --record directory %s: %s\n", dir,
                strerror(errno));
        return false;
    }
    return true;
}

static bool app_start(app *a)
{
    if (a->opt.scene_path) {
        snprintf(a->scene_path, sizeof a->scene_path, "%s", a->opt.scene_path);
    }
    char scene_dir[512];
    scene_dir_find(scene_dir, sizeof scene_dir);
    scene_list_read(&a->scenes, scene_dir);
    a->show_panels = !a->opt.no_overlay;
    a->hide_stats = a->opt.no_overlay;
    a->layers = a->opt.layers;
    a->pool = cairn_thread_pool_create(a->opt.threads);
    if (a->pool == NULL) {
        fprintf(stderr, "cairn-demo: %s\n", cairn_thread_pool_last_error());
        return false;
    }
    if (!app_load_scene(a) || (a->opt.record_dir && !make_record_dir(a->opt.record_dir))) {
        return false;
    }
    a->clock.paused = a->opt.paused;
    /* A capture should run as fast as it can; an interactive view should not tear. */
    bool capture = a->opt.screenshot_path || a->opt.record_dir;
    int width = a->opt.width ? a->opt.width : WINDOW_WIDTH;
    int height = a->opt.height ? a->opt.height : WINDOW_HEIGHT;
    if (!window_open(&a->win, "cairn-demo", width, height, !capture)) {
        return false;
    }
    snprintf(a->gl_renderer, sizeof a->gl_renderer, "%s", (const char *)glGetString(GL_RENDERER));
    char shader_dir[1024];
    if (a->opt.shader_dir) {
        snprintf(shader_dir, sizeof shader_dir, "%s", a->opt.shader_dir);
    } else {
        shader_dir_find(shader_dir, sizeof shader_dir);
    }
    a->renderer = renderer_create(shader_dir);
    a->overlay = a->renderer ? overlay_create(shader_dir) : NULL;
    a->lines = a->renderer ? debug_lines_create(shader_dir) : NULL;
    frame_camera(a);
    return a->renderer != NULL;
}

static void app_stop(app *a)
{
    debug_lines_destroy(a->lines);
    a->lines = NULL;
    overlay_destroy(a->overlay);
    a->overlay = NULL;
    renderer_destroy(a->renderer);
    a->renderer = NULL;
    if (a->win.sdl) {
        window_close(&a->win);
    }
    walker_clear(&a->walker);
    history_clear(&a->history);
    scene_destroy(&a->scene);
    cairn_thread_pool_destroy(a->pool);
    a->pool = NULL;
}

static input_frame poll_events(app *a, int height)
{
    input_frame frame = {.tune_count = 0};
    SDL_Event event;
    while (SDL_PollEvent(&event)) {
        input_handle(&event, &a->camera, height, &a->input, &frame);
    }
    return frame;
}

/* Seconds since the previous call (real time), and the smoothed frame time. */
static double frame_elapsed(app *a, Uint64 *last)
{
    Uint64 now = SDL_GetPerformanceCounter();
    double elapsed = (double)(now - *last) / (double)SDL_GetPerformanceFrequency();
    *last = now;
    a->frame_seconds = a->frame_seconds > 0.0
                           ? a->frame_seconds + FPS_SMOOTHING * (elapsed - a->frame_seconds)
                           : elapsed;
    return elapsed;
}

/* Screenshots and recorded frames are read before the swap: afterwards the back buffer's
   contents are undefined. */
static bool save_frame(app *a, int width, int height, bool last_frame)
{
    char path[1200];
    if (a->opt.record_dir) {
        snprintf(path, sizeof path, "%s/frame_%06d.png", a->opt.record_dir, a->frames_drawn - 1);
        if (!screenshot_write_png(path, width, height)) {
            return false;
        }
    }
    if (a->screenshot_requested) {
        a->screenshot_requested = false;
        snprintf(path, sizeof path, "cairn-demo-%03d.png", ++a->screenshots_taken);
        char text[1300];
        snprintf(text, sizeof text, "%s %s",
                 screenshot_write_png(path, width, height) ? "saved" : "could not save", path);
        app_set_status(a, text);
    }
    return !(last_frame && a->opt.screenshot_path) ||
           screenshot_write_png(a->opt.screenshot_path, width, height);
}

/* Runs frames until the user quits or --frames is reached; false on a failure (a screenshot
   that cannot be written, a scene that cannot be reloaded). */
static bool run(app *a)
{
    Uint64 last = SDL_GetPerformanceCounter();
    bool capture = a->opt.screenshot_path || a->opt.record_dir;
    for (;;) {
        int width, height;
        window_drawable_size(&a->win, &width, &height);
        bool ok = true;
        input_frame in = poll_events(a, height);
        if (!app_apply_input(a, &in, width, height, &ok)) {
            return ok;
        }
        double elapsed = frame_elapsed(a, &last);
        if (a->walker.character == NULL) /* W A S D walk the character instead */
            input_fly(&a->camera, elapsed);
        app_watch_files(a, elapsed);
        /* A capture advances exactly one fixed step per frame, however long frames take. */
        sim_clock_advance(&a->clock, a->scene.world, capture ? SIM_DT : elapsed);
        picker_validate(&a->picker, a->scene.world);
        walker_follow(&a->walker, &a->camera);
        renderer_set_selection(a->renderer, a->picker.selected, a->picker.partner);
        renderer_draw(a->renderer, a->scene.world, &a->camera, width, height);
        app_draw_debug(a);
        app_draw_overlay(a, width, height);
        ++a->frames_drawn;
        bool last_frame = a->opt.frames > 0 && a->frames_drawn >= a->opt.frames;
        if (!save_frame(a, width, height, last_frame)) {
            return false;
        }
        SDL_GL_SwapWindow(a->win.sdl);
        if (last_frame) {
            return true;
        }
    }
}

static void print_summary(const app *a)
{
    int bodies, awake;
    renderer_body_counts(a->renderer, &bodies, &awake);
    printf("scene: %s\n", a->scene.name);
    printf("bodies: %d\n", bodies);
    printf("awake: %d\n", awake);
    printf("contacts: %d\n", cairn_world_step_stats(a->scene.world).contacts);
    printf("frames: %d\n", a->frames_drawn);
    printf("steps: %d\n", a->clock.steps);
    printf("workers: %d\n", cairn_world_step_stats(a->scene.world).workers);
    printf("step_ms: %.3f\n", sim_clock_mean_step_ms(&a->clock));
    if (a->opt.screenshot_path) {
        printf("screenshot: %s\n", a->opt.screenshot_path);
    }
    printf("msaa: %d\n", a->win.samples);
    printf("renderer: %s\n", a->gl_renderer);
    /* The last frame's camera, so a test can project body positions onto the screenshot. */
    mat4s vp = renderer_view_projection(a->renderer);
    printf("view_projection:");
    for (int column = 0; column < 4; ++column) {
        for (int row = 0; row < 4; ++row) {
            printf(" %.9g", (double)vp.raw[column][row]);
        }
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    static app a; /* large (the scene list); zero-initialised */
    int code = options_parse(argc, argv, &a.opt);
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
