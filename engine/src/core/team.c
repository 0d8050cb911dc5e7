/* The staged worker team (team.h): block claims by compare-and-swap, spinning workers. */
#include "core/team.h"

#include "core/timer.h"

#include <sched.h>

/* The sequence number that sends the workers home. */
#define QUIT_SEQUENCE UINT32_MAX
/* Pauses before a waiting worker gives its core away: more workers than cores must not starve
   the one that has work. */
#define SPINS_BEFORE_YIELD 1024

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static void wait_a_little(int *spins)
{
    if (++*spins < SPINS_BEFORE_YIELD) {
        cpu_relax();
        return;
    }
    *spins = 0;
    sched_yield();
}

static inline uint32_t sequence_of(uint64_t claim)
{
    return (uint32_t)(claim >> 32);
}

/* Claims and runs one block of the share's stage when it has one left. */
static bool work_on_share(team *t, int share, uint32_t sequence, int blocks, int worker)
{
    uint64_t claim = atomic_load_explicit(&t->shares[share].claim, memory_order_acquire);
    int first = (int)((long long)blocks * share / t->workers);
    int last = (int)((long long)blocks * (share + 1) / t->workers);
    if (sequence_of(claim) != sequence || first + (int)(uint32_t)claim >= last)
        return false;
    /* A claim that succeeds is for a stage that cannot end before the block is done, so the
       stage's fields stay as they were published. */
    if (!atomic_compare_exchange_strong_explicit(&t->shares[share].claim, &claim, claim + 1,
                                                 memory_order_acquire, memory_order_relaxed))
        return true; /* another worker took it: look again */
    const team_stage *stage = &t->stages[sequence & 1];
    int start = (first + (int)(uint32_t)claim) * stage->block_size;
    int end = start + stage->block_size < stage->items ? start + stage->block_size : stage->items;
    uint64_t began = timer_ticks();
    stage->run(stage->context, start, end, worker);
    t->clocks[worker].busy_ns[stage->clock] += timer_ticks() - began;
    atomic_fetch_add_explicit(&t->done, 1, memory_order_release);
    return true;
}

/* Claims and runs one block of the current stage, from the worker's own share first. False when
   there is none to take (the stage is handed out, or it is one this worker found handed out). */
static bool work_on_stage(team *t, int worker, uint32_t *exhausted)
{
    uint32_t sequence = atomic_load_explicit(&t->current, memory_order_acquire);
    if (sequence == *exhausted || sequence == QUIT_SEQUENCE)
        return false;
    int blocks = atomic_load_explicit(&t->stages[sequence & 1].block_count, memory_order_relaxed);
    for (int k = 0; k < t->workers; ++k)
        if (work_on_share(t, (worker + k) % t->workers, sequence, blocks, worker))
            return true;
    *exhausted = sequence;
    return false;
}

static void worker_loop(team *t, int worker)
{
    uint32_t exhausted = 0;
    int spins = 0;
    while (atomic_load_explicit(&t->current, memory_order_acquire) != QUIT_SEQUENCE)
        if (!work_on_stage(t, worker, &exhausted))
            wait_a_little(&spins);
}

/* The whole stage on the coordinator, its time charged to clock. */
static void run_on_coordinator(team *t, team_clock_id clock, team_stage_fn *run, void *context,
                               int items)
{
    uint64_t began = timer_ticks();
    run(context, 0, items, 0);
    t->clocks[0].busy_ns[clock] += timer_ticks() - began;
}

void team_stage_run(team *t, team_clock_id clock, team_stage_fn *run, void *context, int items,
                    int min_block)
{
    if (items <= 0)
        return;
    /* One worker, or too little work to share: the coordinator does it all, with no stage to
       publish and no cache lines to hand between cores. */
    if (t->workers == 1 && clock == TEAM_CONSTRAINTS) {
        t->stage_count++;
        run(context, 0, items, 0); /* team_run times the whole program: no clock per stage */
        return;
    }
    if (t->workers == 1 || items <= min_block) {
        t->stage_count++;
        run_on_coordinator(t, clock, run, context, items);
        return;
    }
    int block_size = (items + 4 * t->workers - 1) / (4 * t->workers);
    team_stage_run_blocks(t, clock, run, context, items,
                          block_size > min_block ? block_size : (min_block > 0 ? min_block : 1));
}

