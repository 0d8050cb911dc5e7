/* Per-frame drawing on top of the scene: the engine's debug layers through the line batch, the
   grabbed body's spring, and the overlay panels (stats, graph, tuning, help, scene list). */
#include "app.h"

#include "tuning.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define GRAPH_WIDTH  400.0f
#define GRAPH_HEIGHT 90.0f
#define PAIR_ASIDE   4.0f /* metres to the right of the selected body where A - B is sketched */

static const struct {
    char key;
    const char *name;
} layer_names[] = {
    {'1', "contact points"},
    {'2', "contact normals"},
    {'3', "broadphase fat AABBs"},
    {'4', "sweep-and-prune intervals"},
    {'5', "islands / sleep state"},
    {'6', "centres of mass"},
    {'7', "velocities"},
    {'8', "broadphase pairs"},
    {'9', "GJK simplex / EPA polytope of the selected pair"},
    {'J', "joints: anchors, axes, limits, breaks"},
    {'V', "mesh BVH nodes / heightfield blocks"},
    {'L', "mesh edges: active red, inactive blue"},
};
enum { LAYER_COUNT = sizeof layer_names / sizeof layer_names[0] };

static bool id_null(cairn_body_id id)
{
    return id.index == 0 && id.generation == 0;
}

static void draw_pair(app *a, const cairn_debug_draw *api)
{
    cairn_world *w = a->scene.world;
    cairn_body_id s = a->picker.selected, p = a->picker.partner;
    if (id_null(s) || id_null(p)) {
        return;
    }
    cairn_transform xs = cairn_body_transform(w, s), xp = cairn_body_transform(w, p);
    /* A - B is centred near xs - xp: shift its origin so the sketch sits beside the pair. */
    vec3s right = glms_vec3_normalize(
        glms_vec3_cross(camera_forward(&a->camera), (vec3s){{0.0f, 1.0f, 0.0f}}));
    vec3s centre = glms_vec3_add(xs.position, glms_vec3_scale(right, PAIR_ASIDE));
    vec3s origin = glms_vec3_sub(centre, glms_vec3_sub(xs.position, xp.position));
    cairn_pair_debug_draw(cairn_body_shape(w, s), xs, cairn_body_shape(w, p), xp, origin, api,
                          NULL);
}

void app_draw_debug(app *a)
{
    if (!a->lines) {
        return;
    }
    debug_lines_clear(a->lines);
    cairn_debug_draw api = debug_lines_api(a->lines);
    cairn_world_debug_draw(a->scene.world, &api, a->layers & CAIRN_DEBUG_DRAW_ALL);
    if (a->layers & LAYER_PAIR) {
        draw_pair(a, &api);
    }
    joint_controls_draw(&a->joints, a->lines);
    walker_draw(&a->walker, a->lines);
    vec3s anchor;
    if (picker_anchor(&a->picker, a->scene.world, &anchor)) {
        debug_lines_add(a->lines, anchor, a->picker.target, (vec4s){{1, 1, 1, 1}});
        debug_lines_add_point(a->lines, a->picker.target, 8.0f, (vec4s){{1, 1, 0.3f, 1}});
    }
    debug_lines_draw(a->lines, renderer_view_projection(a->renderer));
}

static void stats_text(const app *a, char *out, size_t capacity)
{
    cairn_step_stats st = cairn_world_step_stats(a->scene.world);
    double fps = a->frame_seconds > 0.0 ? 1.0 / a->frame_seconds : 0.0;
    /* One narrow-phase query per broadphase pair. */
    float hit_rate = st.pairs > 0 ? 100.0f * (float)st.cache_hits / (float)st.pairs : 0.0f;
    hit_rate = hit_rate > 100.0f ? 100.0f : hit_rate;
    float scale = a->clock.time_scale > 0.0f ? a->clock.time_scale : 1.0f;
    const char *name = strrchr(a->scene.name, '/');
    snprintf(out, capacity,
             "%s%.0f fps   %.200s%s\n"
             "step %.2f ms: broad %.2f  narrow %.2f  solver %.2f (integrate %.2f)  islands %.2f\n"
             "bodies %d  awake %d  pairs %d  contacts %d  points %d  joints %d\n"
             "GJK mean iterations %.2f  cache hits %d (%.0f%%)  EPA calls %d\n"
             "workers %d (T / Shift+T)  colours %d  overflow %d  island groups %d%s\n"
             "time x%g%s   F1 help",
#ifndef NDEBUG
             "Debug build (slow)\n",
#else
             "",
#endif
             fps, name ? name + 1 : a->scene.name, a->clock.paused ? "   PAUSED" : "",
             (double)st.total_ms, (double)st.broadphase_ms, (double)st.narrowphase_ms,
             (double)st.solver_ms, (double)st.integrate_ms, (double)st.islands_ms, st.bodies,
             st.awake_bodies, st.pairs, st.contacts, st.points, st.joints,
             (double)st.gjk_iterations, st.cache_hits, (double)hit_rate, st.epa_calls,
             cairn_thread_pool_workers(a->pool), st.colors, st.overflow_contacts, st.island_groups,
             st.island_groups_shared ? " (whole)" : "", (double)scale,
             a->opt.record_dir ? "   REC" : "");
}

