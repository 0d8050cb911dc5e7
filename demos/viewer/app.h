/* The viewer's state and the pieces of its frame: actions from input, debug layers, overlay
   panels. main.c owns the loop. */
#ifndef CAIRN_DEMO_APP_H
#define CAIRN_DEMO_APP_H

#include "camera.h"
#include "debug_lines.h"
#include "file_watch.h"
#include "input.h"
#include "joint_controls.h"
#include "options.h"
#include "overlay.h"
#include "picker.h"
#include "renderer.h"
#include "walker.h"
#include "history.h"
#include "scene.h"
#include "scene_list.h"
#include "sim_clock.h"
#include "stats_graph.h"
#include "window.h"

#include <cairn/thread_pool.h>

typedef struct app {
    options opt;
    window win;
    scene scene;
    char scene_path[1024]; /* the scene now shown ("" for the default demo) */
    renderer *renderer;
    overlay *overlay;   /* NULL when its shaders fail: the view still works */
    debug_lines *lines; /* NULL when its shaders fail: no debug layers */
    camera camera;
    sim_clock clock;
    picker picker;
    joint_controls joints;
    history history; /* F5/F9 and stepping back */
    walker walker;   /* K: the character mode */
    input_state input;
    scene_list scenes;
    file_watch scene_watch, settings_watch;
    double watch_timer; /* seconds since the files were last polled */
    stats_graph graph;
    uint32_t layers; /* CAIRN_DEBUG_DRAW_* bits plus LAYER_PAIR */
    bool show_help, show_scenes, show_panels;
    bool hide_stats;       /* --no-overlay: no stats panel either (G brings the panels back) */
    char status[256];      /* a passing message (reloads, screenshots, errors) */
    double status_seconds; /* how long it stays */
    bool screenshot_requested;
    int screenshots_taken;
    int frames_drawn;
    double frame_seconds; /* smoothed, for the overlay */
    char gl_renderer[256];
    cairn_thread_pool *pool; /* the step's workers (T / Shift+T: one more, one fewer) */
} app;

/* app_actions.c */
/* Applies one frame of input; false to stop (quit, or a scene that can no longer be loaded). */
bool app_apply_input(app *a, const input_frame *in, int width, int height, bool *ok);
/* Loads a_scene_path (or the default) into a fresh scene; false when it cannot be loaded. */
bool app_load_scene(app *a);
/* Polls the scene and settings files a few times a second; applies saved settings at once. */
void app_watch_files(app *a, double elapsed);
void app_set_status(app *a, const char *text);
/* Steps the scene's world on a new pool of `workers` workers (the old pool goes); false, with the
   status saying why, when the pool cannot be made (the old one stays). */
bool app_use_threads(app *a, int workers);

/* app_draw.c */
/* The debug layers of this frame into the line batch, then drawn over the scene. */
void app_draw_debug(app *a);
/* Every overlay panel. */
void app_draw_overlay(app *a, int width, int height);

#endif
