/* Gathering bodies into per-mesh instance slices (a counting sort by mesh). */
#include "body_batch.h"

#include "body_colour.h"

#include <stdlib.h>
#include <string.h>

static bool reserve(body_batch *b, int count)
{
    if (count <= b->capacity) {
        return true;
    }
    int capacity = b->capacity ? b->capacity : 256;
    while (capacity < count) {
        capacity *= 2;
    }
    cairn_body_id *ids = realloc(b->ids, (size_t)capacity * sizeof *ids);
    b->ids = ids ? ids : b->ids;
    int *mesh_of = realloc(b->mesh_of, (size_t)capacity * sizeof *mesh_of);
    b->mesh_of = mesh_of ? mesh_of : b->mesh_of;
    mesh_instance *instances = realloc(b->instances, (size_t)capacity * sizeof *instances);
    b->instances = instances ? instances : b->instances;
    if (!ids || !mesh_of || !instances) {
        return false;
    }
    b->capacity = capacity;
    return true;
}

static cairn_aabb aabb_union(cairn_aabb a, cairn_aabb b)
{
    return (cairn_aabb){glms_vec3_minv(a.min, b.min), glms_vec3_maxv(a.max, b.max)};
}

static mat4s transform_matrix(cairn_transform xf)
{
    return glms_mat4_mul(glms_translate_make(xf.position), glms_quat_mat4(xf.rotation));
}

/* Counts each mesh's instances and turns the counts into slice starts. */
static void plan_slices(body_batch *b, const cairn_world *world, shape_cache *cache)
{
    for (int m = 0; m < cache->count; ++m) {
        cache->meshes[m].instance_count = 0;
    }
    for (int i = 0; i < b->body_count; ++i) {
        b->mesh_of[i] = shape_cache_get(cache, cairn_body_shape(world, b->ids[i]));
        if (b->mesh_of[i] >= 0) {
            cache->meshes[b->mesh_of[i]].instance_count++;
        }
    }
    int start = 0;
    for (int m = 0; m < cache->count; ++m) {
        cache->meshes[m].first_instance = start;
        start += cache->meshes[m].instance_count;
        cache->meshes[m].instance_count = 0; /* refilled as instances are placed */
    }
}

static bool same_id(cairn_body_id a, cairn_body_id b)
{
    return a.index == b.index && a.generation == b.generation && (a.index | a.generation) != 0;
}

/* The selection glows: its colour pushed towards a bright highlight, keeping some shading. */
static vec4s highlight(const body_batch *b, cairn_body_id id, vec4s colour)
{
    static const vec3s selected = {{1.0f, 0.95f, 0.35f}}, partner = {{0.35f, 0.95f, 1.0f}};
    bool is_selected = same_id(id, b->selected);
    if (!is_selected && !same_id(id, b->partner)) {
        return colour;
    }
    vec3s c = glms_vec3_lerp(glms_vec3(colour), is_selected ? selected : partner, 0.7f);
    return (vec4s){{c.x, c.y, c.z, colour.w}};
}

static void place_instances(body_batch *b, const cairn_world *world, shape_cache *cache)
{
    bool any = false, any_moving = false;
    cairn_aabb all = {{{0}}, {{0}}}, moving = all;
    b->awake_count = 0;
    for (int i = 0; i < b->body_count; ++i) {
        if (b->mesh_of[i] < 0) {
            continue;
        }
        cairn_body_id id = b->ids[i];
        shape_mesh *m = &cache->meshes[b->mesh_of[i]];
        cairn_transform xf = cairn_body_transform(world, id);
        cairn_body_type type = cairn_body_get_type(world, id);
        bool awake = cairn_body_is_awake(world, id);
        b->awake_count += awake ? 1 : 0;
        b->instances[m->first_instance + m->instance_count++] = (mesh_instance){
            transform_matrix(xf),
            highlight(b, id, body_colour(type, cairn_shape_get_type(m->shape), id.index, awake)),
        };
        cairn_aabb box = cairn_shape_bounds(m->shape, xf);
        all = any ? aabb_union(all, box) : box;
        any = true;
        if (type != CAIRN_STATIC) {
            moving = any_moving ? aabb_union(moving, box) : box;
            any_moving = true;
        }
    }
    b->focus = any_moving ? moving : all;
}

bool body_batch_gather(body_batch *b, const cairn_world *world, shape_cache *cache)
{
    int count = cairn_world_bodies(world, b->ids, b->capacity);
    if (count > b->capacity) {
        if (!reserve(b, count)) {
            return false;
        }
        count = cairn_world_bodies(world, b->ids, b->capacity);
    }
    b->body_count = count < b->capacity ? count : b->capacity;
    plan_slices(b, world, cache);
    place_instances(b, world, cache);
    return true;
}

void body_batch_free(body_batch *b)
{
    free(b->ids);
    free(b->mesh_of);
    free(b->instances);
    memset(b, 0, sizeof *b);
}
