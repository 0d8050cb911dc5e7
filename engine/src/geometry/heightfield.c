/* Heightfield shapes: validation, the per-block height ranges, and the heightfield halves of the
   triangle queries: the cells under a box, and rays walked in short pieces across the grid. Cells
   with a hole (CAIRN_HEIGHTFIELD_HOLE) at a corner have no triangles: the block ranges leave hole
   samples out and the cell walk skips those cells, so every query built on them skips holes. */
#include "geometry/triangles.h"

#include "core/alloc.h"
#include "core/error.h"
#include "core/minmax.h"
#include "core/validate.h"

#include <math.h>
#include <string.h>

static const char *const function = "cairn_shape_heightfield";
static const float max_coordinate = 1e6f;
enum { MAX_SAMPLES = 1 << 26 };

static bool check_heights(const float *heights, int count_x, int count_z, vec3s scale)
{
    if (count_x < 2 || count_z < 2)
        return error_set("%s: count_x = %d, count_z = %d; both must be at least 2", function,
                         count_x, count_z);
    if ((long long)count_x * count_z > MAX_SAMPLES)
        return error_set("%s: %d x %d samples is above %d", function, count_x, count_z,
                         MAX_SAMPLES);
    static const char *const names[3] = {"scale.x", "scale.y", "scale.z"};
    for (int k = 0; k < 3; ++k)
        if (!is_finite_float(scale.raw[k]) || scale.raw[k] <= 0.0f)
            return error_set("%s: %s = %g must be finite and positive", function, names[k],
                             (double)scale.raw[k]);
    if ((float)(count_x - 1) * scale.x > max_coordinate ||
        (float)(count_z - 1) * scale.z > max_coordinate)
        return error_set("%s: the grid reaches farther than %g m from the origin", function,
                         (double)max_coordinate);
    if (heights == NULL)
        return error_set("%s: heights is NULL", function);
    for (int i = 0; i < count_x * count_z; ++i) {
        if (heights[i] == CAIRN_HEIGHTFIELD_HOLE)
            continue;
        if (!is_finite_float(heights[i]))
            return error_set("%s: height %d (x %d, z %d) is not finite", function, i, i % count_x,
                             i / count_x);
        if (fabsf(heights[i] * scale.y) > max_coordinate)
            return error_set("%s: height %d (x %d, z %d) times scale.y is farther than %g m from "
                             "the origin",
                             function, i, i % count_x, i / count_x, (double)max_coordinate);
    }
    return true;
}

static float sample(const heightfield_data *h, int x, int z)
{
    return h->heights[z * h->count_x + x];
}

bool heightfield_cell_is_hole(const heightfield_data *h, int x, int z)
{
    return sample(h, x, z) == CAIRN_HEIGHTFIELD_HOLE ||
           sample(h, x + 1, z) == CAIRN_HEIGHTFIELD_HOLE ||
           sample(h, x, z + 1) == CAIRN_HEIGHTFIELD_HOLE ||
           sample(h, x + 1, z + 1) == CAIRN_HEIGHTFIELD_HOLE;
}

bool heightfield_has_triangle(const cairn_shape *shape, int triangle)
{
    const heightfield_data *h = &shape->heightfield;
    int cell = triangle / 2;
    return !heightfield_cell_is_hole(h, cell % (h->count_x - 1), cell / (h->count_x - 1));
}

/* A grid whose every cell touches a hole has nothing to collide with: refused like a mesh whose
   triangles are all degenerate. */
static bool check_solid_cell(const heightfield_data *h)
{
    for (int z = 0; z + 1 < h->count_z; ++z)
        for (int x = 0; x + 1 < h->count_x; ++x)
            if (!heightfield_cell_is_hole(h, x, z))
                return true;
    int holes = 0;
    for (int i = 0; i < h->count_x * h->count_z; ++i)
        holes += h->heights[i] == CAIRN_HEIGHTFIELD_HOLE;
    return error_set("%s: every cell touches a hole (%d of %d samples are holes); no triangle is "
                     "left",
                     function, holes, h->count_x * h->count_z);
}

