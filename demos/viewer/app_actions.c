/* What the keys and the mouse do to the app: simulation control, picking and dragging, shots,
   scenes, tuning, layers; and the live reload of saved files. */
#include "app.h"

#include <cairn/io.h>
#include <stdio.h>
#include <string.h>

#define WATCH_INTERVAL 0.25 /* seconds between two polls of the watched files */
#define STATUS_SECONDS 4.0
#define MIN_TIME_SCALE 0.125f
#define MAX_TIME_SCALE 8.0f

void app_set_status(app *a, const char *text)
{
    /* Long messages (paths, loader errors) are cut to the panel's width on purpose. */
    size_t n = strlen(text) < sizeof a->status - 1 ? strlen(text) : sizeof a->status - 1;
    memcpy(a->status, text, n);
    a->status[n] = '\0';
    a->status_seconds = STATUS_SECONDS;
}

static void before_step(void *user, cairn_world *world, float dt)
{
    picker_before_step(&((app *)user)->picker, world, dt);
    joint_controls_drive(&((app *)user)->joints, world, SDL_GetKeyboardState(NULL));
    walker_step(&((app *)user)->walker, &((app *)user)->camera, SDL_GetKeyboardState(NULL), dt);
}

static void after_step(void *user, cairn_world *world, float dt)
{
    cairn_step_stats stats = cairn_world_step_stats(world);
    stats_graph_push(&((app *)user)->graph, &stats);
    joint_controls_after_step(&((app *)user)->joints, world, dt);
    history_record(&((app *)user)->history, world);
}

/* The scene's world steps on the app's pool. */
static bool bind_pool(app *a, cairn_thread_pool *pool)
{
    cairn_world_def def = cairn_world_get_def(a->scene.world);
    cairn_thread_pool_bind(pool, &def);
    return cairn_world_set_def(a->scene.world, &def);
}

bool app_use_threads(app *a, int workers)
{
    cairn_thread_pool *pool = cairn_thread_pool_create(workers);
    char text[256];
    if (pool == NULL || !bind_pool(a, pool)) {
        snprintf(text, sizeof text, "%s",
                 pool ? cairn_last_error() : cairn_thread_pool_last_error());
        app_set_status(a, text);
        cairn_thread_pool_destroy(pool);
        return false;
    }
    cairn_thread_pool_destroy(a->pool); /* between steps: none of its tasks runs */
    a->pool = pool;
    snprintf(text, sizeof text, "the step runs on %d worker%s", workers, workers > 1 ? "s" : "");
    app_set_status(a, text);
    return true;
}

bool app_load_scene(app *a)
{
    const char *path = a->scene_path[0] ? a->scene_path : NULL;
    if (!scene_load(&a->scene, path, a->opt.settings_path)) {
        return false;
    }
    if (a->pool != NULL && !bind_pool(a, a->pool)) {
        fprintf(stderr, "cairn-demo: %s\n", cairn_last_error());
        return false;
    }
    a->picker = (picker){.dragging = false}; /* its ids named the old world's bodies and joint */
    a->joints.driving = false;
    a->joints.flash_count = 0;
    history_clear(&a->history); /* snapshots of the old world do not fit the new one */
    walker_clear(&a->walker);
    a->clock.before_step = before_step;
    a->clock.after_step = after_step;
    a->clock.user = a;
    file_watch_start(&a->scene_watch, a->scene.path[0] ? a->scene.path : NULL);
    file_watch_start(&a->settings_watch, a->opt.settings_path);
    return true;
}

/* Rebuilds the scene from its file; false when it can no longer be loaded. */
static bool reset(app *a)
{
    renderer_forget_shapes(a->renderer);
    scene_destroy(&a->scene);
    sim_clock_reset(&a->clock);
    stats_graph_clear(&a->graph);
    a->picker = (picker){.dragging = false};
    a->input.grabbing = false;
    return app_load_scene(a);
}

/* Next or previous scene of the catalogue; a scene that fails to load is reported and the
   current one reloaded instead. */
static bool switch_scene(app *a, int delta)
{
    int current = scene_list_find(&a->scenes, a->scene.path);
    char next[1024], previous[1024];
    if (!scene_list_path(&a->scenes, current < 0 ? (delta > 0 ? 0 : -1) : current + delta, next,
                         sizeof next)) {
        app_set_status(a, "no scene files in the scene directory");
        return true;
    }
    snprintf(previous, sizeof previous, "%s", a->scene_path);
    snprintf(a->scene_path, sizeof a->scene_path, "%s", next);
    if (reset(a)) {
        a->camera = camera_default();
        cairn_aabb focus;
        if (scene_focus_bounds(&a->scene, &focus)) {
            camera_frame(&a->camera, focus);
        }
        return true;
    }
    app_set_status(a, "that scene failed to load (see the terminal); kept the previous one");
    snprintf(a->scene_path, sizeof a->scene_path, "%s", previous);
    return reset(a);
}

static void shoot(app *a, const input_frame *in, bool box, int width, int height)
{
    vec3s eye = camera_eye(&a->camera);
    vec3s direction = (in->actions & INPUT_AIM) ? camera_ray(&a->camera, (float)in->mouse_x,
                                                             (float)in->mouse_y, width, height)
                                                : camera_forward(&a->camera);
    scene_shoot(&a->scene, eye, direction, box);
}

