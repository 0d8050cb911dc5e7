/* GLSL programs loaded from shaders/<name>.vert and .frag, and where that directory is. */
#ifndef CAIRN_DEMO_SHADER_H
#define CAIRN_DEMO_SHADER_H

#include <epoxy/gl.h>
#include <stddef.h>

/* $CAIRN_SHADER_DIR when set; else the source tree's shaders/ when present; else the install
   location. Always writes a path. */
void shader_dir_find(char *out, size_t capacity);

/* Compiles and links dir/name.vert + dir/name.frag. 0 on failure, after printing the file
   and the GL info log to stderr. */
GLuint shader_program_load(const char *dir, const char *name);

#endif
