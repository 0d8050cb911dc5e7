/* A monotonic clock for profiling the step and for benchmarks. */
#ifndef CAIRN_CORE_TIMER_H
#define CAIRN_CORE_TIMER_H

#include <stdint.h>

/* Nanoseconds on a monotonic clock with an arbitrary origin; never goes backwards. */
uint64_t timer_ticks(void);
/* Milliseconds elapsed since `start` (a timer_ticks value); never negative. */
double timer_ms_since(uint64_t start);

#endif
