/* bench_common.c - see bench_common.h. */
#include <stdlib.h>
#include <time.h>

#include "bench_common.h"

const bench_method bench_methods[] = {
    {"GS", PW_STRATEGY_GLOBAL_BARRIER, PW_TILE_SQUARE, 1}, {"GS+HT", PW_STRATEGY_GLOBAL_BARRIER, PW_TILE_HYPER, 1},
    {"PW", PW_STRATEGY_PEER, PW_TILE_SQUARE, 1},           {"PW+HT", PW_STRATEGY_PEER, PW_TILE_HYPER, 1},
    {"PW+FHT", PW_STRATEGY_PEER, PW_TILE_HYPER, 0},        {"LAUNCH", PW_STRATEGY_LAUNCH, PW_TILE_HYPER, 1},
};
const int bench_n_methods = (int)(sizeof bench_methods / sizeof bench_methods[0]);

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

pw_status bench_measure(bench_fn fn, const pw_options *o, int runs, pw_run_info *info, double *check, double *kernel,
                        double *wall)
{
    double t[64], w[64];
    pw_status st = PW_OK;
    if (runs < 1) runs = 1;
    if (runs > 64) runs = 64;
    for (int r = 0; r <= runs && st == PW_OK; r++) {
        const double start = bench_now();
        st = fn(o, info, check);
        if (r > 0) t[r - 1] = info->seconds, w[r - 1] = bench_now() - start;
    }
    if (st != PW_OK) return st;
    qsort(t, (size_t)runs, sizeof t[0], cmp_double);
    qsort(w, (size_t)runs, sizeof w[0], cmp_double);
    *kernel = t[runs / 2];
    if (wall) *wall = w[runs / 2];
    return PW_OK;
}
