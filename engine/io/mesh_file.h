/* Triangle meshes from files (Assimp: OBJ, glTF 2, PLY, STL, ...), for scene files. */
#ifndef CAIRN_IO_MESH_FILE_H
#define CAIRN_IO_MESH_FILE_H

#include "yaml_reader.h"

/* A `mesh: { file, scale, materials }` entry: `what` names the mesh mapping in messages;
   materials may be NULL (no materials); body_material is what the file's materials the scene
   does not name take. */
typedef struct io_mesh_file {
    const char *what;
    struct fy_node *file, *materials;
    vec3s scale;
    cairn_surface_material body_material;
} io_mesh_file;

/* Reads the file named by the `file` node (relative to the scene file): every mesh of it merged,
   each with its node's transform, its faces triangulated, its vertices times scale; with
   materials, each triangle takes the entry named after its Assimp mesh's material. False with
   file:line:column and Assimp's own message when the file is missing or unreadable, or holds no
   triangles; and at the offending node for a material name the file does not have (the message
   lists the file's names) or a bad friction or restitution. */
bool io_read_mesh_file(const io_reader *reader, struct fy_node *params, const io_mesh_file *request,
                       cairn_shape **out);

#endif
