/* Bad thread settings are refused with a specific message and change nothing: a worker count out
   of range, one callback without the other, several workers without callbacks; the pool refuses
   a bad worker count. */
#include <cairn/cairn.h>
#include <cairn/thread_pool.h>

#include <criterion/criterion.h>
#include <string.h>

static void *enqueue_inline(cairn_task_fn *task, int item_count, int min_range, void *task_context,
                            void *user_context)
{
    (void)min_range;
    (void)user_context;
    task(0, item_count, 0, task_context);
    return NULL;
}

static void finish_nothing(void *user_task, void *user_context)
{
    (void)user_task;
    (void)user_context;
}

static void expect_refused(cairn_world_def def, const char *words)
{
    cairn_world *world = cairn_world_create(&def);
    cr_expect_null(world, "a def that should be refused made a world (%s)", words);
    cairn_world_destroy(world);
    cr_expect(strstr(cairn_last_error(), words) != NULL, "'%s' does not say '%s'",
              cairn_last_error(), words);
    /* and on a live world: refused, the old def kept */
    cairn_world_def good = cairn_world_default_def();
    world = cairn_world_create(&good);
    cr_assert_not_null(world);
    cr_expect(!cairn_world_set_def(world, &def));
    cr_expect_eq(cairn_world_get_def(world).worker_count, 1);
    cr_expect_null(cairn_world_get_def(world).enqueue_task);
    cairn_world_destroy(world);
}

Test(thread_errors, worker_count_out_of_range)
{
    cairn_world_def def = cairn_world_default_def();
    def.enqueue_task = enqueue_inline;
    def.finish_task = finish_nothing;
    def.worker_count = 0;
    expect_refused(def, "worker_count = 0 is outside [1, 64]");
    def.worker_count = CAIRN_MAX_WORKERS + 1;
    expect_refused(def, "worker_count = 65 is outside [1, 64]");
    def.worker_count = -3;
    expect_refused(def, "worker_count = -3");
}

Test(thread_errors, one_callback_without_the_other)
{
    cairn_world_def def = cairn_world_default_def();
    def.worker_count = 2;
    def.enqueue_task = enqueue_inline;
    expect_refused(def, "finish_task is missing");
    def.enqueue_task = NULL;
    def.finish_task = finish_nothing;
    expect_refused(def, "enqueue_task is missing");
}

Test(thread_errors, several_workers_without_callbacks)
{
    cairn_world_def def = cairn_world_default_def();
    def.worker_count = 4;
    expect_refused(def, "worker_count = 4 needs enqueue_task and finish_task");
}

Test(thread_errors, the_pool_refuses_a_bad_worker_count)
{
    cr_expect_null(cairn_thread_pool_create(0));
    cr_expect(strstr(cairn_thread_pool_last_error(), "workers = 0 is outside [1, 64]") != NULL,
              "%s", cairn_thread_pool_last_error());
    cr_expect_null(cairn_thread_pool_create(65));
    cr_expect(strstr(cairn_thread_pool_last_error(), "workers = 65") != NULL);
    cairn_thread_pool_destroy(NULL); /* allowed */
}

Test(thread_errors, a_pool_of_one_leaves_the_step_on_the_calling_thread)
{
    cairn_thread_pool *pool = cairn_thread_pool_create(1);
    cr_assert_not_null(pool);
    cr_expect_eq(cairn_thread_pool_workers(pool), 1);
    cairn_world_def def = cairn_world_default_def();
    cairn_thread_pool_bind(pool, &def);
    cr_expect_eq(def.worker_count, 1);
    cr_expect_null(def.enqueue_task);
    cr_expect(cairn_world_def_validate(&def), "%s", cairn_last_error());
    cairn_thread_pool_destroy(pool);
}

/* Snapshots keep settings, not threads: a world on four workers restores a snapshot of a world
   on one and keeps its four. */
Test(thread_errors, a_snapshot_keeps_the_restoring_worlds_threads)
{
    cairn_world_def one = cairn_world_default_def();
    cairn_world *saved = cairn_world_create(&one);
    size_t size = cairn_world_snapshot_size(saved);
    void *buffer = malloc(size);
    cr_assert(cairn_world_snapshot(saved, buffer, size), "%s", cairn_last_error());
    cairn_thread_pool *pool = cairn_thread_pool_create(4);
    cairn_world_def four = cairn_world_default_def();
    cairn_thread_pool_bind(pool, &four);
    cairn_world *restored = cairn_world_create(&four);
    cr_assert(cairn_world_restore(restored, buffer, size), "%s", cairn_last_error());
    cr_expect_eq(cairn_world_get_def(restored).worker_count, 4);
    cr_expect_not_null(cairn_world_get_def(restored).enqueue_task);
    cairn_world_destroy(restored);
    cairn_world_destroy(saved);
    cairn_thread_pool_destroy(pool);
    free(buffer);
}
