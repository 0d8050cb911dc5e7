#version 330 core
// Debug lines and points: flat colour; hidden parts are drawn faint (u_alpha).

in vec4 v_colour;

uniform float u_alpha; // 1 for the visible pass, lower for the pass behind surfaces

out vec4 o_colour;

void main()
{
    o_colour = vec4(v_colour.rgb, v_colour.a * u_alpha);
}
