/* Graph colouring of the solver's constraints, against a brute-force check over thousands of
   random constraint graphs: no colour holds two constraints on one moving body; a constraint
   comes after every earlier one on its bodies unless the colours ran out; the overflow holds
   exactly the constraints whose bodies had every colour. And in a world: a slab carrying 144 boxes
   needs the overflow, which is solved (the boxes rest on it). */
#include "dynamics/graph_color.h"
#include "dynamics/scene_helpers.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_BODIES = 64, MAX_CONSTRAINTS = 600 };

typedef struct graph {
    int bodies, count;
    bool moves[MAX_BODIES];
    uint32_t a[MAX_CONSTRAINTS], b[MAX_CONSTRAINTS];
    int color[MAX_CONSTRAINTS];
} graph;

static uint32_t next_random(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

static void random_graph(graph *g, uint32_t seed)
{
    uint32_t r = seed;
    g->bodies = 2 + (int)(next_random(&r) % (MAX_BODIES - 2));
    g->count = 1 + (int)(next_random(&r) % MAX_CONSTRAINTS);
    for (int i = 0; i < g->bodies; ++i)
        g->moves[i] = next_random(&r) % 5 != 0; /* a fifth do not move (static, asleep) */
    for (int k = 0; k < g->count; ++k) {
        g->a[k] = next_random(&r) % (uint32_t)g->bodies;
        g->b[k] = next_random(&r) % (uint32_t)g->bodies;
    }
    graph_mask used[MAX_BODIES] = {0};
    for (int k = 0; k < g->count; ++k)
        g->color[k] =
            graph_color_pick(used, g->a[k], g->moves[g->a[k]], g->b[k], g->moves[g->b[k]]);
}

static bool shares_moving_body(const graph *g, int i, int j)
{
    uint32_t x[2] = {g->a[i], g->b[i]}, y[2] = {g->a[j], g->b[j]};
    for (int p = 0; p < 2; ++p)
        for (int q = 0; q < 2; ++q)
            if (x[p] == y[q] && g->moves[x[p]])
                return true;
    return false;
}

static void check_graph(const graph *g, uint32_t seed)
{
    for (int j = 0; j < g->count; ++j) {
        bool earlier_colors[GRAPH_COLOR_COUNT] = {false};
        int highest = -1;
        for (int i = 0; i < j; ++i) {
            if (!shares_moving_body(g, i, j) || g->color[i] == GRAPH_OVERFLOW)
                continue;
            earlier_colors[g->color[i]] = true;
            highest = g->color[i] > highest ? g->color[i] : highest;
            cr_assert_neq(g->color[i], g->color[j],
                          "seed %u: constraints %d and %d share a moving body and colour %d", seed,
                          i, j, g->color[j]);
        }
        int free = 0;
        for (int c = 0; c < GRAPH_COLOR_COUNT; ++c)
            free += !earlier_colors[c];
        if (free == 0)
            cr_assert_eq(g->color[j], GRAPH_OVERFLOW, "seed %u: %d had no colour left", seed, j);
        else if (highest + 1 < GRAPH_COLOR_COUNT)
            cr_assert_eq(g->color[j], highest + 1,
                         "seed %u: %d is not right after its bodies' "
                         "last colour %d",
                         seed, j, highest);
        else
            cr_assert(g->color[j] < GRAPH_COLOR_COUNT && !earlier_colors[g->color[j]],
                      "seed %u: %d took colour %d, which its bodies have", seed, j, g->color[j]);
    }
}

Test(graph_color, thousands_of_random_graphs)
{
    int overflowed = 0, fell_back = 0;
    for (uint32_t seed = 1; seed <= 3000; ++seed) {
        graph g;
        random_graph(&g, seed);
        check_graph(&g, seed);
        for (int k = 0; k < g.count; ++k) {
            overflowed += g.color[k] == GRAPH_OVERFLOW;
            fell_back += g.color[k] < GRAPH_COLOR_COUNT && k > 0 && g.color[k] < g.color[k - 1] &&
                         shares_moving_body(&g, k, k - 1);
        }
    }
    /* the graphs must exercise the overflow, or the test proves nothing about it */
    cr_expect_gt(overflowed, 0, "no random graph needed the overflow");
    cr_log_info("overflowed: %d, fell back: %d", overflowed, fell_back);
}

/* A dynamic slab on the ground carrying 144 boxes: the slab's contacts outnumber the colours,
   so the last ones go to the overflow, and they must hold their boxes as well as the others. */
Test(graph_color, the_overflow_is_solved)
{
    cairn_world *world = scene_default_world();
    scene_floor(world, 0.6f, 0.0f);
    scene_box(world, v3(0, 0.25f, 0), v3(4.5f, 0.25f, 4.5f), 200.0f, 0.6f);
    enum { SIDE = 12, BOXES = SIDE * SIDE };
    _Static_assert((int)BOXES > (int)GRAPH_COLOR_COUNT,
                   "the slab must have more contacts than colours");
    cairn_body_id boxes[BOXES];
    for (int k = 0; k < BOXES; ++k)
        boxes[k] = scene_box(
            world,
            v3(-4.125f + 0.75f * (float)(k % SIDE), 0.8f, -4.125f + 0.75f * (float)(k / SIDE)),
            v3(0.3f, 0.3f, 0.3f), 500.0f, 0.6f);
    int most_overflow = 0;
    for (int n = 0; n < 120; ++n) {
        cairn_world_step(world, 1.0f / 60.0f);
        cairn_step_stats stats = cairn_world_step_stats(world);
        most_overflow =
            stats.overflow_contacts > most_overflow ? stats.overflow_contacts : most_overflow;
    }
    cr_expect_gt(most_overflow, 0, "the slab's contacts never overflowed the colours");
    for (int k = 0; k < BOXES; ++k) {
        cairn_transform xf = cairn_body_transform(world, boxes[k]);
        cr_expect_float_eq(xf.position.y, 0.8f, 0.01f, "box %d sank to %.4f", k,
                           (double)xf.position.y);
        cr_expect_lt(glms_vec3_norm(cairn_body_linear_velocity(world, boxes[k])), 0.01f);
    }
    cairn_world_destroy(world);
}
