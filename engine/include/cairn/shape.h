/* Convex shapes: a core plus a convex radius; immutable, reference-counted, shareable. */
#ifndef CAIRN_SHAPE_H
#define CAIRN_SHAPE_H

#include <cairn/base.h>

#include <float.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Sizes accepted by the shape constructors, metres. */
#define CAIRN_MIN_SIZE 1e-4f
#define CAIRN_MAX_SIZE 1e4f

typedef struct cairn_shape cairn_shape;

typedef enum cairn_shape_type {
    CAIRN_SHAPE_SPHERE,
    CAIRN_SHAPE_BOX,
    CAIRN_SHAPE_CAPSULE,
    CAIRN_SHAPE_CYLINDER,
    CAIRN_SHAPE_HULL,
    CAIRN_SHAPE_COMPOUND,    /* convex children with local transforms (cairn_shape_compound) */
    CAIRN_SHAPE_MESH,        /* static triangles in a BVH (cairn_shape_mesh) */
    CAIRN_SHAPE_HEIGHTFIELD, /* a grid of heights, two triangles per cell */
} cairn_shape_type;
/* Children accepted by cairn_shape_compound. */
#define CAIRN_MAX_COMPOUND_CHILDREN 1024

/* Each constructor returns a shape with one reference, or NULL and sets cairn_last_error() on bad
   input: NaN/Inf, a size outside [CAIRN_MIN_SIZE, CAIRN_MAX_SIZE], a negative convex radius or
   one larger than the shape allows. */

/* A ball of the given radius (core: the centre point; convex radius = radius). */
CAIRN_API cairn_shape *cairn_shape_sphere(float radius);
/* A box; the outer size stays half_extents, edges rounded by convex_radius
   (<= the smallest half extent). */
CAIRN_API cairn_shape *cairn_shape_box(vec3s half_extents, float convex_radius);
/* Axis = local +Y; half_height = half the segment between the cap centres (may be 0). */
CAIRN_API cairn_shape *cairn_shape_capsule(float half_height, float radius);
/* Axis = local +Y; total height 2*half_height; rim rounded by convex_radius
   (<= min(half_height, radius)). */
CAIRN_API cairn_shape *cairn_shape_cylinder(float half_height, float radius, float convex_radius);
/* Quickhull of the points; the outer surface stays the hull of the points (edges rounded by
   convex_radius, which is clamped to what the hull allows). NULL on bad input: count < 4,
   NaN/Inf, coplanar or coincident points. */
CAIRN_API cairn_shape *cairn_shape_hull(const vec3s *points, int count, float convex_radius);

/* A rigid union of convex children, each placed by its transform (child frame -> compound frame;
   positions within CAIRN_MAX_SIZE of the origin, unit rotations). Each child is retained (the
   caller keeps its own references). NULL and an error on bad input: count outside
   [1, CAIRN_MAX_COMPOUND_CHILDREN], a NULL array or child, a compound child (no nesting), a
   non-finite or non-unit transform. Mass properties sum the children by the parallel axis
   theorem (overlapping children count twice); bounds, ray casts, cairn_overlap and world
   contacts run per child. cairn_collide and cairn_collide_sat are convex-pair queries and fail
   (with an error) on a compound; the support functions give the support of the children's
   convex hull. */
CAIRN_API cairn_shape *cairn_shape_compound(const cairn_shape *const *children,
                                            const cairn_transform *child_transforms, int count);
/* Number of children of a compound (0 for other shapes). */
CAIRN_API int cairn_compound_child_count(const cairn_shape *shape);
/* Child `child` of a compound and (when transform is not NULL) its placement in the compound's
   frame; NULL for other shapes or an index out of range. */
CAIRN_API const cairn_shape *cairn_compound_child(const cairn_shape *shape, int child,
                                                  cairn_transform *transform);

/* Static geometry: triangle meshes and heightfields, for static and kinematic bodies only
   (cairn_body_create rejects them on a dynamic body: use a hull or a compound there). They have
   no volume and no mass (cairn_shape_mass_properties gives zeros). Triangles are one-sided:
   contacts push bodies out along the side from which the triangle is counter-clockwise; a body
   behind a triangle passes through it. */

/* A triangle mesh: 3 indices per triangle, counter-clockwise seen from outside. Built once into a
   bounding-volume hierarchy. Degenerate triangles (repeated indices or zero area) are dropped
   and counted (cairn_mesh_dropped_count). NULL and an error on bad input: NULL arrays,
   vertex_count or triangle_count < 1, a vertex NaN/Inf or farther than 1e6 m from the origin, an
   index negative or >= vertex_count, no triangle left after dropping the degenerate ones. */
