/* Static geometry entries of scene files: `{mesh: {vertices: [[x, y, z], ...], indices:
   [[a, b, c], ...]}}` and `{heightfield: {count_x, count_z, heights: [...], scale: [x, y, z]}}`
   (a height may be `hole`), both with optional `materials` and `material_indices` (per triangle,
   per cell), every bad value reported at its own line and column; mesh files in mesh_file.c,
   heightfield images in heightfield_image.c. */
#include "heightfield_image.h"
#include "mesh_file.h"
#include "scene.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Scene files are for hand-written and generated levels of moderate size. */
#define MESH_VERTICES_MAX    (1 << 20)
#define MESH_TRIANGLES_MAX   (1 << 21)
#define HEIGHTFIELD_MAX_SIDE 4096

/* One [a, b, c]: three vertex indices, each in range. */
static bool read_triangle(const io_reader *reader, struct fy_node *node, const char *what,
                          int vertex_count, int *out)
{
    if (!io_expect_sequence(reader, node, what))
        return false;
    if (fy_node_sequence_item_count(node) != 3)
        return io_fail(reader, node, "%s has %d indices, a triangle needs 3", what,
                       fy_node_sequence_item_count(node));
    void *iter = NULL;
    for (int k = 0; k < 3; ++k) {
        struct fy_node *index = fy_node_sequence_iterate(node, &iter);
        char item[IO_WHAT_CAPACITY + 32]; /* what already ends in [i] */
        snprintf(item, sizeof item, "%s[%d]", what, k);
        if (!io_read_int(reader, index, item, -2147483647, 2147483647, &out[k]))
            return false;
        if (out[k] < 0 || out[k] >= vertex_count)
            return io_fail(reader, index,
                           "%s = %d is out of range: the mesh has %d vertices "
                           "(indices 0 to %d)",
                           item, out[k], vertex_count, vertex_count - 1);
    }
    return true;
}

static bool read_triangle_item(const io_reader *reader, struct fy_node *node, const char *what,
                               void *out, void *context)
{
    return read_triangle(reader, node, what, *(const int *)context, out);
}

/* Three indices per triangle into *out. */
static bool read_indices(const io_reader *reader, struct fy_node *node, const char *what,
                         int vertex_count, int **out, int *count)
{
    void *items = NULL;
    bool ok = io_read_list(reader, node, what, "triangles", 1, MESH_TRIANGLES_MAX, 3 * sizeof **out,
                           read_triangle_item, &vertex_count, &items, count);
    *out = items;
    return ok;
}

static struct fy_node *required(const io_reader *reader, struct fy_node *params, const char *what,
                                const char *key, char *name, size_t capacity)
{
    io_join(name, capacity, what, key, strlen(key));
    struct fy_node *value = io_lookup(params, key);
    if (value == NULL)
        io_fail(reader, params, "%s needs %s", what, key);
    return value;
}

/* `mesh: { file, scale, materials }` (mesh_file.c). */
static bool read_mesh_file(const io_reader *reader, struct fy_node *params, const char *what,
                           const cairn_surface_material *body_material, cairn_shape **out)
{
    static const char *const keys[] = {"file", "scale", "materials"};
    if (!io_check_keys(reader, params, what, keys, 3))
        return false;
    io_mesh_file request = {what,
                            io_lookup(params, "file"),
                            io_lookup(params, "materials"),
                            {{1.0f, 1.0f, 1.0f}},
                            *body_material};
    char name[IO_WHAT_CAPACITY];
    io_join(name, sizeof name, what, "scale", 5);
    struct fy_node *value = io_lookup(params, "scale");
    if (value != NULL &&
        !io_read_vec3(reader, value, name, CAIRN_MIN_SIZE, CAIRN_MAX_SIZE, &request.scale))
        return false;
    return io_read_mesh_file(reader, params, &request, out);
}

/* `materials: [{friction, restitution, rolling_resistance}, ...]`: each entry read as a body's
   material (same ranges; a key left out takes the body default). */
static bool read_material_item(const io_reader *reader, struct fy_node *node, const char *what,
                               void *out, void *context)
{
    (void)context;
    cairn_body_def def = cairn_body_default_def();
    *(cairn_surface_material *)out = io_surface_material_of(&def);
    return io_read_surface_material(reader, node, what, out);
}

static bool read_materials(const io_reader *reader, struct fy_node *node, const char *what,
                           cairn_surface_material **out, int *count)
{
    void *items = NULL;
    bool ok = io_read_list(reader, node, what, "materials", 1, MESH_TRIANGLES_MAX, sizeof **out,
                           read_material_item, NULL, &items, count);
    *out = items;
    return ok;
}

/* What the material indices of a shape run over: a mesh's triangles or a heightfield's cells.
   `count_detail` explains the expected count in messages. */
