/* The colour a body is drawn in: by shape type for moving bodies, greyer when asleep, a neutral
   gridded stone for static ones. */
#ifndef CAIRN_DEMO_BODY_COLOUR_H
#define CAIRN_DEMO_BODY_COLOUR_H

#include <cairn/cairn.h>

/* rgb: albedo; a: ground-grid strength (1 for static bodies, 0 otherwise). */
vec4s body_colour(cairn_body_type type, cairn_shape_type shape, uint32_t body_index, bool awake);

#endif
