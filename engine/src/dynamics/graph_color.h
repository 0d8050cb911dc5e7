/* Graph colouring of the solver's constraints (as in Box2D v3): no two constraints of a colour
   share a body the step moves, so a colour's constraints can be solved at the same time, in any
   order, with the same result. Bodies that do not move (static, kinematic, asleep) do not
   count: their velocities are only read. What finds no colour goes to the overflow, solved
   alone after the colours. */
#ifndef CAIRN_DYNAMICS_GRAPH_COLOR_H
#define CAIRN_DYNAMICS_GRAPH_COLOR_H

#include "core/team.h"

#include <stdbool.h>
#include <stdint.h>

/* The colours a body's constraints took, a bit each. 127 colours: more of a tall pile's contacts
   keep their order (the settled 1,240-box pyramid fills them all, and drifts 0.06 mm; with 63 it
   drifted 0.10 mm). GCC and Clang have 128-bit integers on every 64-bit target. */
typedef unsigned __int128 graph_mask;

enum {
    GRAPH_COLOR_COUNT = 127,               /* colours (bits of a graph_mask) */
    GRAPH_OVERFLOW = GRAPH_COLOR_COUNT,    /* the colour of what did not fit */
    GRAPH_BUCKETS = GRAPH_COLOR_COUNT + 1, /* the colours and the overflow */
};

/* The colour after the last one either moving body has (or, past the last colour, the first
   that neither has), taken for them; GRAPH_OVERFLOW when all are taken (the bodies' colours do
   not change). used: one mask per body, zero at the start of the colouring. A constraint with no
   moving body gets colour 0 and marks nothing. */
int graph_color_pick(graph_mask *used, uint32_t a, bool a_moves, uint32_t b, bool b_moves);

/* Runs stage over each colour's constraints in turn (first[GRAPH_BUCKETS + 1]: each bucket's
   first constraint, the colours in order and the overflow last, and the end), each a
   team stage in blocks of at least min_block, then the overflow alone on the coordinator. Before
   each colour *stage_first (read by the stage) is set to its first constraint. */
void graph_color_run(team *t, const int *first, int *stage_first, team_stage_fn *stage,
                     void *context, int min_block);

#endif
