/* Argument parsing: [SCENE.yaml] [--settings FILE] [--paused] [--screenshot OUT.png]
   [--frames N] [--record DIR] [--shaders DIR]. */
#include "options.h"

#include "input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_SCREENSHOT_FRAMES 3

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: cairn-demo [SCENE.yaml] [--settings FILE.yaml] [--paused] [--layers 125]\n"
        "                  [--screenshot OUT.png] [--frames N] [--record DIR]\n"
        "                  [--shaders DIR] [--size WxH] [--no-overlay] [--threads T]\n"
        "  SCENE       a scene file, or builtin:surfaces (the pre-solve demo: a conveyor,\n"
        "              a bouncy pad and a one-way platform)\n"
        "  --settings  solver settings applied over the scene's; reloaded when saved\n"
        "  --screenshot  save the last frame (after --frames N, default 3) and exit\n"
        "  --record    save every frame as DIR/frame_NNNNNN.png (for a video)\n"
        "  --shaders   directory of the .vert/.frag files\n"
        "  --no-overlay  the scene without text panels (G and F1 still work)\n"
        "  --size      window size in pixels, e.g. 960x540 (default 1280x720)\n"
        "  --layers    debug layers on at start, as their keys (1-9 j v l, e.g. 125jv; default j)\n"
        "  --threads   workers that step the world, 1 to 64 (default 1; T / Shift+T change it)\n"
        "  keys: F1 in the window lists them all (P pause, O step, R reset, Space\n"
        "        sphere, B box, N next scene, 1-9 J V L debug layers, Esc quit)\n"
        "  mouse: left click select + drag, left drag orbit, middle or shift+left drag\n"
        "         pan, wheel zoom, right click shoot a box; WASD/QE fly\n");
}

/* WxH, each from 64 to 8192 pixels. */
static bool parse_size(const char *text, int *width, int *height)
{
    char *end = NULL;
    long w = strtol(text, &end, 10);
    if (*end != 'x') {
        return false;
    }
    const char *rest = end + 1;
    long h = strtol(rest, &end, 10);
    if (!rest[0] || *end || w < 64 || w > 8192 || h < 64 || h > 8192) {
        return false;
    }
    *width = (int)w;
    *height = (int)h;
    return true;
}

/* Layer keys: digits 1-9, j, v and l. */
static bool parse_layers(const char *text, unsigned *out)
{
    *out = 0;
    for (const char *c = text; *c; ++c) {
        uint32_t bit = input_layer_of_key(*c);
        if (bit == 0) {
            return false;
        }
        *out |= bit;
    }
    return text[0] != '\0';
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

int options_parse(int argc, char **argv, options *opt)
{
    opt->layers = CAIRN_DEBUG_DRAW_JOINTS; /* joints are invisible otherwise */
    opt->threads = 1;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return -1;
        } else if (!strcmp(a, "--paused")) {
            opt->paused = true;
        } else if (!strcmp(a, "--no-overlay")) {
            opt->no_overlay = true;
        } else if (!strcmp(a, "--settings") && has_value) {
            opt->settings_path = argv[++i];
        } else if (!strcmp(a, "--record") && has_value) {
            opt->record_dir = argv[++i];
        } else if (!strcmp(a, "--size") && has_value) {
            if (!parse_size(argv[++i], &opt->width, &opt->height)) {
                fprintf(stderr, "cairn-demo: --size needs WxH, e.g. 960x540 (64 to 8192 each)\n");
                return 2;
            }
        } else if (!strcmp(a, "--layers") && has_value) {
            if (!parse_layers(argv[++i], &opt->layers)) {
                fprintf(stderr,
                        "cairn-demo: --layers takes layer keys 1-9, j, v and l, e.g. 125jv\n");
                return 2;
            }
        } else if (!strcmp(a, "--threads") && has_value) {
            if (!parse_count(argv[++i], &opt->threads) || opt->threads > CAIRN_MAX_WORKERS) {
                fprintf(stderr, "cairn-demo: --threads needs a worker count from 1 to %d\n",
                        CAIRN_MAX_WORKERS);
                return 2;
            }
        } else if (!strcmp(a, "--shaders") && has_value) {
            opt->shader_dir = argv[++i];
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
