#version 330 core
// Shadow pass: instances seen from the directional light, depth only.

layout(location = 0) in vec3 a_position;
layout(location = 2) in mat4 a_model;

uniform mat4 u_light_matrix;

void main()
{
    gl_Position = u_light_matrix * a_model * vec4(a_position, 1.0);
}
