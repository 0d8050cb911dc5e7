/* `mesh: { file: level.glb, scale: [sx, sy, sz] }`: Assimp imports the file with its node
   transforms baked into the vertices (aiProcess_PreTransformVertices), polygons triangulated
   and identical vertices joined (so neighbouring triangles share indices, which the mesh's
   active-edge rule needs); points and lines are left out. */
#include "mesh_file.h"
#include "scene.h"
#include "settings.h"

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <stdlib.h>

typedef struct triangle_soup {
    vec3s *vertices;
    int *indices;
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
    if (soup->vertices == NULL || soup->indices == NULL)
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
            soup->triangle_count++;
        }
    }
    return true;
}

bool io_read_mesh_file(const io_reader *reader, struct fy_node *params, const char *what,
                       struct fy_node *file, vec3s scale, cairn_shape **out)
{
    char relative[IO_PATH_CAPACITY], path[IO_PATH_CAPACITY];
    if (!io_read_string(reader, file, what, relative, sizeof relative) ||
        !io_resolve_relative(reader, file, relative, path, sizeof path))
        return false;
    const struct aiScene *scene =
        aiImportFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                               aiProcess_PreTransformVertices | aiProcess_SortByPType);
    if (scene == NULL)
        return io_fail(reader, file, "%s: cannot read the mesh file '%s': %s", what, path,
                       aiGetErrorString());
    triangle_soup soup = {NULL, NULL, 0, 0};
    bool filled = fill_soup(scene, scale, &soup);
    aiReleaseImport(scene);
    bool ok = false;
    if (!filled)
        io_fail(reader, file, "%s: out of memory", what);
    else if (soup.triangle_count == 0)
        io_fail(reader, file, "%s: the mesh file '%s' holds no triangles", what, path);
    else
        ok = io_shape_made(
            reader, params, what,
            cairn_shape_mesh(soup.vertices, soup.vertex_count, soup.indices, soup.triangle_count),
            out);
    free(soup.vertices);
    free(soup.indices);
    return ok;
}