CAIRN_API cairn_shape *cairn_shape_mesh(const vec3s *vertices, int vertex_count, const int *indices,
                                        int triangle_count);
/* A surface material of mesh triangles: friction >= 0, restitution in [0, 1] and rolling
   resistance in [0, 1] (cairn_body_def.rolling_resistance; 0 where an initializer leaves it
   out), combined with the other body's as two bodies' are (sqrt(fa * fb), max(ra, rb),
   max(ca, cb)). */
typedef struct cairn_surface_material {
    float friction, restitution;
    float rolling_resistance;
} cairn_surface_material;

/* cairn_shape_mesh with a material per triangle: material_indices[t] in [0, material_count)
   picks the entry of materials for input triangle t (dropped degenerate triangles do not shift
   the others). A contact manifold against the mesh uses the material of the triangle its deepest
   point lies on instead of the mesh body's friction and restitution. NULL material arrays (with
   material_count 0) give a mesh without materials. NULL and an error on what cairn_shape_mesh
   rejects and on: material_indices given with material_count < 1 or materials NULL, an index
   outside [0, material_count), a friction negative or not finite, a restitution outside [0, 1]
   or not finite. */
CAIRN_API cairn_shape *cairn_shape_mesh_with_materials(const vec3s *vertices, int vertex_count,
                                                       const int *indices, int triangle_count,
                                                       const int *material_indices,
                                                       const cairn_surface_material *materials,
                                                       int material_count);
/* The material index of a mesh triangle (input numbering) or of a heightfield triangle (the
   index of its cell: both triangles of a cell share it, cells removed by a hole included, as
   dropped mesh triangles are); -1 for other shapes, a mesh or heightfield without materials or
   a triangle index out of range. */
CAIRN_API int cairn_shape_triangle_material(const cairn_shape *shape, int triangle);
/* Material `index` of a mesh or heightfield made with materials into *out; false otherwise. */
CAIRN_API bool cairn_shape_mesh_material(const cairn_shape *shape, int index,
                                         cairn_surface_material *out);
/* The height of a hole sample of a heightfield: every cell with a hole at one of its four
   corners has no triangles (bodies fall through it, rays and queries pass it). FLT_MAX, a finite
   value no real height can reach (heights times scale.y must stay within 1e6 m), so it survives
   copies and comparisons exactly, unlike a NaN. */
#define CAIRN_HEIGHTFIELD_HOLE FLT_MAX

/* A heightfield: heights[z * count_x + x]; sample (x, z) sits at local
   (x*scale.x, h*scale.y, z*scale.z). Each cell is two triangles facing +Y (split along the
   diagonal from (x, z) to (x+1, z+1)); a sample of height CAIRN_HEIGHTFIELD_HOLE removes the
   cells around it, and the edges next to a hole are borders. The bounds ignore holes (they span
   the whole grid in x and z, the solid samples in y). NULL and an error on bad input: count_x or
   count_z < 2 (or a grid above 2^26 samples), a NULL height array or a non-finite height, a scale
   component not finite and positive, a sample farther than 1e6 m from the origin, every cell
   touching a hole (no triangle left). */
CAIRN_API cairn_shape *cairn_shape_heightfield(const float *heights, int count_x, int count_z,
                                               vec3s scale);
/* cairn_shape_heightfield with a material per cell: material_indices[z * (count_x - 1) + x] in
   [0, material_count) picks the entry of materials for cell (x, z), shared by its two triangles.
   Contacts and ray hits use the cell's material as they use a mesh triangle's
   (cairn_shape_mesh_with_materials). NULL material arrays (with material_count 0) give a
   heightfield without materials, which is what cairn_shape_heightfield makes. NULL and an error
   on what cairn_shape_heightfield rejects and on: material_indices given with material_count < 1
   or materials NULL, an index outside [0, material_count) (the message names the cell), a
   friction negative or not finite, a restitution outside [0, 1] or not finite (the message names
   the material). */
CAIRN_API cairn_shape *
cairn_shape_heightfield_with_materials(const float *heights, int count_x, int count_z, vec3s scale,
                                       const int *material_indices,
                                       const cairn_surface_material *materials, int material_count);
