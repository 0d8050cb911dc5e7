#include <cairn/cairn.h>
#include <stdio.h>

#define STEP                (1.0 / 60.0) /* seconds of simulation per world step */
#define MAX_STEPS_PER_FRAME 8

/* Takes the whole fixed steps that fit into the time accumulated so far; returns how many. */
static int advance(cairn_world *world, double frame_seconds, double *accumulator)
{
    *accumulator += frame_seconds;
    int steps = 0;
    /* the 1e-9 s tolerance keeps rounding from dropping a step when frames align with steps */
    while (*accumulator >= STEP - 1e-9 && steps < MAX_STEPS_PER_FRAME) {
        cairn_world_step(world, (float)STEP);
        *accumulator -= STEP;
        ++steps;
    }
    if (steps == MAX_STEPS_PER_FRAME && *accumulator > STEP)
        *accumulator = 0.0; /* too far behind: drop the backlog instead of spiralling */
    return steps;
}

int main(void)
{
    cairn_world_def world_def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&world_def);
    cairn_body_def def = cairn_body_default_def();
    def.shape = cairn_shape_sphere(0.5f);
    def.transform.position = (vec3s){{0, 100, 0}};
    cairn_body_id ball = cairn_body_create(world, &def);
    cairn_shape_release((cairn_shape *)def.shape);

    /* one second of frames at a varying rate: 120 Hz, 60 Hz and 40 Hz frames, 20 times */
    const double frames[] = {1.0 / 120, 1.0 / 60, 1.0 / 40};
    double accumulator = 0.0;
    int steps = 0;
    for (int i = 0; i < 60; ++i) {
        steps += advance(world, frames[i % 3], &accumulator);
        /* render here; to smooth motion, blend the last two states by accumulator / STEP */
    }
    float fallen = 100.0f - cairn_body_transform(world, ball).position.y;
    printf("steps: %d, fallen: %.2f m\n", steps, fallen);
    cairn_world_destroy(world);
}
