#version 330 core
// Text overlay: pixel coordinates from the top-left corner to clip space.

layout(location = 0) in vec2 a_position; // pixels, y down
layout(location = 1) in vec4 a_colour;

uniform vec2 u_viewport; // pixels

out vec4 v_colour;

void main()
{
    vec2 ndc = a_position / u_viewport * 2.0 - 1.0;
    gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
    v_colour = a_colour;
}
