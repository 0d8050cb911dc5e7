/* Back buffer to PNG: glReadPixels gives rows bottom-up, PNG wants them top-down. */
#include "screenshot.h"

#include <epoxy/gl.h>
#include <stb_image_write.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void flip_rows(unsigned char *pixels, int height, size_t row_bytes)
{
    unsigned char *tmp = malloc(row_bytes);
    if (!tmp) {
        return;
    }
    for (int top = 0, bottom = height - 1; top < bottom; ++top, --bottom) {
        memcpy(tmp, pixels + (size_t)top * row_bytes, row_bytes);
        memcpy(pixels + (size_t)top * row_bytes, pixels + (size_t)bottom * row_bytes, row_bytes);
        memcpy(pixels + (size_t)bottom * row_bytes, tmp, row_bytes);
    }
    free(tmp);
}

bool screenshot_write_png(const char *path, int width, int height)
{
    size_t row_bytes = (size_t)width * 3;
    unsigned char *pixels = malloc(row_bytes * (size_t)height);
    if (!pixels) {
        fprintf(stderr, "cairn-demo: out of memory for a %dx%d screenshot\n", width, height);
        return false;
    }
    /* Rows are tightly packed: RGB rows need not be a multiple of 4 bytes. */
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels);
    flip_rows(pixels, height, row_bytes);
    bool ok = stbi_write_png(path, width, height, 3, pixels, (int)row_bytes) != 0;
    if (!ok) {
        fprintf(stderr, "cairn-demo: cannot write %s\n", path);
    }
    free(pixels);
    return ok;
}
