/* The private layout of a shape: a core plus a convex radius, per type. */
#ifndef CAIRN_GEOMETRY_SHAPE_H
#define CAIRN_GEOMETRY_SHAPE_H

#include <cairn/shape.h>
#include <stdatomic.h>

#include "core/error.h"
#include "geometry/hull.h"
#include "geometry/mesh_bvh.h"
#include "geometry/surface_materials.h"

/* Hulls with at least this many core vertices find support points by hill-climbing over the
   vertex adjacency instead of a linear scan (measured crossover: bench/bench_hull.c). */
#define HULL_CLIMB_MIN_VERTICES 128

/* A triangle mesh (mesh_shape.c): triangles in BVH order, each with its index in the input. */
typedef struct mesh_data {
    vec3s *vertices;
    int vertex_count;
    int (*triangles)[3];       /* kept triangles, BVH leaf order */
    int *source;               /* per kept triangle: its index in the input */
    int *slot;                 /* per input triangle: its kept index, -1 when dropped */
    unsigned char *edge_flags; /* per kept triangle: bit e set when edge e is active */
    int input_count, triangle_count, dropped;
    material_table materials; /* per input triangle */
    mesh_bvh bvh;
} mesh_data;

/* Heightfield cells are grouped in square blocks with their height range, so box queries skip
   blocks wholly above or below. */
enum { HEIGHTFIELD_BLOCK = 8 };

typedef struct heightfield_data {
    float *heights; /* count_x * count_z samples, unscaled */
    int count_x, count_z;
    vec3s scale;
    float *block_min, *block_max; /* unscaled, per block, blocks_x * blocks_z */
    int blocks_x, blocks_z;
    material_table materials; /* per cell, z * (count_x - 1) + x */
} heightfield_data;

typedef struct hull_data {
    convex_hull outer;  /* hull of the given points: faces for SAT, clipping, rendering */
    convex_hull core;   /* the outer hull shrunk by the convex radius (== outer when 0) */
    bool core_is_outer; /* core shares outer's arrays (convex radius 0) */
} hull_data;

struct cairn_shape {
    cairn_shape_type type;
    atomic_int ref_count;
    float convex_radius;
    cairn_aabb local_bounds; /* of the full shape */
    union {
        struct {
            vec3s half_extents; /* outer */
            vec3s core_half;    /* half_extents - convex_radius */
            convex_hull outer;  /* the 8 corners as a hull: faces for SAT and clipping */
        } box;
        struct {
            float half_height; /* core segment is [-half_height, half_height] on Y */
        } capsule;
        struct {
            float half_height, radius;           /* outer */
            float core_half_height, core_radius; /* outer minus convex_radius */
        } cylinder;
        hull_data hull;
        struct {
            cairn_shape **children;      /* retained, convex */
            cairn_transform *transforms; /* child frame -> compound frame, unit rotations */
            cairn_aabb *bounds;          /* each child's bounds in the compound frame */
            int count;
        } compound;
        mesh_data mesh;
        heightfield_data heightfield;
    };
};

/* A box's core corners in the order of box.outer's vertices (each outer corner moved in by
   the convex radius on every axis): the core shares the outer topology. */
void box_core_corners(const cairn_shape *box, vec3s corners[8]);

/* Builds the core of a hull shape from its outer hull; clamps *convex_radius to what the hull
   allows. False (error set) when memory runs out. */
bool hull_shape_build_core(hull_data *hull, float *convex_radius);
void hull_shape_destroy(hull_data *hull);

/* Compounds (geometry/compound.c): the shape frame's bounds of the children under xf, and the
   support point of the union (the convex hull of the children) for local bounds. */
static inline bool shape_is_compound(const cairn_shape *shape)
{
    return shape->type == CAIRN_SHAPE_COMPOUND;
}
cairn_aabb compound_bounds(const cairn_shape *shape, cairn_transform xf);
vec3s compound_support(const cairn_shape *shape, vec3s direction);
/* The child's transform composed with the compound's: child frame -> world. */
cairn_transform compound_child_transform(const cairn_shape *shape, int child, cairn_transform xf);
void compound_destroy(cairn_shape *shape);

/* Meshes and heightfields: triangles, no volume, static and kinematic bodies only. */
static inline bool shape_is_triangles(const cairn_shape *shape)
{
    return shape->type == CAIRN_SHAPE_MESH || shape->type == CAIRN_SHAPE_HEIGHTFIELD;
}
void mesh_destroy(cairn_shape *shape);
void heightfield_destroy(cairn_shape *shape);

/* The rotations under which a shape is itself: none (a box, a hull, a compound, triangles),
   every one (a sphere), those about its local y axis (a capsule, a cylinder). A body whose shape
   has some can roll (pair_cache_reuse). */
typedef enum shape_symmetry { SYMMETRY_NONE, SYMMETRY_POINT, SYMMETRY_AXIS_Y } shape_symmetry;

static inline shape_symmetry shape_symmetry_of(const cairn_shape *shape)
{
    if (shape->type == CAIRN_SHAPE_SPHERE)
        return SYMMETRY_POINT;
    bool axial = shape->type == CAIRN_SHAPE_CAPSULE || shape->type == CAIRN_SHAPE_CYLINDER;
    return axial ? SYMMETRY_AXIS_Y : SYMMETRY_NONE;
}

/* How far the shape reaches from its own origin: the farthest corner of its local bounds. */
float shape_reach(const cairn_shape *shape);
/* What tells two shapes apart for a snapshot restore: the type, convex radius, bounds and the
   counts its contacts' caches index into (hull vertices and faces, compound children, mesh
   triangles, heightfield samples), a compound's children's in order. Equal for shapes built the
   same way in another world. */
uint64_t shape_signature(const cairn_shape *shape);

/* The public getters take NULL (cairn_body_shape gives it for a stale id): false, with an error
   naming function, and the getter answers zero. */
static inline bool shape_given(const cairn_shape *shape, const char *function)
{
    return shape != NULL || error_set("%s: shape is NULL", function);
}

#endif