typedef struct material_elements {
    int count;
    const char *element; /* "triangle" or "cell" */
    const char *shape;   /* "mesh" or "heightfield" */
    char count_detail[96];
} material_elements;

/* `material_indices: [m, ...]`: one per element, each naming an entry of materials. */
static bool read_material_indices(const io_reader *reader, struct fy_node *node, const char *what,
                                  const material_elements *elements, int material_count, int **out)
{
    if (!io_expect_sequence(reader, node, what))
        return false;
    int count = elements->count;
    if (fy_node_sequence_item_count(node) != count)
        return io_fail(reader, node, "%s has %d entries, expected one per %s (%s)", what,
                       fy_node_sequence_item_count(node), elements->element,
                       elements->count_detail);
    *out = malloc((size_t)count * sizeof **out);
    if (*out == NULL)
        return io_fail(reader, node, "%s: out of memory", what);
    void *iter = NULL;
    for (int i = 0; i < count; ++i) {
        char item[IO_WHAT_CAPACITY + 16];
        snprintf(item, sizeof item, "%s[%d]", what, i);
        struct fy_node *index = fy_node_sequence_iterate(node, &iter);
        if (!io_read_int(reader, index, item, -2147483647, 2147483647, &(*out)[i]))
            return false;
        if ((*out)[i] < 0 || (*out)[i] >= material_count)
            return io_fail(reader, index, "%s = %d is out of range: the %s has %d materials", item,
                           (*out)[i], elements->shape, material_count);
    }
    return true;
}

/* The optional materials of an inline mesh (per triangle) or a heightfield (per cell): both keys
   or neither. */
typedef struct surface_materials {
    cairn_surface_material *materials;
    int *indices;
    int count;
} surface_materials;

static bool read_surface_materials(const io_reader *reader, struct fy_node *params,
                                   const char *what, const material_elements *elements,
                                   surface_materials *out)
{
    struct fy_node *list = io_lookup(params, "materials");
    struct fy_node *indices = io_lookup(params, "material_indices");
    if (list == NULL && indices == NULL)
        return true;
    char list_name[IO_WHAT_CAPACITY], indices_name[IO_WHAT_CAPACITY];
    if (required(reader, params, what, "materials", list_name, sizeof list_name) == NULL ||
        required(reader, params, what, "material_indices", indices_name, sizeof indices_name) ==
            NULL)
        return false;
    return read_materials(reader, list, list_name, &out->materials, &out->count) &&
           read_material_indices(reader, indices, indices_name, elements, out->count,
                                 &out->indices);
}

static void surface_materials_free(surface_materials *m)
{
    free(m->materials);
    free(m->indices);
}

bool io_read_mesh(const io_reader *reader, struct fy_node *params, const char *what,
                  const cairn_surface_material *body_material, cairn_shape **out)
{
    if (io_lookup(params, "file") != NULL)
        return read_mesh_file(reader, params, what, body_material, out);
    static const char *const keys[] = {"vertices", "indices", "materials", "material_indices"};
    if (!io_check_keys(reader, params, what, keys, 4))
        return false;
    char vertices_name[IO_WHAT_CAPACITY], indices_name[IO_WHAT_CAPACITY];
    struct fy_node *vertices_node =
        required(reader, params, what, "vertices", vertices_name, sizeof vertices_name);
    if (vertices_node == NULL)
        return false;
    struct fy_node *indices_node =
        required(reader, params, what, "indices", indices_name, sizeof indices_name);
    if (indices_node == NULL)
        return false;
    vec3s *vertices = NULL;
    int *indices = NULL, vertex_count = 0, triangle_count = 0;
    surface_materials materials = {NULL, NULL, 0};
    bool ok =
        io_read_vec3_list(reader, vertices_node, vertices_name, "vertices", 3, MESH_VERTICES_MAX,
                          -1e6f, 1e6f, &vertices, &vertex_count) &&
        read_indices(reader, indices_node, indices_name, vertex_count, &indices, &triangle_count);
    if (ok) {
        material_elements triangles = {triangle_count, "triangle", "mesh", ""};
        snprintf(triangles.count_detail, sizeof triangles.count_detail, "%d", triangle_count);
        ok = read_surface_materials(reader, params, what, &triangles, &materials) &&
             io_shape_made(reader, params, what,
                           cairn_shape_mesh_with_materials(vertices, vertex_count, indices,
                                                           triangle_count, materials.indices,
                                                           materials.materials, materials.count),
                           out);
    }
    free(vertices);
    free(indices);
    surface_materials_free(&materials);
    return ok;
}

