#include <cairn/io.h>
#include <stdio.h>

int main(void)
{
    cairn_world_def def;
    cairn_io_error err;
    if (!cairn_settings_load("demos/settings/stable.yaml", &def, &err)) {
        char message[600];
        cairn_io_error_format(&err, message, sizeof message);
        fprintf(stderr, "%s\n", message);
        return 1;
    }
    printf("stable: %d substeps, %d velocity iterations, contact_hertz %g\n", def.solver.substeps,
           def.solver.velocity_iterations, def.solver.contact_hertz);

    def.solver.substeps = 0; /* out of range: the world is not created */
    cairn_world *world = cairn_world_create(&def);
    printf("world: %s, error: %s\n", world ? "created" : "NULL", cairn_last_error());

    def.solver.substeps = 8;
    world = cairn_world_create(&def);
    printf("world: %s\n", world ? "created" : "NULL");
    cairn_world_destroy(world);
}
