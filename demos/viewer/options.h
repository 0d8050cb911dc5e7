/* The command line of cairn-demo. */
#ifndef CAIRN_DEMO_OPTIONS_H
#define CAIRN_DEMO_OPTIONS_H

#include <stdbool.h>

typedef struct options {
    const char *scene_path; /* NULL: the default demo */
    const char *screenshot_path;
    int frames; /* 0: run until the user quits */
    bool paused;
} options;

/* 0 to go on; -1 after printing the help (exit 0); 2 on bad arguments (message printed). */
int options_parse(int argc, char **argv, options *opt);

#endif
