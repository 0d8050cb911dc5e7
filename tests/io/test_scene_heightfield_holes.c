/* Heightfield holes in scene files: `hole` in a heights list, and `hole_below` for an image (pixels
   darker than it are holes). A loaded scene is probed by rays: open cells miss, the others hit
   at the height their samples give; bad values are errors at their own file:line:column. */
#define _POSIX_C_SOURCE 200809L
#include <cairn/io.h>

#include "io/scene_text.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The load fails with message at the first occurrence of marker in text (line and column
   counted here, 1-based). */
static void expect_error_at(const char *text, const char *marker, const char *message)
{
    const char *at = strstr(text, marker);
    cr_assert_not_null(at, "marker '%s' not in the scene", marker);
    int line = 1, column = 1;
    for (const char *c = text; c < at; ++c)
        column = *c == '\n' ? (++line, 1) : column + 1;
    char path[128];
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert_not(load_text(text, &world, &err, path, sizeof path), "loaded:\n%s", text);
    cr_expect_null(world);
    cr_expect(strstr(err.message, message) != NULL, "message '%s' lacks '%s'", err.message,
              message);
    cr_expect(err.line == line && err.column == column, "at %d:%d, expected %d:%d (%s)", err.line,
              err.column, line, column, err.message);
    cr_expect_str_eq(err.file, path);
}

/* The world's only body is the heightfield; the cell of a point is open when no ray finds it. */
static bool ray_down(cairn_world *world, float x, float z, float *y)
{
    cairn_ray_hit hit;
    if (!cairn_world_raycast(world, (vec3s){{x, 50, z}}, (vec3s){{0, -100, 0}}, &hit))
        return false;
    *y = hit.point.y;
    return true;
}

/* 4 x 4 samples of height 1, scale (1, 2, 1), sample (1, 1) a hole: cells (0..1, 0..1) open. */
Test(scene_heightfield_holes, a_heights_list_takes_hole)
{
    const char *text = "bodies:\n"
                       "  - name: field\n"
                       "    type: static\n"
                       "    shape: { heightfield: { count_x: 4, count_z: 4, scale: [1, 2, 1],\n"
                       "             heights: [1, 1, 1, 1,  1, hole, 1, 1,\n"
                       "                       1, 1, 1, 1,  1, 1, 1, 1] } }\n";
    char path[128];
    cairn_world *world = NULL;
    cairn_io_error err;
    cr_assert(load_text(text, &world, &err, path, sizeof path), "%s:%d:%d: %s", err.file, err.line,
              err.column, err.message);
    int open = 0;
    for (int z = 0; z < 3; ++z)
        for (int x = 0; x < 3; ++x) {
            float y = 0.0f;
            bool hit = ray_down(world, (float)x + 0.4f, (float)z + 0.7f, &y);
            bool expected_open = x <= 1 && z <= 1;
            cr_expect_eq(!hit, expected_open, "cell (%d, %d): %s", x, z, hit ? "hit" : "missed");
            if (hit)
                cr_expect(fabsf(y - 2.0f) < 1e-5f, "cell (%d, %d) at y %g, expected 1 x 2", x, z,
                          (double)y);
            open += !hit;
        }
    cr_expect_eq(open, 4);
    cairn_world_destroy(world);
}

/* A binary PGM (which stb_image reads) of width x depth pixels, grey(x, z). */
static void write_pgm(const char *path, int width, int depth, int (*grey)(int, int))
{
    FILE *file = fopen(path, "wb");
    cr_assert_not_null(file);
    fprintf(file, "P5\n%d %d\n255\n", width, depth);
    for (int z = 0; z < depth; ++z)
        for (int x = 0; x < width; ++x)
            fputc(grey(x, z), file);
    fclose(file);
}

/* A slope of grey levels from 20 up, with one black pixel at (3, 2). */
static int slope_with_black(int x, int z)
{
    return x == 3 && z == 2 ? 0 : 20 + x * 30 + z * 12;
}

/* The image scene with hole_below (NULL: the key left out), loaded; the image is removed. */
static cairn_world *load_image_scene(const char *hole_below)
{
    char image[128], text[512], path[128];
    snprintf(image, sizeof image, "/tmp/cairn_holes_%d.pgm", (int)getpid());
    write_pgm(image, 6, 5, slope_with_black);
    snprintf(text, sizeof text,
             "bodies:\n"
             "  - name: field\n"
             "    type: static\n"
             "    shape: { heightfield: { image: %s, scale: [0.5, 2, 0.75]%s%s } }\n",
             strrchr(image, '/') + 1, hole_below ? ", hole_below: " : "",
             hole_below ? hole_below : "");
    cairn_world *world = NULL;
    cairn_io_error err;
    bool loaded = load_text(text, &world, &err, path, sizeof path);
    remove(image);
    cr_assert(loaded, "%s:%d:%d: %s", err.file, err.line, err.column, err.message);
    return world;
}

