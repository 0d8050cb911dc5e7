/* Heightfields from grey-level images (stb_image), for scene files. */
#ifndef CAIRN_IO_HEIGHTFIELD_IMAGE_H
#define CAIRN_IO_HEIGHTFIELD_IMAGE_H

#include "yaml_reader.h"

/* Reads the image named by the `image` node (relative to the scene file) into a heightfield of
   one sample per pixel, heights grey * scale.y; pixels whose grey (0..1) is below hole_below are
   holes. False with file:line:column and stb_image's own reason when the file is missing or
   unreadable, or its size is outside [2, max_side]. */
bool io_read_heightfield_image(const io_reader *reader, struct fy_node *params, const char *what,
                               struct fy_node *image, vec3s scale, float hole_below, int max_side,
                               cairn_shape **out);

#endif
