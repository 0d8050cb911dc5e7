/* A team of workers that runs a sequence of stages, each split into blocks that any worker may
   take (the solver's colours, its integration): one task per worker for the whole sequence, so a
   stage costs a few atomic operations instead of a trip through the task system. Worker 0 is the
   coordinator: it runs the sequence's code, publishes each stage, works on it with the others
   and waits for its last block; the code between stages runs on it alone while the others spin.
   The blocks of a stage must be independent (they write disjoint data), so the result does not
   depend on which worker ran which block, or on how many there were. */
#ifndef CAIRN_CORE_TEAM_H
#define CAIRN_CORE_TEAM_H

#include <cairn/world.h>

#include <stdatomic.h>
#include <stdint.h>

/* What a stage's time is charged to: every stage is solver time; integration is also reported
   on its own. */
typedef enum team_clock_id { TEAM_CONSTRAINTS, TEAM_INTEGRATION, TEAM_CLOCK_COUNT } team_clock_id;

/* Runs the items [start, end) of a stage on the given worker. */
typedef void team_stage_fn(void *context, int start, int end, int worker);

typedef struct team_stage {
    team_stage_fn *run;
    void *context;
    int items, block_size;
    team_clock_id clock;
    atomic_int block_count; /* read before a claim, possibly of a stage already gone */
} team_stage;

/* A worker's share of a stage: the blocks [w B / W, (w + 1) B / W) of B blocks among W workers.
   Its word holds the stage's sequence number (high 32 bits) and the next unclaimed block of the
   share: a block is claimed by a compare-and-swap of the whole word, so a claim can never be for
   a stage that has ended. A worker takes its own share first, then the others' (Box2D v3's way):
   in every colour it then solves about the same stretch of contacts, sorted by body, and the
   bodies' velocities stay in its core's cache instead of moving between cores each colour. */
typedef struct team_share {
    _Alignas(64) _Atomic uint64_t claim;
} team_share;

/* The time a worker spent running blocks, by clock, on its own cache line (only it writes
   there). */
typedef struct team_clock {
    _Alignas(64) uint64_t busy_ns[TEAM_CLOCK_COUNT];
} team_clock;

/* Where team_run adds each worker's times, ms (either may be NULL): all of its stages (with one
   worker, the whole program's time), and its integration stages alone; and where it stores the
   program's stage counts (either may be NULL): all its stages, and those shared among the
   workers, each of which ends with them waiting for one another. */
typedef struct team_times {
    float *solver_ms, *integration_ms;
    int *stages, *shared_stages;
} team_times;

typedef struct team {
    int workers;
    team_share shares[CAIRN_MAX_WORKERS];
    team_clock clocks[CAIRN_MAX_WORKERS];
    _Atomic uint32_t current; /* the sequence number of the stage last published */
    atomic_int done;          /* blocks of the current stage finished */
    team_stage stages[2];     /* by sequence parity: a slow worker may still read the last one */
    uint32_t sequence;        /* the coordinator's: the stages shared so far */
    int stage_count;          /* the coordinator's: the stages run so far, shared or not */
} team;

/* The code the coordinator runs; it calls team_stage_run for each parallel stage. */
typedef void team_program_fn(team *t, void *context);

/* Runs program with the world's workers (inline with one worker, or when share is false;
   through the task callbacks otherwise) and returns when it and every worker are done; then
   adds the workers' times. Returns how many workers it ran on. */
int team_run(const cairn_world_def *def, bool share, team_program_fn *program, void *context,
             team_times times);

/* Coordinator only: runs run(context, start, end, worker) over [0, items) in blocks on every
   worker, and returns when all are done. About four blocks per worker, so that one that finishes
   early finds more, but none under min_block items (a block must outweigh its claim and the
   cache lines it moves between cores); a stage of min_block items or fewer runs on the
   coordinator alone. The blocks' time is charged to clock. */
void team_stage_run(team *t, team_clock_id clock, team_stage_fn *run, void *context, int items,
                    int min_block);
/* Inside a block of a stage: ns of the block's time were spent on work of clock `to` (a nested
   team of one worker, say): it is charged there instead of to the stage's clock. */
void team_recharge(team *t, int worker, team_clock_id from, team_clock_id to, uint64_t ns);
/* The same with blocks of exactly block_size items: for items that are each a lot of work (whole
   island groups), where four blocks per worker would leave one worker with more than its share. */
void team_stage_run_blocks(team *t, team_clock_id clock, team_stage_fn *run, void *context,
                           int items, int block_size);

#endif
