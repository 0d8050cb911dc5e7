/* The scenes of the step benchmarks that compare Cairn with itself (bench_threads: worker counts,
   bench_lanes: solver lane widths): Jolt's 1,240-box pyramid, ten of them side by side (12,400
   boxes) and a 10,000-shape falling pile. Sleeping off: every step solves everything. Header
   only; shapes come from bench_scene_shapes. */
#ifndef CAIRN_BENCH_SCENES_H
#define CAIRN_BENCH_SCENES_H

#include <cairn/cairn.h>

#include <stdio.h>
#include <stdlib.h>

enum { BENCH_SCENE_SHAPES = 5, LEVELS = 15 };

typedef struct scene_spec {
    const char *name;
    void (*build)(cairn_world *world, cairn_shape *const *shapes);
    const char *file; /* instead of build: a scene file (bench_threads loads it with cairn_io) */
} scene_spec;

static inline void add_body(cairn_world *world, const cairn_shape *shape, cairn_body_type type,
                            vec3s position)
{
    cairn_body_def def = cairn_body_default_def();
    def.type = type;
    def.shape = shape;
    def.transform.position = position;
    def.allow_sleep = false; /* every step solves everything */
    if (!cairn_body_is_valid(world, cairn_body_create(world, &def))) {
        fprintf(stderr, "bench: body: %s\n", cairn_last_error());
        exit(1);
    }
}

/* Jolt's pyramid at x: level i a (15 - i)^2 square of 2 m boxes, odd levels offset by 1 m. */
static inline void pyramid_at(cairn_world *world, const cairn_shape *box, float x)
{
    for (int i = 0; i < LEVELS; i++) {
        float offset = (i & 1) ? 1.0f : 0.0f;
        for (int j = i / 2; j < LEVELS - (i + 1) / 2; j++)
            for (int k = i / 2; k < LEVELS - (i + 1) / 2; k++)
                add_body(world, box, CAIRN_DYNAMIC,
                         (vec3s){{x - 15.0f + 2.0f * (float)j + offset, 1.0f + 2.5f * (float)i,
                                  -15.0f + 2.0f * (float)k + offset}});
    }
}

static inline void one_pyramid(cairn_world *world, cairn_shape *const *shapes)
{
    add_body(world, shapes[0], CAIRN_STATIC, (vec3s){{0, -1, 0}});
    pyramid_at(world, shapes[1], 0.0f);
}

static inline void ten_pyramids(cairn_world *world, cairn_shape *const *shapes)
{
    add_body(world, shapes[0], CAIRN_STATIC, (vec3s){{0, -1, 0}});
    for (int p = 0; p < 10; ++p)
        pyramid_at(world, shapes[1], -180.0f + 40.0f * (float)p);
}

/* 10,000 boxes, spheres and capsules in a 25 x 16 x 25 lattice dropped from 2 to 40 m. */
static inline void falling_pile(cairn_world *world, cairn_shape *const *shapes)
{
    add_body(world, shapes[0], CAIRN_STATIC, (vec3s){{0, -1, 0}});
    int n = 0;
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 25; ++x)
            for (int z = 0; z < 25; ++z, ++n)
                add_body(world, shapes[2 + n % 3], CAIRN_DYNAMIC,
                         (vec3s){{-30.0f + 2.5f * (float)x + 0.1f * (float)(y & 1),
                                  2.0f + 2.5f * (float)y, -30.0f + 2.5f * (float)z}});
}

static const scene_spec scenes[] = {
    {"pyramid (1,240 boxes)", one_pyramid, NULL},
    {"ten pyramids (12,400 boxes)", ten_pyramids, NULL},
    {"falling pile (10,000 shapes)", falling_pile, NULL},
};

/* The floor, the pyramid box and the pile's box, sphere and capsule. */
static inline void bench_scene_shapes(cairn_shape *shapes[BENCH_SCENE_SHAPES])
{
    shapes[0] = cairn_shape_box((vec3s){{200, 1, 200}}, 0.05f);
    shapes[1] = cairn_shape_box((vec3s){{1, 1, 1}}, 0.05f);
    shapes[2] = cairn_shape_box((vec3s){{0.5f, 0.5f, 0.5f}}, 0.05f);
    shapes[3] = cairn_shape_sphere(0.5f);
    shapes[4] = cairn_shape_capsule(0.4f, 0.4f);
}

#endif
