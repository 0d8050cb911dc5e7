/* Small scene builders for the dynamics scenario tests. Public API only (<cairn/cairn.h>).
   Every helper is static inline so a test file may use any subset without unused warnings. */
#ifndef CAIRN_TESTS_SCENE_HELPERS_H
#define CAIRN_TESTS_SCENE_HELPERS_H

#include <cairn/cairn.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#define SCENE_PI     3.14159265358979323846
#define SCENE_DT     (1.0f / 60.0f)
#define SCENE_G      9.81  /* magnitude of the default gravity, m/s^2 */
#define SCENE_RADIUS 0.05f /* convex radius of stacking boxes, m */

static inline vec3s v3(float x, float y, float z)
{
    return (vec3s){{x, y, z}};
}

static inline bool id_is_null(cairn_body_id id)
{
    return id.index == 0 && id.generation == 0;
}

/* A world from the default def with the given gravity. */
static inline cairn_world *scene_world(const cairn_world_def *def)
{
    cairn_world *world = cairn_world_create(def);
    cr_assert_not_null(world, "cairn_world_create failed: %s", cairn_last_error());
    return world;
}

static inline cairn_world *scene_default_world(void)
{
    cairn_world_def def = cairn_world_default_def();
    return scene_world(&def);
}

/* Creates one body owning a fresh shape (the body keeps its own reference). */
static inline cairn_body_id scene_body_ex(cairn_world *world, cairn_shape *shape,
                                          cairn_body_type type, cairn_transform xf, float density,
                                          float friction, float restitution, bool allow_sleep)
{
    cr_assert_not_null(shape, "shape constructor failed: %s", cairn_last_error());
    cairn_body_def def = cairn_body_default_def();
    def.type = type;
    def.transform = xf;
    def.shape = shape;
    def.density = density;
    def.friction = friction;
    def.restitution = restitution;
    def.allow_sleep = allow_sleep;
    cairn_body_id id = cairn_body_create(world, &def);
    cairn_shape_release(shape);
    cr_assert(!id_is_null(id), "cairn_body_create failed: %s", cairn_last_error());
    return id;
}

static inline cairn_body_id scene_body(cairn_world *world, cairn_shape *shape, cairn_body_type type,
                                       cairn_transform xf, float density, float friction,
                                       float restitution)
{
    return scene_body_ex(world, shape, type, xf, density, friction, restitution, true);
}

static inline cairn_transform scene_at(vec3s position)
{
    cairn_transform xf = cairn_transform_identity();
    xf.position = position;
    return xf;
}

/* The standard floor: a static box of half extents (50, 1, 50) at y = -1 (top face at y = 0). */
static inline cairn_body_id scene_floor(cairn_world *world, float friction, float restitution)
{
    return scene_body(world, cairn_shape_box(v3(50, 1, 50), SCENE_RADIUS), CAIRN_STATIC,
                      scene_at(v3(0, -1, 0)), 1000.0f, friction, restitution);
}

/* A dynamic box with the given half extents at a position, identity rotation. */
static inline cairn_body_id scene_box(cairn_world *world, vec3s position, vec3s half, float density,
                                      float friction)
{
    return scene_body(world, cairn_shape_box(half, SCENE_RADIUS), CAIRN_DYNAMIC, scene_at(position),
                      density, friction, 0.0f);
}

static inline cairn_body_id scene_sphere(cairn_world *world, vec3s position, float radius,
                                         float density, float friction, float restitution)
{
    return scene_body(world, cairn_shape_sphere(radius), CAIRN_DYNAMIC, scene_at(position), density,
                      friction, restitution);
}

/* A V-shaped trough as one compound: two walls tilted 45 degrees either way, meeting along the z
   axis at y = 0 (each wall a 2 m x 0.2 m x 2 m box whose inner face passes through the axis).
   A ball of radius r rests in it with its centre r sqrt(2) up, touching both walls. */
