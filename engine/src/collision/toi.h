/* Time of impact of a translating shape against a fixed one: conservative advancement on the
   GJK distance, per convex child pair for compounds. */
#ifndef CAIRN_COLLISION_TOI_H
#define CAIRN_COLLISION_TOI_H

#include <cairn/query.h>

/* Conservative-advancement steps per convex pair before giving up. */
enum { TOI_MAX_ITERATIONS = 64 };

/* cairn_shape_cast without the input checks, limited to fractions in [0, max_fraction]. */
bool toi_cast(const cairn_shape *a, cairn_transform xa, const cairn_shape *b, cairn_transform xb,
              vec3s translation, float max_fraction, cairn_cast_hit *hit);

/* Whether B, translating against A as in toi_cast over the whole translation, meets a part of A
   (a child, a triangle) and would by the translation's end be more than `depth` past the plane
   it met it on (an upper bound of how deep it would go into that part). Grazing hits, and parts B
   starts on and slides along, do not count. */
bool toi_cast_goes_deeper(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                          cairn_transform xb, vec3s translation, float depth);

#endif
