/* `mesh: { file: level.glb, scale: [sx, sy, sz] }`: Assimp imports the file with its node
   transforms baked into the vertices (aiProcess_PreTransformVertices), polygons triangulated
   and identical vertices joined (so neighbouring triangles share indices, which the mesh's
   active-edge rule needs); points and lines are left out. With `materials: { <name>: {friction,
   restitution, rolling_resistance}, ... }` each triangle takes the material of the file material
   (AI_MATKEY_NAME) its Assimp mesh uses; the file's materials the scene does not name take the
   body's. */
#include "mesh_file.h"
#include "scene.h"
#include "settings.h"

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/material.h>
#include <assimp/scene.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct triangle_soup {
    vec3s *vertices;
    int *indices;
    int *material; /* per triangle: the file material index of its Assimp mesh */
    int vertex_count, triangle_count;
} triangle_soup;

static void count_soup(const struct aiScene *scene, int *vertices, int *triangles)
{
    *vertices = *triangles = 0;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        const struct aiMesh *mesh = scene->mMeshes[m];
        *vertices += (int)mesh->mNumVertices;
        for (unsigned f = 0; f < mesh->mNumFaces; ++f)
            *triangles += mesh->mFaces[f].mNumIndices == 3;
    }
}

/* Every mesh's vertices (scaled) and triangles, indices offset past the meshes before it. */
static bool fill_soup(const struct aiScene *scene, vec3s scale, triangle_soup *soup)
{
    int vertices, triangles;
    count_soup(scene, &vertices, &triangles);
    soup->vertices = malloc(sizeof *soup->vertices * (size_t)(vertices > 0 ? vertices : 1));
    soup->indices = malloc(sizeof *soup->indices * 3 * (size_t)(triangles > 0 ? triangles : 1));
    soup->material = malloc(sizeof *soup->material * (size_t)(triangles > 0 ? triangles : 1));
    if (soup->vertices == NULL || soup->indices == NULL || soup->material == NULL)
        return false;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        const struct aiMesh *mesh = scene->mMeshes[m];
        int base = soup->vertex_count;
        for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
            struct aiVector3D p = mesh->mVertices[v];
            soup->vertices[soup->vertex_count++] =
                (vec3s){{p.x * scale.x, p.y * scale.y, p.z * scale.z}};
        }
        for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
            const struct aiFace *face = &mesh->mFaces[f];
            if (face->mNumIndices != 3)
                continue;
            for (int k = 0; k < 3; ++k)
                soup->indices[3 * soup->triangle_count + k] = base + (int)face->mIndices[k];
            soup->material[soup->triangle_count++] = (int)mesh->mMaterialIndex;
        }
    }
    return true;
}

/* The name of the file's material i ("" when it has none). */
static void material_name(const struct aiScene *scene, unsigned i, struct aiString *name)
{
    if (aiGetMaterialString(scene->mMaterials[i], AI_MATKEY_NAME, name) != aiReturn_SUCCESS)
        name->length = 0, name->data[0] = '\0';
}

/* "ice, rubber, DefaultMaterial": the names a scene may give, for the unknown-name message. */
static void list_material_names(const struct aiScene *scene, char *out, size_t capacity)
{
    size_t used = 0;
    out[0] = '\0';
    for (unsigned i = 0; i < scene->mNumMaterials && used < capacity; ++i) {
        struct aiString name;
        material_name(scene, i, &name);
        int written = snprintf(out + used, capacity - used, "%s%s", i > 0 ? ", " : "", name.data);
        used += written > 0 ? (size_t)written : 0;
    }
}

/* Sets every file material called key (key_length characters) from the entry; *found tells
   whether the file has one of that name. False on a bad friction or restitution. */
static bool apply_named_material(const io_reader *reader, const struct aiScene *scene,
                                 const char *key, size_t key_length, struct fy_node *value,
                                 const char *what, cairn_surface_material *table, bool *found)
{
    *found = false;
    for (unsigned i = 0; i < scene->mNumMaterials; ++i) {
        struct aiString name;
        material_name(scene, i, &name);
        if (name.length != key_length || memcmp(name.data, key, key_length) != 0)
            continue;
        if (!io_read_surface_material(reader, value, what, &table[i]))
            return false;
        *found = true;
    }
    return true;
}

