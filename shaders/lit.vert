#version 330 core
// Main pass: places each instance in the world and finds where it falls in the shadow map.

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in mat4 a_model; // locations 2..5: rigid, so it also rotates normals
layout(location = 6) in vec4 a_colour; // rgb albedo, a ground-grid strength

uniform mat4 u_view_projection;
uniform mat4 u_light_matrix;
uniform float u_normal_offset; // metres; moves the lookup off the surface against acne

out vec3 v_world;
out vec3 v_normal;
out vec4 v_colour;
out vec4 v_light_clip;

void main()
{
    vec4 world = a_model * vec4(a_position, 1.0);
    vec3 normal = normalize(mat3(a_model) * a_normal);
    v_world = world.xyz;
    v_normal = normal;
    v_colour = a_colour;
    v_light_clip = u_light_matrix * vec4(world.xyz + normal * u_normal_offset, 1.0);
    gl_Position = u_view_projection * world;
}
