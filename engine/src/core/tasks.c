/* Parallel loops through the game's task system, or inline. */
#include "core/tasks.h"

void tasks_parallel_for(const cairn_world_def *def, cairn_task_fn *task, int count, int min_range,
                        void *context)
{
    if (count <= 0)
        return;
    if (def->enqueue_task == NULL || def->worker_count == 1 || count <= min_range) {
        task(0, count, 0, context);
        return;
    }
    void *handle = def->enqueue_task(task, count, min_range, context, def->user_task_context);
    if (handle != NULL)
        def->finish_task(handle, def->user_task_context);
}
