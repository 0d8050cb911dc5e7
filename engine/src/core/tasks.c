/* Parallel loops through the game's task system, or inline. */
#include "core/tasks.h"

#include "core/timer.h"

#include <stdatomic.h>

/* A worker's running time, on its own cache line: workers add to it while others run. */
typedef struct task_clock {
    _Alignas(64) _Atomic uint64_t busy_ns;
} task_clock;

/* The game's task runs this, which times the world's task per worker. */
typedef struct timed_task {
    cairn_task_fn *task;
    void *context;
    task_clock clocks[CAIRN_MAX_WORKERS];
} timed_task;

static void run_timed(int start, int end, int worker, void *context)
{
    timed_task *timed = context;
    uint64_t began = timer_ticks();
    timed->task(start, end, worker, timed->context);
    /* a task system that numbers its workers beyond the contract loses only their times */
    if (worker >= 0 && worker < CAIRN_MAX_WORKERS)
        atomic_fetch_add_explicit(&timed->clocks[worker].busy_ns, timer_ticks() - began,
                                  memory_order_relaxed);
}

void tasks_parallel_for(const cairn_world_def *def, cairn_task_fn *task, int count, int min_range,
                        void *context, float *busy_ms)
{
    if (count <= 0)
        return;
    if (def->enqueue_task == NULL || def->worker_count == 1 || count <= min_range) {
        uint64_t began = timer_ticks();
        task(0, count, 0, context);
        if (busy_ms)
            busy_ms[0] += (float)timer_ms_since(began);
        return;
    }
    timed_task timed = {.task = task, .context = context};
    for (int w = 0; w < CAIRN_MAX_WORKERS; ++w)
        atomic_init(&timed.clocks[w].busy_ns, 0);
    void *handle = def->enqueue_task(run_timed, count, min_range, &timed, def->user_task_context);
    if (handle != NULL)
        def->finish_task(handle, def->user_task_context);
    for (int w = 0; w < def->worker_count && busy_ms; ++w)
        busy_ms[w] += (float)((double)atomic_load(&timed.clocks[w].busy_ns) * 1e-6);
}

/* The min_range to give tasks_parallel_for: count (the calling thread alone) while the gate's
   work is below its least, else shared_range. */
static int task_gate_range(const task_gate *gate, float default_ms, int count, int shared_range)
{
    float least = gate->least_ms != 0.0f ? gate->least_ms : default_ms;
    return gate->work_ms < least ? count : shared_range;
}

void task_gate_record(task_gate *gate, const float *busy_ms, int workers)
{
    gate->work_ms = 0.0f;
    for (int w = 0; w < workers; ++w)
        gate->work_ms += busy_ms[w];
}

void tasks_parallel_for_gated(const cairn_world_def *def, task_gate *gate, float default_ms,
                              cairn_task_fn *task, int count, int shared_range, void *context,
                              float *busy_ms)
{
    float run_ms[CAIRN_MAX_WORKERS] = {0};
    int range = task_gate_range(gate, default_ms, count, shared_range);
    tasks_parallel_for(def, task, count, range, context, run_ms);
    task_gate_record(gate, run_ms, def->worker_count);
    for (int w = 0; w < def->worker_count && busy_ms; ++w)
        busy_ms[w] += run_ms[w];
}
