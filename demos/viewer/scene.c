/* Scene lifetime shared by every scene source. */
#include "scene.h"

#include <stdlib.h>
#include <string.h>

void scene_destroy(scene *s)
{
    for (int i = 0; i < s->shape_count; ++i) {
        cairn_shape_release(s->shapes[i]);
    }
    free(s->bodies);
    memset(s, 0, sizeof *s);
}
