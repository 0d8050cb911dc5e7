/* Text as coloured quads (stb_easy_font), behind a const-correct interface. */
#ifndef CAIRN_DEMO_EASY_FONT_H
#define CAIRN_DEMO_EASY_FONT_H

/* One vertex as stb_easy_font writes it: four per quad, y grows downwards, font units. */
typedef struct easy_font_vertex {
    float x, y, z;
    unsigned char colour[4];
} easy_font_vertex;

/* Writes the quads of text (may contain '\n') starting at (x, y); returns the quad count
   (truncated to what fits in capacity vertices). */
int easy_font_quads(float x, float y, const char *text, const unsigned char colour[4],
                    easy_font_vertex *vertices, int capacity);
/* Size of the text in font units. */
void easy_font_size(const char *text, int *width, int *height);

#endif
