/* Bullet's btBvhTriangleMeshShape behind a C interface for bench_mesh.c: the ConvexVsMesh world
   stepped one fixed step at a time, a bounding-volume hierarchy built and measured, and closest-hit
   ray casts against a mesh in a btCollisionWorld. */
#ifndef BENCH_MESH_BULLET_H
#define BENCH_MESH_BULLET_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A triangle mesh as plain arrays: 3 floats per vertex, 3 ints per triangle (counter-clockwise
   seen from the front). Bullet keeps pointers to them: they must outlive what is made of them. */
typedef struct mesh_bullet_mesh {
    const float *vertices;
    int vertex_count;
    const int *indices;
    int triangle_count;
} mesh_bullet_mesh;

enum { MESH_BULLET_BOX, MESH_BULLET_SPHERE, MESH_BULLET_CAPSULE, MESH_BULLET_HULL };

/* The four falling shapes. The hull's points are given about its centre of mass (bodies turn about
   their origin in Bullet). */
typedef struct mesh_bullet_shapes {
    float box_half[3];
    float sphere_radius;
    float capsule_half_height, capsule_radius; /* axis +Y, half the segment between cap centres */
    const float *hull_points;                  /* 3 floats each */
    int hull_count;
} mesh_bullet_shapes;

/* One dynamic body: its shape, where its centre of mass starts, and Cairn's mass and principal
   moments of inertia (so both engines move the same bodies). */
typedef struct mesh_bullet_body {
    int kind; /* MESH_BULLET_BOX ... MESH_BULLET_HULL */
    float position[3];
    float mass;
    float inertia[3];
} mesh_bullet_body;

/* The world's settings. */
typedef struct mesh_bullet_def {
    float gravity_y;
    float friction, restitution; /* every body, the terrain too (Bullet combines by product) */
    int iterations;              /* btContactSolverInfo::m_numIterations */
    int allow_sleep;             /* 0: every body DISABLE_DEACTIVATION */
} mesh_bullet_def;

typedef struct mesh_bullet mesh_bullet;

/* btDiscreteDynamicsWorld (btDbvtBroadphase, btSequentialImpulseConstraintSolver) with the
   terrain as a static btBvhTriangleMeshShape (quantized AABB compression) and the bodies. */
mesh_bullet *mesh_bullet_create(const mesh_bullet_mesh *terrain, const mesh_bullet_shapes *shapes,
                                const mesh_bullet_body *bodies, int body_count,
                                const mesh_bullet_def *def);
/* stepSimulation(dt, 0): one step of dt, no interpolation. */
void mesh_bullet_step(mesh_bullet *b, float dt);
/* Writes 3 floats per dynamic body: its centre of mass, world frame. */
void mesh_bullet_positions(const mesh_bullet *b, float *out);
/* Contact manifolds with points and their points after the last step. */
void mesh_bullet_contacts(const mesh_bullet *b, int *manifolds, int *points);
/* Default collision margin of the hull shape, m (it grows the hull by that much). */
float mesh_bullet_hull_margin(const mesh_bullet *b);
void mesh_bullet_destroy(mesh_bullet *b);

/* Counts every byte Bullet allocates from now on (btAlignedAllocSetCustom). Call once, before
   anything is made with Bullet. */
void mesh_bullet_count_memory(void);
/* Bytes Bullet holds now (0 unless counting). */
size_t mesh_bullet_live_bytes(void);

/* A btBvhTriangleMeshShape over mesh (quantized), built and kept in a btCollisionWorld for ray
   casts. bytes: what its construction allocated (the tree and the shape; the arrays stay the
   caller's); build_ns: the thread CPU time of that construction. */
typedef struct mesh_bullet_rays mesh_bullet_rays;
mesh_bullet_rays *mesh_bullet_rays_create(const mesh_bullet_mesh *mesh, size_t *bytes,
                                          double *build_ns);
/* Closest hit of each ray from[3 i] to to[3 i] (btCollisionWorld::rayTest); writes the hit
   fraction (or -1 for a miss) and returns the number of hits. */
int mesh_bullet_rays_cast(mesh_bullet_rays *r, const float *from, const float *to, int count,
                          float *fraction);
void mesh_bullet_rays_destroy(mesh_bullet_rays *r);

#ifdef __cplusplus
}
#endif

#endif
