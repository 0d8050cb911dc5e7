/* Writing what was just rendered to a PNG file. */
#ifndef CAIRN_DEMO_SCREENSHOT_H
#define CAIRN_DEMO_SCREENSHOT_H

#include <stdbool.h>

/* Reads the back buffer of the current context (width x height pixels) and writes it to path
   as an RGB PNG, top row first. False (message on stderr) on failure. */
bool screenshot_write_png(const char *path, int width, int height);

#endif
