/* Private to cairn_io: what every generator shares (its parameters mapping, common options,
   naming) and the generator functions. */
#ifndef CAIRN_IO_GENERATORS_H
#define CAIRN_IO_GENERATORS_H

#include "scene.h"

typedef struct io_gen {
    io_scene_builder *builder;
    const io_reader *reader;
    struct fy_node *params; /* the generator's mapping */
    io_generator_kind kind;
    const char *kind_name;
    char what[IO_WHAT_CAPACITY]; /* "generators[2].pyramid" */
    vec3s origin;                /* common option, default 0 */
    cairn_body_def body;         /* density, material and allow_sleep from the common options */
} io_gen;

/* Creates the next body, named `<kind>_<n>`, with the common options, shape and transform. */
bool io_gen_emit(io_gen *gen, const cairn_shape *shape, vec3s position, versors rotation);
/* The same, giving the new body's id. */
bool io_gen_emit_id(io_gen *gen, const cairn_shape *shape, vec3s position, versors rotation,
                    cairn_body_id *out);
/* Creates a joint whose anchors are relative to the generator's origin (like positions). */
bool io_gen_joint(io_gen *gen, const cairn_joint_def *def);
/* True when the generator's mapping holds key (to tell a default from a given value). */
bool io_gen_has(io_gen *gen, const char *key);

/* The generator's own keys plus the common ones (origin, density, material, allow_sleep). */
bool io_gen_check_keys(io_gen *gen, const char *const *keys, int count);

/* Optional parameters with their defaults. */
bool io_gen_int(io_gen *gen, const char *key, int low, int high, int fallback, int *out);
bool io_gen_float(io_gen *gen, const char *key, float low, float high, float fallback, float *out);
bool io_gen_vec3(io_gen *gen, const char *key, float low, float high, vec3s fallback, vec3s *out);
bool io_gen_bool(io_gen *gen, const char *key, bool fallback, bool *out);
bool io_gen_enum(io_gen *gen, const char *key, const char *const *names, int count, int fallback,
                 int *out);
/* An optional `shape:`; the fallback is used when absent. One new reference either way. */
bool io_gen_shape(io_gen *gen, const char *key, cairn_shape *(*fallback)(void), cairn_shape **out);
/* A box shape with the default rounding. */
bool io_gen_box(io_gen *gen, vec3s half_extents, cairn_shape **out);

/* A rotation of angle radians about a unit axis. */
versors io_rotation(vec3s axis, float angle);

bool io_gen_pyramid(io_gen *gen);
bool io_gen_wall(io_gen *gen);
bool io_gen_stack(io_gen *gen);
bool io_gen_tower(io_gen *gen);
bool io_gen_ramp(io_gen *gen);
bool io_gen_grid(io_gen *gen); /* grid and rain */
bool io_gen_dominoes(io_gen *gen);
bool io_gen_card_house(io_gen *gen);
bool io_gen_stairs(io_gen *gen);
/* Static level geometry with bodies dropped on it: */
bool io_gen_terrain(io_gen *gen); /* Jolt's ConvexVsMesh scene */
/* Bodies and joints: */
bool io_gen_chain(io_gen *gen);
bool io_gen_rope_bridge(io_gen *gen);
bool io_gen_ragdoll(io_gen *gen);
bool io_gen_newtons_cradle(io_gen *gen);
bool io_gen_car(io_gen *gen);

#endif
