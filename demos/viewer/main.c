/* cairn-demo: opens the window, loads the scene, runs the frame loop (input, fixed-step
   simulation, drawing), takes the screenshot and prints the run summary. */
#include "camera.h"
#include "input.h"
#include "options.h"
#include "overlay.h"
#include "renderer.h"
#include "scene.h"
#include "screenshot.h"
#include "shader.h"
#include "sim_clock.h"
#include "window.h"

#include <epoxy/gl.h>
#include <stdio.h>

#define WINDOW_WIDTH  1280
#define WINDOW_HEIGHT 720
#define FPS_SMOOTHING 0.05 /* weight of the newest frame in the displayed frame rate */

typedef struct app {
    options opt;
    window win;
    scene scene;
    renderer *renderer;
    overlay *overlay; /* NULL when its shaders fail: the view still works */
    camera camera;
    sim_clock clock;
    int frames_drawn;
    double frame_seconds; /* smoothed, for the overlay */
    char gl_renderer[256];
} app;

static void frame_camera(app *a)
{
    a->camera = camera_default();
    cairn_aabb focus;
    if (scene_focus_bounds(&a->scene, &focus)) {
        camera_frame(&a->camera, focus);
    }
}

static bool app_start(app *a)
{
    if (!scene_load(&a->scene, a->opt.scene_path)) {
        return false;
    }
    a->clock.paused = a->opt.paused;
    /* A capture should run as fast as it can; an interactive view should not tear. */
    if (!window_open(&a->win, "cairn-demo", WINDOW_WIDTH, WINDOW_HEIGHT, !a->opt.screenshot_path)) {
        return false;
    }
    snprintf(a->gl_renderer, sizeof a->gl_renderer, "%s", (const char *)glGetString(GL_RENDERER));
    char shader_dir[1024];
    shader_dir_find(shader_dir, sizeof shader_dir);
    a->renderer = renderer_create(shader_dir);
    a->overlay = a->renderer ? overlay_create(shader_dir) : NULL;
    frame_camera(a);
    return a->renderer != NULL;
}

static void app_stop(app *a)
{
    overlay_destroy(a->overlay);
    a->overlay = NULL;
    renderer_destroy(a->renderer);
    a->renderer = NULL;
    if (a->win.sdl) {
        window_close(&a->win);
    }
    scene_destroy(&a->scene);
}

/* Rebuilds the scene from its source; false when it can no longer be loaded. */
static bool app_reset(app *a)
{
    renderer_forget_shapes(a->renderer);
    scene_destroy(&a->scene);
    sim_clock_reset(&a->clock);
    return scene_load(&a->scene, a->opt.scene_path);
}

/* Applies the frame's actions; false to stop (quit, or a reset that failed). */
static bool apply_actions(app *a, unsigned actions, bool *ok)
{
    if (actions & INPUT_QUIT) {
        return false;
    }
    if (actions & INPUT_PAUSE) {
        a->clock.paused = !a->clock.paused;
    }
    if (actions & INPUT_STEP) {
        a->clock.step_once = a->clock.paused;
    }
    if ((actions & INPUT_RESET) && !app_reset(a)) {
        *ok = false;
        return false;
    }
    if (actions & INPUT_SHOOT) {
        vec3s forward = camera_forward(&a->camera);
        scene_shoot(&a->scene, camera_eye(&a->camera), forward);
    }
    return true;
}

static unsigned poll_events(app *a, int height)
{
    unsigned actions = 0;
    SDL_Event event;
    while (SDL_PollEvent(&event)) {
        actions |= input_handle(&event, &a->camera, height);
    }
    return actions;
}

static void draw_overlay(app *a, int width, int height)
{
    if (!a->overlay) {
        return;
    }
    int bodies, awake;
    renderer_body_counts(a->renderer, &bodies, &awake);
    double fps = a->frame_seconds > 0.0 ? 1.0 / a->frame_seconds : 0.0;
    char text[512];
    snprintf(text, sizeof text,
             "%.0f fps   bodies %d   awake %d   step %.2f ms%s\n"
             "P pause  O step  R reset  Space shoot  Esc quit",
             fps, bodies, awake, a->clock.last_step_ms, a->clock.paused ? "   PAUSED" : "");
    overlay_draw(a->overlay, text, width, height);
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

/* Runs frames until the user quits or --frames is reached; false on a failure (a screenshot
   that cannot be written, a scene that cannot be reloaded). */
static bool run(app *a)
{
    Uint64 last = SDL_GetPerformanceCounter();
    for (;;) {
        int width, height;
        window_drawable_size(&a->win, &width, &height);
        bool ok = true;
        if (!apply_actions(a, poll_events(a, height), &ok)) {
            return ok;
        }
        double elapsed = frame_elapsed(a, &last);
        /* A capture advances exactly one fixed step per frame, however long frames take. */
        sim_clock_advance(&a->clock, a->scene.world, a->opt.screenshot_path ? SIM_DT : elapsed);
        renderer_draw(a->renderer, a->scene.world, &a->camera, width, height);
        draw_overlay(a, width, height);
        ++a->frames_drawn;
        bool last_frame = a->opt.frames > 0 && a->frames_drawn >= a->opt.frames;
        /* Read before the swap: afterwards the back buffer's contents are undefined. */
        if (last_frame && a->opt.screenshot_path &&
            !screenshot_write_png(a->opt.screenshot_path, width, height)) {
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
    printf("step_ms: %.3f\n", sim_clock_mean_step_ms(&a->clock));
    if (a->opt.screenshot_path) {
        printf("screenshot: %s\n", a->opt.screenshot_path);
    }
    printf("msaa: %d\n", a->win.samples);
    printf("renderer: %s\n", a->gl_renderer);
}

int main(int argc, char **argv)
{
    app a = {.opt = {0}};
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
