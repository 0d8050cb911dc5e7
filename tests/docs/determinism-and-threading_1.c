#include <cairn/cairn.h>
#include <pthread.h>
#include <stdio.h>

typedef struct job {
    const cairn_shape *floor, *box; /* shared by both threads, read only */
    uint64_t hash;
    char error[128];
} job;

static void *simulate(void *argument)
{
    job *j = argument;
    cairn_world_def world_def = cairn_world_default_def();
    cairn_world *world = cairn_world_create(&world_def);
    cairn_body_def def = cairn_body_default_def();
    def.type = CAIRN_STATIC;
    def.shape = j->floor;
    def.transform.position = (vec3s){{0, -1, 0}};
    cairn_body_create(world, &def);
    def.type = CAIRN_DYNAMIC;
    def.shape = j->box;
    for (int i = 0; i < 10; ++i) { /* a leaning tower that falls */
        def.transform.position = (vec3s){{0.2f * i, 0.5f + 1.01f * i, 0}};
        cairn_body_create(world, &def);
    }
    for (int step = 0; step < 180; ++step)
        cairn_world_step(world, 1.0f / 60.0f);
    j->hash = cairn_world_state_hash(world);
    cairn_world_step(world, -1.0f); /* fails: the error is this thread's */
    snprintf(j->error, sizeof j->error, "%s", cairn_last_error());
    cairn_world_destroy(world);
    return NULL;
}

int main(void)
{
    cairn_shape *floor = cairn_shape_box((vec3s){{20, 1, 20}}, 0.0f);
    cairn_shape *box = cairn_shape_box((vec3s){{0.5f, 0.5f, 0.5f}}, 0.05f);
    job jobs[2] = {{floor, box, 0, ""}, {floor, box, 0, ""}};
    pthread_t threads[2];
    for (int i = 0; i < 2; ++i)
        pthread_create(&threads[i], NULL, simulate, &jobs[i]);
    for (int i = 0; i < 2; ++i)
        pthread_join(threads[i], NULL);
    printf("hashes equal: %s\n", jobs[0].hash == jobs[1].hash ? "yes" : "no");
    printf("thread error: %s\n", jobs[0].error);
    printf("main thread error: \"%s\"\n", cairn_last_error());

    /* the same world once more, on this thread: the same hash */
    job again = {floor, box, 0, ""};
    simulate(&again);
    printf("rerun equal: %s\n", again.hash == jobs[0].hash ? "yes" : "no");
    cairn_shape_release(box);
    cairn_shape_release(floor);
    printf("bytes still allocated: %zu\n", cairn_allocated_bytes());
}
