/* Bullet's btDiscreteDynamicsWorld behind a C interface for bench_pyramid.c: the same pyramid of
   boxes, stepped one fixed step at a time. */
#ifndef BENCH_PYRAMID_BULLET_H
#define BENCH_PYRAMID_BULLET_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pyr_bullet pyr_bullet;

/* The settings the world was built with, for the printout. */
typedef struct pyr_bullet_settings {
    int iterations;            /* btContactSolverInfo::m_numIterations */
    int split_impulse;         /* m_splitImpulse */
    float split_threshold;     /* m_splitImpulsePenetrationThreshold, m */
    float erp, erp2;           /* m_erp (velocity), m_erp2 (position / split impulse) */
    float warmstarting_factor; /* m_warmstartingFactor */
    int solver_mode;           /* m_solverMode bits */
    float margin;              /* box collision margin, m */
    float friction;            /* per body (Bullet combines by product) */
    float box_mass;            /* kg */
    float linear_damping, angular_damping;
    int version; /* btGetVersion() */
} pyr_bullet_settings;

/* A static floor box (half extents floor_half at floor_pos) and count dynamic boxes of half
   extent box_half and the given density at positions[3 * i], sleeping off. */
pyr_bullet *pyr_bullet_create(const float floor_half[3], const float floor_pos[3], float box_half,
                              float density, const float *positions, int count, float gravity_y,
                              int iterations);
pyr_bullet_settings pyr_bullet_get_settings(const pyr_bullet *b);
/* Lets the boxes deactivate (Bullet's sleeping, its default thresholds and 2 s timer). */
void pyr_bullet_allow_sleep(pyr_bullet *b);
/* Boxes still active (not sleeping). */
int pyr_bullet_active_count(const pyr_bullet *b);
/* stepSimulation(dt, 0): one step of dt, no interpolation. */
void pyr_bullet_step(pyr_bullet *b, float dt);
/* Writes 3 floats per dynamic box (centre of mass, world frame). */
void pyr_bullet_positions(const pyr_bullet *b, float *out);
/* Contact manifolds and points in the dispatcher after the last step. */
void pyr_bullet_contacts(const pyr_bullet *b, int *manifolds, int *points);
void pyr_bullet_destroy(pyr_bullet *b);

#ifdef __cplusplus
}
#endif

#endif
