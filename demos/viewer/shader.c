/* Shader files: finding their directory, reading, compiling and linking with clear errors. */
#include "shader.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROBE_FILE "lit.vert"

static bool dir_has_shaders(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, PROBE_FILE);
    FILE *f = fopen(path, "rb");
    if (f) {
        fclose(f);
    }
    return f != NULL;
}

void shader_dir_find(char *out, size_t capacity)
{
    const char *env = getenv("CAIRN_SHADER_DIR");
    const char *dir = CAIRN_SHADER_INSTALL_DIR;
    if (env && env[0]) {
        dir = env; /* an explicit choice: used even when wrong, so the error names it */
    } else if (dir_has_shaders(CAIRN_SHADER_DIR)) {
        dir = CAIRN_SHADER_DIR;
    }
    snprintf(out, capacity, "%s", dir);
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cairn-demo: cannot open shader %s: %s\n", path, strerror(errno));
        return NULL;
    }
    char *text = NULL;
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        text = malloc((size_t)size + 1);
    }
    if (text && fread(text, 1, (size_t)size, f) == (size_t)size) {
        text[size] = '\0';
    } else {
        fprintf(stderr, "cairn-demo: cannot read shader %s\n", path);
        free(text);
        text = NULL;
    }
    fclose(f);
    return text;
}

static GLuint compile(const char *dir, const char *name, const char *ext, GLenum stage)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
    char *source = read_text(path);
    if (!source) {
        return 0;
    }
    GLuint shader = glCreateShader(stage);
    glShaderSource(shader, 1, (const GLchar *const *)&source, NULL);
    glCompileShader(shader);
    free(source);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[4096] = "";
        glGetShaderInfoLog(shader, sizeof log, NULL, log);
        fprintf(stderr, "cairn-demo: shader compile failed: %s\n%s\n", path, log);
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}

static GLuint link_program(GLuint vert, GLuint frag, const char *dir, const char *name)
{
    GLuint program = glCreateProgram();
    glAttachShader(program, vert);
    glAttachShader(program, frag);
    glLinkProgram(program);
    GLint ok = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[4096] = "";
        glGetProgramInfoLog(program, sizeof log, NULL, log);
        fprintf(stderr, "cairn-demo: shader link failed: %s/%s.vert + %s.frag\n%s\n", dir, name,
                name, log);
        glDeleteProgram(program);
        return 0;
    }
    return program;
}

GLuint shader_program_load(const char *dir, const char *name)
{
    GLuint vert = compile(dir, name, "vert", GL_VERTEX_SHADER);
    GLuint frag = vert ? compile(dir, name, "frag", GL_FRAGMENT_SHADER) : 0;
    GLuint program = (vert && frag) ? link_program(vert, frag, dir, name) : 0;
    /* Once linked (or failed) the stages are no longer needed; deleting 0 is a no-op. */
    glDeleteShader(vert);
    glDeleteShader(frag);
    return program;
}
