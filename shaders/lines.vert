#version 330 core
// Debug lines and points: world positions, per-vertex colour and point size.

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec4 a_colour;
layout(location = 2) in float a_size; // pixels, points only

uniform mat4 u_view_projection;

out vec4 v_colour;

void main()
{
    gl_Position = u_view_projection * vec4(a_position, 1.0);
    gl_PointSize = a_size;
    v_colour = a_colour;
}
