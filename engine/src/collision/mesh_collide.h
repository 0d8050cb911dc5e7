/* Meshes and heightfields in the collision queries: ray casts, overlap tests and contact
   manifolds, each run over the triangles under the other shape's bounds (mesh frame). */
#ifndef CAIRN_COLLISION_MESH_COLLIDE_H
#define CAIRN_COLLISION_MESH_COLLIDE_H

#include "collision/compound.h"
#include "collision/triangle_cache.h"

/* shape_raycast for a mesh or heightfield: the closest triangle hit (either side), its normal
   facing against the ray (world), and its index (may be NULL). */
bool mesh_shape_raycast(const cairn_shape *shape, cairn_transform xf, vec3s origin,
                        vec3s translation, float max_fraction, float *fraction, vec3s *normal,
                        int *triangle);

/* cairn_overlap when one shape is a mesh or heightfield and the other convex or a compound (two
   meshes never overlap: they have no volume). */
bool mesh_overlap(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                  cairn_transform xb);

/* What a body pair's contact kept from last step, for mesh_manifolds: its manifolds' normals
   (world) and the part-triangle pairs that gave points (triangle_cache.touched); and, filled by
   mesh_manifolds, the pairs that give points this step (the first TRIANGLE_CACHE_CAPACITY). */
typedef struct mesh_history {
    const vec3s *normals;
    int normal_count;
    const uint32_t *touched;
    int touched_count;
    uint32_t touched_now[TRIANGLE_CACHE_CAPACITY];
    int touched_now_count;
} mesh_history;

/* The contact manifolds of a body pair where one shape is a mesh or heightfield and the other a
   convex shape or compound: every convex part against the triangles under its bounds grown by
   `margin` (the speculative distance), each triangle a flat core of radius 0 (a sphere or a
   capsule in closed form: capsule_triangle.h). Triangles are one-sided: a pair whose normal points
   to the triangle's back is dropped, unless the part overlaps it and came from the front: its
   centre is still in front (it went in deep in one step), or the pair, or one across a flat seam,
   gave points last step (history->touched: it was pressed in, even past its centre, as a pebble
   under a crate), and its deepest point or centre lies over the triangle. Such a pair is pushed
   out along the face normal by the depth of the deepest point under the plane. A pair
   touching an inactive edge or vertex (triangle_edges.c) along a normal other than the face's (a
   ghost bump) takes the face's normal: the body's deepest point along it when that lies over the
   triangle (or just past a nearly flat seam), else only the body's face clipped over the triangle.
   Feature ids carry the triangle index; the manifolds are merged per direction and reduced to four
   points each as compound_manifolds does (history: last step's, may be NULL for a pair without
   one). `cache` (may be NULL) warm-starts each part-triangle GJK (parts other than spheres and
   capsules) from last step's simplex and keeps this step's for the triangles met
   (triangle_cache.h). Returns how many manifolds were written. */
int mesh_manifolds(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                   cairn_transform xb, float margin, mesh_history *history, triangle_cache *cache,
                   manifold out[CONTACT_MAX_MANIFOLDS], compound_stats *stats);

/* The query between one triangle (as A) and a convex shape (not a compound) as the narrow phase
   runs it, without history: false when the normal faces the triangle's back, unless the part is
   pushed out (its centre in front). With a cache (may be NULL), warm
   started and kept as mesh_manifolds does for part 0 of 1 (the caller brackets its pass with
   triangle_cache_begin and _end). For tests and tools. */
bool mesh_triangle_query(const cairn_shape *mesh, cairn_transform mesh_xf, int triangle,
                         const cairn_shape *convex, cairn_transform xf, triangle_cache *cache,
                         cairn_query_result *out);

/* Cosine of the largest angle between a contact normal and the triangle's front normal for which
   the contact is kept (below it, the normal points into the back half-space). */
#define MESH_BACK_FACE_COSINE 0.0f
/* Contact normals within about 0.25 degrees of the face normal count as the face's (rounding);
   any larger tilt at an inactive edge or vertex is a ghost. A sphere just past a flat seam
   touches the seam with a normal tilted by a fraction of a degree, at a point beside the one
   under its centre: kept, that point made a rolling sphere hop at every seam. */
#define MESH_FACE_COSINE 0.99999f
/* Tangent of the sharpest convex fold whose edge is inactive (5 degrees, triangle_edges.c). */
#define MESH_INACTIVE_FOLD_TANGENT 0.0875f

#endif
