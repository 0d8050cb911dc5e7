/* stb_image_write (Debian libstb-dev) for the tests that make heightfield images. */
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
