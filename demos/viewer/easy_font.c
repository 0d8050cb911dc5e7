/* The one place stb_easy_font (Debian libstb-dev header) is compiled, with warnings relaxed
   because it is third-party code; it only reads its tables (spacing is never changed). */
#include "easy_font.h"

#include <stb_easy_font.h>
#include <string.h>

#define MAX_TEXT 1024

/* stb_easy_font takes mutable strings it never writes; copy rather than cast. */
static void copy_text(char *out, const char *text)
{
    size_t n = strlen(text);
    n = n < MAX_TEXT - 1 ? n : MAX_TEXT - 1;
    memcpy(out, text, n);
    out[n] = '\0';
}

int easy_font_quads(float x, float y, const char *text, const unsigned char colour[4],
                    easy_font_vertex *vertices, int capacity)
{
    char copy[MAX_TEXT];
    unsigned char rgba[4] = {colour[0], colour[1], colour[2], colour[3]};
    copy_text(copy, text);
    return stb_easy_font_print(x, y, copy, rgba, vertices,
                               capacity * (int)sizeof(easy_font_vertex));
}

void easy_font_size(const char *text, int *width, int *height)
{
    char copy[MAX_TEXT];
    copy_text(copy, text);
    *width = stb_easy_font_width(copy);
    *height = stb_easy_font_height(copy);
}
