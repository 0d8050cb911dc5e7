/* Surface materials of meshes and heightfields: validation, the compact index table, and the
   public material getters shared by both shapes. */
#include "geometry/surface_materials.h"

#include "core/alloc.h"
#include "core/error.h"
#include "core/validate.h"
#include "geometry/shape.h"

#include <stdio.h>
#include <string.h>

static bool check_material(const char *function, const cairn_surface_material *m, int i)
{
    if (!is_finite_float(m->friction) || m->friction < 0.0f)
        return error_set("%s: material %d friction %g is not finite and >= 0", function, i,
                         (double)m->friction);
    if (!is_finite_float(m->restitution) || m->restitution < 0.0f || m->restitution > 1.0f)
        return error_set("%s: material %d restitution %g is outside [0, 1]", function, i,
                         (double)m->restitution);
    if (!is_finite_float(m->rolling_resistance) || m->rolling_resistance < 0.0f ||
        m->rolling_resistance > 1.0f)
        return error_set("%s: material %d rolling_resistance %g is outside [0, 1]", function, i,
                         (double)m->rolling_resistance);
    return true;
}

static void format_element(const material_element_name *name, int i, char *out, size_t size)
{
    if (name->columns > 0)
        snprintf(out, size, "%s %d (x %d, z %d)", name->element, i, i % name->columns,
                 i / name->columns);
    else
        snprintf(out, size, "%s %d", name->element, i);
}

/* No material arrays at all is a shape without materials; half of them is a mistake worth
   reporting. */
bool materials_check(const material_element_name *name, const int *material_indices, int count,
                     const cairn_surface_material *materials, int material_count)
{
    if (material_indices == NULL && materials == NULL && material_count == 0)
        return true;
    if (material_indices == NULL)
        return error_set("%s: material_indices is NULL", name->function);
    if (material_count < 1 || materials == NULL)
        return error_set("%s: material_count = %d with materials %s, at least 1 material needed",
                         name->function, material_count, materials ? "given" : "NULL");
    for (int i = 0; i < material_count; ++i)
        if (!check_material(name->function, &materials[i], i))
            return false;
    for (int e = 0; e < count; ++e)
        if (material_indices[e] < 0 || material_indices[e] >= material_count) {
            char element[96];
            format_element(name, e, element, sizeof element);
            return error_set("%s: material index of %s = %d is outside [0, %d)", name->function,
                             element, material_indices[e], material_count);
        }
    return true;
}

static int index_size_for(int material_count)
{
    return material_count <= 256 ? 1 : material_count <= 65536 ? 2 : 4;
}

static void store_index(material_table *table, int element, int index)
{
    if (table->index_size == 1)
        ((uint8_t *)table->indices)[element] = (uint8_t)index;
    else if (table->index_size == 2)
        ((uint16_t *)table->indices)[element] = (uint16_t)index;
    else
        ((int32_t *)table->indices)[element] = index;
}

bool material_table_init(material_table *table, const int *material_indices, int count,
                         const cairn_surface_material *materials, int material_count)
{
    *table = (material_table){0};
    if (material_indices == NULL)
        return true;
    int size = index_size_for(material_count);
    table->indices = mem_alloc((size_t)count * (size_t)size);
    table->materials = mem_alloc((size_t)material_count * sizeof(cairn_surface_material));
    if (!table->indices || !table->materials) {
        mem_free(table->indices, (size_t)count * (size_t)size);
        mem_free(table->materials, (size_t)material_count * sizeof(cairn_surface_material));
        *table = (material_table){0};
        return false;
    }
    table->index_size = size;
    table->count = count;
    table->material_count = material_count;
    for (int e = 0; e < count; ++e)
        store_index(table, e, material_indices[e]);
    memcpy(table->materials, materials, (size_t)material_count * sizeof(cairn_surface_material));
    for (int i = 0; i < material_count; ++i)
        table->rolls |= materials[i].rolling_resistance > 0.0f;
    return true;
}

void material_table_free(material_table *table)
{
    mem_free(table->indices, (size_t)table->count * (size_t)table->index_size);
    mem_free(table->materials, (size_t)table->material_count * sizeof(cairn_surface_material));
    *table = (material_table){0};
}

int material_table_index(const material_table *table, int element)
{
    if (table->indices == NULL || element < 0 || element >= table->count)
        return -1;
    if (table->index_size == 1)
        return ((const uint8_t *)table->indices)[element];
    if (table->index_size == 2)
        return ((const uint16_t *)table->indices)[element];
    return ((const int32_t *)table->indices)[element];
}

const material_table *shape_material_table(const cairn_shape *shape)
{
    if (shape == NULL)
        return NULL;
    if (shape->type == CAIRN_SHAPE_MESH)
        return &shape->mesh.materials;
    if (shape->type == CAIRN_SHAPE_HEIGHTFIELD)
        return &shape->heightfield.materials;
    return NULL;
}

/* Mesh materials are kept per input triangle, heightfield materials per cell (two triangles). */
int cairn_shape_triangle_material(const cairn_shape *shape, int triangle)
{
    const material_table *table = shape_material_table(shape);
    if (table == NULL || triangle < 0 || triangle >= cairn_shape_triangle_count(shape))
        return -1;
    int element = shape->type == CAIRN_SHAPE_HEIGHTFIELD ? triangle / 2 : triangle;
    return material_table_index(table, element);
}

bool cairn_shape_mesh_material(const cairn_shape *shape, int index, cairn_surface_material *out)
{
    const material_table *table = shape_material_table(shape);
    if (table == NULL || out == NULL || index < 0 || index >= table->material_count)
        return false;
    *out = table->materials[index];
    return true;
}