/* The height range of each block of HEIGHTFIELD_BLOCK x HEIGHTFIELD_BLOCK cells. */
static void build_blocks(heightfield_data *h)
{
    for (int bz = 0; bz < h->blocks_z; ++bz)
        for (int bx = 0; bx < h->blocks_x; ++bx) {
            float lo = INFINITY, hi = -INFINITY;
            int x1 = (bx + 1) * HEIGHTFIELD_BLOCK, z1 = (bz + 1) * HEIGHTFIELD_BLOCK;
            for (int z = bz * HEIGHTFIELD_BLOCK; z <= z1 && z < h->count_z; ++z)
                for (int x = bx * HEIGHTFIELD_BLOCK; x <= x1 && x < h->count_x; ++x) {
                    if (sample(h, x, z) == CAIRN_HEIGHTFIELD_HOLE)
                        continue; /* a block of holes keeps an empty range: never visited */
                    lo = fminf(lo, sample(h, x, z));
                    hi = fmaxf(hi, sample(h, x, z));
                }
            h->block_min[bz * h->blocks_x + bx] = lo;
            h->block_max[bz * h->blocks_x + bx] = hi;
        }
}

static void free_arrays(heightfield_data *h)
{
    size_t blocks = (size_t)h->blocks_x * (size_t)h->blocks_z;
    mem_free(h->heights, (size_t)h->count_x * (size_t)h->count_z * sizeof(float));
    mem_free(h->block_min, blocks * sizeof(float));
    mem_free(h->block_max, blocks * sizeof(float));
    material_table_free(&h->materials);
}

void heightfield_destroy(cairn_shape *shape)
{
    free_arrays(&shape->heightfield);
}

cairn_shape *cairn_shape_heightfield(const float *heights, int count_x, int count_z, vec3s scale)
{
    return cairn_shape_heightfield_with_materials(heights, count_x, count_z, scale, NULL, NULL, 0);
}

/* One material per cell, as both triangles of a cell share it; messages name the cell's x, z. */
static bool check_cell_materials(int count_x, int count_z, const int *material_indices,
                                 const cairn_surface_material *materials, int material_count)
{
    const material_element_name names = {"cairn_shape_heightfield_with_materials", "cell",
                                         count_x - 1};
    return materials_check(&names, material_indices, (count_x - 1) * (count_z - 1), materials,
                           material_count);
}

cairn_shape *cairn_shape_heightfield_with_materials(const float *heights, int count_x, int count_z,
                                                    vec3s scale, const int *material_indices,
                                                    const cairn_surface_material *materials,
                                                    int material_count)
{
    if (!check_heights(heights, count_x, count_z, scale) ||
        !check_cell_materials(count_x, count_z, material_indices, materials, material_count))
        return NULL;
    cairn_shape *shape = mem_calloc(1, sizeof *shape);
    if (shape == NULL)
        return NULL;
    shape->type = CAIRN_SHAPE_HEIGHTFIELD;
    atomic_init(&shape->ref_count, 1);
    heightfield_data *h = &shape->heightfield;
    *h = (heightfield_data){.count_x = count_x, .count_z = count_z, .scale = scale};
    h->blocks_x = (count_x - 2) / HEIGHTFIELD_BLOCK + 1;
    h->blocks_z = (count_z - 2) / HEIGHTFIELD_BLOCK + 1;
    size_t samples = (size_t)count_x * (size_t)count_z;
    size_t blocks = (size_t)h->blocks_x * (size_t)h->blocks_z;
    h->heights = mem_alloc(samples * sizeof(float));
    h->block_min = mem_alloc(blocks * sizeof(float));
    h->block_max = mem_alloc(blocks * sizeof(float));
    if (!h->heights || !h->block_min || !h->block_max ||
        !material_table_init(&h->materials, material_indices, (count_x - 1) * (count_z - 1),
                             materials, material_count)) {
        free_arrays(h);
        mem_free(shape, sizeof *shape);
        return NULL;
    }
    memcpy(h->heights, heights, samples * sizeof(float));
    if (!check_solid_cell(h)) {
        free_arrays(h);
        mem_free(shape, sizeof *shape);
        return NULL;
    }
    build_blocks(h);
    float lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < blocks; ++i)
        lo = fminf(lo, h->block_min[i]), hi = fmaxf(hi, h->block_max[i]);
    shape->local_bounds = (cairn_aabb){
        {{0.0f, lo * scale.y, 0.0f}},
        {{(float)(count_x - 1) * scale.x, hi * scale.y, (float)(count_z - 1) * scale.z}}};
    return shape;
}

