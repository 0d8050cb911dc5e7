/* libFuzzer target for the scene loader: any bytes as a scene file must load or fail with an
   error, never crash, leak or hang. Built with -DCAIRN_BUILD_FUZZ=ON and clang; run e.g.
   io_fuzz_scene_load -max_total_time=60 -timeout=10 demos/scenes */
#define _POSIX_C_SOURCE 200809L
#include <cairn/io.h>

#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/cairn_fuzz_scene_%d.yaml", (int)getpid());
    FILE *file = fopen(path, "wb");
    if (file == NULL)
        return 0;
    fwrite(data, 1, size, file);
    fclose(file);
    cairn_world *world = NULL;
    cairn_io_error err;
    if (cairn_scene_load(path, &world, &err))
        cairn_world_destroy(world);
    remove(path);
    return 0;
}
