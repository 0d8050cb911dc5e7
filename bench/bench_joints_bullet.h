/* The joint benchmark's scenes as plain data (bodies and joints, built the same way in both
   engines), and Bullet's btDiscreteDynamicsWorld behind a C interface that builds and steps one. */
#ifndef BENCH_JOINTS_BULLET_H
#define BENCH_JOINTS_BULLET_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { JB_CAPSULE, JB_BOX };

/* A body: a capsule (local +Y axis; size[0] half height, size[1] radius) or a box (size: half
   extents). density 0 is static; otherwise mass and the inertia diagonal (body axes, kg m^2)
   are the exact ones Cairn computes from the density, given to Bullet as they are. */
typedef struct jb_body {
    int shape;
    float size[3];
    float pos[3], rot[4]; /* world; unit quaternion (x, y, z, w) */
    float vel[3];         /* initial linear velocity, m/s */
    float density, mass, inertia[3];
} jb_body;

enum { JB_BALL, JB_HINGE, JB_SWING_TWIST };

/* A joint at a world anchor (both bodies carry it) with a world axis: the hinge axis (angle 0 at
   creation, right-hand rule, B relative to A, limits [lower, upper]) or the swing-twist axis
   (swing within cone, twist within [-twist, twist]). a = -1: body b hangs from the world. */
typedef struct jb_joint {
    int type, a, b;
    float anchor[3], axis[3];
    float lower, upper; /* hinge, rad */
    float cone, twist;  /* swing-twist, rad */
} jb_joint;

typedef struct jb_scene {
    const jb_body *bodies;
    int body_count;
    const jb_joint *joints;
    int joint_count;
} jb_scene;

/* Bullet's side (bench_joints_bullet.cpp, built when libbullet-dev is installed). */
typedef struct jb_bullet jb_bullet;

/* The settings the world was built with, for the printout. */
typedef struct jb_bullet_settings {
    int iterations;            /* btContactSolverInfo::m_numIterations */
    int split_impulse;         /* m_splitImpulse */
    float erp, erp2, cfm;      /* m_erp, m_erp2, m_globalCfm */
    float warmstarting_factor; /* m_warmstartingFactor */
    int solver_mode;           /* m_solverMode bits */
    float friction;            /* per body (Bullet combines by product) */
    float linear_damping, angular_damping;
    float box_margin;                  /* btBoxShape collision margin, m */
    float cone_damping;                /* btConeTwistConstraint::getDamping() */
    float linear_sleep, angular_sleep; /* deactivation thresholds, m/s and rad/s */
    int version;                       /* btGetVersion() */
} jb_bullet_settings;

/* Builds the scene; the two bodies of a joint do not collide (addConstraint(c, true)).
   allow_sleep false: DISABLE_DEACTIVATION on every dynamic body. */
jb_bullet *jb_bullet_create(const jb_scene *scene, float gravity_y, int iterations,
                            bool allow_sleep);
jb_bullet_settings jb_bullet_get_settings(const jb_bullet *b);
/* stepSimulation(dt, 0): one step of dt, no interpolation. */
void jb_bullet_step(jb_bullet *b, float dt);
/* The largest distance between the two world pivots of a joint (through each body's transform);
   infinity when a body's transform is not finite. *worst: that joint's index. */
double jb_bullet_max_gap(const jb_bullet *b, int *worst);
/* Centre of mass of body i (scene order), world. */
void jb_bullet_position(const jb_bullet *b, int body, float out[3]);
/* Dynamic bodies still active (not deactivated). */
int jb_bullet_awake_count(const jb_bullet *b);
/* Contact manifolds with at least one point, and their points, after the last step. */
void jb_bullet_contacts(const jb_bullet *b, int *manifolds, int *points);
void jb_bullet_destroy(jb_bullet *b);

#ifdef __cplusplus
}
#endif

#endif