/* Triangle indices of a mesh or heightfield run over [0, count) (0 for other shapes): for a mesh
   the triangles as given to cairn_shape_mesh (dropped ones included, so indices stay the
   caller's), for a heightfield 2 * (z * (count_x - 1) + x) + k, k = 0 for the triangle
   (x,z) (x,z+1) (x+1,z+1), 1 for (x,z) (x+1,z+1) (x+1,z). Ray hits and contact feature ids
   use these indices. */
CAIRN_API int cairn_shape_triangle_count(const cairn_shape *shape);
/* The corners of a triangle in the shape's frame, counter-clockwise seen from its front; false
   for other shapes, an index out of range, a dropped (degenerate) mesh triangle or a triangle of
   a heightfield cell removed by a hole. */
CAIRN_API bool cairn_shape_triangle(const cairn_shape *shape, int triangle, vec3s corners[3]);
/* Degenerate triangles a mesh dropped when it was built (0 for other shapes). */
CAIRN_API int cairn_mesh_dropped_count(const cairn_shape *shape);

/* Adds one reference (a body retains its shape itself). NULL is ignored. */
CAIRN_API void cairn_shape_retain(cairn_shape *shape);
/* Drops one reference; the last one frees the shape. NULL is ignored. */
CAIRN_API void cairn_shape_release(cairn_shape *shape);

/* The shape's type (one of the five convex types, CAIRN_SHAPE_COMPOUND, CAIRN_SHAPE_MESH or
   CAIRN_SHAPE_HEIGHTFIELD). */
CAIRN_API cairn_shape_type cairn_shape_get_type(const cairn_shape *shape);
/* The radius by which the core is inflated (for a sphere or capsule, its radius), metres. */
CAIRN_API float cairn_shape_convex_radius(const cairn_shape *shape);

/* Bounds of the full shape (convex radius included) under a transform. */
CAIRN_API cairn_aabb cairn_shape_bounds(const cairn_shape *shape, cairn_transform xf);
/* Bounds in the shape's own frame. */
CAIRN_API cairn_aabb cairn_shape_local_bounds(const cairn_shape *shape);

/* Support mappings in the shape's frame: a point of the shape farthest along direction
   (which need not be unit; a zero direction gives some point of the shape). */
CAIRN_API vec3s cairn_shape_support(const cairn_shape *shape, vec3s direction);
/* The same for the core (the shape without its convex radius). */
CAIRN_API vec3s cairn_shape_core_support(const cairn_shape *shape, vec3s direction);

/* Mass properties of a solid of uniform density (kg/m^3). */
typedef struct cairn_mass_properties {
    float mass;    /* kg */
    vec3s center;  /* centre of mass in the shape's frame, m */
    mat3s inertia; /* inertia tensor about the centre of mass, shape axes, kg m^2 */
} cairn_mass_properties;
/* False and an error when density is not finite and positive. */
CAIRN_API bool cairn_shape_mass_properties(const cairn_shape *shape, float density,
                                           cairn_mass_properties *out);
/* Volume of the full shape, m^3. */
CAIRN_API float cairn_shape_volume(const cairn_shape *shape);

/* Parameters as created (for renderers and tools). */
typedef struct cairn_shape_params {
    cairn_shape_type type;
    vec3s half_extents;  /* box */
    float radius;        /* sphere, capsule, cylinder */
    float half_height;   /* capsule, cylinder */
    float convex_radius; /* as used (hulls: after clamping) */
} cairn_shape_params;
/* The shape's construction parameters (metres), for renderers and tools. */
CAIRN_API cairn_shape_params cairn_shape_get_params(const cairn_shape *shape);

/* Hull topology (for renderers, SAT and tools). Counts are 0 for other shape types. The outer
   hull is the hull of the given points; faces are convex polygons wound counter-clockwise seen
   from outside. */
CAIRN_API int cairn_hull_vertex_count(const cairn_shape *shape);
CAIRN_API vec3s cairn_hull_vertex(const cairn_shape *shape, int vertex);
CAIRN_API int cairn_hull_face_count(const cairn_shape *shape);
/* Writes up to capacity vertex indices of the face, returns the face's vertex count. */
CAIRN_API int cairn_hull_face_vertices(const cairn_shape *shape, int face, int *indices,
                                       int capacity);
/* Outward unit normal and offset of the face plane: dot(normal, x) = offset on the face. */
CAIRN_API vec3s cairn_hull_face_normal(const cairn_shape *shape, int face, float *offset);

#ifdef __cplusplus
}
#endif

#endif
