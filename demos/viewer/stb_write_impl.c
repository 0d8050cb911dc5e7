/* The one place stb_image_write's implementation is compiled (Debian libstb-dev header), with
   warnings relaxed because it is third-party code. */
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