static void pick(app *a, const input_frame *in, int width, int height)
{
    vec3s eye = camera_eye(&a->camera);
    vec3s ray = camera_ray(&a->camera, (float)in->mouse_x, (float)in->mouse_y, width, height);
    if (in->actions & INPUT_PICK) {
        picker_select(&a->picker, a->scene.world, eye, ray, true);
        a->input.grabbing = a->picker.dragging;
    }
    if ((in->actions & INPUT_PICK_PARTNER) &&
        picker_select_partner(&a->picker, a->scene.world, eye, ray)) {
        a->layers |= LAYER_PAIR;
    }
    if (in->actions & INPUT_DRAG) {
        picker_move(&a->picker, eye, ray);
    }
    if (in->actions & INPUT_RELEASE) {
        picker_release(&a->picker, a->scene.world);
        a->input.grabbing = false;
    }
}

static void tune(app *a, tune_action action)
{
    cairn_solver_settings s = a->scene.def.solver;
    if (!tuning_apply(&s, action)) {
        app_set_status(a, "already at the limit of its range");
    } else if (!scene_apply_solver(a->scene.world, &s)) {
        app_set_status(a, cairn_last_error());
    } else {
        a->scene.def.solver = s;
    }
}

/* F5, F9, Backspace: snapshots (history.c); stepping back pauses. */
static void snapshot_keys(app *a, unsigned actions)
{
    const char *why = NULL;
    if ((actions & INPUT_SAVE_STATE) && history_save(&a->history, a->scene.world, &why))
        app_set_status(a, "F5: snapshot kept (F9 goes back to it)");
    if ((actions & INPUT_LOAD_STATE) && history_load(&a->history, a->scene.world, &why))
        app_set_status(a, "F9: back to the snapshot");
    if (actions & INPUT_STEP_BACK) {
        a->clock.paused = true;
        if (history_step_back(&a->history, a->scene.world, &why))
            app_set_status(a, "one step back");
    }
    if (why != NULL)
        app_set_status(a, why);
}

static void time_scale(app *a, unsigned actions)
{
    float scale = a->clock.time_scale > 0.0f ? a->clock.time_scale : 1.0f;
    if (actions & INPUT_SLOWER) {
        scale = scale * 0.5f < MIN_TIME_SCALE ? MIN_TIME_SCALE : scale * 0.5f;
    }
    if (actions & INPUT_FASTER) {
        scale = scale * 2.0f > MAX_TIME_SCALE ? MAX_TIME_SCALE : scale * 2.0f;
    }
    a->clock.time_scale = scale;
}

static void toggle_views(app *a, const input_frame *in)
{
    a->layers ^= in->layer_toggles;
    a->layers = in->layers_off ? 0u : a->layers;
    a->show_help ^= (in->actions & INPUT_HELP) != 0;
    a->show_scenes ^= (in->actions & INPUT_SCENE_LIST) != 0;
    a->show_panels ^= (in->actions & INPUT_GRAPH) != 0;
    a->screenshot_requested |= (in->actions & INPUT_SCREENSHOT) != 0;
}

bool app_apply_input(app *a, const input_frame *in, int width, int height, bool *ok)
{
    unsigned actions = in->actions;
    if (actions & INPUT_QUIT) {
        return false;
    }
    a->clock.paused ^= (actions & INPUT_PAUSE) != 0;
    snapshot_keys(a, actions);
    a->clock.step_once |= (actions & INPUT_STEP) && a->clock.paused;
    bool reloaded = true;
    if (actions & INPUT_RESET) {
        reloaded = reset(a);
    } else if (actions & (INPUT_NEXT_SCENE | INPUT_PREV_SCENE)) {
        reloaded = switch_scene(a, (actions & INPUT_NEXT_SCENE) ? 1 : -1);
    }
    if (!reloaded) {
        *ok = false;
        return false;
    }
    int workers = cairn_thread_pool_workers(a->pool);
    if ((actions & INPUT_MORE_THREADS) && workers < CAIRN_MAX_WORKERS)
        app_use_threads(a, workers + 1);
    if ((actions & INPUT_FEWER_THREADS) && workers > 1)
        app_use_threads(a, workers - 1);
    if (actions & INPUT_CHARACTER)
        app_set_status(a, walker_toggle(&a->walker, a->scene.world, &a->camera)
                              ? "character mode: W A S D walk, Space jumps, K leaves"
                              : "character mode off");
    if ((actions & INPUT_SHOOT) && a->walker.character == NULL) { /* Space jumps instead */
        shoot(a, in, false, width, height);
    }
    if (actions & INPUT_SHOOT_BOX) {
        shoot(a, in, true, width, height);
    }
    pick(a, in, width, height);
    time_scale(a, actions);
    toggle_views(a, in);
    for (int i = 0; i < in->tune_count; ++i) {
        tune(a, in->tune[i]);
    }
    return true;
}

void app_watch_files(app *a, double elapsed)
{
    a->status_seconds -= elapsed;
    a->watch_timer += elapsed;
    if (a->watch_timer < WATCH_INTERVAL) {
        return;
    }
    a->watch_timer = 0.0;
    bool scene_changed = file_watch_changed(&a->scene_watch);
    bool settings_changed = file_watch_changed(&a->settings_watch);
    if (!scene_changed && !settings_changed) {
        return;
    }
    char message[1024], text[1100];
    if (!scene_reload_settings(&a->scene, a->opt.settings_path, message, sizeof message)) {
        snprintf(text, sizeof text, "not applied: %s", message);
        fprintf(stderr, "cairn-demo: settings %s\n", text);
    } else {
        snprintf(text, sizeof text, "%s saved: solver settings applied%s",
                 scene_changed ? "scene" : "settings",
                 scene_changed ? "; R reloads the bodies" : "");
    }
    app_set_status(a, text);
}
