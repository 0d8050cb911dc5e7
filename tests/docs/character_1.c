#include <cairn/cairn.h>
#include <stdio.h>

int main(void)
{
    cairn_world_def world_def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&world_def);
    cairn_body_def ground = cairn_body_default_def();
    ground.type = CAIRN_STATIC;
    ground.shape = cairn_shape_box((vec3s){{50.0f, 1.0f, 50.0f}}, 0.0f);
    ground.transform.position = (vec3s){{0.0f, -1.0f, 0.0f}};
    cairn_body_create(world, &ground);
    cairn_shape_release((cairn_shape *)ground.shape);
    ground.shape = cairn_shape_box((vec3s){{1.0f, 0.1f, 1.0f}}, 0.0f); /* a 0.2 m step */
    ground.transform.position = (vec3s){{3.0f, 0.1f, 0.0f}};
    cairn_body_create(world, &ground);
    cairn_shape_release((cairn_shape *)ground.shape);

    cairn_character_def def = cairn_character_default_def(); /* capsule 0.5 + 0.3 m */
    def.position = (vec3s){{0.0f, 0.8f, 0.0f}};
    cairn_character *player = cairn_character_create(world, &def);
    const float dt = 1.0f / 60.0f;
    for (int frame = 1; frame <= 90; ++frame) {
        cairn_character_ground g = cairn_character_ground_state(player);
        float fall = g.on_ground ? 0.0f : cairn_character_velocity(player).y - 9.81f * dt;
        cairn_character_move(player, (vec3s){{2.0f, fall, 0.0f}}, dt); /* 2 m/s along x */
        cairn_world_step(world, dt);
        if (frame % 30 == 0) {
            vec3s p = cairn_character_position(player);
            printf("%.1f s: x %.2f m, feet at %.2f m, on ground: %s\n", frame * dt, p.x,
                   p.y - 0.8f, cairn_character_ground_state(player).on_ground ? "yes" : "no");
        }
    }
    cairn_character_destroy(player);
    cairn_world_destroy(world);
    return 0;
}
