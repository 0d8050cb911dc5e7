/* timer_ticks / timer_ms_since on POSIX CLOCK_MONOTONIC. */
/* -std=c17 hides clock_gettime unless POSIX is asked for explicitly. */
#define _POSIX_C_SOURCE 199309L

#include "core/timer.h"

#include <time.h>

uint64_t timer_ticks(void)
{
    struct timespec now;
    /* CLOCK_MONOTONIC cannot fail on Linux; should it ever, 0 beats an uninitialised read. */
    if (clock_gettime(CLOCK_MONOTONIC, &now) != 0)
        return 0;
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

double timer_ms_since(uint64_t start)
{
    uint64_t now = timer_ticks();
    return now > start ? (double)(now - start) * 1e-6 : 0.0;
}
