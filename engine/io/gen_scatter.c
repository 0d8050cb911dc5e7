/* Generators with many differently placed bodies: grid / rain (mixed shapes with seeded jitter),
   dominoes (a line or a spiral) and card_house (leaning card pairs with flat cards on top). */
#include "generators.h"

#include <math.h>
#include <string.h>

/* splitmix64: a seeded, local generator (no global state), identical on every platform. */
typedef struct rng {
    uint64_t state;
} rng;

static uint64_t rng_next(rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [low, high). */
static float rng_range(rng *r, float low, float high)
{
    float unit = (float)(rng_next(r) >> 40) / (float)(1ull << 24);
    return low + (high - low) * unit;
}

static versors rng_rotation(rng *r)
{
    versors q = {
        {rng_range(r, -1, 1), rng_range(r, -1, 1), rng_range(r, -1, 1), rng_range(r, -1, 1)}};
    float length = glms_vec4_norm((vec4s){{q.x, q.y, q.z, q.w}});
    if (length < 1e-3f)
        return glms_quat_identity();
    return (versors){{q.x / length, q.y / length, q.z / length, q.w / length}};
}

enum { SHAPE_BOX, SHAPE_SPHERE, SHAPE_CAPSULE, SHAPE_CYLINDER, SHAPE_HULL, SHAPE_KINDS };
static const char *const shape_names[SHAPE_KINDS] = {"box", "sphere", "capsule", "cylinder",
                                                     "hull"};

/* A random hull of 12 points: a Fibonacci sphere, each point pushed in or out, then squashed
   into an ellipsoid (never coplanar). */
static cairn_shape *random_hull(rng *r, float size)
{
    vec3s points[12];
    vec3s radii = {{size * rng_range(r, 0.6f, 1.0f), size * rng_range(r, 0.6f, 1.0f),
                    size * rng_range(r, 0.6f, 1.0f)}};
    for (int i = 0; i < 12; ++i) {
        float y = 1.0f - 2.0f * ((float)i + 0.5f) / 12.0f;
        float ring = sqrtf(1.0f - y * y);
        float angle = 2.39996323f * (float)i;
        float scale = rng_range(r, 0.8f, 1.0f);
        points[i] = (vec3s){{radii.x * scale * ring * cosf(angle), radii.y * scale * y,
                             radii.z * scale * ring * sinf(angle)}};
    }
    return cairn_shape_hull(points, 12, 0.02f);
}

static cairn_shape *random_shape(rng *r, int kind, float size)
{
    switch (kind) {
    case SHAPE_BOX: {
        vec3s half = {{size * rng_range(r, 0.5f, 1.0f), size * rng_range(r, 0.5f, 1.0f),
                       size * rng_range(r, 0.5f, 1.0f)}};
        return cairn_shape_box(half, io_default_convex_radius(glms_vec3_min(half)));
    }
    case SHAPE_SPHERE:
        return cairn_shape_sphere(size * rng_range(r, 0.6f, 1.0f));
    case SHAPE_CAPSULE:
        return cairn_shape_capsule(size * rng_range(r, 0.3f, 0.6f),
                                   size * rng_range(r, 0.3f, 0.5f));
    case SHAPE_CYLINDER: {
        float half_height = size * rng_range(r, 0.4f, 0.8f),
              radius = size * rng_range(r, 0.4f, 0.8f);
        float smallest = half_height < radius ? half_height : radius;
        return cairn_shape_cylinder(half_height, radius, io_default_convex_radius(smallest));
    }
    default:
        return random_hull(r, size);
    }
}

/* Which shape kinds to draw from: `shapes: [box, sphere, ...]`, default all five. */
static bool read_shape_kinds(io_gen *gen, int *kinds, int *count)
{
    struct fy_node *list = io_lookup(gen->params, "shapes");
    *count = 0;
    if (list == NULL) {
        for (int i = 0; i < SHAPE_KINDS; ++i)
            kinds[(*count)++] = i;
        return true;
    }
    char name[IO_WHAT_CAPACITY + 16];
    io_join(name, sizeof name, gen->what, "shapes", 6);
    if (!io_expect_sequence(gen->reader, list, name))
        return false;
    if (fy_node_sequence_item_count(list) < 1 || fy_node_sequence_item_count(list) > 16)
        return io_fail(gen->reader, list, "%s must list 1 to 16 shape names", name);
    void *iter = NULL;
    struct fy_node *item;
    while ((item = fy_node_sequence_iterate(list, &iter)) != NULL)
        if (!io_read_enum(gen->reader, item, name, shape_names, SHAPE_KINDS, &kinds[(*count)++]))
            return false;
    return true;
}

/* nx * ny * nz bodies on a lattice (origin: centre of the bottom layer), each a random shape
   from `shapes`, jittered and turned by a generator seeded with `seed`. */
bool io_gen_grid(io_gen *gen)
{
    static const char *const keys[] = {"count",  "spacing", "size",           "shapes",
                                       "jitter", "seed",    "random_rotation"};
    vec3s count_f;
    float spacing, size, jitter;
    int seed, kinds[16], kind_count;
    bool turn;
    if (!io_gen_check_keys(gen, keys, 7) ||
        !io_gen_vec3(gen, "count", 1.0f, 1000.0f, (vec3s){{10, 10, 10}}, &count_f) ||
        !io_gen_float(gen, "spacing", CAIRN_MIN_SIZE, CAIRN_MAX_SIZE, 1.5f, &spacing) ||
        !io_gen_float(gen, "size", CAIRN_MIN_SIZE, CAIRN_MAX_SIZE, 0.4f, &size) ||
        !io_gen_float(gen, "jitter", 0.0f, CAIRN_MAX_SIZE, 0.1f, &jitter) ||
        !io_gen_int(gen, "seed", 0, 2147483647, 1, &seed) ||
        !io_gen_bool(gen, "random_rotation", true, &turn) ||
        !read_shape_kinds(gen, kinds, &kind_count))
        return false;
    int nx = (int)count_f.x, ny = (int)count_f.y, nz = (int)count_f.z;
    if ((float)nx != count_f.x || (float)ny != count_f.y || (float)nz != count_f.z)
        return io_fail(gen->reader, io_lookup(gen->params, "count"),
                       "%s.count must hold three whole numbers", gen->what);
    if ((long)nx * ny * nz > 100000)
        return io_fail(gen->reader, io_lookup(gen->params, "count"),
                       "%s.count makes more than 100000 bodies", gen->what);
    rng r = {.state = (uint64_t)seed};
    for (int iy = 0; iy < ny; ++iy) {
        for (int ix = 0; ix < nx; ++ix) {
            for (int iz = 0; iz < nz; ++iz) {
                int kind = kinds[rng_next(&r) % (uint64_t)kind_count];
                cairn_shape *shape;
                if (!io_shape_made(gen->reader, gen->params, gen->what,
                                   random_shape(&r, kind, size), &shape))
                    return false;
                vec3s p = {{spacing * ((float)ix - 0.5f * (float)(nx - 1)) +
                                rng_range(&r, -jitter, jitter),
                            spacing * (float)iy + size + rng_range(&r, -jitter, jitter),
                            spacing * ((float)iz - 0.5f * (float)(nz - 1)) +
                                rng_range(&r, -jitter, jitter)}};
                versors q = turn ? rng_rotation(&r) : glms_quat_identity();
                bool ok = io_gen_emit(gen, shape, p, q);
                cairn_shape_release(shape);
                if (!ok)
                    return false;
            }
        }
    }
    return true;
}

/* Dominoes thin along their direction of travel. line: along +x; spiral: an Archimedean spiral
   around the origin. The first one is tipped forward by tilt_degrees. */
bool io_gen_dominoes(io_gen *gen)
{
    static const char *const keys[] = {"count",         "half_extents",  "spacing",     "layout",
                                       "spiral_radius", "spiral_growth", "tilt_degrees"};
    static const char *const layouts[] = {"line", "spiral"};
    int count, layout;
    vec3s half;
    float spacing, radius, growth, tilt;
    if (!io_gen_check_keys(gen, keys, 7) || !io_gen_int(gen, "count", 1, 100000, 50, &count) ||
        !io_gen_vec3(gen, "half_extents", CAIRN_MIN_SIZE, CAIRN_MAX_SIZE,
                     (vec3s){{0.05f, 0.5f, 0.25f}}, &half) ||
        !io_gen_float(gen, "spacing", CAIRN_MIN_SIZE, CAIRN_MAX_SIZE, 0.6f, &spacing) ||
        !io_gen_enum(gen, "layout", layouts, 2, 0, &layout) ||
        !io_gen_float(gen, "spiral_radius", CAIRN_MIN_SIZE, CAIRN_MAX_SIZE, 2.0f, &radius) ||
        !io_gen_float(gen, "spiral_growth", 0.0f, CAIRN_MAX_SIZE, 1.0f, &growth) ||
        !io_gen_float(gen, "tilt_degrees", 0.0f, 60.0f, 15.0f, &tilt))
        return false;
    cairn_shape *box;
    if (!io_gen_box(gen, half, &box))
        return false;
    float theta = 0.0f;
    bool ok = true;
    for (int i = 0; i < count && ok; ++i) {
        float a = i == 0 ? tilt * IO_PI / 180.0f : 0.0f;
        float y = half.y * cosf(a) + half.x * sinf(a);
        vec3s p;
        float heading; /* about y: maps local +x onto the direction of travel */
        if (layout == 0) {
            p = (vec3s){{spacing * (float)i, y, 0.0f}};
            heading = 0.0f;
        } else {
            float r = radius + growth * theta / (2.0f * IO_PI);
            p = (vec3s){{r * cosf(theta), y, r * sinf(theta)}};
            heading = -(theta + 0.5f * IO_PI);
            theta += spacing / r;
        }
        versors q = io_rotation((vec3s){{0, 1, 0}}, heading);
        if (a > 0.0f)
            q = glms_quat_mul(q, io_rotation((vec3s){{0, 0, 1}}, -a));
        ok = io_gen_emit(gen, box, p, q);
    }
    cairn_shape_release(box);
    return ok;
}

/* Level l (from 0) has levels - l leaning pairs (a roof shape, touching at the top) with a flat
   card across each two neighbouring pairs; the next level stands on the flats. card is
   [thickness, height, width] as half extents. */
bool io_gen_card_house(io_gen *gen)
{
    static const char *const keys[] = {"levels", "card", "lean_degrees"};
    int levels;
    vec3s card;
    float lean;
    if (!io_gen_check_keys(gen, keys, 3) || !io_gen_int(gen, "levels", 1, 50, 3, &levels) ||
        !io_gen_vec3(gen, "card", CAIRN_MIN_SIZE, CAIRN_MAX_SIZE, (vec3s){{0.01f, 0.5f, 0.35f}},
                     &card) ||
        !io_gen_float(gen, "lean_degrees", 5.0f, 45.0f, 18.0f, &lean))
        return false;
    cairn_shape *box;
    if (!io_gen_box(gen, card, &box))
        return false;
    const float clearance = 0.001f;
    float a = lean * IO_PI / 180.0f;
    float reach = card.x * cosf(a) + card.y * sinf(a); /* centre to apex, horizontally */
    float pitch = 4.0f * reach + 0.1f;
    float roof = 2.0f * card.y * cosf(a) + 2.0f * card.x * sinf(a); /* height of a pair */
    versors left = io_rotation((vec3s){{0, 0, 1}}, -a), right = io_rotation((vec3s){{0, 0, 1}}, a);
    versors flat = io_rotation((vec3s){{0, 0, 1}}, 0.5f * IO_PI);
    float base = 0.0f;
    bool ok = true;
    for (int level = 0; level < levels && ok; ++level) {
        int pairs = levels - level;
        float cy = base + card.y * cosf(a) + card.x * sinf(a);
        for (int p = 0; p < pairs && ok; ++p) {
            float apex = pitch * ((float)p - 0.5f * (float)(pairs - 1));
            ok = io_gen_emit(gen, box, (vec3s){{apex - reach - clearance, cy, 0.0f}}, left) &&
                 io_gen_emit(gen, box, (vec3s){{apex + reach + clearance, cy, 0.0f}}, right);
        }
        float flat_y = base + roof + card.x + clearance;
        for (int p = 0; p + 1 < pairs && ok; ++p) {
            float middle = pitch * ((float)p + 0.5f - 0.5f * (float)(pairs - 1));
            ok = io_gen_emit(gen, box, (vec3s){{middle, flat_y, 0.0f}}, flat);
        }
        base = flat_y + card.x + clearance;
    }
    cairn_shape_release(box);
    return ok;
}
