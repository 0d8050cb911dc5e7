/* The one place the viewer tests compile stb_image (Debian libstb-dev), warnings relaxed since
   it is third-party code; only PNG decoding is needed. */
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb_image.h>
