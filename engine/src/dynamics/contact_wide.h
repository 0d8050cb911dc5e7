/* The contact solver's passes over batches of contacts, several at once: the contacts of one
   colour (graph_color.h) touch different moving bodies, so lanes of 1, 4 or 8 of them go through
   the same instructions side by side (as in Box2D v3's wide solver). A batch holds contacts of one
   colour with the same number of points; its lanes beyond its count are empty constraints on a
   body at rest. The kernel is compiled once per width (contact_wide_1.c, _4.c, _8.c) and picked
   once per world. */
#ifndef CAIRN_DYNAMICS_CONTACT_WIDE_H
#define CAIRN_DYNAMICS_CONTACT_WIDE_H

#include "dynamics/contact_rows.h"
#include "dynamics/softness.h"

#include <stdbool.h>
#include <stddef.h>

/* What a pass over the contacts does with the position error. BIAS_RELAX is soft step's
   relax pass: no bias, and normal rows only. Friction was solved by the biased passes of the
   substep; leaving it out of the relax pass keeps the tallest stacks as steady (tests/dynamics/
   test_stacks.c, test_wall.c) and makes the step about 15% faster. */
typedef enum bias_mode { BIAS_SOFT, BIAS_NONE, BIAS_BAUMGARTE, BIAS_RELAX } bias_mode;

/* What every pass reads: the bodies' state by body index and the solver settings. */
typedef struct contact_pass {
    body_velocity *velocities;
    const body_motion *moved; /* motion since the step start */
    motion_offset *pseudo;    /* split impulse pseudo-velocities */
    bias_mode mode;
    unsigned pass; /* counts solve passes, to alternate the point order */
    float inverse_h;
    softness soft;
    float max_push_velocity, linear_slop, baumgarte, max_linear_correction;
    float restitution_threshold;
    bool restart_pseudo; /* the split impulse pass starts the substep's pseudo impulses at 0 */
    bool rolling;        /* a batch may have rolling rows (none can without a contact that has
                            rolling resistance: the passes then skip looking) */
} contact_pass;

/* A pass over batches [start, end). */
typedef void contact_pass_fn(void *batches, int start, int end, const contact_pass *pass);

enum { CONTACT_WIDE_MAX_LANES = 8 };

/* What the prepare reads besides the manifolds: the bodies and their velocities at the step
   start (by body index), the factor on last step's impulses, the body index the empty lanes
   use (at rest, never moved), and room for the batches' rolling rows (rolling_bytes each, as
   the batches are indexed, 32-byte aligned), written only where a batch has some; NULL when no
   contact has rolling resistance. */
typedef struct contact_setup {
    cairn_world *world;
    const body_velocity *velocities;
    float warm;
    int rest_body;
    void *rolling_rows;
} contact_setup;

/* Batch b of the array at batches. */
typedef struct contact_wide_ops {
    int lanes;
    /* Built with fused multiply-adds (CAIRN_DETERMINISTIC off): its results may differ from the
       other widths' in the last bits. */
    bool fused;
    size_t batch_bytes;   /* batches must be 32-byte aligned */
    size_t rolling_bytes; /* a batch's rolling rows (contact_setup.rolling_rows) */
    /* count manifolds of one colour and one point count made into batch b's constraints
       (contact_wide_prepare.h) */
    void (*prepare)(void *batches, int b, const manifold_ref *refs, int count,
                    const contact_setup *setup);
    contact_pass_fn *warm_start, *solve, *pseudo, *restitution;
    /* The accumulated impulses of batch b's contacts, lane by lane. */
    void (*unpack)(const void *batches, int b, contact_impulses *lanes);
} contact_wide_ops;

extern const contact_wide_ops contact_wide_ops_1, contact_wide_ops_4, contact_wide_ops_8;

/* The kernel of the given width (1, 4 or 8; 0 for the build's default, CAIRN_SOLVER_LANES),
   or NULL when this processor cannot run it (8 lanes need AVX2) or the width is not one of those.
 */
const contact_wide_ops *contact_wide_select(int lanes);

#endif
