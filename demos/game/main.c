/* cairn-game: knock the blocks off the platform. Parses the command line and runs either the
   headless round (--headless) or the windowed game. */
#include "headless.h"
#include "level.h"
#include "play.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct options {
    bool headless;
    const char *shots;
    play_options play; /* level, walk script and replay; frames/screenshot for the window */
} options;

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: cairn-game [--level N] [--headless] [--shots FILE | --walk FILE] [--replay]\n"
        "                  [--frames N [--screenshot FILE.png]]\n"
        "  --level N          level 1 to %d (default 1)\n"
        "  --headless         no window: play the script at 60 Hz, print the score\n"
        "  --shots FILE       one shot per line: time(s) aim_x aim_y aim_z(m) speed(m/s)\n"
        "  --walk FILE        walking level, one stretch per line: steps vx vz(m/s) jump(0/1);\n"
        "                     in the window it plays one step per frame instead of the keys\n"
        "  --replay           walking level: replay the round from its snapshots once it is\n"
        "                     over and print the replay's final state (the same as the round's)\n"
        "  --frames N         window: quit after N frames\n"
        "  --screenshot FILE  window: write the last frame as PNG (needs --frames)\n",
        level_count());
}

/* An integer in [min, max]; false after a message naming the option. */
static bool parse_int(const char *option, const char *text, int min, int max, int *out)
{
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno != 0 || value < min || value > max) {
        fprintf(stderr, "cairn-game: %s '%s' is not an integer in [%d, %d]\n", option, text, min,
                max);
        return false;
    }
    *out = (int)value;
    return true;
}

static bool takes_value(const char *arg)
{
    static const char *const with_value[] = {"--level", "--shots", "--walk", "--frames",
                                             "--screenshot"};
    for (size_t i = 0; i < sizeof with_value / sizeof with_value[0]; ++i) {
        if (strcmp(arg, with_value[i]) == 0) {
            return true;
        }
    }
    return false;
}

/* The options that exclude each other; false after a message. */
static bool check_combination(const options *opt)
{
    if (opt->shots && !opt->headless) {
        fprintf(stderr, "cairn-game: --shots needs --headless\n");
        return false;
    }
    level_layout layout;
    if ((opt->play.walk || opt->play.replay) && level_build(opt->play.level, &layout) &&
        layout.kind != LEVEL_WALK) {
        fprintf(stderr, "cairn-game: level %d is shot at: --walk and --replay are for walking\n",
                opt->play.level);
        return false;
    }
    if (opt->shots && opt->play.walk) {
        fprintf(stderr, "cairn-game: --shots or --walk, not both\n");
        return false;
    }
    if (opt->headless && (opt->play.frames > 0 || opt->play.screenshot)) {
        fprintf(stderr, "cairn-game: --frames and --screenshot are for the window\n");
        return false;
    }
    if (opt->play.screenshot && opt->play.frames == 0) {
        fprintf(stderr, "cairn-game: --screenshot needs --frames\n");
        return false;
    }
    return true;
}

/* 0: run; 1: --help was printed; 2: bad arguments (message on stderr). */
static int parse(int argc, char **argv, options *opt)
{
    *opt = (options){.play = {.level = 1}};
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (takes_value(arg) && i + 1 >= argc) {
            fprintf(stderr, "cairn-game: %s needs a value\n", arg);
            return 2;
        }
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return 1;
        } else if (strcmp(arg, "--headless") == 0) {
            opt->headless = true;
        } else if (strcmp(arg, "--replay") == 0) {
            opt->play.replay = true;
        } else if (strcmp(arg, "--level") == 0) {
            if (!parse_int(arg, argv[++i], 1, level_count(), &opt->play.level)) {
                return 2;
            }
        } else if (strcmp(arg, "--frames") == 0) {
            if (!parse_int(arg, argv[++i], 1, 1000000, &opt->play.frames)) {
                return 2;
            }
        } else if (strcmp(arg, "--shots") == 0) {
            opt->shots = argv[++i];
        } else if (strcmp(arg, "--walk") == 0) {
            opt->play.walk = argv[++i];
        } else if (strcmp(arg, "--screenshot") == 0) {
            opt->play.screenshot = argv[++i];
        } else {
            fprintf(stderr, "cairn-game: unknown argument '%s'\n", arg);
            usage(stderr);
            return 2;
        }
    }
    return check_combination(opt) ? 0 : 2;
}

int main(int argc, char **argv)
{
    options opt;
    int code = parse(argc, argv, &opt);
    if (code != 0) {
        return code == 1 ? 0 : code;
    }
    if (opt.headless) {
        headless_options run = {opt.play.level, opt.shots, opt.play.walk, opt.play.replay};
        return headless_run(&run);
    }
    return play_run(&opt.play);
}
