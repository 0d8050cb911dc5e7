/* The mesh and heightfield debug layers: BVH node boxes (heightfield height blocks) and every
   triangle edge coloured by whether the contact rule treats it as active. Reads only. */
#include "core/xform.h"
#include "dynamics/debug_draw_internal.h"
#include "dynamics/world_state.h"
#include "geometry/triangles.h"

static vec4s rgba(float r, float g, float b, float a)
{
    return (vec4s){{r, g, b, a}};
}

/* A box of the shape's frame under the body's pose: rotated, so it cannot go through the
   axis-aligned box callback and is always drawn as its 12 edges. */
static void draw_oriented_box(const cairn_debug_draw *d, cairn_transform xf, vec3s lo, vec3s hi,
                              vec4s colour)
{
    for (int axis = 0; axis < 3; ++axis) {
        int u = (axis + 1) % 3, v = (axis + 2) % 3;
        for (int k = 0; k < 4; ++k) {
            vec3s from = lo;
            from.raw[u] = (k & 1) ? hi.raw[u] : lo.raw[u];
            from.raw[v] = (k & 2) ? hi.raw[v] : lo.raw[v];
            vec3s to = from;
            to.raw[axis] = hi.raw[axis];
            d->line(d->context, xform_point(xf, from), xform_point(xf, to), colour);
        }
    }
}

/* Leaves bright, inner nodes faint: on a large mesh the inner boxes would otherwise hide the
   leaves that the queries actually visit. */
static void draw_bvh(const mesh_bvh *bvh, cairn_transform xf, const cairn_debug_draw *d)
{
    for (int i = 0; i < bvh->node_count; ++i) {
        const bvh_node *n = &bvh->nodes[i];
        vec3s lo = {{n->min[0], n->min[1], n->min[2]}}, hi = {{n->max[0], n->max[1], n->max[2]}};
        vec4s colour = n->count > 0 ? rgba(0.2f, 0.9f, 1.0f, 1.0f) : rgba(0.5f, 0.5f, 0.9f, 0.25f);
        draw_oriented_box(d, xf, lo, hi, colour);
    }
}

/* A heightfield has no BVH; its equivalent is the grid of blocks with their height range. */
static void draw_height_blocks(const heightfield_data *h, cairn_transform xf,
                               const cairn_debug_draw *d)
{
    float cell = (float)HEIGHTFIELD_BLOCK;
    for (int bz = 0; bz < h->blocks_z; ++bz) {
        for (int bx = 0; bx < h->blocks_x; ++bx) {
            int b = bz * h->blocks_x + bx;
            if (h->block_min[b] > h->block_max[b])
                continue; /* a block of holes only: empty range, no triangles */
            float x1 = (float)(h->count_x - 1), z1 = (float)(h->count_z - 1);
            float xe = (float)bx * cell + cell < x1 ? (float)bx * cell + cell : x1;
            float ze = (float)bz * cell + cell < z1 ? (float)bz * cell + cell : z1;
            vec3s lo = {{(float)bx * cell * h->scale.x, h->block_min[b] * h->scale.y,
                         (float)bz * cell * h->scale.z}};
            vec3s hi = {{xe * h->scale.x, h->block_max[b] * h->scale.y, ze * h->scale.z}};
            /* A negative vertical scale flips the range. */
            if (lo.y > hi.y) {
                float t = lo.y;
                lo.y = hi.y;
                hi.y = t;
            }
            draw_oriented_box(d, xf, lo, hi, rgba(0.2f, 0.9f, 1.0f, 1.0f));
        }
    }
}

static int triangle_slots(const cairn_shape *shape)
{
    if (shape->type == CAIRN_SHAPE_MESH)
        return shape->mesh.input_count;
    const heightfield_data *h = &shape->heightfield;
    return 2 * (h->count_x - 1) * (h->count_z - 1);
}

/* Whether triangle index t names a triangle: meshes drop degenerate input triangles, and
   heightfield cells with a hole have none. */
static bool triangle_exists(const cairn_shape *shape, int t)
{
    if (shape->type == CAIRN_SHAPE_MESH)
        return shape->mesh.slot[t] >= 0;
    return heightfield_has_triangle(shape, t);
}

/* Each triangle draws its own three edges, so an edge shared by two triangles is drawn twice,
   each time with that triangle's own flag (the flag is per triangle side). */
static void draw_edges(const cairn_shape *shape, cairn_transform xf, const cairn_debug_draw *d)
{
    vec4s active = rgba(1.0f, 0.3f, 0.2f, 1.0f), inactive = rgba(0.3f, 0.6f, 1.0f, 0.6f);
    for (int t = 0; t < triangle_slots(shape); ++t) {
        if (!triangle_exists(shape, t))
            continue;
        vec3s c[3];
        triangles_corners(shape, t, c);
        for (int e = 0; e < 3; ++e) {
            vec4s colour = triangles_edge_active(shape, t, e) ? active : inactive;
            d->line(d->context, xform_point(xf, c[e]), xform_point(xf, c[(e + 1) % 3]), colour);
        }
    }
}

void meshes_debug_draw(const cairn_world *w, const cairn_debug_draw *d, uint32_t flags)
{
    for (int i = 0; i < w->bodies.count; ++i) {
        const body *b = &w->bodies.data[i];
        if (!b->alive || !shape_is_triangles(b->shape))
            continue;
        const cairn_shape *s = b->shape;
        if ((flags & CAIRN_DEBUG_DRAW_MESH_BVH) && s->type == CAIRN_SHAPE_MESH)
            draw_bvh(&s->mesh.bvh, b->transform, d);
        if ((flags & CAIRN_DEBUG_DRAW_MESH_BVH) && s->type == CAIRN_SHAPE_HEIGHTFIELD)
            draw_height_blocks(&s->heightfield, b->transform, d);
        if (flags & CAIRN_DEBUG_DRAW_MESH_EDGES)
            draw_edges(s, b->transform, d);
    }
}
