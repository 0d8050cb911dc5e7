/* cairn-run: runs a scene headless and prints a summary. Scene loading arrives with cairn_io's
   scene support; until then every scene is reported as unsupported (exit code 2). */
#include <cairn/io.h>

#include <stdio.h>
#include <string.h>

static int usage(void)
{
    fprintf(stderr, "usage: cairn-run SCENE.yaml [--settings FILE.yaml] [--steps N] [--dt SECONDS]"
                    " [--threads T] [--dump FILE.csv] [--dump-every K] [--quiet]\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0)
        return usage();
    cairn_io_error error = {.line = 0, .column = 0};
    snprintf(error.file, sizeof error.file, "%s", argv[1]);
    snprintf(error.message, sizeof error.message,
             "scene files are not supported by this build yet");
    char text[600];
    cairn_io_error_format(&error, text, sizeof text);
    fprintf(stderr, "cairn-run: %s\n", text);
    return 2;
}
