/* Debug drawing: the world's internal state (contacts, broadphase, sleep, mass, motion) and one
   shape pair's GJK query, emitted as lines and points through caller-supplied callbacks. */
#ifndef CAIRN_DEBUG_DRAW_H
#define CAIRN_DEBUG_DRAW_H

#include <cairn/world.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The callbacks a renderer provides; colours are linear RGBA in [0, 1]. line is required; a
   NULL point, box or transform is drawn with line segments instead. context is passed through
   unchanged. The callbacks run synchronously inside the draw call and must not call back into
   the world. */
typedef struct cairn_debug_draw {
    void (*line)(void *context, vec3s from, vec3s to, vec4s colour);
    void (*point)(void *context, vec3s at, float size_pixels, vec4s colour);
    void (*box)(void *context, cairn_aabb box, vec4s colour);
    /* A frame: its three axes (red X, green Y, blue Z) of the given length in metres. */
    void (*transform)(void *context, cairn_transform xf, float axis_length);
    void *context;
} cairn_debug_draw;

/* What cairn_world_debug_draw draws; combine with |. */
enum cairn_debug_draw_flags {
    CAIRN_DEBUG_DRAW_CONTACT_POINTS = 1u << 0,  /* one point per manifold point (red: touching,
                                                   orange: speculative, separation > 0) */
    CAIRN_DEBUG_DRAW_CONTACT_NORMALS = 1u << 1, /* one line per manifold point along the normal */
    CAIRN_DEBUG_DRAW_AABBS = 1u << 2,           /* the broadphase's fat AABB of every body */
    CAIRN_DEBUG_DRAW_SAP_INTERVALS = 1u << 3,   /* each body's interval on every sorted axis,
                                                   stacked beside the world's bounds */
    CAIRN_DEBUG_DRAW_SLEEP = 1u << 4,    /* body bounds: green awake, blue asleep, plus a line
                                            between the centres of bodies in touching contact */
    CAIRN_DEBUG_DRAW_CENTERS = 1u << 5,  /* centre of mass and body frame of dynamic bodies */
    CAIRN_DEBUG_DRAW_VELOCITY = 1u << 6, /* linear (yellow, 0.1 s of motion) and angular (magenta,
                                            0.1 rad/s per metre) velocity of moving bodies */
    CAIRN_DEBUG_DRAW_PAIRS = 1u << 7,    /* a line between the centres of every broadphase pair */
    CAIRN_DEBUG_DRAW_JOINTS = 1u << 8,   /* every joint: its anchors (white) and the lines to its
                                            bodies' centres (grey), the axis (cyan), hinge limit
                                            arcs, swing cones and twist arcs (yellow), slider and
                                            distance ranges (yellow); joints broken in the last
                                            step as red points */
    /* The node boxes of every mesh body's BVH in world space (leaves cyan, inner nodes faint
       blue); heightfields have no BVH and draw their blocks of 8 x 8 cells with the blocks'
       height range instead (cyan). Drawn as lines: the boxes turn with the body. */
    CAIRN_DEBUG_DRAW_MESH_BVH = 1u << 9,
    /* Every triangle edge of meshes and heightfields: active edges red, inactive ones (flat or
       concave seams whose contacts keep the face normal) faint blue. Each triangle draws its own
       three edges, so a shared edge is drawn twice, once with each triangle's flag. */
    CAIRN_DEBUG_DRAW_MESH_EDGES = 1u << 10,
    CAIRN_DEBUG_DRAW_ALL = (1u << 11) - 1u,
};

/* Draws the layers named by flags, as of the last step. False (cairn_last_error() set, nothing
   drawn) when world or draw is NULL, draw->line is NULL, or flags has unknown bits. */
CAIRN_API bool cairn_world_debug_draw(const cairn_world *world, const cairn_debug_draw *draw,
                                      uint32_t flags);

/* Draws the query between two convex shapes at their poses: the witness points and normal of
   cairn_collide (white line between the witnesses, cyan normal); and, translated so that the
   origin of A - B sits at cso_origin, the Minkowski difference of the cores (grey: support
   points sampled over directions, each joined to its neighbours), the final GJK simplex (yellow
   edges), the final EPA polytope when the cores overlap (orange edges) and the origin (white).
   Returns the cairn_collide result in *out when out is not NULL. False (error set, nothing drawn)
   on NULL shapes or draw, or on non-finite or non-unit poses. */
CAIRN_API bool cairn_pair_debug_draw(const cairn_shape *a, cairn_transform xa, const cairn_shape *b,
                                     cairn_transform xb, vec3s cso_origin,
                                     const cairn_debug_draw *draw, cairn_query_result *out);

#ifdef __cplusplus
}
#endif

#endif
