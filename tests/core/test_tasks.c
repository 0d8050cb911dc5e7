/* The step's parallel loops and their gate (core/tasks.h): a loop whose last run did less work
   than the gate's least runs on the calling thread without touching the task callbacks; one at
   or above it is handed to them; a negative least shares every run. */
#include "core/tasks.h"

#include <criterion/criterion.h>

/* A task system that runs the whole range at once and counts its calls. */
typedef struct recorder {
    int enqueued;
} recorder;

static void *record_enqueue(cairn_task_fn *task, int count, int min_range, void *task_context,
                            void *user_context)
{
    (void)min_range;
    ((recorder *)user_context)->enqueued++;
    task(0, count, 1, task_context); /* worker 1: not the calling thread */
    return NULL;
}

static void finish_nothing(void *handle, void *user_context)
{
    (void)handle;
    (void)user_context;
}

typedef struct ranges {
    int calls, items, last_worker;
} ranges;

static void count_items(int start, int end, int worker, void *context)
{
    ranges *r = context;
    r->calls++;
    r->items += end - start;
    r->last_worker = worker;
}

static cairn_world_def two_workers(recorder *rec)
{
    cairn_world_def def = {0};
    def.worker_count = 2;
    def.enqueue_task = record_enqueue;
    def.finish_task = finish_nothing;
    def.user_task_context = rec;
    return def;
}

/* Runs 1,000 items through the gated loop with the given last work, and says where they ran. */
static ranges run_gated(task_gate gate, float default_ms, recorder *rec)
{
    cairn_world_def def = two_workers(rec);
    ranges r = {0};
    float busy[CAIRN_MAX_WORKERS] = {0};
    tasks_parallel_for_gated(&def, &gate, default_ms, count_items, 1000, 64, &r, busy);
    return r;
}

Test(task_gate, little_work_stays_on_the_calling_thread)
{
    recorder rec = {0};
    ranges r = run_gated((task_gate){.work_ms = 0.99f}, 1.0f, &rec);
    cr_expect_eq(rec.enqueued, 0, "the task system was asked to run %d loops", rec.enqueued);
    cr_expect_eq(r.calls, 1);
    cr_expect_eq(r.items, 1000);
    cr_expect_eq(r.last_worker, 0);
}

Test(task_gate, enough_work_is_shared)
{
    recorder rec = {0};
    ranges r = run_gated((task_gate){.work_ms = 1.0f}, 1.0f, &rec);
    cr_expect_eq(rec.enqueued, 1);
    cr_expect_eq(r.items, 1000);
    cr_expect_eq(r.last_worker, 1);
}

Test(task_gate, own_least_replaces_the_default)
{
    recorder rec = {0};
    run_gated((task_gate){.work_ms = 0.3f, .least_ms = 0.2f}, 1.0f, &rec);
    cr_expect_eq(rec.enqueued, 1, "least 0.2 ms: 0.3 ms of work is shared");
    run_gated((task_gate){.work_ms = 0.3f, .least_ms = 0.5f}, 0.1f, &rec);
    cr_expect_eq(rec.enqueued, 1, "least 0.5 ms: 0.3 ms of work is not");
}

Test(task_gate, negative_least_shares_every_run)
{
    recorder rec = {0};
    run_gated((task_gate){.work_ms = 0.0f, .least_ms = -1.0f}, 1.0f, &rec);
    cr_expect_eq(rec.enqueued, 1);
}

Test(task_gate, record_sums_the_workers)
{
    task_gate gate = {.work_ms = 7.0f, .least_ms = 2.0f};
    const float busy[3] = {0.25f, 0.5f, 1.0f};
    task_gate_record(&gate, busy, 3);
    cr_expect_float_eq(gate.work_ms, 1.75f, 1e-6f);
    cr_expect_eq(gate.least_ms, 2.0f, "record keeps the least");
    task_gate_record(&gate, busy, 1);
    cr_expect_float_eq(gate.work_ms, 0.25f, 1e-6f, "each run replaces the last");
}
