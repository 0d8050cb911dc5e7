/* The shape -> mesh hash map (linear probing) and the meshes' lifetime. */
#include "shape_cache.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIN_SLOTS 64

static unsigned slot_of(const cairn_shape *shape, int slot_count)
{
    uint64_t h = (uint64_t)(uintptr_t)shape;
    h = (h >> 4) * 0x9e3779b97f4a7c15ull;
    return (unsigned)(h >> 32) & (unsigned)(slot_count - 1);
}

static int find(const shape_cache *c, const cairn_shape *shape, unsigned *slot)
{
    unsigned mask = (unsigned)c->slot_count - 1u;
    for (unsigned s = slot_of(shape, c->slot_count);; s = (s + 1u) & mask) {
        int entry = c->slots[s];
        if (entry == 0 || c->meshes[entry - 1].shape == shape) {
            *slot = s;
            return entry - 1;
        }
    }
}

static bool rehash(shape_cache *c, int slot_count)
{
    int *slots = calloc((size_t)slot_count, sizeof *slots);
    if (!slots) {
        return false;
    }
    free(c->slots);
    c->slots = slots;
    c->slot_count = slot_count;
    for (int i = 0; i < c->count; ++i) {
        unsigned slot;
        find(c, c->meshes[i].shape, &slot);
        c->slots[slot] = i + 1;
    }
    return true;
}

static bool reserve(shape_cache *c)
{
    if (c->count == c->capacity) {
        int capacity = c->capacity ? 2 * c->capacity : 16;
        shape_mesh *bigger = realloc(c->meshes, (size_t)capacity * sizeof *bigger);
        if (!bigger) {
            return false;
        }
        c->meshes = bigger;
        c->capacity = capacity;
    }
    if (2 * (c->count + 1) > c->slot_count) {
        return rehash(c, c->slot_count ? 2 * c->slot_count : MIN_SLOTS);
    }
    return true;
}

static void build(shape_mesh *entry, const cairn_shape *shape)
{
    *entry = (shape_mesh){.shape = shape};
    mesh m;
    entry->ok = mesh_from_shape(shape, &m);
    if (entry->ok) {
        gpu_mesh_upload(&entry->gpu, &m);
    }
    mesh_free(&m);
}

int shape_cache_get(shape_cache *c, const cairn_shape *shape)
{
    if (!shape) {
        return -1;
    }
    unsigned slot = 0;
    int index = c->slot_count ? find(c, shape, &slot) : -1;
    if (index < 0) {
        if (!reserve(c)) {
            fprintf(stderr, "cairn-demo: out of memory for shape meshes\n");
            return -1;
        }
        find(c, shape, &slot);
        index = c->count++;
        build(&c->meshes[index], shape);
        c->slots[slot] = index + 1;
    }
    return c->meshes[index].ok ? index : -1;
}

void shape_cache_clear(shape_cache *c)
{
    for (int i = 0; i < c->count; ++i) {
        if (c->meshes[i].ok) {
            gpu_mesh_destroy(&c->meshes[i].gpu);
        }
    }
    c->count = 0;
    if (c->slots) {
        memset(c->slots, 0, (size_t)c->slot_count * sizeof *c->slots);
    }
}

void shape_cache_destroy(shape_cache *c)
{
    shape_cache_clear(c);
    free(c->meshes);
    free(c->slots);
    memset(c, 0, sizeof *c);
}
