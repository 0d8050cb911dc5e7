/* Step-time ring buffer and its stacked-bar rendering; the vertical scale snaps to 1-2-5 steps
   so it does not jitter frame to frame. */
#include "stats_graph.h"

#include <stdio.h>

static const unsigned char stage_colour[GRAPH_STAGES][4] = {
    {90, 170, 255, 230},  /* broadphase */
    {255, 170, 60, 230},  /* narrow phase */
    {120, 220, 110, 230}, /* solver (contacts) */
    {240, 230, 90, 230},  /* integration (part of the solver stage) */
    {230, 100, 220, 230}, /* islands */
};
static const char *stage_name[GRAPH_STAGES] = {"broad", "narrow", "solve", "integ", "island"};

void stats_graph_push(stats_graph *g, const cairn_step_stats *s)
{
    float *row = g->ms[g->next];
    row[0] = s->broadphase_ms;
    row[1] = s->narrowphase_ms;
    row[2] = s->solver_ms - s->integrate_ms;
    row[3] = s->integrate_ms;
    row[4] = s->islands_ms;
    g->next = (g->next + 1) % GRAPH_SAMPLES;
    g->count += g->count < GRAPH_SAMPLES ? 1 : 0;
}

void stats_graph_clear(stats_graph *g)
{
    g->next = g->count = 0;
}

static float nice_scale(float peak)
{
    static const float steps[3] = {1.0f, 2.0f, 5.0f};
    for (float decade = 0.1f;; decade *= 10.0f) {
        for (int i = 0; i < 3; ++i) {
            if (steps[i] * decade >= peak) {
                return steps[i] * decade;
            }
        }
    }
}

static float peak_ms(const stats_graph *g)
{
    float peak = 0.0f;
    for (int i = 0; i < g->count; ++i) {
        float sum = 0.0f;
        for (int s = 0; s < GRAPH_STAGES; ++s) {
            sum += g->ms[i][s];
        }
        peak = sum > peak ? sum : peak;
    }
    return peak;
}

void stats_graph_draw(const stats_graph *g, overlay *o, float x, float y, float width, float height)
{
    static const unsigned char back[4] = {16, 20, 26, 150}, white[4] = {240, 240, 235, 255};
    overlay_rect(o, x, y, x + width, y + height, back);
    float scale = nice_scale(peak_ms(g) > 0.0f ? peak_ms(g) : 1.0f);
    float bar = width / GRAPH_SAMPLES;
    for (int i = 0; i < g->count; ++i) {
        int slot = (g->next - g->count + i + GRAPH_SAMPLES) % GRAPH_SAMPLES;
        float left = x + width - bar * (float)(g->count - i), bottom = y + height;
        for (int s = 0; s < GRAPH_STAGES; ++s) {
            float h = height * g->ms[slot][s] / scale;
            overlay_rect(o, left, bottom - h, left + bar, bottom, stage_colour[s]);
            bottom -= h;
        }
    }
    char label[64];
    snprintf(label, sizeof label, "step ms (top = %g)", (double)scale);
    overlay_label(o, x + 4.0f, y - 40.0f, label, white);
    float lx = x + 4.0f;
    for (int s = 0; s < GRAPH_STAGES; ++s) {
        overlay_label(o, lx, y - 22.0f, stage_name[s], stage_colour[s]);
        float w, h;
        overlay_text_size(stage_name[s], &w, &h); /* a panel's size: the text plus 16 px */
        lx += w - 16.0f + 12.0f;
    }
}
