/* The monotonic timer: never goes backwards, and elapsed time grows over a busy loop. */
#include "core/timer.h"

#include <criterion/criterion.h>

Test(timer, ticks_never_decrease)
{
    uint64_t previous = timer_ticks();
    cr_assert_gt(previous, 0);
    for (int i = 0; i < 100000; i++) {
        uint64_t now = timer_ticks();
        cr_assert_geq(now, previous, "tick %d went backwards", i);
        previous = now;
    }
}

Test(timer, ms_since_is_non_negative_and_grows_over_a_busy_loop)
{
    uint64_t start = timer_ticks();
    double first = timer_ms_since(start);
    cr_assert_geq(first, 0.0);
    /* Spin until the clock has visibly advanced; no bound on how long that takes. */
    volatile uint64_t sink = 0;
    while (timer_ticks() == start)
        sink += 1;
    for (int i = 0; i < 100000; i++)
        sink += (uint64_t)i;
    (void)sink;
    double second = timer_ms_since(start);
    cr_assert_gt(second, 0.0);
    cr_assert_geq(second, first);
    cr_assert_geq(timer_ms_since(start), second);
}

Test(timer, ms_since_a_future_start_is_zero)
{
    cr_assert_eq(timer_ms_since(timer_ticks() + 1000000000000u), 0.0);
}
