/* The thread pool: a mutex-guarded list of ranges, workers - 1 threads that take them, and the
   finishing thread (worker 0) that takes its own task's ranges while it waits. Ranges are few
   (one per worker per parallel stage of a step), so one lock is not contended. */
#include <cairn/thread_pool.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum {
    MAX_TASKS = 16,                          /* tasks enqueued and not yet finished */
    MAX_JOBS = MAX_TASKS * CAIRN_MAX_WORKERS /* their ranges */
};

typedef struct pool_task {
    bool in_use;
    int pending; /* ranges not finished yet */
} pool_task;

typedef struct pool_job {
    cairn_task_fn *run;
    void *context;
    int start, end;
    pool_task *task;
} pool_job;

struct cairn_thread_pool {
    int workers;
    pthread_t threads[CAIRN_MAX_WORKERS];
    int started;
    pthread_mutex_t lock;
    pthread_cond_t work_ready, work_done;
    pool_job jobs[MAX_JOBS];
    int job_count;
    pool_task tasks[MAX_TASKS];
    bool stopping;
};

typedef struct thread_start {
    cairn_thread_pool *pool;
    int worker;
} thread_start;

static _Thread_local char last_error[160];

const char *cairn_thread_pool_last_error(void)
{
    return last_error;
}

/* Takes a job (of the given task, or of any when task is NULL); the lock is held. */
static bool take_job(cairn_thread_pool *pool, const pool_task *task, pool_job *out)
{
    for (int i = pool->job_count - 1; i >= 0; --i) {
        if (task != NULL && pool->jobs[i].task != task)
            continue;
        *out = pool->jobs[i];
        pool->jobs[i] = pool->jobs[--pool->job_count];
        return true;
    }
    return false;
}

/* Runs a job outside the lock and counts it done; the lock is held before and after. */
static void run_job(cairn_thread_pool *pool, const pool_job *job, int worker)
{
    pthread_mutex_unlock(&pool->lock);
    job->run(job->start, job->end, worker, job->context);
    pthread_mutex_lock(&pool->lock);
    if (--job->task->pending == 0)
        pthread_cond_broadcast(&pool->work_done);
}

static void *worker_main(void *argument)
{
    thread_start start = *(thread_start *)argument;
    free(argument);
    cairn_thread_pool *pool = start.pool;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        pool_job job;
        if (take_job(pool, NULL, &job))
            run_job(pool, &job, start.worker);
        else if (pool->stopping)
            break;
        else
            pthread_cond_wait(&pool->work_ready, &pool->lock);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

/* Splits the items into one range per worker at most, each of at least min_range items. */
static void *pool_enqueue(cairn_task_fn *run, int item_count, int min_range, void *context,
                          void *user_context)
{
    cairn_thread_pool *pool = user_context;
    int least = min_range > 0 ? min_range : 1;
    int ranges = (item_count + least - 1) / least;
    if (ranges > pool->workers)
        ranges = pool->workers;
    pool_task *task = NULL;
    pthread_mutex_lock(&pool->lock);
    for (int i = 0; i < MAX_TASKS && task == NULL && ranges > 1; ++i)
        if (!pool->tasks[i].in_use)
            task = &pool->tasks[i];
    if (task == NULL) { /* one range, or every slot taken: run it here */
        pthread_mutex_unlock(&pool->lock);
        run(0, item_count, 0, context);
        return NULL;
    }
    *task = (pool_task){true, ranges};
    for (int r = 0; r < ranges; ++r) {
        int start = (int)((long long)item_count * r / ranges);
        int end = (int)((long long)item_count * (r + 1) / ranges);
        pool->jobs[pool->job_count++] = (pool_job){run, context, start, end, task};
    }
    pthread_cond_broadcast(&pool->work_ready);
    pthread_mutex_unlock(&pool->lock);
    return task;
}

/* The finishing thread is worker 0: it runs its task's ranges that no thread has taken. */
static void pool_finish(void *user_task, void *user_context)
{
    cairn_thread_pool *pool = user_context;
    pool_task *task = user_task;
    pthread_mutex_lock(&pool->lock);
    while (task->pending > 0) {
        pool_job job;
        if (take_job(pool, task, &job))
            run_job(pool, &job, 0);
        else
            pthread_cond_wait(&pool->work_done, &pool->lock);
    }
    task->in_use = false;
    pthread_mutex_unlock(&pool->lock);
}

static bool start_thread(cairn_thread_pool *pool, int worker)
{
    thread_start *start = malloc(sizeof *start);
    if (start == NULL)
        return false;
    *start = (thread_start){pool, worker};
    if (pthread_create(&pool->threads[pool->started], NULL, worker_main, start) != 0) {
        free(start);
        return false;
    }
    pool->started++;
    return true;
}

cairn_thread_pool *cairn_thread_pool_create(int workers)
{
    if (workers < 1 || workers > CAIRN_MAX_WORKERS) {
        snprintf(last_error, sizeof last_error,
                 "cairn_thread_pool_create: workers = %d is outside [1, %d]", workers,
                 CAIRN_MAX_WORKERS);
        return NULL;
    }
    cairn_thread_pool *pool = calloc(1, sizeof *pool);
    if (pool == NULL) {
        snprintf(last_error, sizeof last_error, "cairn_thread_pool_create: out of memory");
        return NULL;
    }
    pool->workers = workers;
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->work_ready, NULL);
    pthread_cond_init(&pool->work_done, NULL);
    for (int w = 1; w < workers; ++w) {
        if (!start_thread(pool, w)) {
            snprintf(last_error, sizeof last_error,
                     "cairn_thread_pool_create: could not start thread %d of %d", w, workers - 1);
            cairn_thread_pool_destroy(pool);
            return NULL;
        }
    }
    return pool;
}

void cairn_thread_pool_destroy(cairn_thread_pool *pool)
{
    if (pool == NULL)
        return;
    pthread_mutex_lock(&pool->lock);
    pool->stopping = true;
    pthread_cond_broadcast(&pool->work_ready);
    pthread_mutex_unlock(&pool->lock);
    for (int i = 0; i < pool->started; ++i)
        pthread_join(pool->threads[i], NULL);
    pthread_cond_destroy(&pool->work_done);
    pthread_cond_destroy(&pool->work_ready);
    pthread_mutex_destroy(&pool->lock);
    free(pool);
}

int cairn_thread_pool_workers(const cairn_thread_pool *pool)
{
    return pool ? pool->workers : 0;
}

void cairn_thread_pool_bind(cairn_thread_pool *pool, cairn_world_def *def)
{
    if (pool == NULL || def == NULL)
        return;
    def->worker_count = pool->workers;
    def->enqueue_task = pool->workers > 1 ? pool_enqueue : NULL;
    def->finish_task = pool->workers > 1 ? pool_finish : NULL;
    def->user_task_context = pool->workers > 1 ? pool : NULL;
}
