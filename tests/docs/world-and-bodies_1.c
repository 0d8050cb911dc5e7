#include <cairn/cairn.h>
#include <math.h>
#include <stdio.h>

/* A 0.5 m ball at the origin moving at 2 m/s along -x, into a wall whose face looks along
   (1, 0, 1) / sqrt 2; elastic, no friction. held: the ball is kept in its plane z = 0. */
static void bounce(int held)
{
    cairn_world_def world_def = cairn_world_default_def();
    world_def.gravity = (vec3s){{0, 0, 0}};
    cairn_world *world = cairn_world_create(&world_def);

    /* the wall: a box turned -45 degrees about y, its +x face 1.75 m from the origin */
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_STATIC;
    def.shape = cairn_shape_box((vec3s){{0.25f, 5, 5}}, 0.0f);
    def.transform.position = (vec3s){{-sqrtf(2.0f), 0, -sqrtf(2.0f)}};
    def.transform.rotation =
        (versors){{0, -sinf(0.125f * 3.14159265f), 0, cosf(0.125f * 3.14159265f)}};
    def.friction = 0.0f;
    def.restitution = 1.0f;
    cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);

    /* the ball; held, it does not move along z nor turn about x or y */
    def = cairn_body_default_def();
    def.shape = cairn_shape_sphere(0.5f);
    def.linear_velocity = (vec3s){{-2, 0, 0}};
    def.friction = 0.0f;
    def.restitution = 1.0f;
    if (held) {
        def.locked_translation = CAIRN_LOCK_TRANSLATION_Z;
        def.locked_rotation = CAIRN_LOCK_ROTATION_X | CAIRN_LOCK_ROTATION_Y;
    }
    cairn_body_id ball = cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);

    for (int step = 0; step < 90; ++step)
        cairn_world_step(world, 1.0f / 60.0f);
    /* to the mm/s (+ 0.0f: a tiny negative speed rounds to -0, printed as 0) */
    vec3s v = cairn_body_linear_velocity(world, ball);
    float vx = roundf(v.x * 1000.0f) / 1000.0f + 0.0f, vz = roundf(v.z * 1000.0f) / 1000.0f + 0.0f;
    printf("%s: leaves at %.3f m/s along x and %.3f along z, z %s\n", held ? "held" : "free", vx,
           vz, cairn_body_transform(world, ball).position.z == 0.0f ? "0" : "changed");
    cairn_world_destroy(world);
}

int main(void)
{
    bounce(1);
    bounce(0);
}
