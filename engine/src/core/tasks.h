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

#endif
