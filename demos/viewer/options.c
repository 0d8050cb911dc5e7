/* Argument parsing: [SCENE.yaml] [--paused] [--screenshot OUT.png --frames N]. */
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_SCREENSHOT_FRAMES 3

static void usage(FILE *out)
{
    fprintf(out, "usage: cairn-demo [SCENE.yaml] [--paused] [--screenshot OUT.png --frames N]\n"
                 "  keys: P pause, O single step, R reset, Space shoot, Esc quit\n"
                 "  mouse: left drag orbit, middle or shift+left drag pan, wheel zoom\n");
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
