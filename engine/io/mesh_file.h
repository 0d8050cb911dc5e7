/* Triangle meshes from files (Assimp: OBJ, glTF 2, PLY, STL, ...), for scene files. */
#ifndef CAIRN_IO_MESH_FILE_H
#define CAIRN_IO_MESH_FILE_H

#include "yaml_reader.h"

/* Reads the file named by the `file` node (relative to the scene file): every mesh of it merged,
   each with its node's transform, its faces triangulated, its vertices times scale. False with
   file:line:column and Assimp's own message when the file is missing or unreadable, or holds no
   triangles. */
bool io_read_mesh_file(const io_reader *reader, struct fy_node *params, const char *what,
                       struct fy_node *file, vec3s scale, cairn_shape **out);

#endif
