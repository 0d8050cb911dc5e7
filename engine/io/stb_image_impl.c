/* The stb_image implementation (Debian's libstb-dev header), for heightfield images only. */
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>
