/* Timing and medians shared by the benchmarks (header only). The clock is POSIX: define
   _POSIX_C_SOURCE (199309L or later) before any system header in the file including this. */
#ifndef CAIRN_BENCH_UTIL_H
#define CAIRN_BENCH_UTIL_H

#if !defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 199309L
#error "bench_util.h needs _POSIX_C_SOURCE >= 199309L (clock_gettime) before any system header"
#endif

#include <stdlib.h>
#include <time.h>

/* Milliseconds and nanoseconds on the monotonic clock (arbitrary origin). */
static inline double bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

static inline double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Nanoseconds of CPU time of the calling thread: a benchmark sharing its cores with other work
   is not charged for the time it waits while preempted (cache disturbance still counts). */
static inline double bench_thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* qsort comparator for doubles, ascending. */
static inline int bench_compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..n) (sorted in place): the middle value, the mean of the two middle ones
   for even n; 0 when n <= 0. */
static inline double bench_median(double *v, int n)
{
    if (n <= 0)
        return 0.0;
    qsort(v, (size_t)n, sizeof *v, bench_compare_double);
    return (n & 1) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* v[n / 2] of v[0..n) sorted in place (n > 0): the median for odd n, the upper of the two middle
   values for even n. */
static inline double bench_median_upper(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_compare_double);
    return v[n / 2];
}

#endif