static vec3s sample_point(const heightfield_data *h, int x, int z)
{
    return (vec3s){{(float)x * h->scale.x, sample(h, x, z) * h->scale.y, (float)z * h->scale.z}};
}

/* Triangle 2 * cell + 0 is (x,z) (x,z+1) (x+1,z+1); 2 * cell + 1 is (x,z) (x+1,z+1) (x+1,z):
   both counter-clockwise seen from +Y. */
void heightfield_corners(const cairn_shape *shape, int triangle, vec3s corners[3])
{
    const heightfield_data *h = &shape->heightfield;
    int cell = triangle / 2, x = cell % (h->count_x - 1), z = cell / (h->count_x - 1);
    corners[0] = sample_point(h, x, z);
    corners[1] = triangle % 2 == 0 ? sample_point(h, x, z + 1) : sample_point(h, x + 1, z + 1);
    corners[2] = triangle % 2 == 0 ? sample_point(h, x + 1, z + 1) : sample_point(h, x + 1, z);
}

/* The cells whose x (or z) span overlaps [lo, hi] (local, metres): [*first, *last]; false when
   none. */
static bool cell_range(float lo, float hi, float scale, int cells, int *first, int *last)
{
    float a = floorf(lo / scale), b = floorf(hi / scale);
    if (b < 0.0f || a > (float)(cells - 1) || !(a <= b))
        return false;
    *first = a < 0.0f ? 0 : (int)a;
    *last = b > (float)(cells - 1) ? cells - 1 : (int)b;
    /* A box touching a cell boundary from below also touches the cell before it. */
    if (*first > 0 && lo <= (float)*first * scale)
        --*first;
    return true;
}

static int min_int(int a, int b)
{
    return a < b ? a : b;
}

static int max_int(int a, int b)
{
    return a > b ? a : b;
}

static bool visit_cell(const cairn_shape *shape, int x, int z, cairn_aabb box, triangle_fn *visit,
                       void *context)
{
    const heightfield_data *h = &shape->heightfield;
    if (heightfield_cell_is_hole(h, x, z))
        return true;
    float a = sample(h, x, z), b = sample(h, x + 1, z), c = sample(h, x, z + 1),
          d = sample(h, x + 1, z + 1);
    float lo = min_float(min_float(a, b), min_float(c, d)) * h->scale.y;
    float hi = max_float(max_float(a, b), max_float(c, d)) * h->scale.y;
    if (lo > box.max.y || hi < box.min.y)
        return true;
    int cell = z * (h->count_x - 1) + x;
    for (int k = 0; k < 2; ++k) {
        vec3s corners[3];
        heightfield_corners(shape, 2 * cell + k, corners);
        if (!visit(context, 2 * cell + k, corners))
            return false;
    }
    return true;
}

void heightfield_query_box(const cairn_shape *shape, cairn_aabb box, triangle_fn *visit,
                           void *context)
{
    const heightfield_data *h = &shape->heightfield;
    int x0, x1, z0, z1;
    if (!cell_range(box.min.x, box.max.x, h->scale.x, h->count_x - 1, &x0, &x1) ||
        !cell_range(box.min.z, box.max.z, h->scale.z, h->count_z - 1, &z0, &z1))
        return;
    for (int bz = z0 / HEIGHTFIELD_BLOCK; bz <= z1 / HEIGHTFIELD_BLOCK; ++bz)
        for (int bx = x0 / HEIGHTFIELD_BLOCK; bx <= x1 / HEIGHTFIELD_BLOCK; ++bx) {
            int block = bz * h->blocks_x + bx;
            if (h->block_min[block] * h->scale.y > box.max.y ||
                h->block_max[block] * h->scale.y < box.min.y)
                continue; /* the whole block is above or below the box */
            int zs = max_int(z0, bz * HEIGHTFIELD_BLOCK);
            int ze = min_int(z1, (bz + 1) * HEIGHTFIELD_BLOCK - 1);
            int xs = max_int(x0, bx * HEIGHTFIELD_BLOCK);
            int xe = min_int(x1, (bx + 1) * HEIGHTFIELD_BLOCK - 1);
            for (int z = zs; z <= ze; ++z)
                for (int x = xs; x <= xe; ++x)
                    if (!visit_cell(shape, x, z, box, visit, context))
                        return;
        }
}