static inline cairn_shape *scene_v_trough(void)
{
    cairn_shape *wall = cairn_shape_box(v3(1.0f, 0.1f, 1.0f), 0.0f);
    const cairn_shape *children[2] = {wall, wall};
    /* centre = half the length up the wall from the axis, then half the thickness outward */
    float s = sqrtf(0.5f), along = 1.0f, out = 0.1f;
    cairn_transform xfs[2] = {
        {v3(-s * along - s * out, s * along - s * out, 0), glms_quatv(-GLM_PI_4f, v3(0, 0, 1))},
        {v3(s * along + s * out, s * along - s * out, 0), glms_quatv(GLM_PI_4f, v3(0, 0, 1))}};
    cairn_shape *compound = cairn_shape_compound(children, xfs, 2);
    cr_assert_not_null(compound, "%s", cairn_last_error());
    cairn_shape_release(wall);
    return compound;
}

/* A vertical stack of count unit boxes (side 1 m) standing on y = 0, touching, at (x, z).
   ids receives count ids, bottom first. */
static inline void scene_stack(cairn_world *world, float x, float z, int count, bool allow_sleep,
                               cairn_body_id *ids)
{
    for (int i = 0; i < count; ++i)
        ids[i] =
            scene_body_ex(world, cairn_shape_box(v3(0.5f, 0.5f, 0.5f), SCENE_RADIUS), CAIRN_DYNAMIC,
                          scene_at(v3(x, 0.5f + (float)i, z)), 1000.0f, 0.6f, 0.0f, allow_sleep);
}

/* A triangular wall of unit boxes in the x-y plane: row r (0 = bottom) holds rows - r boxes,
   each row offset by half a pitch so every box rests on two below. Boxes in a row are spaced
   by 1 m plus gap. Returns the number of boxes written to ids. */
static inline int scene_wall(cairn_world *world, int rows, float gap, bool allow_sleep,
                             cairn_body_id *ids)
{
    int n = 0;
    float pitch = 1.0f + gap;
    for (int r = 0; r < rows; ++r) {
        int count = rows - r;
        float x0 = -0.5f * pitch * (float)(count - 1);
        for (int i = 0; i < count; ++i)
            ids[n++] = scene_body_ex(world, cairn_shape_box(v3(0.5f, 0.5f, 0.5f), SCENE_RADIUS),
                                     CAIRN_DYNAMIC,
                                     scene_at(v3(x0 + pitch * (float)i, 0.5f + (float)r, 0)),
                                     1000.0f, 0.6f, 0.0f, allow_sleep);
    }
    return n;
}

static inline void scene_step(cairn_world *world, int steps)
{
    for (int i = 0; i < steps; ++i)
        cairn_world_step(world, SCENE_DT);
}

static inline vec3s scene_position(const cairn_world *world, cairn_body_id id)
{
    return cairn_body_transform(world, id).position;
}

static inline double scene_horizontal_distance(vec3s a, vec3s b)
{
    double dx = (double)a.x - (double)b.x, dz = (double)a.z - (double)b.z;
    return sqrt(dx * dx + dz * dz);
}

static inline double scene_distance(vec3s a, vec3s b)
{
    double dx = (double)a.x - (double)b.x, dy = (double)a.y - (double)b.y,
           dz = (double)a.z - (double)b.z;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

static inline double scene_length(vec3s a)
{
    return sqrt((double)a.x * a.x + (double)a.y * a.y + (double)a.z * a.z);
}

/* Lowest and highest world y of a box (the outer box; rounded edges only lie inside it). */
static inline double scene_box_min_y(cairn_transform xf, vec3s half)
{
    mat3s r = glms_quat_mat3(xf.rotation); /* column-major: r.col[j] is the local axis j */
    double reach = fabs((double)r.col[0].y) * half.x + fabs((double)r.col[1].y) * half.y +
                   fabs((double)r.col[2].y) * half.z;
    return (double)xf.position.y - reach;
}

static inline double scene_box_max_y(cairn_transform xf, vec3s half)
{
    mat3s r = glms_quat_mat3(xf.rotation);
    double reach = fabs((double)r.col[0].y) * half.x + fabs((double)r.col[1].y) * half.y +
                   fabs((double)r.col[2].y) * half.z;
    return (double)xf.position.y + reach;
}

#endif