static bool read_heights(const io_reader *reader, struct fy_node *node, const char *what,
                         int count_x, int count_z, float **out)
{
    if (!io_expect_sequence(reader, node, what))
        return false;
    int count = fy_node_sequence_item_count(node), expected = count_x * count_z;
    if (count != expected)
        return io_fail(reader, node, "%s has %d heights, expected count_x * count_z = %d * %d = %d",
                       what, count, count_x, count_z, expected);
    *out = malloc((size_t)expected * sizeof **out);
    if (*out == NULL)
        return io_fail(reader, node, "%s: out of memory", what);
    void *iter = NULL;
    for (int i = 0; i < expected; ++i) {
        struct fy_node *item = fy_node_sequence_iterate(node, &iter);
        char name[IO_WHAT_CAPACITY + 16];
        snprintf(name, sizeof name, "%s[%d]", what, i);
        /* the plain word `hole` removes the cells around the sample */
        if (fy_node_is_scalar(item) && fy_node_get_style(item) == FYNS_PLAIN &&
            io_scalar_is(item, "hole"))
            (*out)[i] = CAIRN_HEIGHTFIELD_HOLE;
        else if (!io_read_float(reader, item, name, -1e6f, 1e6f, &(*out)[i]))
            return false;
    }
    return true;
}

/* `heightfield: { image, scale, hole_below }` (heightfield_image.c). */
static bool read_image(const io_reader *reader, struct fy_node *params, const char *what,
                       struct fy_node *image, io_height_grid *grid)
{
    char name[IO_WHAT_CAPACITY];
    float hole_below = 0.0f; /* no grey level is below 0: no holes */
    io_join(name, sizeof name, what, "hole_below", 10);
    struct fy_node *value = io_lookup(params, "hole_below");
    if (value != NULL && !io_read_float(reader, value, name, 0.0f, 1.0f, &hole_below))
        return false;
    io_join(name, sizeof name, what, "image", 5);
    return io_read_heightfield_image(reader, name, image, hole_below, HEIGHTFIELD_MAX_SIDE, grid);
}

/* `heightfield: { count_x, count_z, heights }`. */
static bool read_inline_grid(const io_reader *reader, struct fy_node *params, const char *what,
                             io_height_grid *grid)
{
    char name[IO_WHAT_CAPACITY];
    struct fy_node *value = required(reader, params, what, "count_x", name, sizeof name);
    if (value == NULL || !io_read_int(reader, value, name, 2, HEIGHTFIELD_MAX_SIDE, &grid->count_x))
        return false;
    value = required(reader, params, what, "count_z", name, sizeof name);
    if (value == NULL || !io_read_int(reader, value, name, 2, HEIGHTFIELD_MAX_SIDE, &grid->count_z))
        return false;
    value = required(reader, params, what, "heights", name, sizeof name);
    return value != NULL &&
           read_heights(reader, value, name, grid->count_x, grid->count_z, &grid->heights);
}

/* The grid (inline or from an image), then its optional per-cell materials. */
bool io_read_heightfield(const io_reader *reader, struct fy_node *params, const char *what,
                         cairn_shape **out)
{
    struct fy_node *image = io_lookup(params, "image");
    static const char *const keys[] = {"count_x", "count_z",   "heights",
                                       "scale",   "materials", "material_indices"};
    static const char *const image_keys[] = {"image", "scale", "hole_below", "materials",
                                             "material_indices"};
    if (!io_check_keys(reader, params, what, image ? image_keys : keys, image ? 5 : 6))
        return false;
    char name[IO_WHAT_CAPACITY];
    vec3s scale = {{1.0f, 1.0f, 1.0f}};
    io_join(name, sizeof name, what, "scale", 5);
    struct fy_node *value = io_lookup(params, "scale");
    if (value != NULL && !io_read_vec3(reader, value, name, CAIRN_MIN_SIZE, CAIRN_MAX_SIZE, &scale))
        return false;
    io_height_grid grid = {NULL, 0, 0};
    surface_materials materials = {NULL, NULL, 0};
    material_elements cells = {0, "cell", "heightfield", ""};
    bool ok = image ? read_image(reader, params, what, image, &grid)
                    : read_inline_grid(reader, params, what, &grid);
    if (ok) {
        cells.count = (grid.count_x - 1) * (grid.count_z - 1);
        snprintf(cells.count_detail, sizeof cells.count_detail,
                 "(%s - 1) * (%s - 1) = %d * %d = %d", image ? "width" : "count_x",
                 image ? "height" : "count_z", grid.count_x - 1, grid.count_z - 1, cells.count);
        ok = read_surface_materials(reader, params, what, &cells, &materials) &&
             io_shape_made(reader, params, what,
                           cairn_shape_heightfield_with_materials(
                               grid.heights, grid.count_x, grid.count_z, scale, materials.indices,
                               materials.materials, materials.count),
                           out);
    }
    free(grid.heights);
    surface_materials_free(&materials);
    return ok;
}
