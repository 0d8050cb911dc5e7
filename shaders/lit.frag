#version 330 core
// Main pass: one directional light (Lambert + a little Blinn-Phong), hemisphere ambient,
// 3x3 PCF shadows, a grid on ground surfaces and distance fog into the sky colour.

in vec3 v_world;
in vec3 v_normal;
in vec4 v_colour;
in vec4 v_light_clip;

uniform vec3 u_to_light; // unit, towards the light
uniform vec3 u_light_colour;
uniform vec3 u_eye;
uniform vec3 u_sky_colour;
uniform sampler2DShadow u_shadow_map;

out vec4 o_colour;

// Fraction of the light reaching this point; each lookup is already a 2x2 comparison filter.
float lit_fraction()
{
    vec3 p = v_light_clip.xyz / v_light_clip.w * 0.5 + 0.5;
    vec2 texel = 1.0 / vec2(textureSize(u_shadow_map, 0));
    float sum = 0.0;
    for (int y = -1; y <= 1; ++y) {
        for (int x = -1; x <= 1; ++x) {
            sum += texture(u_shadow_map, vec3(p.xy + vec2(x, y) * texel, p.z));
        }
    }
    return sum / 9.0;
}

// Anti-aliased lines about one pixel wide, faded out where cells get smaller than a few pixels
// so the distant floor does not shimmer.
float grid_lines(vec2 p, float spacing)
{
    vec2 q = p / spacing;
    vec2 cells_per_pixel = fwidth(q);
    vec2 pixels_to_line = abs(fract(q - 0.5) - 0.5) / cells_per_pixel;
    float line = 1.0 - min(min(pixels_to_line.x, pixels_to_line.y), 1.0);
    float fade = 1.0 - smoothstep(0.08, 0.3, max(cells_per_pixel.x, cells_per_pixel.y));
    return line * fade;
}

vec3 albedo(vec3 normal)
{
    vec3 base = v_colour.rgb;
    if (v_colour.a <= 0.0 || normal.y < 0.5) {
        return base;
    }
    float minor = grid_lines(v_world.xz, 1.0);
    float major = grid_lines(v_world.xz, 5.0);
    float ink = v_colour.a * max(0.45 * minor, 0.8 * major);
    return mix(base, base * 0.55, ink);
}

void main()
{
    vec3 n = normalize(v_normal);
    vec3 base = albedo(n);
    float lit = lit_fraction();
    float diffuse = max(dot(n, u_to_light), 0.0);
    vec3 to_eye = normalize(u_eye - v_world);
    vec3 half_vector = normalize(u_to_light + to_eye);
    float specular = diffuse > 0.0 ? 0.25 * pow(max(dot(n, half_vector), 0.0), 48.0) : 0.0;
    // Sky light from above, warmer bounce light from the ground below.
    vec3 ambient = mix(vec3(0.26, 0.25, 0.24), vec3(0.40, 0.44, 0.50), 0.5 + 0.5 * n.y);
    vec3 colour = base * (ambient + diffuse * lit * u_light_colour) + specular * lit * u_light_colour;
    float fog = smoothstep(35.0, 90.0, length(u_eye - v_world));
    o_colour = vec4(mix(colour, u_sky_colour, fog), 1.0);
}
