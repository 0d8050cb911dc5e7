/* `heightfield: { image: hills.png, scale: [sx, sy, sz] }`: a grey-level image (PNG, or any
   format stb_image reads; 8 or 16 bits, colour taken as its luminance) read into a heightfield,
   one sample per pixel, grey 0..1 times scale.y. Row z of the image is the samples at z. With
   `hole_below: g`, pixels darker than g are holes (a painted mask, black for "no ground"). The
   grid becomes a shape in surface_shapes.c, with the per-cell materials of inline grids. */
#include "heightfield_image.h"
#include "scene.h"
#include "settings.h"

#include <stb/stb_image.h>
#include <stdlib.h>

/* A grey level of 16 bits as a height in 0..1 (8-bit images come widened by stb_image), or a
   hole when darker than hole_below. */
static float *heights_of(const stbi_us *pixels, int width, int height, float hole_below)
{
    float *heights = malloc(sizeof *heights * (size_t)width * (size_t)height);
    if (heights == NULL)
        return NULL;
    for (size_t i = 0; i < (size_t)width * (size_t)height; ++i) {
        float grey = (float)pixels[i] / 65535.0f;
        heights[i] = grey < hole_below ? CAIRN_HEIGHTFIELD_HOLE : grey;
    }
    return heights;
}

bool io_read_heightfield_image(const io_reader *reader, const char *what, struct fy_node *image,
                               float hole_below, int max_side, io_height_grid *grid)
{
    char relative[IO_PATH_CAPACITY], path[IO_PATH_CAPACITY];
    if (!io_read_string(reader, image, what, relative, sizeof relative) ||
        !io_resolve_relative(reader, image, relative, path, sizeof path))
        return false;
    int width, height, channels;
    stbi_us *pixels = stbi_load_16(path, &width, &height, &channels, 1);
    if (pixels == NULL)
        return io_fail(reader, image, "%s: cannot read the image '%s': %s", what, path,
                       stbi_failure_reason());
    if (width < 2 || height < 2 || width > max_side || height > max_side) {
        stbi_image_free(pixels);
        return io_fail(reader, image,
                       "%s: the image '%s' is %d x %d pixels; a heightfield needs "
                       "2 to %d on each side",
                       what, path, width, height, max_side);
    }
    grid->heights = heights_of(pixels, width, height, hole_below);
    stbi_image_free(pixels);
    if (grid->heights == NULL)
        return io_fail(reader, image, "%s: out of memory", what);
    grid->count_x = width;
    grid->count_z = height;
    return true;
}