void team_recharge(team *t, int worker, team_clock_id from, team_clock_id to, uint64_t ns)
{
    /* the block's whole time is added to `from` when it returns: taken off first, modulo 2^64 */
    t->clocks[worker].busy_ns[from] -= ns;
    t->clocks[worker].busy_ns[to] += ns;
}

void team_stage_run_blocks(team *t, team_clock_id clock, team_stage_fn *run, void *context,
                           int items, int block_size)
{
    if (items <= 0)
        return;
    t->stage_count++;
    if (t->workers == 1) {
        run_on_coordinator(t, clock, run, context, items);
        return;
    }
    uint32_t sequence = ++t->sequence;
    team_stage *stage = &t->stages[sequence & 1];
    stage->run = run;
    stage->context = context;
    stage->items = items;
    stage->clock = clock;
    stage->block_size = block_size > 0 ? block_size : 1;
    int blocks = (items + stage->block_size - 1) / stage->block_size;
    atomic_store_explicit(&stage->block_count, blocks, memory_order_relaxed);
    atomic_store_explicit(&t->done, 0, memory_order_relaxed);
    for (int w = 0; w < t->workers; ++w)
        atomic_store_explicit(&t->shares[w].claim, (uint64_t)sequence << 32, memory_order_relaxed);
    atomic_store_explicit(&t->current, sequence, memory_order_release);
    uint32_t exhausted = 0;
    int spins = 0;
    while (atomic_load_explicit(&t->done, memory_order_acquire) < blocks)
        if (!work_on_stage(t, 0, &exhausted))
            wait_a_little(&spins);
}

typedef struct team_launch {
    team *team;
    team_program_fn *program;
    void *context;
} team_launch;

/* Item 0 is the coordinator; the others are workers until it sends them home. */
static void team_task(int start, int end, int worker, void *context)
{
    (void)worker; /* the team numbers its members by item: they are unique within it */
    team_launch *launch = context;
    for (int member = start; member < end; ++member) {
        if (member == 0) {
            launch->program(launch->team, launch->context);
            atomic_store_explicit(&launch->team->current, QUIT_SEQUENCE, memory_order_release);
        } else {
            worker_loop(launch->team, member);
        }
    }
}

static float clock_ms(const team_clock *clock, team_clock_id id)
{
    return (float)((double)clock->busy_ns[id] * 1e-6);
}

/* The stage counts, and the workers' times. With one worker, the solver's time is the whole
   program's (the code between stages too). */
static void add_times(const team *t, team_times times, float program_ms)
{
    if (times.stages)
        *times.stages = t->stage_count;
    if (times.shared_stages)
        *times.shared_stages = (int)t->sequence;
    for (int w = 0; w < t->workers; ++w) {
        const team_clock *clock = &t->clocks[w];
        if (times.solver_ms)
            times.solver_ms[w] += t->workers == 1 ? program_ms
                                                  : clock_ms(clock, TEAM_CONSTRAINTS) +
                                                        clock_ms(clock, TEAM_INTEGRATION);
        if (times.integration_ms)
            times.integration_ms[w] += clock_ms(clock, TEAM_INTEGRATION);
    }
}

int team_run(const cairn_world_def *def, bool share, team_program_fn *program, void *context,
             team_times times)
{
    team t = {.workers = def->enqueue_task && share ? def->worker_count : 1};
    for (int w = 0; w < CAIRN_MAX_WORKERS; ++w)
        atomic_init(&t.shares[w].claim, 0);
    atomic_init(&t.current, 0);
    atomic_init(&t.done, 0);
    atomic_init(&t.stages[0].block_count, 0);
    atomic_init(&t.stages[1].block_count, 0);
    if (t.workers == 1) {
        uint64_t began = timer_ticks();
        program(&t, context);
        add_times(&t, times, (float)timer_ms_since(began));
        return 1;
    }
    team_launch launch = {&t, program, context};
    void *handle = def->enqueue_task(team_task, t.workers, 1, &launch, def->user_task_context);
    if (handle != NULL)
        def->finish_task(handle, def->user_task_context);
    add_times(&t, times, 0.0f);
    return t.workers;
}