typedef struct ray_piece {
    vec3s origin, d;
    float max_t;
    triangle_hit *hit;
    bool found;
} ray_piece;

static bool visit_ray_triangle(void *context, int triangle, const vec3s corners[3])
{
    ray_piece *q = context;
    float t;
    if (!triangle_ray(corners, q->origin, q->d, q->max_t, &t))
        return true;
    if (q->found && t == q->max_t && triangle > q->hit->triangle)
        return true;
    q->max_t = t;
    q->found = true;
    q->hit->fraction = t;
    q->hit->triangle = triangle;
    vec3s n = triangle_normal(corners);
    q->hit->normal = glms_vec3_dot(n, q->d) > 0.0f ? glms_vec3_negate(n) : n;
    return true;
}

/* The part [*t0, *t1] of [0, max_fraction] inside the shape's bounds; false when none. */
static bool clip_to_bounds(cairn_aabb box, vec3s o, vec3s d, float max_fraction, float *t0,
                           float *t1)
{
    *t0 = 0.0f, *t1 = max_fraction;
    for (int k = 0; k < 3; ++k) {
        float slack = 1e-5f * (fabsf(box.min.raw[k]) + fabsf(box.max.raw[k]) + 1e-3f);
        float lo = box.min.raw[k] - slack, hi = box.max.raw[k] + slack;
        if (d.raw[k] == 0.0f) {
            if (o.raw[k] < lo || o.raw[k] > hi)
                return false;
            continue;
        }
        float a = (lo - o.raw[k]) / d.raw[k], b = (hi - o.raw[k]) / d.raw[k];
        *t0 = max_float(*t0, min_float(a, b));
        *t1 = min_float(*t1, max_float(a, b));
    }
    return *t0 <= *t1;
}

/* The ray is cut into pieces a few cells long; each piece tests the cells under its bounds. The
   first piece with a hit holds the closest hit: any hit before it lies on an earlier piece,
   within that piece's bounds. */
bool heightfield_raycast(const cairn_shape *shape, vec3s origin, vec3s d, float max_fraction,
                         triangle_hit *hit)
{
    const heightfield_data *h = &shape->heightfield;
    float t0, t1;
    if (!clip_to_bounds(shape->local_bounds, origin, d, max_fraction, &t0, &t1))
        return false;
    float cells = fabsf(d.x) * (t1 - t0) / h->scale.x + fabsf(d.z) * (t1 - t0) / h->scale.z;
    int pieces = (int)fminf(ceilf(cells / 4.0f), 1e6f);
    pieces = pieces < 1 ? 1 : pieces;
    ray_piece q = {origin, d, t1, hit, false};
    for (int i = 0; i < pieces && !q.found; ++i) {
        float a = t0 + (t1 - t0) * (float)i / (float)pieces;
        float b = i == pieces - 1 ? t1 : t0 + (t1 - t0) * (float)(i + 1) / (float)pieces;
        q.max_t = b; /* a hit beyond the piece may hide a closer one under the next piece */
        vec3s p = glms_vec3_add(origin, glms_vec3_scale(d, a));
        vec3s e = glms_vec3_add(origin, glms_vec3_scale(d, b));
        cairn_aabb box = {glms_vec3_minv(p, e), glms_vec3_maxv(p, e)};
        /* grown so rounding does not lose a cell whose triangle the piece ends on */
        for (int k = 0; k < 3; ++k) {
            float slack = 1e-5f * (fabsf(box.min.raw[k]) + fabsf(box.max.raw[k])) + 1e-6f;
            box.min.raw[k] -= slack;
            box.max.raw[k] += slack;
        }
        heightfield_query_box(shape, box, visit_ray_triangle, &q);
    }
    return q.found;
}
