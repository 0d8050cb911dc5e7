/* Character mode: walking a character controller with the keyboard. */
#include "walker.h"

#include <SDL.h>
#include <math.h>

bool walker_toggle(walker *w, cairn_world *world, const camera *cam)
{
    if (w->character != NULL) {
        walker_clear(w);
        return false;
    }
    /* dropped from above the target onto whatever is below it */
    vec3s start = cam->target;
    start.y += 1.5f;
    cairn_ray_hit hit;
    if (cairn_world_raycast(world, start, (vec3s){{0, -100, 0}}, &hit))
        start.y = hit.point.y + WALK_HALF_HEIGHT + WALK_RADIUS + 0.05f;
    cairn_character_def def = walk_character_def(start);
    w->character = cairn_character_create(world, &def);
    w->world = world;
    return w->character != NULL;
}

vec3s walker_walk_velocity(const camera *cam, const unsigned char *keys)
{
    vec3s forward = camera_forward(cam);
    forward.y = 0.0f;
    float length = glms_vec3_norm(forward);
    forward = length > 1e-6f ? glms_vec3_scale(forward, 1.0f / length) : (vec3s){{0, 0, -1}};
    vec3s right = {{-forward.z, 0.0f, forward.x}};
    float ahead = (float)keys[SDL_SCANCODE_W] - (float)keys[SDL_SCANCODE_S];
    float aside = (float)keys[SDL_SCANCODE_D] - (float)keys[SDL_SCANCODE_A];
    float speed = WALK_SPEED * (keys[SDL_SCANCODE_LSHIFT] ? 2.0f : 1.0f);
    return glms_vec3_add(glms_vec3_scale(forward, ahead * speed),
                         glms_vec3_scale(right, aside * speed));
}

bool walker_jump_held(const unsigned char *keys)
{
    return keys[SDL_SCANCODE_SPACE] != 0;
}

void walker_step(walker *w, const camera *cam, const unsigned char *keys, float dt)
{
    if (w->character == NULL)
        return;
    vec3s walk = walker_walk_velocity(cam, keys);
    vec3s velocity = walk_move_velocity(w->character, walk, walker_jump_held(keys), dt);
    cairn_character_move(w->character, velocity, dt);
}

void walker_follow(const walker *w, camera *cam)
{
    if (w->character != NULL)
        cam->target = cairn_character_position(w->character);
}

/* A circle of the capsule's outline about the vertical at height y. */
static void ring(debug_lines *lines, vec3s centre, float y, vec4s colour)
{
    for (int k = 0; k < 16; ++k) {
        float a0 = (float)k * GLM_PIf / 8.0f, a1 = (float)(k + 1) * GLM_PIf / 8.0f;
        vec3s p0 = {{centre.x + WALK_RADIUS * cosf(a0), y, centre.z + WALK_RADIUS * sinf(a0)}};
        vec3s p1 = {{centre.x + WALK_RADIUS * cosf(a1), y, centre.z + WALK_RADIUS * sinf(a1)}};
        debug_lines_add(lines, p0, p1, colour);
    }
}

void walker_draw(const walker *w, debug_lines *lines)
{
    if (w->character == NULL || lines == NULL)
        return;
    vec3s c = cairn_character_position(w->character);
    bool grounded = cairn_character_ground_state(w->character).on_ground;
    vec4s colour = grounded ? (vec4s){{0.3f, 1.0f, 0.4f, 1}} : (vec4s){{1.0f, 0.7f, 0.2f, 1}};
    ring(lines, c, c.y - WALK_HALF_HEIGHT, colour);
    ring(lines, c, c.y + WALK_HALF_HEIGHT, colour);
    ring(lines, c, c.y - WALK_HALF_HEIGHT - WALK_RADIUS * 0.7f, colour);
    ring(lines, c, c.y + WALK_HALF_HEIGHT + WALK_RADIUS * 0.7f, colour);
    for (int k = 0; k < 4; ++k) {
        float a = (float)k * GLM_PIf / 2.0f;
        vec3s side = {{WALK_RADIUS * cosf(a), 0.0f, WALK_RADIUS * sinf(a)}};
        vec3s bottom = glms_vec3_add(c, side), top = bottom;
        bottom.y -= WALK_HALF_HEIGHT;
        top.y += WALK_HALF_HEIGHT;
        debug_lines_add(lines, bottom, top, colour);
    }
}

void walker_clear(walker *w)
{
    cairn_character_destroy(w->character);
    *w = (walker){NULL, NULL};
}