static void help_text(const app *a, char *out, size_t capacity)
{
    size_t used = (size_t)snprintf(out, capacity,
                                   "Keys (F1 hides)\n"
                                   "P pause  O step  R reload scene  [ ] slower/faster\n"
                                   "N / Shift+N next/previous scene  Tab scene list\n"
                                   "Space sphere  B or right click box  Ctrl+S screenshot\n"
                                   "left click select+drag  Ctrl+click pair partner\n"
                                   "left drag orbit  middle/Shift drag pan  wheel zoom\n"
                                   "W A S D fly  Q E down/up  G panels  Esc quit\n"
                                   "arrows drive and steer a car\n"
                                   "F5 keep a snapshot  F9 back to it  Backspace step back\n"
                                   "K character mode: W A S D walk, Space jumps\n"
                                   "T / Shift+T one worker more / fewer for the step\n"
                                   "Debug layers (0 all off):\n");
    for (int i = 0; i < LAYER_COUNT && used < capacity; ++i) {
        uint32_t bit = input_layer_of_key(layer_names[i].key);
        used += (size_t)snprintf(out + used, capacity - used, "%c [%c] %s\n", layer_names[i].key,
                                 (a->layers & bit) ? 'x' : ' ', layer_names[i].name);
    }
}

static void tuning_text(app *a, char *text, size_t size)
{
    char note[64];
    const char *settings = a->opt.settings_path ? strrchr(a->opt.settings_path, '/') : NULL;
    snprintf(note, sizeof note, "%s",
             settings ? settings + 1
                      : (a->opt.settings_path ? a->opt.settings_path : "from the scene"));
    tuning_format(&a->scene.def.solver, note, text, size);
}

/* The tuning panel at the bottom left and the stage graph at the bottom right, or above the
   panel when the window is too narrow for both side by side, or left out when there is no room
   for it below the stats panel (which ends at top_used pixels). */
static void bottom_panels(app *a, int width, int height, int top_used)
{
    char text[600];
    tuning_text(a, text, sizeof text);
    float panel_width, panel_height;
    overlay_text_size(text, &panel_width, &panel_height);
    overlay_text(a->overlay, OVERLAY_BOTTOM_LEFT, 0, text);
    const float margin = 8.0f, legend = 40.0f; /* the graph's labels sit above it */
    float x = (float)width - GRAPH_WIDTH - margin, y = (float)height - GRAPH_HEIGHT - margin;
    if (x < margin + panel_width + margin) { /* side by side they would overlap: stack */
        x = margin;
        y = (float)height - margin - panel_height - margin - GRAPH_HEIGHT;
    }
    float graph_width = fminf(GRAPH_WIDTH, (float)width - 2.0f * margin);
    if (y - legend >= (float)top_used && graph_width > 0.0f)
        stats_graph_draw(&a->graph, a->overlay, x, y, graph_width, GRAPH_HEIGHT);
}

void app_draw_overlay(app *a, int width, int height)
{
    if (!a->overlay) {
        return;
    }
    overlay_begin(a->overlay, width, height);
    char text[1024];
    int top = 0;
    if (!a->hide_stats || a->show_panels) {
        stats_text(a, text, sizeof text);
        top = overlay_text(a->overlay, OVERLAY_TOP_LEFT, 0, text);
    }
    if (a->status_seconds > 0.0 && a->status[0]) {
        top += overlay_text(a->overlay, OVERLAY_TOP_LEFT, top, a->status);
    }
    if (a->show_help) {
        help_text(a, text, sizeof text);
        overlay_text(a->overlay, OVERLAY_TOP_LEFT, top, text);
    }
    bool panels = a->show_panels && !a->show_help; /* the help is tall: it takes their place */
    if (a->show_scenes) {
        scene_list_format(&a->scenes, scene_list_find(&a->scenes, a->scene.path), text,
                          sizeof text);
        overlay_text(a->overlay, OVERLAY_TOP_RIGHT, 0, text);
    }
    if (panels)
        bottom_panels(a, width, height, top);
    overlay_end(a->overlay);
}
