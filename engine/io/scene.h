/* Private to cairn_io: building a world from a scene file, shared by the body, shape and
   generator readers. */
#ifndef CAIRN_IO_SCENE_H
#define CAIRN_IO_SCENE_H

#include "yaml_reader.h"

/* Generator kinds; each numbers its bodies `<name>_<n>` from 0 across the scene. */
typedef enum io_generator_kind {
    IO_GEN_PYRAMID,
    IO_GEN_WALL,
    IO_GEN_STACK,
    IO_GEN_TOWER,
    IO_GEN_GRID,
    IO_GEN_RAIN,
    IO_GEN_DOMINOES,
    IO_GEN_RAMP,
    IO_GEN_CARD_HOUSE,
    IO_GEN_STAIRS,
    IO_GEN_CHAIN,
    IO_GEN_ROPE_BRIDGE,
    IO_GEN_RAGDOLL,
    IO_GEN_NEWTONS_CRADLE,
    IO_GEN_CAR,
    IO_GEN_TERRAIN,
    IO_GEN_COUNT
} io_generator_kind;

/* A body's name as the scene gave it, for joints that refer to bodies by name. */
typedef struct io_named_body {
    char name[CAIRN_IO_NAME_CAPACITY];
    cairn_body_id id;
    int index; /* creation order: keeps the sort stable */
} io_named_body;

typedef struct io_scene_builder {
    const io_reader *reader;
    cairn_world *world;
    const cairn_scene_options *options;
    int body_count;
    int joint_count;
    int generated[IO_GEN_COUNT];
    /* Every body's name (malloc'd, freed at the end of the load); sorted by name once the
       `joints:` section starts. */
    io_named_body *names;
    int name_capacity;
    bool names_sorted;
} io_scene_builder;

/* Creates a body (def->shape must be set), remembers its name and reports it; errors are
   positioned at `at`. *out (may be NULL) receives the id. */
bool io_scene_add_body(io_scene_builder *builder, struct fy_node *at, const char *name,
                       const cairn_body_def *def, cairn_body_id *out);

/* Creates a joint; an engine rejection becomes "<what>: <cairn_last_error()>" at `at`. */
bool io_scene_add_joint(io_scene_builder *builder, struct fy_node *at, const char *what,
                        const cairn_joint_def *def);

/* How many bodies carry the name (0, 1 or more); *id is the first of them. */
int io_scene_find_body(io_scene_builder *builder, const char *name, cairn_body_id *id);

/* Reads the `joints:` sequence (after every body and generator). */
bool io_read_joints(io_scene_builder *builder, struct fy_node *sequence);

/* `{sphere: {...}}`, `{box: {...}}`, ...: a new shape with one reference. */
bool io_read_shape(const io_reader *reader, struct fy_node *node, const char *what,
                   cairn_shape **out);
/* The same for a body already read: the materials of a mesh file that the scene does not name
   take the body's friction and restitution (io_read_shape: the default body's). */
bool io_read_body_shape(const io_reader *reader, struct fy_node *node, const char *what,
                        const cairn_body_def *body, cairn_shape **out);
/* `{mesh: {vertices, indices, materials, material_indices}}`, `{mesh: {file, scale, materials}}`
   and `{heightfield: {count_x, count_z, heights, scale, materials, material_indices}}` or
   `{heightfield: {image, scale, hole_below, materials, material_indices}}` (surface_shapes.c);
   params is the inner mapping; body_material: what the file's unnamed materials take. */
bool io_read_mesh(const io_reader *reader, struct fy_node *params, const char *what,
                  const cairn_surface_material *body_material, cairn_shape **out);
bool io_read_heightfield(const io_reader *reader, struct fy_node *params, const char *what,
                         cairn_shape **out);
/* `{friction, restitution, rolling_resistance}` onto def. */
bool io_read_material(const io_reader *reader, struct fy_node *node, const char *what,
                      cairn_body_def *def);
/* The same keys onto a mesh or heightfield material (a key left out keeps its value). */
bool io_read_surface_material(const io_reader *reader, struct fy_node *node, const char *what,
                              cairn_surface_material *material);
/* A body's material as a mesh triangle's. */
static inline cairn_surface_material io_surface_material_of(const cairn_body_def *def)
{
    return (cairn_surface_material){def->friction, def->restitution, def->rolling_resistance};
}
/* Euler angles in degrees: rotate about X, then Y, then Z (world axes). */
versors io_rotation_from_euler_degrees(vec3s degrees);
/* A new shape from the engine, or a positioned error with cairn_last_error(). */
bool io_shape_made(const io_reader *reader, struct fy_node *at, const char *what,
                   cairn_shape *shape, cairn_shape **out);
/* The default rounding of boxes and cylinders: 0.05 m, at most a fifth of the smallest size. */
float io_default_convex_radius(float smallest_size);

/* Expands the `generators:` sequence. */
bool io_run_generators(io_scene_builder *builder, struct fy_node *sequence);

/* Ranges shared by bodies and generators. */
#define IO_MAX_POSITION      1e6f
#define IO_MAX_SPEED         1e4f
#define IO_MAX_DENSITY       1e6f
#define IO_MAX_GRAVITY_SCALE 100.0f
#define IO_MAX_DAMPING       100.0f /* a body's own damping, 1/s (cairn_body_def) */
#define IO_MAX_FRICTION      10.0f
/* Joint forces and torques (N, N m) and spring frequencies (Hz). */
#define IO_MAX_FORCE 1e12f
#define IO_MAX_HERTZ 1e4f
/* Generators stop with an error beyond this many bodies in one scene (a typo such as
   `levels: 150` should not allocate millions of bodies). */
#define IO_MAX_BODIES 200000
#define IO_PI         3.14159265358979f

#endif
