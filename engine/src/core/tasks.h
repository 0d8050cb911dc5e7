/* The step's parallel loops over the world's task callbacks (cairn_world_def): a range of items
   split among the workers, or run on the calling thread when the world has none. */
#ifndef CAIRN_CORE_TASKS_H
#define CAIRN_CORE_TASKS_H

#include <cairn/world.h>

/* Runs task over [0, count) in ranges of at least min_range items and returns when all have
   run. Results must not depend on how the range is split: each item writes its own data.
   busy_ms (may be NULL): per worker, the time it spent running ranges is added. */
void tasks_parallel_for(const cairn_world_def *def, cairn_task_fn *task, int count, int min_range,
                        void *context, float *busy_ms);

/* Whether a parallel loop of the step is worth handing to the workers, from the work its last
   run did: below least_ms, the workers' start and the cache lines their results move to the
   next stage's thread cost more than they save. */
typedef struct task_gate {
    float work_ms;  /* the last run's work, ms summed over the workers */
    float least_ms; /* the least work shared: 0 for the loop's default, negative to share at
                       every step (tests run the parallel loops on small scenes) */
} task_gate;

/* Keeps the run's work: busy_ms of workers workers, as tasks_parallel_for added it. */
void task_gate_record(task_gate *gate, const float *busy_ms, int workers);
/* tasks_parallel_for behind a gate: on the calling thread while the gate's work is below its
   least (default_ms when least_ms is 0), else in ranges of at least shared_range; then the gate
   keeps this run's work, and busy_ms (per worker, may be NULL) has it added. */
void tasks_parallel_for_gated(const cairn_world_def *def, task_gate *gate, float default_ms,
                              cairn_task_fn *task, int count, int shared_range, void *context,
                              float *busy_ms);

#endif
