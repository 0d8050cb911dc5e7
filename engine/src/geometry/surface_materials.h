/* Surface materials of triangle shapes: one table type for meshes (an entry per input triangle)
   and heightfields (an entry per cell), one validation with messages naming the element, and
   indices stored in the fewest bytes the material count allows. */
#ifndef CAIRN_GEOMETRY_SURFACE_MATERIALS_H
#define CAIRN_GEOMETRY_SURFACE_MATERIALS_H

#include <cairn/shape.h>

#include <stdbool.h>
#include <stdint.h>

typedef struct material_table {
    void *indices;  /* per element, index_size bytes each; NULL: the shape has no materials */
    int index_size; /* 1 (up to 256 materials), 2 (up to 65536) or 4 */
    int count;      /* elements */
    cairn_surface_material *materials;
    int material_count;
    bool rolls; /* a material has rolling resistance (the solver then looks for rolling rows) */
} material_table;

/* What the validation messages call an element: "triangle 3", or for a grid of `columns`
   columns (columns > 0) "cell 3 (x 1, z 1)". */
typedef struct material_element_name {
    const char *function;
    const char *element;
    int columns;
} material_element_name;

/* True when all three material arguments are absent (no materials) or all are valid for
   `count` elements; otherwise false with an error naming the element or material at fault. */
bool materials_check(const material_element_name *name, const int *material_indices, int count,
                     const cairn_surface_material *materials, int material_count);
/* Copies checked material arrays into *table (a zeroed table when material_indices is NULL).
   False when memory runs out, *table then left empty. */
bool material_table_init(material_table *table, const int *material_indices, int count,
                         const cairn_surface_material *materials, int material_count);
void material_table_free(material_table *table);

/* The material index of an element; -1 without materials or for an element out of range. */
int material_table_index(const material_table *table, int element);

/* The materials of a mesh or heightfield (NULL for other shapes). */
const material_table *shape_material_table(const cairn_shape *shape);

#endif
