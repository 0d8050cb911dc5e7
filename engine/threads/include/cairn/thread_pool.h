/* cairn_threads: an optional, small thread pool that provides a world's task callbacks
   (cairn_world_def.enqueue_task / finish_task). The engine itself never starts a thread; a game
   with its own job system gives the world its own callbacks instead. */
#ifndef CAIRN_THREAD_POOL_H
#define CAIRN_THREAD_POOL_H

#include <cairn/cairn.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cairn_thread_pool cairn_thread_pool;

/* A pool for `workers` workers: the thread that finishes a task is worker 0 and works on it
   too, so workers - 1 threads are started. workers in [1, CAIRN_MAX_WORKERS]; NULL on a bad count
   or when a thread cannot be started, and cairn_thread_pool_last_error() says which. */
cairn_thread_pool *cairn_thread_pool_create(int workers);
/* This thread's message of the last failed cairn_thread_pool_create. */
const char *cairn_thread_pool_last_error(void);
/* Joins the threads. No task may be running. NULL is allowed. Destroy the worlds bound to the
   pool first (or bind them to another pool, or to none, with cairn_world_set_def): a world keeps
   the pool's callbacks, and stepping it once the pool is gone uses freed memory. */
void cairn_thread_pool_destroy(cairn_thread_pool *pool);
int cairn_thread_pool_workers(const cairn_thread_pool *pool);
/* Sets def's worker_count and task callbacks to this pool's. One world steps at a time per
   pool (each step's worker indices are the pool's). */
void cairn_thread_pool_bind(cairn_thread_pool *pool, cairn_world_def *def);

#ifdef __cplusplus
}
#endif

#endif
