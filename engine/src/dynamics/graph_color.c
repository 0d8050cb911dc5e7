/* Colouring in the constraints' order over per-body colour masks. A constraint takes the colour
   just after the last one its bodies have: solved colour by colour, every constraint then comes
   after each earlier one it shares a moving body with, and constraints of one colour touch
   different bodies, so the solve is the same as one pass in the original order, bit for bit
   (the Gauss-Seidel order the stacking tests were tuned with). Chains longer than the colours
   fall back to the first colour their bodies leave free, as in Box2D v3. Either way the colouring
   is a function of the constraints' order alone: the same for every thread count. */
#include "dynamics/graph_color.h"

/* Leading and trailing zero bits of a mask that is not zero. */
static int clz128(graph_mask m)
{
    uint64_t hi = (uint64_t)(m >> 64);
    return hi ? __builtin_clzll(hi) : 64 + __builtin_clzll((uint64_t)m);
}

static int ctz128(graph_mask m)
{
    uint64_t lo = (uint64_t)m;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(m >> 64));
}

int graph_color_pick(graph_mask *used, uint32_t a, bool a_moves, uint32_t b, bool b_moves)
{
    graph_mask taken = (a_moves ? used[a] : 0u) | (b_moves ? used[b] : 0u);
    graph_mask all = ((graph_mask)1 << GRAPH_COLOR_COUNT) - 1u;
    if ((taken & all) == all)
        return GRAPH_OVERFLOW;
    int after_last = taken ? 128 - clz128(taken) : 0;
    int color = after_last < GRAPH_COLOR_COUNT ? after_last : ctz128(~taken);
    if (a_moves)
        used[a] |= (graph_mask)1 << color;
    if (b_moves)
        used[b] |= (graph_mask)1 << color;
    return color;
}

void graph_color_run(team *t, const int *first, int *stage_first, team_stage_fn *stage,
                     void *context, int min_block)
{
    for (int c = 0; c < GRAPH_BUCKETS; ++c) {
        int count = first[c + 1] - first[c];
        if (count == 0)
            continue;
        *stage_first = first[c];
        if (c == GRAPH_OVERFLOW)
            stage(context, 0, count, 0);
        else
            team_stage_run(t, TEAM_CONSTRAINTS, stage, context, count, min_block);
    }
}
