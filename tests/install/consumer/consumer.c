/* Uses the installed headers and library: builds a shape and reads its mass. */
#include <cairn/cairn.h>
#include <cairn/io.h>
#include <stdio.h>

int main(void)
{
    cairn_shape *box = cairn_shape_box((vec3s){{1.0f, 2.0f, 3.0f}}, 0.0f);
    cairn_mass_properties mass;
    if (box == NULL || !cairn_shape_mass_properties(box, 1000.0f, &mass)) {
        printf("error: %s\n", cairn_last_error());
        return 1;
    }
    cairn_shape_release(box);
    if (mass.mass < 47999.0f || mass.mass > 48001.0f) {
        printf("wrong mass %g\n", mass.mass);
        return 1;
    }
    printf("consumer ok\n");
    return 0;
}
