/* The command line of cairn-demo. */
#ifndef CAIRN_DEMO_OPTIONS_H
#define CAIRN_DEMO_OPTIONS_H

#include <stdbool.h>

typedef struct options {
    const char *scene_path;    /* NULL: the default demo */
    const char *settings_path; /* applied over the scene's settings, watched for changes */
    const char *screenshot_path;
    const char *record_dir; /* every frame saved as DIR/frame_NNNNNN.png */
    const char *shader_dir; /* NULL: $CAIRN_SHADER_DIR, the source tree, the install location */
    int frames;             /* 0: run until the user quits */
    int width, height;      /* window size in pixels (--size WxH); 0: 1280x720 */
    unsigned layers;        /* debug layers on at start: input_layer_of_key bits (--layers 125jv) */
    bool paused;
    bool no_overlay; /* the scene alone: for README pictures and pixel tests */
    int threads;     /* --threads T: workers of the step (T changes it at run time); 1 */
} options;

/* 0 to go on; -1 after printing the help (exit 0); 2 on bad arguments (message printed). */
int options_parse(int argc, char **argv, options *opt);

#endif
