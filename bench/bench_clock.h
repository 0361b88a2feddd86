/* bench_clock.h - what the CPU benchmarks share: a monotonic clock and the median of timed runs. */
#ifndef PW_BENCH_CLOCK_H
#define PW_BENCH_CLOCK_H

#include <stdlib.h>
#include <time.h>

static inline double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of t[0 .. runs-1] (sorts them). */
static inline double bench_median(double *t, int runs)
{
    qsort(t, (size_t)runs, sizeof t[0], bench_cmp_double);
    return t[(runs - 1) / 2];
}

#endif
