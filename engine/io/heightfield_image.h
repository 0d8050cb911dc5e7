/* Heightfields from grey-level images (stb_image), for scene files. */
#ifndef CAIRN_IO_HEIGHTFIELD_IMAGE_H
#define CAIRN_IO_HEIGHTFIELD_IMAGE_H

#include "yaml_reader.h"

/* Heights of a grid, row by row (heights[z * count_x + x]); heights malloc'd. */
typedef struct io_height_grid {
    float *heights;
    int count_x, count_z;
} io_height_grid;

/* Reads the image named by the `image` node (relative to the scene file) into *grid, one sample
   per pixel (count_x = width, count_z = height), heights grey in 0..1; pixels whose grey is
   below hole_below are holes. False with file:line:column and stb_image's own reason when the
   file is missing or unreadable, or its size is outside [2, max_side]. */
bool io_read_heightfield_image(const io_reader *reader, const char *what, struct fy_node *image,
                               float hole_below, int max_side, io_height_grid *grid);

#endif