/* Rays at every sample, nudged into the cell (x, z) (or the one before it at the far edge):
   open cells touch the black pixel; the others hit at grey / 255 * 2. Returns the misses. */
static int probe_samples(cairn_world *world, bool black_is_hole)
{
    int misses = 0;
    for (int z = 0; z < 5; ++z)
        for (int x = 0; x < 6; ++x) {
            int cx = x < 5 ? x : x - 1, cz = z < 4 ? z : z - 1;
            float px = 0.5f * (float)x + (x < 5 ? 0.001f : -0.001f);
            float pz = 0.75f * (float)z + (z < 4 ? 0.001f : -0.001f);
            bool open = black_is_hole && (cx == 2 || cx == 3) && (cz == 1 || cz == 2);
            float y = 0.0f;
            bool hit = ray_down(world, px, pz, &y);
            cr_expect_eq(hit, !open, "sample (%d, %d), cell (%d, %d): %s", x, z, cx, cz,
                         hit ? "hit" : "missed");
            misses += !hit;
            float expected = 2.0f * (float)slope_with_black(x, z) / 255.0f;
            if (hit && !(x == 3 && z == 2))
                cr_expect(fabsf(y - expected) < 1e-3f, "sample (%d, %d): y %.4f, expected %.4f", x,
                          z, (double)y, (double)expected);
        }
    return misses;
}

Test(scene_heightfield_holes, an_image_threshold_makes_dark_pixels_holes)
{
    /* grey 0 is below 0.05, the darkest other pixel (20 / 255 = 0.078) is not */
    cairn_world *world = load_image_scene("0.05");
    int misses = probe_samples(world, true);
    cairn_world_destroy(world);
    /* the samples whose nudged cell is one of the four open ones: (2..3, 1..2) */
    cr_expect_eq(misses, 4, "%d rays missed", misses);
    world = load_image_scene(NULL);
    cr_expect_eq(probe_samples(world, false), 0, "without hole_below the image has no hole");
    cairn_world_destroy(world);
}

#define HEAD "bodies:\n  - type: static\n"

Test(scene_heightfield_holes, bad_hole_values_are_reported_where_they_are)
{
    expect_error_at(HEAD "    shape: { heightfield: { image: hills.png, hole_below: 1.5 } }\n",
                    "1.5", "bodies[0].shape.heightfield.hole_below = 1.5 is outside [0, 1]");
    expect_error_at(HEAD "    shape: { heightfield: { image: hills.png, hole_below: dark } }\n",
                    "dark", "hole_below must be a number, got 'dark'");
    expect_error_at(HEAD "    shape: { heightfield: { image: hills.png, hole_below: -0.1 } }\n",
                    "-0.1", "hole_below = -0.1 is outside [0, 1]");
    expect_error_at(HEAD "    shape: { heightfield: { count_x: 2, count_z: 2,\n"
                         "                            heights: [0, 0, 0, 0], hole_below: 0.5 } }\n",
                    "hole_below", "unknown key 'hole_below'");
    expect_error_at(HEAD "    shape: { heightfield: { count_x: 2, count_z: 2,\n"
                         "                            heights: [0, holes, 0, 0] } }\n",
                    "holes", "heights[1] must be a number, got 'holes'");
    expect_error_at(HEAD "    shape: { heightfield: { count_x: 3, count_z: 2,\n"
                         "                            heights: [0, hole, 0, 0, 0, 0] } }\n",
                    "{ count_x", "every cell touches a hole (1 of 6 samples are holes)");
}

/* An image whose every pixel is below the threshold: the grid has no cell left. */
Test(scene_heightfield_holes, an_image_of_holes_is_refused_at_the_shape)
{
    char image[128], text[512];
    snprintf(image, sizeof image, "/tmp/cairn_all_holes_%d.pgm", (int)getpid());
    write_pgm(image, 6, 5, slope_with_black);
    snprintf(text, sizeof text, HEAD "    shape: { heightfield: { image: %s, hole_below: 1 } }\n",
             image);
    expect_error_at(text, "{ image", "every cell touches a hole (30 of 30 samples are holes)");
    remove(image);
}