/* `materials: { <file material name>: {friction, restitution, rolling_resistance}, ... }` into
   one entry per file material, starting from the body's own material (also for a key left
   out). */
static bool read_file_materials(const io_reader *reader, const io_mesh_file *request,
                                const struct aiScene *scene, const char *path,
                                cairn_surface_material **out)
{
    char what[IO_WHAT_CAPACITY];
    io_join(what, sizeof what, request->what, "materials", 9);
    if (!io_expect_mapping(reader, request->materials, what))
        return false;
    if (scene->mNumMaterials == 0)
        return io_fail(reader, request->materials, "%s: the mesh file '%s' has no materials", what,
                       path);
    *out = malloc(sizeof **out * scene->mNumMaterials);
    if (*out == NULL)
        return io_fail(reader, request->materials, "%s: out of memory", what);
    for (unsigned i = 0; i < scene->mNumMaterials; ++i)
        (*out)[i] = request->body_material;
    void *iter = NULL;
    struct fy_node_pair *pair;
    while ((pair = fy_node_mapping_iterate(request->materials, &iter)) != NULL) {
        size_t length;
        const char *key = io_scalar(fy_node_pair_key(pair), &length);
        if (key == NULL)
            return io_fail(reader, fy_node_pair_key(pair), "%s: a key must be a material name",
                           what);
        char item[IO_WHAT_CAPACITY];
        io_join(item, sizeof item, what, key, length);
        bool found;
        if (!apply_named_material(reader, scene, key, length, fy_node_pair_value(pair), item, *out,
                                  &found))
            return false;
        if (!found) {
            char names[160];
            list_material_names(scene, names, sizeof names);
            return io_fail(reader, fy_node_pair_key(pair),
                           "%s: the mesh file '%s' has no material '%.*s' (its materials: %s)",
                           what, path, (int)length, key, names);
        }
    }
    return true;
}

/* The shape from the soup, with one material per file material when the scene gives any. */
static bool make_mesh(const io_reader *reader, struct fy_node *params, const char *what,
                      const triangle_soup *soup, const cairn_surface_material *materials,
                      int material_count, cairn_shape **out)
{
    return io_shape_made(reader, params, what,
                         cairn_shape_mesh_with_materials(soup->vertices, soup->vertex_count,
                                                         soup->indices, soup->triangle_count,
                                                         materials ? soup->material : NULL,
                                                         materials, materials ? material_count : 0),
                         out);
}

bool io_read_mesh_file(const io_reader *reader, struct fy_node *params, const io_mesh_file *request,
                       cairn_shape **out)
{
    char relative[IO_PATH_CAPACITY], path[IO_PATH_CAPACITY];
    char what[IO_WHAT_CAPACITY];
    io_join(what, sizeof what, request->what, "file", 4);
    struct fy_node *file = request->file;
    if (!io_read_string(reader, file, what, relative, sizeof relative) ||
        !io_resolve_relative(reader, file, relative, path, sizeof path))
        return false;
    const struct aiScene *scene =
        aiImportFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                               aiProcess_PreTransformVertices | aiProcess_SortByPType);
    if (scene == NULL)
        return io_fail(reader, file, "%s: cannot read the mesh file '%s': %s", what, path,
                       aiGetErrorString());
    triangle_soup soup = {NULL, NULL, NULL, 0, 0};
    cairn_surface_material *materials = NULL;
    int material_count = (int)scene->mNumMaterials;
    bool ok = false;
    if (!fill_soup(scene, request->scale, &soup))
        io_fail(reader, file, "%s: out of memory", what);
    else if (soup.triangle_count == 0)
        io_fail(reader, file, "%s: the mesh file '%s' holds no triangles", what, path);
    else if (request->materials == NULL ||
             read_file_materials(reader, request, scene, path, &materials))
        ok = true;
    aiReleaseImport(scene);
    ok = ok && make_mesh(reader, params, what, &soup, materials, material_count, out);
    free(soup.vertices);
    free(soup.indices);
    free(soup.material);
    free(materials);
    return ok;
}
