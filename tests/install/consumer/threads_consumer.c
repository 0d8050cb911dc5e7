/* A game that steps its world on two workers of Cairn's thread pool, built by hand with
   pkg-config's cairn_threads. */
#include <cairn/cairn.h>
#include <cairn/thread_pool.h>

#include <stdio.h>

int main(void)
{
    cairn_thread_pool *pool = cairn_thread_pool_create(2);
    if (pool == NULL) {
        printf("pool: %s\n", cairn_thread_pool_last_error());
        return 1;
    }
    cairn_world_def def = cairn_world_default_def();
    cairn_thread_pool_bind(pool, &def);
    cairn_world *world = cairn_world_create(&def);
    cairn_body_def body = cairn_body_default_def();
    body.shape = cairn_shape_sphere(0.5f);
    cairn_body_id ball = cairn_body_create(world, &body);
    cairn_shape_release((cairn_shape *)body.shape);
    for (int i = 0; i < 60; ++i)
        cairn_world_step(world, 1.0f / 60.0f);
    float y = cairn_body_transform(world, ball).position.y;
    int workers = cairn_world_step_stats(world).workers;
    cairn_world_destroy(world);
    cairn_thread_pool_destroy(pool);
    /* a second of free fall from rest: y = -g t^2 / 2, about -4.9 m */
    bool fell = y < -4.5f && y > -5.3f;
    printf(fell && workers == 2 ? "threads ok\n" : "threads wrong: y %g, %d workers\n", (double)y,
           workers);
    return fell && workers == 2 ? 0 : 1;
}
