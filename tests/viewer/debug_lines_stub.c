/* The line batch without OpenGL, for the viewer pieces tested without a window. */
#include "../../demos/viewer/debug_lines.h"

void debug_lines_add(debug_lines *d, vec3s from, vec3s to, vec4s colour)
{
    (void)d;
    (void)from;
    (void)to;
    (void)colour;
}

void debug_lines_add_point(debug_lines *d, vec3s at, float size_pixels, vec4s colour)
{
    (void)d;
    (void)at;
    (void)size_pixels;
    (void)colour;
}
