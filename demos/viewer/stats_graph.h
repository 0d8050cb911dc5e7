/* A scrolling graph of the last steps' times per pipeline stage (broadphase, narrow phase,
   solver, islands), drawn as stacked bars on the overlay. */
#ifndef CAIRN_DEMO_STATS_GRAPH_H
#define CAIRN_DEMO_STATS_GRAPH_H

#include "overlay.h"

#include <cairn/cairn.h>

#define GRAPH_SAMPLES 200
#define GRAPH_STAGES  5

typedef struct stats_graph {
    float ms[GRAPH_SAMPLES][GRAPH_STAGES];
    int next, count;
} stats_graph;

void stats_graph_push(stats_graph *g, const cairn_step_stats *s);
void stats_graph_clear(stats_graph *g);
/* Bars in the rectangle (pixels, top-left x, y), newest on the right, with a legend and the
   scale above it. */
void stats_graph_draw(const stats_graph *g, overlay *o, float x, float y, float width,
                      float height);

#endif
